"""passes.comprehensions: each `if` clause of a comprehension goes through
ag.comprehension_test, which passes Python values through."""
import ast

import pytest

from autograph.passes import comprehensions
from tests.convert.harness import check, up_to


def evens(xs):
    return [x for x in xs if x % 2 == 0]


def two_conditions(xs):
    return [x * 2 for x in xs if x > 0 if x < 10]


def nested(grid):
    return [v for row in grid if row for v in row if v != 0]


def set_and_dict(xs):
    return {x % 3 for x in xs if x}, {x: x * x for x in xs if x > 1}


def generator(xs):
    return sum(x for x in xs if x > 2)


def conditions_with_logic(xs, lo):
    return [x for x in xs if x > lo and not x % 5 or x == 1]


CASES = [
    (evens, ([1, 2, 3, 4],)), (evens, ([],)),
    (two_conditions, ([-1, 3, 12, 5],)),
    (nested, ([[1, 0], [], [2, 3]],)), (nested, ([],)),
    (set_and_dict, ([0, 1, 2, 3, 4],)),
    (generator, ([1, 3, 5],)), (generator, ([],)),
    (conditions_with_logic, ([1, 5, 10, 11, 20], 6)),
]


@pytest.mark.parametrize('fn,args', CASES, ids=lambda v: getattr(v, '__name__', None))
def test_same_results_as_python(fn, args):
    check(comprehensions, fn, *args)


def _is_call_of(node, operator):
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
        and node.func.attr == operator


@pytest.mark.parametrize('fn', list(dict.fromkeys(fn for fn, _ in CASES)),
                         ids=lambda f: f.__name__)
def test_every_condition_goes_through_the_runtime_check(fn):
    """Each `if` of a comprehension becomes `ag.comprehension_test(...)`, or, in one that
    a builtin reduces at once (`sum(x for x in xs if x > 2)`), a loop over `ag.keep(...)`
    (see runtime.python.selections)."""
    tree = up_to(comprehensions, fn).tree
    generators = [g for n in ast.walk(tree) for g in getattr(n, 'generators', [])]
    conditions = [c for g in generators for c in g.ifs]
    kept = [g.iter for g in generators if _is_call_of(g.iter, 'keep')]
    assert (conditions or kept) and all(_is_call_of(c, 'comprehension_test')
                                        for c in conditions), ast.unparse(tree)
