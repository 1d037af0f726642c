"""Checks shared by the SciPy-optimizer peer tests: the same call run as plain Python and
converted (with its own jit, under the caller's `jax.jit`, under `jax.vmap`), compared leaf
by leaf. Ground truth is always the plain Python run; nothing here hard-codes a result."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph

f32 = jnp.float32


def assert_same(actual, expected, atol=1e-6):
    """Pytrees equal leaf by leaf: numbers and arrays close, strings (a solver's method
    name) and None equal."""
    a_leaves, a_tree = jax.tree_util.tree_flatten(actual)
    e_leaves, e_tree = jax.tree_util.tree_flatten(expected)
    assert a_tree == e_tree, f'structure {a_tree} != {e_tree}'
    for a, e in zip(a_leaves, e_leaves):
        if isinstance(e, str):
            assert a == e, f'{a!r} != {e!r}'
        else:
            np.testing.assert_allclose(np.asarray(a), np.asarray(e), rtol=1e-5, atol=atol)


def converted(fn):
    """The converted `fn` without its own jit, for the caller's jax.jit/vmap/grad."""
    return autograph.convert(fn, jit=False)


def numeric(tree):
    """`tree` with its string leaves dropped: what `jax.jit` and `jax.vmap` can return."""
    return jax.tree_util.tree_map(lambda leaf: None if isinstance(leaf, str) else leaf, tree)


def agree(call, *args, atol=1e-6):
    """`call(*args)` plain, converted with its own jit, and converted under `jax.jit` (when
    every argument is an array) give the same pytree. Returns the plain result. `atol`
    allows for XLA's fused arithmetic in compiled code (results near zero)."""
    expected = call(*args)
    assert_same(autograph.convert(call)(*args), expected, atol)
    if all(isinstance(a, jax.Array) for a in args):
        assert_same(jax.jit(lambda *a: numeric(converted(call)(*a)))(*args), numeric(expected),
                    atol)
    return expected


def agree_converted(call, *args, atol=1e-6):
    """`agree` with the converted function's own jit only."""
    expected = call(*args)
    assert_same(autograph.convert(call)(*args), expected, atol)
    return expected


def agree_optional(call, *args):
    """For a `call` that returns None on some paths decided by a traced condition (SciPy's
    line searches): converted with its own jit it gives the plain result, None included;
    under the caller's `jax.jit` it raises the project's named error, since a compiled
    program cannot give its caller None or a value."""
    expected = call(*args)
    assert_same(autograph.convert(call)(*args), expected)
    with pytest.raises(autograph.ControlFlowError, match=r'returns None\b.* on some paths'):
        jax.jit(converted(call))(*args)
    return expected


def agree_batched(call, batch, atol=1e-6):
    """`jax.vmap` of the converted `call` over the leading axis of `batch` gives, per
    element, what the plain call gives on that element."""
    expected = [numeric(call(item)) for item in batch]
    stacked = jax.tree_util.tree_map(lambda *leaves: jnp.stack(
        [jnp.asarray(leaf) for leaf in leaves]), *expected)
    assert_same(jax.vmap(lambda x: numeric(converted(call)(x)))(batch), stacked, atol)


def agree_grad(call, *args):
    """`jax.grad` of the converted `call` equals `jax.grad` of the plain call, which JAX can
    take eagerly through Python control flow (its conditions see concrete values)."""
    expected = jax.grad(call)(*args)
    assert_same(jax.grad(converted(call))(*args), expected)
    assert_same(jax.jit(jax.grad(converted(call)))(*args), expected)
    return expected


def same_state(actual, expected, names):
    """The attributes `names` of two objects hold equal values (None where None)."""
    for name in names:
        a, e = getattr(actual, name), getattr(expected, name)
        if e is None or a is None:
            assert a is e, f'{name}: {a!r} != {e!r}'
        else:
            assert not isinstance(a, jax.core.Tracer), f'{name} holds a tracer'
            np.testing.assert_allclose(np.asarray(a), np.asarray(e), rtol=1e-5, atol=1e-6,
                                       err_msg=name)
