"""NumPy's in-place methods and functions called on an item or a slice of an array
(`M[i].sort()`, `x[1:].sort()`, `M[i].fill(0)`, `np.copyto(M[0], v)`): the view is
changed and its base sees it (passes.in_place_calls writes the view back by an item
assignment). The converted code sorted a copy (a silent wrong value) or raised a raw
AttributeError/TypeError from a traced value."""
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def sort_rows(M):
    for i in range(M.shape[0]):
        M[i].sort()
    return M


def sort_tail(x):
    x[1:].sort()
    return x


def clear_row(M, k):
    M[k].fill(0.0)
    return M


def copy_into_row(M, v):
    np.copyto(M[0], v)
    return M


def sort_rows_of_copy(M):
    P = M * 1.0
    for i in range(P.shape[0]):
        P[i, 1:].sort()
    return P


ROWS = np.array([[3.0, 1.0, 2.0], [9.0, 7.0, 8.0]], np.float32)
CASES = [(sort_rows, (ROWS,)), (sort_tail, (np.array([5.0, 3.0, 1.0, 2.0], np.float32),)),
         (clear_row, (ROWS, 1)), (copy_into_row, (ROWS, np.array([5.0, 5.0, 5.0], np.float32))),
         (sort_rows_of_copy, (ROWS,))]


def _copies(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


@pytest.mark.parametrize('fn, args', CASES, ids=[fn.__name__ for fn, _ in CASES])
@pytest.mark.parametrize('jit', [True, False])
def test_numpy_arrays_changed_through_items(fn, args, jit):
    expected_args = _copies(args)
    expected = fn(*expected_args)
    given = _copies(args)
    assert_same(autograph.convert(fn, jit=jit)(*given), expected)
    assert_same(given[0], expected_args[0])   # (the caller's array, written in place)


@pytest.mark.parametrize('fn, args', CASES[:3], ids=[fn.__name__ for fn, _ in CASES[:3]])
def test_jax_arrays_as_python_gives_them(fn, args):
    given = [jnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    if fn is clear_row:   # (a JAX array has no `fill`: Python's AttributeError)
        with pytest.raises(AttributeError):
            fn(*given)
        return
    assert_same(autograph.convert(fn)(*given), fn(*given))   # (JAX's sort: a copy)
