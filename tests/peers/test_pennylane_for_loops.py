"""PennyLane's AutoGraph tests for `for` loops, restated for plain JAX.

Upstream: PennyLaneAI/pennylane, tests/capture/autograph/test_autograph_for_loop.py at
commit 4ac3a0fc72c26333c91f8f4c58f2dcd9e9a9a27c (earlier test_for_loop.py, removed in
commit a9e0e409e7). Its `run_autograph` + `make_jaxpr` is `autograph.convert`; a rotation
gate on a qubit becomes `rotate` on a float state, a gate on wire `i` an update of item
`i` of a state vector. Cases PennyLane marks xfail (loops over strings, dicts, the loop
variable read after the loop without a prior binding) and those it rejects (a str
before the loop) give Python's values here. Each case is compared with the same
function run as plain Python.
"""
import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same, converted, staged


def rotate(angle, state):
    """Stands in for a rotation gate: mixes the state with the angle."""
    return jnp.cos(angle) * state - 0.5 * jnp.sin(angle)


def on_wire(state, wire, angle):
    """Stands in for a gate on one wire: item `wire` of the state vector turns."""
    return state.at[wire].set(rotate(angle, state[wire]))


PARAMS = jnp.array([0.3, 1 / 4 * jnp.pi, 2 / 4 * jnp.pi])


# --- what a loop iterates over --------------------------------------------------------------

def test_for_over_a_traced_array_is_one_loop():
    # upstream: TestForLoops.test_for_in_array (one for_loop in the jaxpr)
    def f(params):
        state = 1.0
        for x in params:
            state = rotate(x, state)
        return state
    assert_same(autograph.convert(f)(PARAMS), f(PARAMS))
    assert staged(f, PARAMS) == {'scan'}
    grad = jax.grad(converted(f))(PARAMS)
    assert_same(grad, jax.grad(f)(PARAMS))


def test_for_over_rows_unpacking_them():
    # upstream: TestForLoops.test_for_in_array_unpack (a 2-D array, each row unpacked)
    def f(params):
        state = 1.0
        for x1, x2 in params:
            state = rotate(x1, state)
            state = rotate(x2, state)
        return state
    params = jnp.array([[0.1, 0.7], [1.2, -0.4], [0.0, 2.0]])
    assert_same(autograph.convert(f)(params), f(params))
    assert_same(jax.vmap(converted(f))(jnp.stack([params, -params])),
                jnp.stack([f(params), f(-params)]))


def test_for_over_python_numbers_and_nested_lists():
    # upstream: TestForLoops.test_for_in_numeric_list / test_for_in_numeric_list_of_list
    def flat(state):
        params = [0.0, 1 / 4 * jnp.pi, 2 / 4 * jnp.pi]
        for x in params:
            state = rotate(x, state)
        return state

    def nested(state):
        params = [[0.0, 1 / 4 * jnp.pi], [2 / 4 * jnp.pi, jnp.pi]]
        for xx in params:
            for x in xx:
                state = rotate(x, state)
        return state
    for f in (flat, nested):
        assert_same(autograph.convert(f)(jnp.float32(0.8)), f(jnp.float32(0.8)))


def test_for_over_strings():
    # upstream: TestForLoops.test_for_in_object_list (xfail there) and
    # TestErrors.test_for_in_object_list ("Could not convert the iteration target")
    def f(state):
        params = ['0', '1', '2']
        for x in params:
            state = rotate(int(x) / 4 * jnp.pi, state)
        return state
    assert_same(autograph.convert(f)(jnp.float32(1.0)), f(jnp.float32(1.0)))


def test_for_over_a_static_range_touching_each_wire():
    # upstream: TestForLoops.test_for_in_static_range (a Hadamard on each of 3 wires)
    def f(state):
        for i in range(3):
            state = on_wire(state, i, 0.25 * (i + 1))
        return state
    state = jnp.array([1.0, -1.0, 2.0])
    assert_same(autograph.convert(f)(state), f(state))


@pytest.mark.parametrize('n', [0, 1, 3])
def test_for_over_a_traced_range(n):
    # upstream: TestForLoops.test_for_in_dynamic_range (n traced; a gate on wire i)
    def f(n):
        state = jnp.array([1.0, -1.0, 2.0])
        for i in range(n):
            state = on_wire(state, i, 0.5)
        return state
    assert_same(autograph.convert(f)(jnp.int32(n)), f(n))
    assert 'while' in staged(f, jnp.int32(n)) or 'scan' in staged(f, jnp.int32(n))


@pytest.mark.parametrize('n', [0, 2, 3])
def test_range_indexing_an_array(n):
    # upstream: TestForLoops.test_for_in_static_range_indexing_array and
    # test_for_in_dynamic_range_indexing_array (params[i], static and traced bounds)
    def static(state):
        params = jnp.array([0.0, 1 / 4 * jnp.pi, 2 / 4 * jnp.pi])
        for i in range(3):
            state = rotate(params[i], state)
        return state

    def dynamic(n):
        params = jnp.array([0.0, 1 / 4 * jnp.pi, 2 / 4 * jnp.pi])
        state = 1.0
        for i in range(n):
            state = rotate(params[i], state)
        return state
    assert_same(autograph.convert(static)(jnp.float32(1.0)), static(jnp.float32(1.0)))
    assert_same(autograph.convert(dynamic)(jnp.int32(n)), dynamic(n))


def test_traced_range_object_built_and_dropped():
    # upstream: TestCustomRangeAndEnumeration.test_prange_vs_range (`range(n)` of a
    # traced n, built and not iterated, must not need a Python int)
    def f(n):
        _ = range(n)
        return n
    assert autograph.convert(f)(jnp.int32(3)) == 3


@pytest.mark.parametrize('start', [None, 0, 2])
def test_enumerate_over_a_traced_array(start):
    # upstream: TestForLoops.test_for_in_enumerate_array, _no_unpack, _start (and
    # TestCustomRangeAndEnumeration.test_penumerate's start values)
    def unpacked(params):
        state = jnp.zeros(5)
        for i, x in enumerate(params) if start is None else enumerate(params, start):
            state = on_wire(state + 1, i, x)
        return state

    def not_unpacked(params):
        state = jnp.zeros(5)
        for v in enumerate(params) if start is None else enumerate(params, start=start):
            state = on_wire(state + 1, v[0], v[1])
        return state
    for f in (unpacked, not_unpacked):
        assert_same(autograph.convert(f)(PARAMS), f(PARAMS))


def test_enumerate_with_nested_unpacking():
    # upstream: TestForLoops.test_for_in_enumerate_nested_unpack
    def f(params):
        state = jnp.ones(3)
        for i, (x1, x2) in enumerate(params):
            state = on_wire(state, i, x1)
            state = on_wire(state, i, x2)
        return state
    params = jnp.array([[0.5, 0.1], [1.0, -2.0], [0.25, 0.75]])
    assert_same(autograph.convert(f)(params), f(params))


def test_enumerate_python_lists():
    # upstream: TestForLoops.test_for_in_enumerate_numeric_list and
    # test_for_in_enumerate_object_list (xfail there)
    def numbers(state):
        for i, x in enumerate([0.0, 1 / 4 * jnp.pi, 2 / 4 * jnp.pi]):
            state = on_wire(state, i, x)
        return state

    def strings(state):
        for i, x in enumerate(['0', '1', '2']):
            state = on_wire(state, i, int(x) / 4 * jnp.pi)
        return state
    state = jnp.array([1.0, 0.5, -1.0])
    for f in (numbers, strings):
        assert_same(autograph.convert(f)(state), f(state))


class Wires:
    """An iterable of labels that is neither a list nor an array (as PennyLane's Wires)."""

    def __init__(self, labels):
        self.labels = tuple(labels)

    def __iter__(self):
        return iter(self.labels)

    def __len__(self):
        return len(self.labels)


def test_for_over_a_custom_iterable():
    # upstream: TestForLoops.test_iterating_over_wires
    def f(x):
        total = 0
        for w in Wires([0, 1, 2]):
            total += w * x
        return total
    assert autograph.convert(f)(jnp.int32(2)) == f(2)


def test_for_over_dict_items_with_a_print():
    # upstream: TestForLoops.test_for_in_other_iterable_object (xfail there): the print
    # runs while tracing, once per key, as the Python loop runs
    printed = []

    def f(state):
        params = {'a': 0.0, 'b': 1 / 4 * jnp.pi, 'c': 2 / 4 * jnp.pi}
        for k, v in params.items():
            printed.append(k)
            state = rotate(v, state)
        return state
    assert_same(autograph.convert(f)(jnp.float32(1.0)), f(jnp.float32(1.0)))
    assert printed == ['a', 'b', 'c'] * 2


# --- loop-carried values and the loop variable after the loop ---------------------------------

def test_loop_carried_value():
    # upstream: TestForLoops.test_loop_carried_value (three spellings)
    def f1():
        acc = 0
        for x in [0, 4, 5]:
            acc = acc + x
        return acc

    def f2(acc):
        for x in [0, 4, 5]:
            acc = acc + x
        return acc

    def f3(xs):
        acc = 0
        for x in xs:
            acc += x
        return acc
    assert autograph.convert(f1)() == f1()
    assert autograph.convert(f2)(jnp.int32(2)) == f2(2)
    xs = jnp.array([0, 4, 5])
    assert autograph.convert(f3)(xs) == f3(xs)


def test_loop_variable_after_the_loop_initialised_before():
    # upstream: TestForLoops.test_iteration_element_access
    def f1(acc):
        x = 0
        for x in [0, 4, 5]:
            acc = acc + x
        return x

    def f2(acc):
        i = 0
        l = jnp.array([0, 4, 5])  # noqa: E741
        for i in range(3):
            acc = acc + l[i]
        return i

    def f3(acc):
        i, x = 0, 0
        for i, x in enumerate([0, 4, 5]):
            acc = acc + x
        return i, x
    for f in (f1, f2, f3):
        assert autograph.convert(f)(jnp.int32(0)) == f(0)


@pytest.mark.parametrize('n', [1, 3])
def test_loop_variable_after_the_loop_without_init(n):
    # upstream: TestForLoops.test_iteration_element_access_no_init (xfail there), with
    # the loop's length traced too
    def over_list(acc):
        for x in [0, 4, 5]:
            acc = acc + x
        return x

    def over_range(n):
        acc = 0
        l = jnp.array([0, 4, 5])  # noqa: E741
        for i in range(n):
            acc = acc + l[i]
        return i, acc

    def over_enumerate(xs):
        acc = 0
        for i, x in enumerate(xs):
            acc = acc + x
        return i, x
    assert autograph.convert(over_list)(jnp.int32(0)) == over_list(0)
    assert autograph.convert(over_range)(jnp.int32(n)) == over_range(n)
    xs = jnp.array([0, 4, 5])[:n]
    assert autograph.convert(over_enumerate)(xs) == over_enumerate(xs)


def test_temporary_variable_in_the_body():
    # upstream: TestForLoops.test_temporary_loop_variable
    def f1(xs):
        acc = 0
        for x in xs:
            c = 2
            acc = acc + c * x
        return acc

    def f2(xs):
        acc = 2
        for x in xs:
            c = x * 2
            acc = acc + c
        return acc
    xs = jnp.array([0, 4, 5])
    for f in (f1, f2):
        assert autograph.convert(f)(xs) == f(xs)
        assert autograph.convert(f)([0, 4, 5]) == f([0, 4, 5])
