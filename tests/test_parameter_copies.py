"""Parameters rebound to one another's arrays through temporaries (`t = a; a = b; b =
t`), then changed in place (`b += 1.0`): NumPy changes the array the name holds, the
caller's first argument there. The converted code does not follow which array each name
holds then (analysis.parameter_copies): a named error where the arrays are traced NumPy
arrays (silent before: the caller's arrays kept their items). A rotation whose temporary
nothing else reads is an exchange `a, b = b, a` (passes.unpacked_aliases.join_rotations),
named as exchanges are; of the function's own arrays, it exchanges values. With JAX arrays `+=`
rebinds, and the converted code gives Python's values; where passes.views follows the
alias (`c = a` of a parameter that keeps its array), NumPy's values. Ground truth: the
same function run as plain Python."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import agree_with_numpy as agree, assert_same


def exchanged_by_a_temporary(a, b):
    t = a
    a = b
    b = t
    b += 1.0
    return a


def exchanged_keeping_the_temporary(a, b):
    t = a
    a = b
    b = t
    b += 1.0
    return a + t


def rebound_back(a, b):
    t = a
    a = b
    a = t
    a += 1.0
    return b


def double_buffer_of_parameters(a, b, n):
    for _ in range(n):
        a += 1.0
        t = a
        a = b
        b = t
    return a


def copy_of_a_rebound_parameter(a, b):
    x = a
    a = a * 2.0
    x += b
    return a


def on_some_paths(a, b, x):
    t = b
    if x > 0:
        t = a
    t *= 2.0
    return b


SILENT_BEFORE = [
    (exchanged_by_a_temporary, ()),
    (exchanged_keeping_the_temporary, ()),
    (rebound_back, ()),
    (double_buffer_of_parameters, (3,)),
    (on_some_paths, (1.0,)),
]


def _arrays():
    return np.ones(2, np.float32), np.arange(2, dtype=np.float32)


@pytest.mark.parametrize('fn, extra', SILENT_BEFORE, ids=lambda v: getattr(v, '__name__', ''))
def test_numpy_arguments_are_a_named_error(fn, extra):
    a, b = _arrays()
    with pytest.raises(autograph.ControlFlowError, match='may hold a NumPy array|change places'):
        autograph.convert(fn)(a, b, *extra)
    np.testing.assert_array_equal(a, _arrays()[0])   # (the error comes before any change)


def test_the_error_names_the_variable_and_the_line():
    a, b = _arrays()
    with pytest.raises(autograph.ControlFlowError) as caught:
        autograph.convert(exchanged_keeping_the_temporary)(a, b)
    message = str(caught.value)
    assert "'b' at " in message and '`b += 1.0`' in message
    assert 'b = b.copy()' in message


def test_a_traced_loop_count_is_a_named_error_too():
    a, b = _arrays()
    with pytest.raises(autograph.ControlFlowError, match='change places at .*`t = a`'):
        autograph.convert(double_buffer_of_parameters)(a, b, jnp.int32(3))


@pytest.mark.parametrize('fn, extra', SILENT_BEFORE, ids=lambda v: getattr(v, '__name__', ''))
def test_jax_arguments_give_pythons_values(fn, extra):
    a, b = (jnp.asarray(v) for v in _arrays())
    expected = fn(a, b, *extra)
    assert_same(autograph.convert(fn)(a, b, *extra), expected)
    assert_same(jax.jit(autograph.convert(fn))(a, b, *extra), expected)
    batched = jax.vmap(autograph.convert(fn), in_axes=(0, 0) + (None,) * len(extra))
    assert_same(batched(jnp.stack([a, a + 1]), jnp.stack([b, b]), *extra),
                jnp.stack([fn(a, b, *extra), fn(a + 1, b, *extra)]))


def test_gradients_through_a_temporary_exchange():
    def total(a, b):
        return jnp.sum(exchanged_by_a_temporary(a, b) * 2.0 + rebound_back(a, b))
    a, b = (jnp.asarray(v) for v in _arrays())
    expected = jax.grad(total, argnums=(0, 1))(a, b)
    converted = autograph.convert(total)
    assert_same(jax.grad(converted, argnums=(0, 1))(a, b), expected)


def one_alias(a, b):
    a = b
    a += 1.0
    return a


def alias_read_after(a, b):
    t = a
    a += 1.0
    return t


def alias_on_a_branch(a, b):
    if a[0] > 0:
        a = b
    a += 1.0
    return a


def own_double_buffer(x, n):
    prev = x * 1.0
    cur = x * 2.0
    for _ in range(n):
        prev += cur
        t = prev
        prev = cur
        cur = t
    return prev, cur


@pytest.mark.parametrize('fn, extra', [(one_alias, ()), (alias_read_after, ()),
                                       (alias_on_a_branch, ()), (copy_of_a_rebound_parameter, ()),
                                       (own_double_buffer, (3,))],
                         ids=lambda v: getattr(v, '__name__', ''))
def test_followed_aliases_and_own_arrays_keep_numpys_meaning(fn, extra):
    if fn is own_double_buffer:
        agree(fn, _arrays()[1], *extra)
    else:
        agree(fn, *_arrays(), *extra)


def test_the_check_is_generated_only_where_nothing_follows_the_alias():
    for fn in (one_alias, alias_read_after, alias_on_a_branch, own_double_buffer,
               copy_of_a_rebound_parameter, exchanged_by_a_temporary):
        assert 'check_unfollowed' not in autograph.to_code(fn)
    code = autograph.to_code(exchanged_keeping_the_temporary)
    assert "ag.check_unfollowed(b, 'b')\n    b += 1.0" in code


def test_a_rotation_through_an_unread_temporary_is_an_exchange():
    code = autograph.to_code(exchanged_by_a_temporary)
    assert 'ag.check_exchange(a, b)\n    a, b = (b, a)\n    b += 1.0' in code
    assert 't = a' not in code
    assert 't = a' in autograph.to_code(exchanged_keeping_the_temporary)


def jacobi_own_buffers(u0, n):
    u = u0 * 1.0
    unew = u0 * 1.0
    for _ in range(n):
        for i in range(1, 3):
            unew[i] = 0.5 * (u[i - 1] + u[i + 1])
        tmp = u
        u = unew
        unew = tmp
    return u, unew


@pytest.mark.parametrize('n', [0, 1, 3])
def test_a_jacobi_sweep_exchanging_its_own_buffers_through_a_temporary(n):
    """The function's own arrays, written by item and exchanged through `tmp` (an
    UnsupportedSyntax before: the three whole aliases were followed as views)."""
    u0 = np.arange(4.0, dtype=np.float32) ** 2
    agree(jacobi_own_buffers, u0, n)
    assert_same(autograph.convert(jacobi_own_buffers)(u0, jnp.int32(n)),
                jacobi_own_buffers(u0.copy(), n))
    assert_same(jax.jit(autograph.convert(jacobi_own_buffers), static_argnums=1)(
        jnp.asarray(u0), n), jacobi_own_buffers(u0.copy(), n))
