"""PennyLane's AutoGraph tests for item assignment and augmented item updates on arrays,
restated for plain JAX.

Upstream: PennyLaneAI/pennylane, tests/capture/autograph/test_autograph_item_assignment.py
and test_autograph_array_update.py at commit 4ac3a0fc72c26333c91f8f4c58f2dcd9e9a9a27c
(test_item_assignment.py, merged into the first in commit f3e570d11c). `x[i] = v` on a
JAX array means `x = x.at[i].set(v)`; the reference is the same function run as Python
on a NumPy copy (NumPy keeps the array's dtype: `x[0] /= 2` on ints truncates). PennyLane
rejects `x[0] %= 2`, `x[slice(1, 2)] += 2` and `x[0, 1] += 5` ("JAX arrays are
immutable"); here they give NumPy's values.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, converted, site, staged


def like_numpy(fn, *args):
    """`fn` converted (its array arguments traced) against `fn` run on NumPy copies."""
    expected = fn(*[np.array(a) if isinstance(a, jax.Array) else a for a in args])
    actual = autograph.convert(fn)(*args)
    assert_same(actual, expected)
    assert jnp.asarray(actual).dtype == np.asarray(expected).dtype
    return actual


def assign(x, index, new_value):
    x[index] = new_value
    return x


# --- plain item and slice assignment ----------------------------------------------------------

@pytest.mark.parametrize('index,new_value', [(0, 10), (-1, 20), (1, -4)])
def test_single_integer_index(index, new_value):
    # upstream: test_single_integer_indexing (a Python index, and the same index traced)
    x = jnp.array([1, 2, 3])
    like_numpy(lambda x: assign(x, index, new_value), x)
    like_numpy(assign, x, jnp.int32(index), jnp.int32(new_value))


@pytest.mark.parametrize('index,new_value', [
    (slice(0, 2), 10), (slice(1, None), 20), (slice(None), 5), (slice(0, None, 2), 9),
    (slice(None, None, -2), 7)])
def test_slice(index, new_value):
    # upstream: test_slicing (plus a negative step)
    x = jnp.array([1, 2, 3, 4, 5])
    like_numpy(lambda x: assign(x, index, new_value), x)


@pytest.mark.parametrize('x,index,new_value', [
    (jnp.array([1, 2, 3, 4]), slice(1, 3), jnp.array([99, 88])),
    (jnp.array([1, 2, 3, 4]), jnp.array([0, 3]), 7),
    (jnp.array([1, 5, 2, 6]), jnp.array([False, True, False, True]), 0),
    (jnp.array([[1, 2], [3, 4]]), 0, 9),
    (jnp.array([[1, 2], [3, 4]]), (1, 0), 9),
    (jnp.zeros((2, 2, 2)), (0, 1, 0), 5.0),
    (jnp.ones((3, 4)), (..., -1), 99.0),
    (jnp.ones((3, 4)), (slice(None), None, 1), 2.0),
    (jnp.array([1 + 1j, 2 + 2j]), 0, 3 - 3j),
    (jnp.array([1, 2, 3]), 0, 2.7),
], ids=['slice-values', 'index-array', 'mask', 'row', 'tuple', '3d', 'ellipsis',
        'newaxis', 'complex', 'float-into-int'])
def test_non_trivial_index(x, index, new_value):
    # upstream: test_non_trivial_indexing (plus a newaxis index and a float stored into
    # an int array, which NumPy truncates)
    like_numpy(lambda x, v: assign(x, index, v), x, new_value)


def test_traced_mask_and_index_array():
    # the boolean mask and the index array of test_non_trivial_indexing passed traced
    x = jnp.array([1, 5, 2, 6])
    like_numpy(assign, x, jnp.array([False, True, False, True]), 0)
    like_numpy(assign, x, jnp.array([0, 3]), jnp.array([7, 8]))


def test_python_list_item_assignment():
    # upstream: test_non_tracing_assignment (a Python list: Python's list, unchanged type)
    def fn():
        x = [0] * 5
        x[2] = 1
        return x
    assert autograph.convert(fn)() == fn()


@pytest.mark.parametrize('length', [0, 3, 5])
def test_assignment_in_a_while_loop(length):
    # upstream: test_while_loop_integration (the bound traced here; the zeros come in as
    # an argument so that the reference runs on a NumPy array)
    def fn(zeros, n):
        x = zeros * 0
        i = 0
        while i < n:
            x[i] = i
            i += 1
        return x
    assert_same(autograph.convert(fn)(jnp.ones(5), jnp.int32(length)), fn(np.ones(5), length))
    assert_same(autograph.convert(fn)(jnp.ones(5), 5), fn(np.ones(5), 5))


def test_assignment_in_a_for_loop():
    # upstream: test_for_loop_integration (a Python range, and the same over a traced one)
    def fn(zeros, n):
        x = zeros * 0
        for i in range(n):
            x[i] = i
        return x
    assert_same(autograph.convert(fn)(jnp.ones(5), 5), fn(np.ones(5), 5))
    assert_same(autograph.convert(fn)(jnp.ones(5), jnp.int32(4)), fn(np.ones(5), 4))
    assert staged(fn, jnp.ones(5), jnp.int32(4)) & {'while', 'scan'}


def test_python_list_argument_item_assignment():
    # upstream: test_qnode_with_python_array_assignment (a list of angles, one replaced
    # by the traced argument, then used)
    def circuit(new_val):
        angles = [0.1, 0.2, 0.3]
        angles[0] = new_val
        return jnp.cos(angles[0]) * angles[2]
    assert_same(autograph.convert(circuit)(jnp.float32(0.7)), circuit(jnp.float32(0.7)))


def test_array_argument_item_assignment():
    # upstream: test_qnode_with_jax_array_assignment (a scatter, then the item read back)
    def circuit(angles, new_val):
        angles[0] = new_val
        return jnp.cos(angles[0]) + angles.sum()
    angles = jnp.array([0.1, 0.2, 0.3])
    like_numpy(circuit, angles, jnp.float32(np.pi))
    assert 'scatter' in ' '.join(str(jax.make_jaxpr(converted(circuit))(angles, 1.0)).split())
    assert_same(angles, jnp.array([0.1, 0.2, 0.3]))   # (the caller's array: unchanged)


def test_item_assignment_is_differentiable():
    # upstream: test_item_assignment_is_differentiable (and the array's own gradient:
    # the item overwritten gets none)
    def fn(x, val):
        x[0] = val
        return jnp.sum(x * x)
    gx, gv = jax.grad(converted(fn), argnums=(0, 1))(jnp.ones(5), 5.0)
    assert_same(gv, jnp.float32(10.0))
    assert_same(gx, jnp.array([0.0, 2.0, 2.0, 2.0, 2.0]))


def test_shape_mismatch_is_python_s_value_error():
    # upstream: test_shape_mismatch_raises_error ("Incompatible shapes"): NumPy raises
    # ValueError ("could not broadcast"); converted, a ValueError at the user's line
    def fn(x):
        x[0:2] = jnp.array([1, 2, 3])
        return x
    with pytest.raises(ValueError):
        fn(np.zeros(5))
    with pytest.raises(ValueError, match='3') as info:
        autograph.convert(fn)(jnp.zeros(5))
    assert site(fn, 'x[0:2]').split(':')[1] in ''.join(getattr(info.value, '__notes__', []))


# --- augmented updates --------------------------------------------------------------------

def update_add(x):
    x[0] += 2
    return x


def update_sub(x):
    x[0] -= 2
    return x


def update_mult(x):
    x[0] *= 2
    return x


def update_pow(x):
    x[0] **= 2
    return x


def update_div(x):
    x[0] /= 2
    return x


def update_floordiv(x):
    x[0] //= 2
    return x


def update_mod(x):
    x[0] %= 2
    return x


UPDATES = [update_add, update_sub, update_mult, update_pow, update_div, update_floordiv,
           update_mod]


@pytest.mark.parametrize('fn', UPDATES)
@pytest.mark.parametrize('first', [4, 3])
def test_update_with_operations(fn, first):
    # upstream: test_update_array_with_operations (add, sub, mult, pow),
    # test_update_array_with_div_operation (`/=` on ints: NumPy truncates, 3 / 2 -> 1) and
    # TestUnsupportedArrayUpdates.test_modulo_op_update (rejected there)
    like_numpy(fn, jnp.array([first, 2, 1]))
    like_numpy(fn, jnp.array([first, 2, 1], jnp.float32))


def test_update_through_a_slice_object():
    # upstream: test_slicing_update (a slice object in a variable and a literal slice)
    # and TestUnsupportedArrayUpdates.test_update_with_slice_index (`slice(1, 2)` in the
    # subscript: rejected there)
    def fn(x):
        index = slice(0, 3, 1)
        x[index] += 2
        x[0:3:1] += 2
        x[slice(1, 2)] += 2
        return x
    like_numpy(fn, jnp.array([4, 2, 1]))


def test_update_of_a_python_list():
    # upstream: test_static_array_update
    def f():
        my_list = [0, 1]
        my_list[1] += 10
        return my_list
    assert autograph.convert(f)() == f()


@pytest.mark.parametrize('i', [0, 2, -1, -3])
def test_update_at_a_traced_index(i):
    # upstream: test_dynamic_index (the index traced, negative ones counted from the end)
    def fn(x, i):
        x[i] += 2
        return x
    like_numpy(fn, jnp.array([4, 2, 1]), jnp.int32(i))


def test_update_with_a_multi_dimensional_index():
    # upstream: TestUnsupportedArrayUpdates.test_multi_dimensional_index (rejected there)
    def fn(x):
        x[0, 1] += 5
        x[1] *= 3
        return x
    like_numpy(fn, jnp.array([[1, 2], [3, 4]]))
