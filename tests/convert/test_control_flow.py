"""passes.control_flow: `if`, `while` and `for` become small functions and one call of
ag.if_stmt / ag.while_stmt / ag.for_stmt, which on Python values run as Python."""
import ast

import pytest

from autograph.passes import control_flow
from tests.convert.harness import check, up_to


def clip(x, lo, hi):
    if x < lo:
        x = lo
    elif x > hi:
        x = hi
    return x


def branch_defines(x):
    if x > 0:
        y = x
        z = 1
    else:
        y = -x
        z = 2
    return y * z


def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2:
            n = 3 * n + 1
        else:
            n //= 2
        steps += 1
    return steps


def triangle(n):
    total = 0
    for i in range(n):
        for j in range(i):
            total += j
    return total


def loop_with_exits(xs):
    acc = 0
    for x in xs:
        if x < 0:
            continue
        if x > 50:
            break
        acc += x
    return acc


def early_returns(xs, t):
    for i, x in enumerate(xs):
        while x > t:
            x -= t
            if x == 1:
                return i
    if not xs:
        return None
    return -1


def list_state(n):
    out = []
    for i in range(n):
        if i % 3:
            out.append(i)
    return out


def tuple_target(pairs):
    s = 0
    for a, (b, c) in pairs:
        s += a * b - c
    return s


CASES = [
    (clip, (5, 0, 3)), (clip, (-1, 0, 3)), (clip, (2, 0, 3)),
    (branch_defines, (3,)), (branch_defines, (-3,)),
    (collatz_steps, (6,)), (collatz_steps, (1,)), (collatz_steps, (27,)),
    (triangle, (5,)), (triangle, (0,)),
    (loop_with_exits, ([1, -2, 3, 60, 4],)), (loop_with_exits, ([],)),
    (early_returns, ([7, 9, 4], 3)), (early_returns, ([2, 2], 5)), (early_returns, ([], 1)),
    (list_state, (7,)), (list_state, (0,)),
    (tuple_target, ([(1, (2, 3)), (4, (5, 6))],)),
]


@pytest.mark.parametrize('fn,args', CASES, ids=lambda v: getattr(v, '__name__', None))
def test_same_results_as_python(fn, args):
    check(control_flow, fn, *args)


@pytest.mark.parametrize('fn', list(dict.fromkeys(fn for fn, _ in CASES)),
                         ids=lambda f: f.__name__)
def test_no_if_while_or_for_statement_remains(fn):
    converted = up_to(control_flow, fn)
    statements = (ast.If, ast.While, ast.For, ast.Break, ast.Continue)
    assert not any(isinstance(n, statements) for n in ast.walk(converted.tree)), \
        converted.code


def test_a_branch_passes_on_only_what_is_read_after_it():
    def f(x):
        if x > 0:
            tmp = x * 2
            y = tmp + 1
        else:
            y = 0
        return y
    code = check(control_flow, f, 3).code
    assert "names=('y',)" in code, code


def test_nested_functions_and_closures_convert_innermost_first():
    scale = 3

    def f(xs):
        def weight(x):
            if x > 1:
                return x * scale
            return x
        total = 0
        for x in xs:
            total += weight(x)
        return total
    for xs in ([0, 1, 2, 5], []):
        converted = check(control_flow, f, xs)
    assert 'ag.if_exp(lambda: x > 1' in converted.code and 'ag.for_stmt' in converted.code
