"""Dtypes of staged results: those plain JAX gives for the same operations.

Python numbers that start a loop or branch variable are weakly typed, as in JAX: the
staged loop or branch takes the dtype of the array computation. The reference is the
same function run unconverted under `jax.disable_jit()` on the same JAX arrays (dtype
and weak_type). `make test` runs this file again with JAX_ENABLE_X64=1 (marker x64).
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.runtime.errors import ControlFlowError

pytestmark = pytest.mark.x64

X64 = jax.config.jax_enable_x64
FLOATS = [jnp.float32] + ([jnp.float64] if X64 else [])
INTS = [jnp.int32] + ([jnp.int64] if X64 else [])
COMPLEX = [jnp.complex64] + ([jnp.complex128] if X64 else [])


def _type(value):
    t = jax.typeof(jnp.asarray(value))
    return t.dtype, t.weak_type


def check_types(fn, *args):
    """Converted (staged, under jit) vs plain JAX: values, dtypes and weak types."""
    with jax.disable_jit():
        expected = fn(*args)
    actual = autograph.convert(fn)(*args)
    e_leaves, a_leaves = jax.tree_util.tree_leaves(expected), jax.tree_util.tree_leaves(actual)
    assert len(e_leaves) == len(a_leaves)
    for a, e in zip(a_leaves, e_leaves):
        assert _type(a) == _type(e), f'{_type(a)} != plain JAX {_type(e)}'
        np.testing.assert_allclose(np.asarray(a), np.asarray(e), rtol=1e-6)


def halve(x):
    r = 0.0
    while x > 1:
        r = x * 0.5
        x = x / 2
    return r


def count_halvings(x):
    n = 0
    while x > 1:
        n += 1
        x = x / 2
    return n, x


def accumulate(x, n):
    acc = 0
    for i in range(n):
        acc = acc + i * x
    return acc


def total(xs):
    t = 0
    for v in xs:
        t = t + v
    return t


def any_above(xs):
    found = False
    for v in xs:
        if v > 2:
            found = True
    return found


def half_steps(x):
    acc = 0
    while x > 1:
        acc = acc + 0.5
        x = x // 2
    return acc


def grow_with_break(x):
    for i in range(10):
        if x > 20:
            break
        x = x * 2 + i
    return x


def tiny_or_scaled(v):
    if v > 0:
        d = 2.0 * v
    else:
        d = 2e-21
    return d


def mandel(c):
    z = 0j
    k = 0
    while abs(z) < 2 and k < 10:
        z = z * z + c
        k += 1
    return z, k


@pytest.mark.parametrize('dtype', FLOATS)
def test_while_loops_take_the_arrays_dtype(dtype):
    check_types(halve, jnp.asarray(8, dtype))
    check_types(count_halvings, jnp.asarray(8, dtype))


@pytest.mark.parametrize('dtype', FLOATS + INTS)
def test_range_with_break_takes_the_arrays_dtype(dtype):
    check_types(grow_with_break, jnp.asarray(3, dtype))


@pytest.mark.parametrize('dtype', INTS)
def test_python_number_accumulators(dtype):
    check_types(half_steps, jnp.asarray(9, dtype))


@pytest.mark.parametrize('dtype', FLOATS + INTS)
@pytest.mark.parametrize('bound', INTS)
def test_for_over_a_traced_range(dtype, bound):
    check_types(accumulate, jnp.asarray(3, dtype), jnp.asarray(4, bound))


@pytest.mark.parametrize('dtype', FLOATS + INTS + COMPLEX + [jnp.bool_])
def test_for_over_an_array(dtype):
    xs = jnp.asarray([1, 3, 0, 2], dtype)
    check_types(total, xs)
    if dtype not in COMPLEX:
        check_types(any_above, xs)


@pytest.mark.parametrize('dtype', FLOATS)
def test_literal_in_one_branch_array_in_the_other(dtype):
    check_types(tiny_or_scaled, jnp.asarray(3, dtype))
    # The literal's branch: the staged `if` gives it the array branch's dtype.
    value = autograph.convert(tiny_or_scaled)(jnp.asarray(-3, dtype))
    assert value.dtype == dtype and float(value) == pytest.approx(2e-21)


@pytest.mark.parametrize('dtype', COMPLEX)
def test_complex_loop_state(dtype):
    check_types(mandel, jnp.asarray(0.3 + 0.2j, dtype))


def pick(x):
    y = 1 if x > 0 else x
    return y


@pytest.mark.parametrize('dtype', FLOATS + INTS)
def test_conditional_expression_with_a_literal(dtype):
    check_types(pick, jnp.asarray(0, dtype))


def test_bool_joined_with_a_python_int_is_a_weak_int_as_in_jnp_where():
    x = jnp.asarray(False)
    assert _type(autograph.convert(pick)(x)) == _type(jnp.where(x, 1, x))


def test_python_inputs_stay_python():
    assert halve(8.0) == autograph.convert(halve, jit=False)(8.0)
    assert type(autograph.convert(count_halvings, jit=False)(8)[0]) is int


def test_two_strong_dtypes_are_an_error_naming_both_and_the_fix():
    def f(x, n):
        r = jnp.zeros((), jnp.int32)
        while x > 1:
            r = x * 0.5
            x = x / 2
        return r
    with pytest.raises(ControlFlowError) as info:
        autograph.convert(f)(jnp.float32(8), 0)
    message = str(info.value)
    assert "'r'" in message and 'int32' in message and 'float32' in message
    assert 'initialise' in message and 'test_dtypes.py' in message


def test_branches_with_two_strong_dtypes_are_an_error():
    def f(x):
        if x > 0:
            y = x.astype(jnp.int32)
        else:
            y = x
        return y
    with pytest.raises(ControlFlowError, match="'y' is int32.* float32"):
        autograph.convert(f)(jnp.float32(1))


def indices(x, n):
    a = 0
    for i in autograph.range(4):
        a = a + i
    b = 0
    for k, v in enumerate(x):
        b = b + k
    c = 0
    for i in range(n):
        c = c + i
    return a, b, c


@pytest.mark.parametrize('bound', INTS)
def test_loop_indices_are_python_ints(bound):
    with jax.disable_jit():
        expected = indices(jnp.ones(3), jnp.asarray(3, bound))
    actual = autograph.convert(indices)(jnp.ones(3), jnp.asarray(3, bound))
    for a, e in zip(actual, expected):
        assert _type(a) == _type(e)
        assert int(a) == int(e)


def test_a_container_with_mismatched_leaves_names_the_leaf_types():
    def f(x):
        pair = (x, jnp.zeros((), jnp.int32))
        if x > 0:
            pair = (x, x)
        return pair
    with pytest.raises(ControlFlowError, match=r"'pair\[1\]' is float32\[\] in the true "
                                               r"branch but int32\[\]"):
        autograph.convert(f)(jnp.float32(1))

    def g(x):
        pair = (x, jnp.zeros((), jnp.int32))
        while x > 1:
            pair = (x, x)
            x = x / 2
        return pair
    with pytest.raises(ControlFlowError, match=r"'pair\[1\]' is int32\[\] before the "
                                               r"staged loop .* but float32\[\] after"):
        autograph.convert(g)(jnp.float32(8))


def every_exit(xs, n):
    out = []
    total = 0
    for v in xs:
        out.append(v * 2)
        if v < 0 or not v < 100:
            continue
        total = total + v
    k = 0
    while k < n:
        assert total >= 0, 'negative'
        k += 1
        if total > 5 and k > 1:
            return jnp.stack(out), total, k
    return jnp.stack(out), total * 2, k


@pytest.mark.parametrize('dtype', FLOATS + INTS)
def test_continue_return_assert_append_and_or_not(dtype):
    xs = jnp.asarray([1, -2, 3, 200, 4], dtype)
    for n in (1, 5):
        check_types(every_exit, xs, jnp.asarray(n, INTS[-1]))


@pytest.mark.parametrize('dtype', FLOATS)
def test_reverse_mode_through_a_while_keeps_the_dtype(dtype):
    def f(x):
        r = 0.0
        while x < 10:
            r = r + x * 0.5
            x = x * 1.5
        return r
    x = jnp.asarray(1.3, dtype)
    grad = jax.grad(autograph.convert(f))(x)
    assert grad.dtype == dtype
    eps = 1e-4
    np.testing.assert_allclose(grad, (f(1.3 + eps) - f(1.3 - eps)) / (2 * eps), rtol=1e-3)


def early_return(x, n):
    k = 1
    if x > 0:
        k = k + 1
        if k > n:
            return x, k
    k = (k + n) % 11
    return x, k


def test_a_return_in_one_branch_keeps_the_weak_type():
    # The path without the return is filled with zeros of the returned types: a weak
    # int must stay weak there, or it would no longer mix with the int32 `n` (under x64:
    # int64 vs int32), as found by the fuzzer.
    check_types(early_return, jnp.float32(1), jnp.int32(5))
    # Returning early, k is a Python int in plain JAX; staged, it takes the type both
    # paths share: int32, as JAX promotes a Python int with `n`.
    x, k = autograph.convert(early_return)(jnp.float32(1), jnp.int32(0))
    assert int(k) == early_return(1.0, 0)[1] and _type(k) == (jnp.dtype('int32'), False)
