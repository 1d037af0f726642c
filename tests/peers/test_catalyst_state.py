"""Cases from PennyLane Catalyst's AutoGraph tests (frontend/test/pytest/test_autograph.py)
on array item and slice updates and containers carried through loops, restated for plain
JAX (no quantum parts); its loop-carried and loop-created variable cases are in
test_catalyst_control_flow.py. Each test names the upstream test it restates; expected values come from
the same function run as Python on NumPy arrays, or from its `.at[]` spelling.

Catalyst rejects `x[0, 1] += 5`, `x[i] %= 2` and `x[array] += 3` with JAX's immutability
error (`TestJaxIndexOperatorUpdate.test_unsupported_cases`); here they work as in NumPy.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, check, staged


def jitted(fn):
    return jax.jit(autograph.convert(fn, jit=False))


def with_numpy(fn, *arrays):
    """`fn` run as plain Python on NumPy copies: the reference for item assignment."""
    return fn(*[np.array(a) for a in arrays])


# --- TestJaxIndexAssignment ---------------------------------------------------------------

def test_single_index_assignment_one_item():
    # upstream: TestJaxIndexAssignment.test_single_index_assignment_one_item
    def zero_last(x):
        last = x.shape[0] - 1
        x[last] = 0
        return x
    x = jnp.array([5, 3, 4])
    assert_same(jitted(zero_last)(x), with_numpy(zero_last, x))
    assert_same(jitted(zero_last)(x), x.at[2].set(0))


def test_single_index_assignment_all_items():
    # upstream: TestJaxIndexAssignment.test_single_index_assignment_all_items
    def doubled(x):
        result = jnp.zeros_like(x) if isinstance(x, jax.Array) else np.zeros_like(x)
        for i in range(x.shape[0]):
            result[i] = x[i] * 2
        return result
    x = jnp.array([5, 3, 4])
    assert_same(jitted(doubled)(x), with_numpy(doubled, x))


def test_single_index_assignment_all_items_staged_range():
    # upstream: the same, with the loop over a traced range (a staged loop)
    def doubled(x, n):
        result = x * 0
        for i in range(n):
            result[i] = x[i] * 2
        return result
    x = jnp.array([5, 3, 4])
    assert_same(jitted(doubled)(x, jnp.int32(3)), with_numpy(doubled, x, 3))
    assert 'while' in staged(doubled, x, jnp.int32(3))


def test_single_index_assignment_python_list():
    # upstream: TestJaxIndexAssignment.test_single_index_assignment_python_array
    def zero_last(x):
        x[len(x) - 1] = 0
        return x
    check(zero_last, [5, 3, 4])


def expand_start_stop(x, result):
    result[1:4] = x
    return result


def expand_start_stop_step(x, result):
    result[1:7:2] = x
    return result


def expand_start_only(x, result):
    result[3:] = x
    return result


def expand_stop_only(x, result):
    result[:3] = x
    return result


def expand_step_only(x, result):
    result[::2] = x
    return result


@pytest.mark.parametrize('upstream,expand,target', [
    ('test_slice_assignment_start_stop', expand_start_stop, slice(1, 4)),
    ('test_slice_assignment_start_stop_step', expand_start_stop_step, slice(1, 7, 2)),
    ('test_slice_assignment_start_only', expand_start_only, slice(3, None)),
    ('test_slice_assignment_stop_only', expand_stop_only, slice(None, 3)),
    ('test_slice_assignment_step_only', expand_step_only, slice(None, None, 2)),
])
def test_slice_assignment(upstream, expand, target):
    # upstream: TestJaxIndexAssignment.<upstream>: `result[a:b:c] = x` into a longer array
    x, result = jnp.array([5, 3, 4]), jnp.zeros(6, jnp.int32)
    assert_same(jitted(expand)(x, result), with_numpy(expand, x, result))
    assert_same(jitted(expand)(x, result), result.at[target].set(x))


# --- TestJaxIndexOperatorUpdate -----------------------------------------------------------

def test_single_static_index_operator_update_one_item():
    # upstream: TestJaxIndexOperatorUpdate.test_single_static_index_operator_update_one_item
    def f(x):
        x[0] *= 2
        return x
    x = jnp.array([5, 3, 4])
    assert_same(jitted(f)(x), x.at[0].multiply(2))


def test_single_index_operator_update_one_item():
    # upstream: TestJaxIndexOperatorUpdate.test_single_index_operator_update_one_item
    def f(x):
        last = x.shape[0] - 1
        x[last] *= 2
        return x
    x = jnp.array([5, 3, 4])
    assert_same(jitted(f)(x), with_numpy(f, x))


def multiply_all(x, n):
    for i in range(n):
        x[i] *= 2
    return x


def add_all(x, n):
    for i in range(n):
        x[i] += 2
    return x


def subtract_all(x, n):
    for i in range(n):
        x[i] -= 2
    return x


def divide_all(x, n):
    for i in range(n):
        x[i] /= 2
    return x


def power_all(x, n):
    for i in range(n):
        x[i] **= 2
    return x


@pytest.mark.parametrize('upstream,f,reference', [
    ('test_single_index_mult_update_all_items', multiply_all,
     lambda y, i: y.at[i].multiply(2)),
    ('test_single_index_add_update_all_items', add_all, lambda y, i: y.at[i].add(2)),
    ('test_single_index_sub_update_all_items', subtract_all, lambda y, i: y.at[i].add(-2)),
    ('test_single_index_div_update_all_items', divide_all, lambda y, i: y.at[i].divide(2)),
    ('test_single_index_pow_update_all_items', power_all, lambda y, i: y.at[i].power(2)),
])
def test_single_index_update_all_items(upstream, f, reference):
    # upstream: TestJaxIndexOperatorUpdate.<upstream>, in a Python loop and a staged one
    x = jnp.array([5.0, 3.0, 4.0])
    expected = x
    for i in range(3):
        expected = reference(expected, i)
    assert_same(jitted(f)(x, 3), expected)
    assert_same(jitted(f)(x, jnp.int32(3)), expected)
    assert_same(jitted(f)(x, jnp.int32(3)), with_numpy(f, x, 3))


def test_single_index_operator_update_python_list():
    # upstream: TestJaxIndexOperatorUpdate.test_single_index_operator_update_python_array
    def f(x):
        x[len(x) - 1] *= 2
        return x
    assert autograph.convert(f, jit=False)([5, 3, 4]) == f([5, 3, 4])
    assert_same(autograph.convert(f)([5, 3, 4]), f([5, 3, 4]))


def test_single_index_mult_update_slice():
    # upstream: TestJaxIndexOperatorUpdate.test_single_index_mult_update_slice
    def f(x):
        x[0:x.shape[0]:2] *= 2
        return x
    x = jnp.array([5, 4, 3, 2, 1])
    assert_same(jitted(f)(x), x.at[0:5:2].multiply(2))
    assert_same(jitted(f)(x), with_numpy(f, x))


def test_formerly_unsupported_updates():
    # upstream: TestJaxIndexOperatorUpdate.test_unsupported_cases (errors there)
    def multi_dimensional(x):
        x[0, 1] += 5
        return x

    def remainder(x):
        x[1] %= 2
        return x

    def array_index(x):
        x[np.array([1, 2])] += 3
        return x
    m = jnp.array([[1, 2], [3, 4]])
    assert_same(jitted(multi_dimensional)(m), with_numpy(multi_dimensional, m))
    v = jnp.array([4, 3, 3])
    assert_same(jitted(remainder)(v), with_numpy(remainder, v))
    assert_same(jitted(array_index)(v), with_numpy(array_index, v))


@pytest.mark.parametrize('upstream,update,start', [
    ('test_iterating_lists_inside_a_loop', lambda x: [x[0] + 1, x[1] + 2], [1, 2]),
    ('test_iterating_tuples_inside_a_loop', lambda x: (x[0] + 1, x[1] + 2), (1, 2)),
    ('test_iterating_dictionaries_inside_a_loop', lambda x: {0: x[0] + 1, 1: x[1] + 2},
     {0: 1, 1: 2}),
])
def test_containers_carried_through_loop(upstream, update, start):
    # upstream: TestJaxIndexOperatorUpdate.<upstream>; also with a staged range
    def fn(x, n):
        for i in range(n):
            x = update(x)
        return x
    check(fn, start, 4)
    check(fn, start, jnp.int32(4))
