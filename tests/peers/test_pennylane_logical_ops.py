"""PennyLane's AutoGraph tests for `and`, `or` and `not`, restated for plain JAX.

Upstream: PennyLaneAI/pennylane, tests/capture/autograph/test_autograph_logical_ops.py at
commit 4ac3a0fc72c26333c91f8f4c58f2dcd9e9a9a27c. Its `run_autograph` + `make_jaxpr` is
`autograph.convert`; a circuit that flips a qubit under a logical condition becomes a
branch on a number. Each case is compared with the same function run as plain Python.

Python's `x and y` is one of its operands, not a bool. With traced operands of unlike
dtypes (a bool and a float) the staged result has one dtype for both outcomes, so it is
compared by value (`True == 1.0`), the only thing JAX can express: the dtype of a traced
result cannot depend on a run-time value.
"""
import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same, converted, site

PAIRS = [(True, True), (True, False), (False, True), (False, False)]
NUMBERS = (0, 0.0, 0j, 1, 1.0, 1 + 0j, 0.5, -2)
OBJECTS = ['', 'string', [], [1, 2], {}, {1: 'a'}]


def same_value(actual, expected):
    """Equal as numbers (a staged `and`/`or` of unlike dtypes has their common dtype)."""
    assert jnp.asarray(actual).shape == jnp.asarray(expected).shape
    assert actual == expected, f'{actual!r} != {expected!r}'


def logical_and(x, y):
    return x and y


def logical_or(x, y):
    return x or y


def logical_not(x):
    return not x


# --- truth tables ---------------------------------------------------------------------------

@pytest.mark.parametrize('a,b', PAIRS)
@pytest.mark.parametrize('op', [logical_and, logical_or])
def test_truth_table(op, a, b):
    # upstream: TestAnd.test_truth_table, TestOr.test_truth_table
    expected = op(a, b)
    assert autograph.convert(op)(a, b) is expected
    traced = autograph.convert(op)(jnp.bool_(a), jnp.bool_(b))
    assert_same(traced, jnp.bool_(expected))


@pytest.mark.parametrize('a', [True, False])
def test_not_truth_table(a):
    # upstream: TestNot.test_truth_table
    assert autograph.convert(logical_not)(a) is (not a)
    assert_same(autograph.convert(logical_not)(jnp.bool_(a)), jnp.bool_(not a))


@pytest.mark.parametrize('op', [logical_and, logical_or])
def test_truth_table_under_vmap(op):
    # the four rows at once, each decided per element
    a = jnp.array([a for a, _ in PAIRS])
    b = jnp.array([b for _, b in PAIRS])
    expected = jnp.array([op(x, y) for x, y in PAIRS])
    assert_same(jax.vmap(converted(op))(a, b), expected)


# --- truthy and falsy numbers ---------------------------------------------------------------

@pytest.mark.parametrize('val', NUMBERS)
@pytest.mark.parametrize('x', [True, False])
@pytest.mark.parametrize('op', [logical_and, logical_or])
def test_truthy_and_falsy_numbers(op, x, val):
    # upstream: TestAnd/TestOr.test_truthy_and_falsy_values (the result is an operand:
    # `False and 1.0` is False, `True and 0.5` is 0.5)
    expected = op(x, val)
    python = autograph.convert(op)(x, val)
    assert python == expected and type(python) is type(expected)
    same_value(autograph.convert(op)(jnp.asarray(x), jnp.asarray(val)), expected)


@pytest.mark.parametrize('val', NUMBERS)
def test_not_of_numbers(val):
    # upstream: TestNot.test_truthy_and_falsy_values
    assert autograph.convert(logical_not)(val) is (not val)
    assert_same(autograph.convert(logical_not)(jnp.asarray(val)), jnp.bool_(not val))


def test_and_or_keep_the_operand_value_in_arithmetic():
    # the operand chosen by `and`/`or` is used as a number afterwards (Python: 0.5 + 10,
    # or True + 10)
    def f(flag, y):
        return (flag and y) + 10, (flag or y) * 3
    for flag in (True, False):
        for y in (0.5, 0.0, -1.5):
            expected = f(flag, y)
            actual = autograph.convert(f)(jnp.bool_(flag), jnp.float32(y))
            for a, e in zip(actual, expected):
                same_value(a, e)


# --- Python objects as operands -------------------------------------------------------------

@pytest.mark.parametrize('obj', OBJECTS)
@pytest.mark.parametrize('arg', [True, False])
def test_python_objects_with_python_flag(arg, obj):
    # upstream: TestAnd/TestOr.test_python_object_interaction, TestNot's (all operands are
    # Python values: decided while tracing)
    def f():
        return (1 if arg and obj else 0, 1 if arg or obj else 0, 1 if not obj else 0)
    assert autograph.convert(f)() == f()


@pytest.mark.parametrize('obj', OBJECTS)
@pytest.mark.parametrize('arg', [True, False])
def test_python_objects_with_traced_flag(arg, obj):
    # the same with the flag traced: the object's truthiness is known while tracing, the
    # flag's only when the program runs
    def f(flag):
        return (1 if flag and obj else 0, 1 if flag or obj else 0)
    expected = f(arg)
    actual = autograph.convert(f)(jnp.bool_(arg))
    for a, e in zip(actual, expected):
        same_value(a, e)


# --- static and traced operands mixed -------------------------------------------------------

@pytest.mark.parametrize('dynamic', [True, False])
def test_static_and_traced_operands(dynamic):
    # upstream: TestAnd/TestOr.test_static_dynamic_arg_mixed
    def with_and(dynamic_arg):
        x = 1
        static_arg = x >= 0
        if static_arg and dynamic_arg:
            return 1
        return 0

    def with_or(dynamic_arg):
        x = 1
        static_arg = x < 0
        if static_arg or dynamic_arg:
            return 1
        return 0
    for fn in (with_and, with_or):
        assert autograph.convert(fn)(jnp.bool_(dynamic)) == fn(dynamic)
        assert autograph.convert(fn)(dynamic) == fn(dynamic)


def test_not_of_a_static_value():
    # upstream: TestNot.test_static_args
    def fn_static():
        static_arg = False
        if not static_arg:
            return 1
        return 0
    assert autograph.convert(fn_static)() == fn_static()


@pytest.mark.parametrize('a,b', PAIRS)
def test_flag_conditions_flip_a_state(a, b):
    # upstream: TestAnd/TestOr/TestNot.test_qnode_integration (an X gate under the
    # condition, then an expectation: here a sign flip of 1.0)
    def f(x, y):
        z = 1.0
        if x and y:
            z = -z
        if x or y:
            z = z * 2
        if not x:
            z = z + 10
        return z
    assert_same(autograph.convert(f)(jnp.bool_(a), jnp.bool_(b)), jnp.float32(f(a, b)))


# --- inside loops and conditionals ----------------------------------------------------------

def while_and(a, b):
    counter = 0
    while a < b and counter < 5:
        a += 1
        counter += 1
    return a


def while_or(a, b):
    counter = 0
    while a < b or counter < 5:
        a += 1
        counter += 1
    return a


def while_not(a, b):
    while not a >= b:
        a += 1
    return a


@pytest.mark.parametrize('a,b', [(0, 10), (0, 3), (8, 2)])
@pytest.mark.parametrize('fn', [while_and, while_or, while_not])
def test_while_condition(fn, a, b):
    # upstream: TestAnd/TestOr/TestNot.test_while_loop_integration (0, 10 there)
    assert autograph.convert(fn)(jnp.int32(a), jnp.int32(b)) == fn(a, b)
    assert autograph.convert(fn)(a, b) == fn(a, b)


def cond_and(a, b):
    if a > 0 and b < 5:
        a += 1
    elif a == 5 and b == 5:
        b += 1
    else:
        a -= 1
        b -= 1
    return a, b


def cond_or(a, b):
    if a > 0 or b > 5:
        a += 1
    elif a == -5 or b == -5:
        b += 1
    else:
        a -= 1
        b -= 1
    return a, b


def cond_not(a, b):
    if not a > 0:
        a += 1
    elif not b < 0:
        b += 1
    else:
        a -= 1
        b -= 1
    return a, b


@pytest.mark.parametrize('fn,a,b', [
    (cond_and, 1, 2), (cond_and, 5, 5), (cond_and, 5, 6),
    (cond_or, 10, 4), (cond_or, 0, 6), (cond_or, -5, 5), (cond_or, 0, -5), (cond_or, 0, 5),
    (cond_not, -1, 0), (cond_not, 1, 1), (cond_not, 1, -1),
])
def test_elif_chain_condition(fn, a, b):
    # upstream: TestAnd/TestOr/TestNot.test_cond_integration (every branch covered)
    expected = fn(a, b)
    assert_same(autograph.convert(fn)(jnp.int32(a), jnp.int32(b)), tuple(map(jnp.int32, expected)))
    assert autograph.convert(fn)(a, b) == expected


@pytest.mark.parametrize('a,b', PAIRS)
def test_combined_operations(a, b):
    # upstream: test_combined_operations (equivalence of two flags)
    def fn(x, y):
        return (x and y) or (not x and not y)
    expected = fn(a, b)
    assert autograph.convert(fn)(a, b) is expected
    same_value(autograph.convert(fn)(jnp.bool_(a), jnp.bool_(b)), expected)


@pytest.mark.parametrize('flag', [True, False])
def test_traced_flag_and_a_container_as_the_result(flag):
    # the operand `and`/`or` picks is the function's result: Python's list, dict or bool
    # comes back, as the one this run gave
    def pick(flag):
        return flag and [1, 2], flag or {}
    assert_same(autograph.convert(pick)(jnp.bool_(flag)), pick(flag))


def test_unpacking_a_container_picked_by_a_traced_flag_is_a_named_error():
    # `a, b = flag and (x, x)`: Python unpacks the tuple when the flag is true and fails
    # on the bool when it is false; which, is known only when the program runs
    def f(flag, x):
        a, b = flag and (x, x)
        return a
    with pytest.raises(autograph.ControlFlowError, match='unpacking') as info:
        autograph.convert(f)(jnp.bool_(True), jnp.float32(2))
    assert site(f, 'a, b = flag') in str(info.value)


@pytest.mark.parametrize('flag', [True, False])
def test_traced_flag_and_none_or_a_function(flag):
    # beyond upstream's objects: None and a function as the operand picked (Python gives
    # None / the function, or the flag), and `is None` of the result
    def pick(flag):
        return flag and None, flag or None, (flag and None) is None

    def pick_function(flag):
        return flag and len
    assert_same(autograph.convert(pick)(jnp.bool_(flag)), pick(flag))
    picked = autograph.convert(pick_function)(jnp.bool_(flag))
    assert picked is len if flag else picked == pick_function(flag)
