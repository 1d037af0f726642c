"""Views of a global's or closure variable's array: `row = W[0]; row += x` changes the
global NumPy array `W` in place, as NumPy does (the view writes through); a JAX array's
`W[0]` is a copy, and `W` stays as it was. Written under a caller's `jax.jit`, a NumPy
global would need the traced value as numbers: a ControlFlowError naming it (plain
Python fails there too, with JAX's TracerArrayConversionError), and the global keeps
its numbers.

Ground truth: the same function run unconverted, from the same starting state."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph import ControlFlowError

W = np.zeros((3, 3), np.float32)
J = jnp.zeros((3, 3))


def numpy_row(x):
    row = W[0]
    row += x
    return W.sum() + row.sum()


def numpy_column_in_a_loop(x):
    for i in range(3):
        col = W[:, i]
        col *= 0.5
        col += x * i
    return W[1, 2]


def jax_row(x):
    row = J[0]
    row += x
    return J.sum() + row.sum()


def closure_row():
    U = np.ones((2, 2), np.float32)

    def inner(x):
        r = U[1]
        r *= 0.0
        r += x
        return U.sum()
    return inner, U


@pytest.mark.parametrize('fn', [numpy_row, numpy_column_in_a_loop])
def test_numpy_global_written_through_its_view(fn):
    W[:] = np.arange(9, dtype=np.float32).reshape(3, 3)
    plain = [fn(1.5), fn(2.0)]
    after_plain = W.copy()
    W[:] = np.arange(9, dtype=np.float32).reshape(3, 3)
    converted = autograph.convert(fn)
    staged = [converted(np.float32(1.5)), converted(np.float32(2.0))]
    np.testing.assert_allclose(np.asarray(staged), plain, rtol=1e-6)
    np.testing.assert_allclose(W, after_plain, rtol=1e-6)
    assert type(W) is np.ndarray


def test_jax_global_view_is_a_copy():
    plain = jax_row(2.0)
    assert plain == 6.0   # (the copy's sum; J stays zeros)
    assert float(autograph.convert(jax_row)(2.0)) == plain
    assert float(jnp.sum(J)) == 0.0


def test_closure_variable_written_through_its_view():
    inner, U = closure_row()
    plain = inner(3.0)
    expected = U.copy()
    inner, U = closure_row()
    assert float(autograph.convert(inner)(np.float32(3.0))) == plain
    np.testing.assert_array_equal(U, expected)


def test_under_a_callers_jit_a_named_error_and_the_numbers_kept():
    W[:] = 1.0
    with pytest.raises(ControlFlowError, match="'W'.*NumPy array is written with a traced"):
        jax.jit(autograph.convert(numpy_row))(1.0)
    assert type(W) is np.ndarray
    np.testing.assert_array_equal(W, np.ones((3, 3)))
