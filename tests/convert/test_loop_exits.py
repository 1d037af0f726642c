"""passes.loop_exits: `break` and `continue` become flags and guards."""
import ast

import pytest

from autograph.passes import loop_exits
from tests.convert.harness import check, has, up_to


def first_multiple(xs, k):
    found = None
    for x in xs:
        if x % k == 0:
            found = x
            break
    return found


def sum_of_odds_until(n, stop):
    total = 0
    i = 0
    while i < n:
        i += 1
        if i % 2 == 0:
            continue
        if i > stop:
            break
        total += i
    return total


def endless_with_break(n):
    i = 0
    while True:
        i += 3
        if i >= n:
            break
    return i


def nested_loops(n):
    pairs = 0
    for i in range(n):
        for j in range(n):
            if j > i:
                break
            if (i + j) % 2:
                continue
            pairs += 1
        if pairs > 6:
            break
    return pairs


def break_then_code_after(xs):
    seen = []
    for x in xs:
        seen.append(x)
        if x < 0:
            break
        seen.append(x * 10)
    return seen


def break_in_else_branch(xs):
    count = 0
    for x in xs:
        if x > 0:
            count += 1
        else:
            break
    return count


CASES = [
    (first_multiple, ([1, 5, 9, 12], 3)),
    (first_multiple, ([1, 5, 7], 3)),
    (first_multiple, ([], 2)),
    (sum_of_odds_until, (10, 7)),
    (sum_of_odds_until, (10, 100)),
    (sum_of_odds_until, (0, 3)),
    (endless_with_break, (10,)),
    (endless_with_break, (0,)),
    (nested_loops, (5,)),
    (nested_loops, (2,)),
    (nested_loops, (0,)),
    (break_then_code_after, ([1, 2, -3, 4],)),
    (break_then_code_after, ([1, 2],)),
    (break_in_else_branch, ([1, 2, 0, 4],)),
    (break_in_else_branch, ([3],)),
]


@pytest.mark.parametrize('fn,args', CASES, ids=lambda v: getattr(v, '__name__', None))
def test_same_results_as_python(fn, args):
    check(loop_exits, fn, *args)


@pytest.mark.parametrize('fn', sorted({fn for fn, _ in CASES}, key=lambda f: f.__name__),
                         ids=lambda f: f.__name__)
def test_no_break_or_continue_remains(fn):
    converted = up_to(loop_exits, fn)
    assert not has(converted.tree, ast.Break, ast.Continue), converted.code


def test_a_while_that_breaks_first_thing_tests_the_condition_instead():
    def countdown(n):
        steps = 0
        while n > 0:
            if n == 3:
                break
            n -= 1
            steps += 1
        return steps
    for n in (0, 2, 5):
        converted = check(loop_exits, countdown, n)
    assert 'did_break' not in converted.code, converted.code
