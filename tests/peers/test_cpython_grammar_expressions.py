"""What CPython's grammar tests pin down about expressions and assignments inside a
function body, restated as functions run plain and converted (python/cpython
Lib/test/test_grammar.py, commit e4cda6ce21dc268e308f0ee95e097f667f680d43: assignment
expressions, augmented assignment targets, chained comparisons, star-unpacking,
conditional expressions, lambdas, comprehensions' scoping).

Each case runs on Python values and, where it computes on numbers, on JAX scalars (traced
under jit), against the same function run as plain Python.
"""
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import check, check_ints, site


# --- assignment expressions ------------------------------------------------------------

def walrus_in_while(n):
    steps = 0
    while (n := n - 1) > 0:
        steps += n
    return steps * 10 + n


def walrus_in_if(x):
    if (y := x * 2) > 5:
        r = y + 1
    else:
        r = y - 1
    return r + y


def walrus_in_comprehension(xs):
    doubled = [last := v * 2 for v in xs]
    return doubled, last


def walrus_in_conditional_expression(x):
    r = (z := x + 1) if x > 0 else -x
    return r


@pytest.mark.parametrize('n', [0, 1, 5])
def test_walrus_in_while_condition(n):
    check_ints(walrus_in_while, n)


@pytest.mark.parametrize('x', [1, 4])
def test_walrus_in_if_condition_binds_for_both_branches(x):
    check_ints(walrus_in_if, x)


def test_walrus_in_comprehension_binds_the_enclosing_scope():
    check(walrus_in_comprehension, [1, 2, 3])


@pytest.mark.parametrize('x', [2, -3])
def test_walrus_in_conditional_expression(x):
    check_ints(walrus_in_conditional_expression, x)


# --- augmented assignment ---------------------------------------------------------------

def every_augmented_operator(x):
    a = x + 7
    a += 3
    a -= 1
    a *= 5
    a //= 3
    a %= 11
    a **= 2
    a <<= 2
    a >>= 1
    a &= 0x3F
    a |= 0x40
    a ^= 0x15
    return a


def augmented_targets(x):
    items = [1, 2, 3]
    table = {'k': 10}
    items[1] += x
    items[-1] *= 2
    table['k'] -= x
    items[0:2] += [x]
    return items, table


class Box:
    def __init__(self, v):
        self.v = v


def augmented_attribute(x):
    b = Box(1)
    if x > 2:
        b.v += x
    else:
        b.v *= 3
    return b.v


def subscript_evaluated_once(x):
    calls = []

    def index():
        calls.append(1)
        return 0
    items = [x]
    items[index()] += 5
    return items[0], len(calls)


def augmented_on_array(x):
    a = jnp.zeros(3)
    for i in range(3):
        if x > i:
            a = a.at[i].add(x)
    a += 1
    return a


@pytest.mark.parametrize('x', [0, 4, 9])
def test_every_augmented_operator(x):
    check_ints(every_augmented_operator, x)


def test_augmented_list_and_dict_targets():
    check(augmented_targets, 4)


@pytest.mark.parametrize('x', [1, 5])
def test_augmented_attribute_in_branches(x):
    check_ints(augmented_attribute, x)


def test_augmented_subscript_evaluates_the_index_once():
    check(subscript_evaluated_once, 3)


@pytest.mark.parametrize('x', [0, 2, 5])
def test_augmented_on_array_in_loop(x):
    check_ints(augmented_on_array, x)


# --- chained comparisons ----------------------------------------------------------------

def chained(a, b, c):
    r = 0
    if a < b < c:
        r += 1
    if a <= b == c:
        r += 10
    if a != b != c:
        r += 100
    if c > b >= a:
        r += 1000
    return r


def middle_evaluated_once(x):
    calls = []

    def mid():
        calls.append(1)
        return x
    ok = 0 < mid() < 10
    return ok, len(calls)


def short_circuit_chain(x):
    calls = []

    def last():
        calls.append(1)
        return 100
    ok = x < 0 < last()
    return ok, len(calls)


@pytest.mark.parametrize('a,b,c', [(1, 2, 3), (1, 2, 2), (3, 2, 1), (2, 2, 2)])
def test_chained_comparisons(a, b, c):
    check_ints(chained, a, b, c)


@pytest.mark.parametrize('x', [5, 20])
def test_chained_comparison_evaluates_middle_once(x):
    check(middle_evaluated_once, x)


@pytest.mark.parametrize('x', [-1, 1])
def test_chained_comparison_short_circuits(x):
    check(short_circuit_chain, x)


# --- unpacking --------------------------------------------------------------------------

def star_unpack(x):
    a, *b, c = [x, x + 1, x + 2, x + 3]
    *d, e = (x, 2 * x)
    f, *g = [x]
    return a + c + e + f, len(b) + len(d) + len(g)


def swap_in_loop(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a, b


def nested_unpack(x):
    (a, b), c = (x, x + 1), x + 2
    [d, (e, *f)] = [c, (a, b, c)]
    return a * b + c + d + e + len(f)


def chained_targets_left_to_right():
    items = [0, 0]
    i = 0
    i = items[i] = 1
    return i, items


@pytest.mark.parametrize('x', [3])
def test_star_unpacking(x):
    check_ints(star_unpack, x)


@pytest.mark.parametrize('n', [0, 6])
def test_tuple_swap_in_loop(n):
    check_ints(swap_in_loop, n)


@pytest.mark.parametrize('x', [2])
def test_nested_unpacking(x):
    check_ints(nested_unpack, x)


def test_chained_assignment_binds_targets_left_to_right():
    check(chained_targets_left_to_right)


# --- conditional expressions, and/or values ---------------------------------------------

def conditional_expressions(x):
    a = 5 if x else 7
    b = (x and 6) if not x else 1
    c = x and (6 if x > 1 else 1)
    d = not x if x > 2 else 3
    e = 6 + 1 if x else 2
    f = 1 if x < 0 else 2 if x < 3 else 3
    return a, b, c, d, e, f


def and_or_give_operands(x, y):
    return (x or y), (x and y), (x or y or 9), (x and y and 9)


def skipped_operand_is_not_evaluated(x):
    calls = []

    def other():
        calls.append(1)
        return 3
    a = x or other()
    b = x and other()
    c = other() if x else x
    return a, b, c, len(calls)


@pytest.mark.parametrize('x', [0, 1, 2, 4])
def test_conditional_expression_precedence_python(x):
    check(conditional_expressions, x)


@pytest.mark.parametrize('x', [0, 2, -1])
def test_nested_conditional_expressions_traced(x):
    def f(x):
        return 1 if x < 0 else 2 if x < 1 else 3
    check_ints(f, x)


@pytest.mark.parametrize('x,y', [(0, 0), (0, 4), (2, 0), (2, 4)])
def test_and_or_give_an_operand(x, y):
    check(and_or_give_operands, x, y)


@pytest.mark.parametrize('x', [0, 5])
def test_skipped_operand_is_not_evaluated(x):
    check(skipped_operand_is_not_evaluated, x)


# --- lambdas and comprehensions ----------------------------------------------------------

def lambda_defaults_bind_at_definition(n):
    fns = []
    for i in range(n):
        fns.append(lambda k=i: k * 10)
    return [f() for f in fns]


def lambda_closure_late_binding(n):
    fns = []
    for i in range(n):
        fns.append(lambda: i)
    return [f() for f in fns]


def lambda_in_branch(x):
    if x > 0:
        f = lambda v: v + 1  # noqa: E731
    else:
        f = lambda v: v - 1  # noqa: E731
    return f(x) * 2


def outermost_iterable_evaluated_early():
    x = 10
    g = (i for i in range(x))
    x = 5
    return len(list(g)), x


def comprehension_with_two_ifs():
    return [x for x in range(10) if x % 2 if x % 3]


def nested_comprehension(n):
    return [[y * x for y in range(x)] for x in range(n)]


@pytest.mark.parametrize('n', [0, 3])
def test_lambda_default_binds_at_definition(n):
    check(lambda_defaults_bind_at_definition, n)


@pytest.mark.parametrize('n', [0, 3])
def test_lambda_closure_sees_last_binding(n):
    check(lambda_closure_late_binding, n)


@pytest.mark.parametrize('x', [-2, 3])
def test_lambda_chosen_in_branch(x):
    check(lambda_in_branch, x)
    # a traced condition cannot choose between two function objects: named, at the `if`
    with pytest.raises(autograph.ControlFlowError, match=site(lambda_in_branch, 'if x > 0')):
        autograph.convert(lambda_in_branch)(jnp.int32(x))


def test_comprehension_specials():
    check(outermost_iterable_evaluated_early)
    check(comprehension_with_two_ifs)
    check(nested_comprehension, 4)
