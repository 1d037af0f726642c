"""Boolean masks and index arrays made from shapes alone (`x[~jnp.eye(n, dtype=bool)]`,
`jnp.where(mask)`): Python computes them before selecting, so the selection has a size
known while tracing; converted code computes them while tracing too (`ag.static`, see
autograph.passes.static_values). Converted vs plain Python, under jit, vmap and grad."""
import importlib.util

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, converted, staged


def off_diagonal(x):
    n = x.shape[0]
    return x[~jnp.eye(n, dtype=bool)].reshape(n, n - 1)


def named_mask_and_where(x, v):
    rows, _ = x.shape
    masks = ~jnp.eye(rows, dtype=bool)
    no_diagonals = x[masks].reshape(-1, rows - 1)
    _i, cols = jnp.where(masks)
    ind = cols.reshape(-1, rows - 1)
    return jnp.sum(no_diagonals * jnp.take(v, ind), axis=1)


def every_other(x):
    even = jnp.arange(len(x)) % 2 == 0
    picked = x[even]
    where = jnp.nonzero(even)[0]
    return picked * where, jnp.argwhere(~even)[:, 0]


def in_a_staged_loop(x, steps):
    acc = jnp.zeros(x.shape[0] * (x.shape[0] - 1))
    for _ in range(steps):
        upper = jnp.triu(jnp.ones(x.shape, dtype=bool), k=1)
        lower = jnp.tril(jnp.ones(x.shape, dtype=bool), k=-1)
        acc = acc + jnp.concatenate([x[upper], x[lower]])
        x = x * 0.5
    return acc


def half_spectrum(x):
    """A slice whose bounds a NumPy function of the length computes."""
    return x[:int(np.ceil(len(x) / 2))], x[int(np.floor(len(x) / 3)):, ::int(np.sqrt(4))]


X = jnp.arange(16.0).reshape(4, 4) - 5.0


@pytest.mark.parametrize('fn, args', [
    (off_diagonal, (X,)),
    (named_mask_and_where, (X, jnp.array([1.0, -2.0, 0.5, 3.0]))),
    (every_other, (jnp.array([3.0, -1.0, 4.0, 1.0, -5.0]),)),
    (half_spectrum, (jnp.arange(35.0).reshape(5, 7),)),
])
def test_against_python(fn, args):
    expected = fn(*args)
    conv = autograph.convert(fn)
    assert_same(conv(*args), expected)
    other = jax.tree_util.tree_map(lambda a: a * 2 - 1, args)
    assert_same(conv(*other), fn(*other))   # the trace again, other values


def test_in_a_staged_loop():
    steps = jnp.int32(3)
    assert 'while' in staged(in_a_staged_loop, X, steps)
    assert_same(autograph.convert(in_a_staged_loop)(X, steps), in_a_staged_loop(X, 3))


def test_under_vmap_and_grad():
    xs = jnp.stack([X, X.T, -X])
    assert_same(jax.jit(jax.vmap(converted(off_diagonal)))(xs),
                jnp.stack([off_diagonal(x) for x in xs]))
    loss = lambda x: jnp.sum(off_diagonal(x) ** 2)
    assert_same(jax.jit(jax.grad(converted(loss)))(X), jax.grad(loss)(X))


def test_masks_of_traced_values_stay_masked_reductions():
    def f(x):
        return x[x > 0].sum() + x[~jnp.eye(x.shape[0], dtype=bool)].max()
    assert_same(autograph.convert(f)(X), f(X))
    assert 'ag.static' not in autograph.to_code(f).split('+')[0]


def test_only_values_that_decide_a_shape_are_computed_while_tracing():
    code = autograph.to_code(named_mask_and_where)
    assert 'masks = ag.static(lambda: ~jnp.eye(rows, dtype=bool))' in code
    assert '_i, cols = ag.static(lambda: jnp.where(masks))' in code
    assert code.count('ag.static') == 2   # (not `jnp.sum(...)`, not `cols.reshape`)
    code = autograph.to_code(in_a_staged_loop)
    assert 'acc = jnp.zeros' in code and code.count('ag.static') == 2


AG_MODULE = """
import autograph as ag


def head(x, h):
    return h[:len(x)]
"""


def test_a_module_that_calls_autograph_ag_keeps_its_lengths_as_written(tmp_path):
    """(`ag.len` in generated code is the runtime's, not a library call of the module's
    `ag`: no computation while tracing is wrapped around it)"""
    path = tmp_path / 'ag_module.py'
    path.write_text(AG_MODULE)
    spec = importlib.util.spec_from_file_location('ag_module', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    x, h = jnp.ones(3), jnp.arange(5.0)
    assert_same(autograph.convert(module.head)(x, h), module.head(x, h))
    assert 'static' not in autograph.to_code(module.head)
