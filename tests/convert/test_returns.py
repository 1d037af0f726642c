"""passes.returns: every `return` ends up last in its function, none inside a loop."""
import ast

import pytest

from autograph.passes import returns
from tests.convert.harness import check, up_to


def sign(x):
    if x > 0:
        return 1
    if x < 0:
        return -1
    return 0


def early_then_work(x):
    if x is None:
        return 0
    y = x * 2
    if y > 10:
        y = 10
    return y + 1


def index_of(xs, t):
    for i, x in enumerate(xs):
        if x == t:
            return i
    return -1


def search_while(n):
    i = 0
    while i < n:
        if i * i > n:
            return i
        i += 1
    return None


def nested_search(grid, t):
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if v == t:
                return (r, c)
    return None


def return_after_break(xs):
    total = 0
    for x in xs:
        if x < 0:
            break
        if x > 100:
            return -1
        total += x
    return total


def no_return_value(xs):
    for x in xs:
        if x:
            xs.append(0)
            return
    xs.append(1)


def endless(n):
    i = 0
    while True:
        i += 1
        if i * 3 > n:
            return i


CASES = [
    (sign, (5,)), (sign, (-2,)), (sign, (0,)), (sign, (None,)),   # TypeError both ways
    (early_then_work, (None,)), (early_then_work, (3,)), (early_then_work, (9,)),
    (index_of, ([4, 5, 6], 5)), (index_of, ([4, 5, 6], 7)), (index_of, ([], 1)),
    (search_while, (10,)), (search_while, (0,)),
    (nested_search, ([[1, 2], [3, 4]], 3)), (nested_search, ([[1, 2], [3, 4]], 9)),
    (nested_search, ([], 1)),
    (return_after_break, ([1, 2, -1, 500],)), (return_after_break, ([1, 500, 2],)),
    (return_after_break, ([1, 2],)),
    (no_return_value, ([0, 0, 1],)), (no_return_value, ([0],)),
    (endless, (10,)), (endless, (0,)),
]


@pytest.mark.parametrize('fn,args', CASES, ids=lambda v: getattr(v, '__name__', None))
def test_same_results_as_python(fn, args):
    check(returns, fn, *args)


def _returns_in_tail_position(stmts):
    """Every `return` in `stmts` is its block's last statement, and no loop holds one."""
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, ast.Return):
            assert i == len(stmts) - 1, ast.unparse(stmt)
        elif isinstance(stmt, (ast.For, ast.While)):
            assert not any(isinstance(n, ast.Return) for n in ast.walk(stmt)), \
                ast.unparse(stmt)
        elif isinstance(stmt, (ast.If, ast.With, ast.Try)):
            for block in ('body', 'orelse', 'finalbody'):
                _returns_in_tail_position(getattr(stmt, block, []))


@pytest.mark.parametrize('fn', list(dict.fromkeys(fn for fn, _ in CASES)),
                         ids=lambda f: f.__name__)
def test_returns_end_their_blocks_and_leave_loops(fn):
    _returns_in_tail_position(up_to(returns, fn).tree.body)
