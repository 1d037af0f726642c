"""Parameters rebound to one another's arrays through temporaries (`t = a; a = b; b =
t`), then changed in place (`b += 1.0`): NumPy changes the array the name holds, the
caller's first argument there. The converted code does not follow which array each name
holds then (analysis.parameter_copies): a named error where the arrays are traced NumPy
arrays (silent before: the caller's arrays kept their items). With JAX arrays `+=`
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
    (rebound_back, ()),
    (double_buffer_of_parameters, (3,)),
    (on_some_paths, (1.0,)),
]


def _arrays():
    return np.ones(2, np.float32), np.arange(2, dtype=np.float32)


@pytest.mark.parametrize('fn, extra', SILENT_BEFORE, ids=lambda v: getattr(v, '__name__', ''))
def test_numpy_arguments_are_a_named_error(fn, extra):
    a, b = _arrays()
    with pytest.raises(autograph.ControlFlowError, match='is changed in place here, and it '
                                                        'may hold a NumPy array'):
        autograph.convert(fn)(a, b, *extra)
    np.testing.assert_array_equal(a, _arrays()[0])   # (the error comes before any change)


def test_the_error_names_the_variable_and_the_line():
    a, b = _arrays()
    with pytest.raises(autograph.ControlFlowError) as caught:
        autograph.convert(exchanged_by_a_temporary)(a, b)
    message = str(caught.value)
    assert "'b' at " in message and '`b += 1.0`' in message
    assert 'b = b.copy()' in message


def test_a_traced_loop_count_is_a_named_error_too():
    a, b = _arrays()
    with pytest.raises(autograph.ControlFlowError, match="'a' .* is changed in place"):
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


ROTATION = pytest.mark.xfail(
    strict=True, raises=autograph.ConversionError,
    reason="open: the function's own arrays exchanged through a temporary are followed as "
           "views (analysis.views), which cannot follow the rotation: a named error on a "
           "valid program (`prev, cur = cur, prev` works)")


@pytest.mark.parametrize('fn, extra', [(one_alias, ()), (alias_read_after, ()),
                                       (alias_on_a_branch, ()), (copy_of_a_rebound_parameter, ()),
                                       pytest.param(own_double_buffer, (3,), marks=ROTATION)],
                         ids=lambda v: getattr(v, '__name__', ''))
def test_followed_aliases_and_own_arrays_keep_numpys_meaning(fn, extra):
    if fn is own_double_buffer:
        agree(fn, _arrays()[1], *extra)
    else:
        agree(fn, *_arrays(), *extra)


def test_the_check_is_generated_only_where_nothing_follows_the_alias():
    for fn in (one_alias, alias_read_after, alias_on_a_branch,
               copy_of_a_rebound_parameter):
        assert 'check_unfollowed' not in autograph.to_code(fn)
    code = autograph.to_code(exchanged_by_a_temporary)
    assert "ag.check_unfollowed(b, 'b')\n    b += 1.0" in code
