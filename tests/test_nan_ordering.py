"""`max`, `min` and `sorted` of traced numbers with a NaN among them, as Python orders
them (runtime.python.ordering): a NaN first stays `max`'s/`min`'s result, a NaN later is
skipped (NumPy's and JAX's reductions would give NaN); `sorted` of a list holding a NaN
has no order the compiled program can reproduce: a run-time error. Found porting a
Viterbi decoder (`max(enumerate(p), key=itemgetter(1))`) in corpus batch 4."""
import operator

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same

nan = float('nan')
CASES = [[1.0, nan, 0.5], [nan, 1.0, 2.0], [0.5, 2.0, nan], [nan, nan, 1.0], [3.0, 1.0, 2.0],
         [1.0, nan, nan], [2.0], [-1.0, -1.0, nan, -0.5]]


def largest(x):
    return max(x)


def smallest(x):
    return min(x)


def best_index(p):
    return max(enumerate(p), key=operator.itemgetter(1))


def least_index(p):
    return min(enumerate(p), key=operator.itemgetter(1))


def scaled_max(x):
    return max(x * 2.0) + 1.0


def same(got, expected):
    for g, e in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(expected)):
        np.testing.assert_array_equal(np.asarray(g, dtype=np.float64),
                                      np.asarray(e, dtype=np.float64))


@pytest.mark.parametrize('fn', [largest, smallest, best_index, least_index, scaled_max])
@pytest.mark.parametrize('values', CASES)
def test_nan_is_skipped_unless_first(fn, values):
    x = np.array(values, dtype=np.float32)
    expected = fn(x)   # Python on NumPy's items (and on Python floats: the same)
    if fn is not scaled_max:
        same(fn(list(map(float, values))), expected)
    converted = autograph.convert(fn)
    for _ in range(2):
        same(converted(jnp.asarray(x)), expected)
    same(jax.jit(converted)(jnp.asarray(x)), expected)


def test_under_vmap_each_row_as_python():
    rows = np.array([[1.0, nan, 0.5], [nan, 1.0, 2.0], [0.5, 2.0, nan]], dtype=np.float32)
    got = jax.vmap(autograph.convert(largest))(jnp.asarray(rows))
    same(got, np.array([largest(r) for r in rows]))


def test_gradient_goes_to_the_item_python_returns():
    x = jnp.array([1.0, 3.0, 2.0])
    assert_same(jax.grad(autograph.convert(largest))(x), jnp.array([0.0, 1.0, 0.0]))
    assert_same(jax.grad(autograph.convert(smallest))(x), jnp.array([1.0, 0.0, 0.0]))


def test_integers_and_rows_of_one_number():
    ints = jnp.array([3, 7, 7, 1])
    assert int(autograph.convert(largest)(ints)) == largest(np.asarray(ints))
    column = np.array([[1.0], [nan], [4.0]], dtype=np.float32)
    same(autograph.convert(largest)(jnp.asarray(column)), largest(column))


def test_rows_of_several_numbers_are_pythons_truth_error():
    rows = np.ones((3, 2), dtype=np.float32)
    with pytest.raises(ValueError, match='truth value'):
        largest(rows)
    with pytest.raises(ValueError):
        autograph.convert(largest)(jnp.asarray(rows))


def ordered(x):
    return sorted([x[0], x[1], x[2]])


def test_sorted_with_a_nan_is_a_run_time_error():
    good = np.array([2.0, 0.5, 1.0], dtype=np.float32)
    same(autograph.convert(ordered)(jnp.asarray(good)), ordered(good))
    with pytest.raises(autograph.ControlFlowError, match=r'sorted\(\) at .*NaN'):
        autograph.convert(ordered)(jnp.asarray([2.0, nan, 0.5]))
