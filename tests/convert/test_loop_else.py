"""passes.loop_else: a loop's `else` becomes code after the loop (guarded by its break
flag when the loop has a `break`)."""
import ast

import pytest

from autograph.passes import loop_else
from tests.convert.harness import check, up_to


def find(xs, t):
    for i, x in enumerate(xs):
        if x == t:
            idx = i
            break
    else:
        idx = -1
    return idx


def no_break(n):
    total = 0
    for i in range(n):
        total += i
    else:
        total *= 10
    return total


def while_else(n):
    i = 0
    while i < n:
        if i == 4:
            break
        i += 1
    else:
        i = -i
    return i


def return_in_else(xs):
    for x in xs:
        if x < 0:
            break
    else:
        return 'all non-negative'
    return 'found negative'


def nested_else(grid):
    hits = 0
    for row in grid:
        for v in row:
            if v == 0:
                break
        else:
            hits += 1
            continue
        hits += 100
    return hits


def break_from_else(xss):
    n = 0
    for xs in xss:
        for x in xs:
            n += x
        else:
            if n > 5:
                break
    return n


CASES = [
    (find, ([3, 4, 5], 4)), (find, ([3, 4, 5], 9)), (find, ([], 1)),
    (no_break, (4,)), (no_break, (0,)),
    (while_else, (3,)), (while_else, (8,)), (while_else, (0,)),
    (return_in_else, ([1, 2],)), (return_in_else, ([1, -2],)),
    (nested_else, ([[1, 2], [0, 1], [3]],)), (nested_else, ([],)),
    (break_from_else, ([[1, 2], [3], [4]],)), (break_from_else, ([[1], [1]],)),
]


@pytest.mark.parametrize('fn,args', CASES, ids=lambda v: getattr(v, '__name__', None))
def test_same_results_as_python(fn, args):
    check(loop_else, fn, *args)


@pytest.mark.parametrize('fn', list(dict.fromkeys(fn for fn, _ in CASES)),
                         ids=lambda f: f.__name__)
def test_no_loop_keeps_an_else(fn):
    tree = up_to(loop_else, fn).tree
    loops = [n for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While))]
    assert loops and not any(loop.orelse for loop in loops)


def test_without_a_break_the_else_simply_follows_the_loop():
    code = up_to(loop_else, no_break).code
    assert 'did_break' not in code and code.index('total *= 10') > code.index('for i')
