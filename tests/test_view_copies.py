"""A binding that NumPy makes a view on some arrays and a copy on others (`k = n[i]`:
a row of a matrix, a copy of a vector's item) is rewritten as a view (passes.views);
where it is a copy when the program is traced, the write-back into the base gives the
base back as it was (`ag.write_view` with no key), and the loops see that: a loop does
not carry a value each iteration gives back unchanged (runtime.staging.carry), and a loop
whose iterations are independent stays vectorised (runtime.loops.vectorized). Where it
is a view, the writes reach the base, as in NumPy. Ground truth: plain Python on NumPy
arrays (fresh copies for each run)."""
import copy

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, equations
from tests.test_algorithms import insertion_sort


def decrement_rows(n, out):
    """`k` is a copy of an item of a vector `n`, a view of a row of a matrix `n`."""
    for i in range(out.shape[0]):
        k = n[i]
        k -= 1
        out[i] = (k * 2).sum()
    return n, out


def _loops(fn, *args, **options):
    jaxpr = jax.make_jaxpr(autograph.convert(fn, jit=False, **options))(*args)
    return [e for e in equations(jaxpr.jaxpr) if e.primitive.name in ('while', 'scan')]


def _numpy_loops(fn, *args):
    """The loops of the trace of `fn` converted, called with NumPy arrays `args`."""
    jaxpr = autograph.convert(fn).get_concrete_function(*args).jaxpr
    return [e for e in equations(jaxpr.jaxpr) if e.primitive.name in ('while', 'scan')]


def _same_as_python(fn, *args, given=jnp.asarray):
    """`fn` converted (twice, and eagerly) on `given(arg)` for each of `args`, and under
    `jax.jit` with JAX arrays, against plain Python on NumPy arrays: the meaning of JAX
    arrays where the views of the program are copies, NumPy's only where `given` makes
    NumPy arrays (a JAX array's `n[i]` is a copy)."""
    expected = fn(*copy.deepcopy(args))
    for convert in (autograph.convert(fn), autograph.convert(fn, jit=False)):
        for _ in range(2):
            assert_same(convert(*map(given, copy.deepcopy(args))), expected)
    if given is jnp.asarray:
        assert_same(jax.jit(autograph.convert(fn))(*map(jnp.asarray, args)), expected)
    return expected


def test_a_copy_leaves_the_loop_vectorised_and_the_vector_unchanged():
    n, out = np.arange(1, 6, dtype=np.int32), np.zeros(5, np.int32)
    _same_as_python(decrement_rows, n, out)
    assert _loops(decrement_rows, jnp.asarray(n), jnp.asarray(out)) == []


def test_a_view_writes_the_matrix_rows_loop_by_loop():
    n, out = np.arange(12, dtype=np.int32).reshape(4, 3), np.zeros(4, np.int32)
    expected = _same_as_python(decrement_rows, n, out, given=np.asarray)
    assert not np.array_equal(expected[0], n)   # (Python's rows did change)
    assert _numpy_loops(decrement_rows, n, out) != []


def test_a_jax_matrix_has_no_views_and_its_loop_stays_vectorised():
    """A JAX matrix's `n[i]` is a copy: `k -= 1` rebinds `k` only (JAX's meaning; the
    caller's rows stay as they were), and the iterations are independent."""
    n, out = np.arange(12, dtype=np.int32).reshape(4, 3), np.zeros(4, np.int32)
    got = autograph.convert(decrement_rows)(jnp.asarray(n), jnp.asarray(out))
    expected = decrement_rows(np.array(n), np.array(out))[1]   # (`out` has no views)
    assert_same(got, (n, expected))
    assert _loops(decrement_rows, jnp.asarray(n), jnp.asarray(out)) == []


@pytest.mark.parametrize('values', [[3.0, 1.0, 2.0, 0.5, 4.0], [1.0, 2.0], [2.0, 1.0]])
def test_insertion_sort_does_not_carry_the_key_it_never_changes(values):
    a = np.asarray(values, np.float32)
    _same_as_python(insertion_sort, a)
    (inner,) = [loop for loop in _loops(insertion_sort, jnp.asarray(a),
                                        loop_autodiff='forward')
                if loop.primitive.name == 'while']
    # the array and `j`: not `key`, a copy that the write-back gives back unchanged
    assert sorted((v.aval.shape, v.aval.dtype.name) for v in inner.outvars) == [
        ((), 'int32'), ((len(values),), 'float32')]


def test_grad_through_a_key_closed_over_by_the_inner_loop():
    x, weights = jnp.asarray([3.0, 1.0, 2.0, 0.5]), jnp.asarray([1.0, 10.0, 100.0, 1e3])
    grad = jax.grad(lambda v: jnp.sum(autograph.convert(insertion_sort)(v) * weights))(x)
    # sorted: [x3, x1, x2, x0]
    assert_same(grad, jnp.asarray([1e3, 10.0, 100.0, 1.0]))
