"""passes.match: a `match` with value patterns becomes an if/elif chain; one with class,
sequence or mapping patterns stays as written."""
import ast

import pytest

from autograph.passes import match
from tests.convert.harness import check, up_to


def small_or_big(k, x):
    match k:
        case 0 | 1:
            y = x
        case 2 if x > 0:
            y = -x
        case n:
            y = x * n
    return y


def constants(v):
    match v:
        case None:
            return 'none'
        case True:
            return 'true'
        case False:
            return 'false'
        case 'a' | 'b':
            return 'letter'
        case _:
            return 'other'


def computed_subject(xs):
    match len(xs) % 3:
        case 0:
            r = 'zero'
        case 1 as one:
            r = 'one' * one
        case _:
            r = 'two'
    return r


def no_match_taken(k):
    y = 'unset'
    match k:
        case 1:
            y = 'one'
        case 2:
            y = 'two'
    return y


def in_loop(ks):
    total = 0
    for k in ks:
        match k:
            case 0:
                continue
            case 9:
                break
            case _:
                total += k
    return total


def sequence_pattern(p):
    match p:
        case (x, y):
            return x + y
        case [x]:
            return x
        case _:
            return 0


VALUE_PATTERNS = [small_or_big, constants, computed_subject, no_match_taken, in_loop]
CASES = [
    (small_or_big, (0, 5)), (small_or_big, (1, 5)), (small_or_big, (2, 5)),
    (small_or_big, (2, -5)), (small_or_big, (4, 3)),
    (constants, (None,)), (constants, (True,)), (constants, (False,)), (constants, ('b',)),
    (constants, (1,)), (constants, (0,)),
    (computed_subject, ([],)), (computed_subject, ([1],)), (computed_subject, ([1, 2],)),
    (no_match_taken, (1,)), (no_match_taken, (3,)),
    (in_loop, ([1, 0, 2, 9, 5],)), (in_loop, ([],)),
    (sequence_pattern, ((1, 2),)), (sequence_pattern, ([4],)), (sequence_pattern, ('ab',)),
]


@pytest.mark.parametrize('fn,args', CASES, ids=lambda v: getattr(v, '__name__', None))
def test_same_results_as_python(fn, args):
    check(match, fn, *args)


@pytest.mark.parametrize('fn', VALUE_PATTERNS, ids=lambda f: f.__name__)
def test_value_patterns_become_an_if_chain(fn):
    tree = up_to(match, fn).tree
    assert not any(isinstance(n, ast.Match) for n in ast.walk(tree)), ast.unparse(tree)


def test_structural_patterns_stay_a_match():
    tree = up_to(match, sequence_pattern).tree
    assert any(isinstance(n, ast.Match) for n in ast.walk(tree))
