"""A helper that changes its array argument by `x += e` only: a NumPy array is changed
in place (the caller sees it), a JAX array's `x += e` rebinds the helper's own name (the
caller's is as it was). Where the caller's variable is made by NumPy's arithmetic of its
arguments (`b = a + 0.0`) or by `jnp.*`, its kind is known from the code, so the call
has Python's meaning for both kinds (before, a call given NumPy arrays named it an
array of unknown kind).

Ground truth: the same function run unconverted on the same inputs; for JAX inputs,
plain Python on JAX arrays (whose `x += e` rebinds)."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.test_tests_that_change_arrays import clip_first


def bump(x):
    x += 1.0


def copy_then_bump(a):
    b = a + 0.0
    bump(b)
    return b


def scaled_then_bump_in_a_loop(a, n):
    b = a * 2.0
    for _ in range(n):
        bump(b)
    return b - a


def jax_local_then_bump(a):
    b = jnp.asarray(a) * 1.0
    bump(b)
    return b


@pytest.mark.parametrize('fn, args', [
    (copy_then_bump, ()), (scaled_then_bump_in_a_loop, (3,)), (jax_local_then_bump, ())])
@pytest.mark.parametrize('kind', ['numpy', 'jax'])
def test_helper_update_as_python(fn, args, kind):
    a = np.arange(3, dtype=np.float32)
    given = (lambda: a.copy()) if kind == 'numpy' else (lambda: jnp.asarray(a))
    plain = fn(given(), *args)
    converted = autograph.convert(fn)
    for _ in range(2):
        np.testing.assert_array_equal(np.asarray(converted(given(), *args)), plain)


def test_numpy_meaning_really_differs():
    a = np.arange(3, dtype=np.float32)
    assert not np.array_equal(copy_then_bump(a.copy()), copy_then_bump(jnp.asarray(a)))


def test_under_a_callers_jit_and_grad_jax_meaning():
    a = jnp.arange(3.0)
    converted = autograph.convert(copy_then_bump)
    np.testing.assert_array_equal(jax.jit(converted)(a), copy_then_bump(a))
    np.testing.assert_array_equal(jax.grad(lambda v: converted(v).sum())(a),
                                  jax.grad(lambda v: copy_then_bump(v).sum())(a))


def test_generated_code_gives_the_kind():
    assert 'ag.call_writing({0: b_is_numpy}, bump, b)' in autograph.to_code(copy_then_bump)
    assert 'ag.call_writing({0: False}, bump, b)' in autograph.to_code(jax_local_then_bump)


def rows_swapped_then_helper(x, v):
    w = v * 1.0
    m = w.reshape(2, 2) * 1.0        # (of `w`'s kind: a helper's writes keep it)
    m[0], m[1] = m[1], m[0]          # (NumPy's rows are views: both end as row 1)
    clipped = clip_first(w, x)
    return m, w, clipped


@pytest.mark.parametrize('kind', ['numpy', 'jax'])
def test_a_helper_writing_a_variable_keeps_its_kind(kind):
    # (A named error before, idiom fuzzer seed 96590: the helper's call, `r, w =
    # ag.call_writing(...)`, counted as a binding of `w` of unknown kind, and so `m`.)
    v = np.arange(4, dtype=np.float32)
    given = (lambda: v.copy()) if kind == 'numpy' else (lambda: jnp.asarray(v))
    for x in (0.5, -1.0):
        expected = rows_swapped_then_helper(x, given()) if kind == 'numpy' else None
        got = autograph.convert(rows_swapped_then_helper)(x, given())
        if expected is not None:
            for e, g in zip(expected, got):
                np.testing.assert_array_equal(np.asarray(g), e)
        else:   # (a JAX array's rows are copies: swapped as values)
            np.testing.assert_array_equal(np.asarray(got[0]), v.reshape(2, 2)[::-1])


def fill_row(x, out):
    for k in range(x.shape[0]):
        out[k] = x[k] * 2.0


def rows_filled(X):
    Y = np.zeros_like(X)          # (NumPy's function of a NumPy argument: a NumPy array)
    fill_row(X[0], Y[1])
    Z = np.empty_like(X)
    Z[...] = 0.0
    fill_row(X[2], Z[0])
    return Y, Z


def test_an_array_numpy_makes_of_a_numpy_argument_is_numpys():
    """`Y = np.zeros_like(X)` of a NumPy `X`, traced: NumPy's function gives a NumPy
    array, whose row view a helper fills (a named "kind cannot tell" error before)."""
    X = np.arange(12, dtype=np.float32).reshape(3, 4)
    expected = rows_filled(X.copy())
    got = autograph.convert(rows_filled)(X.copy())
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e)
