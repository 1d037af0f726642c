"""What CPython's pattern-matching tests pin down about the `match` statement, a sample
restated as functions run plain and converted (python/cpython Lib/test/test_patma.py,
commit fd56269cc863fb51d7ac1fb22148c160b38410bd): literal, capture, wildcard, value,
or-, as-, sequence (with star), mapping (with **rest), class (positional and keyword)
patterns, guards, the first matching case, and what stays bound when a case fails.

Patterns on Python values run as Python; a traced number subject is matched like an
if/elif chain, compared to plain Python on the same JAX scalar.
"""
import collections
import dataclasses
import enum

import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import check, check_ints, site


class Color(enum.Enum):
    RED = 0
    GREEN = 1


class Limits:
    LOW = 2
    HIGH = 8


@dataclasses.dataclass
class Point:
    x: int
    y: int


class Plain:   # (no __match_args__: only keyword sub-patterns)
    def __init__(self, a):
        self.a = a


Pair = collections.namedtuple('Pair', 'left right')


# --- on numbers (traced subject: staged like if/elif) ------------------------------------

def literals(x):
    match x:
        case 0:
            r = 10
        case 1 | 2:
            r = 20
        case -3:
            r = 30
        case _:
            r = 40
    return r


def value_patterns(x):
    match x:
        case Limits.LOW:
            return x * 100
        case Limits.HIGH:
            return x * 1000
    return -x


def capture_with_guard(x):
    match x:
        case n if n > 5:
            r = n * 2
        case n if n < 0:
            r = -n
        case n:
            r = n + 100
    return r


def first_match_wins(x):
    match x:
        case 1:
            r = 1
        case 1:
            r = 2
        case _:
            r = 3
    return r


def no_case_matches_keeps_binding(x):
    r = x
    match x:
        case 1:
            r = 11
        case 2:
            r = 22
    return r


def or_with_guard(x):
    match x:
        case 1 | 2 | 3 if x % 2:
            r = 'odd small'
        case 1 | 2 | 3:
            r = 'even small'
        case _:
            r = 'other'
    return r


def as_pattern(x):
    match x:
        case (0 | 1) as bit:
            r = bit + 7
        case _ as other:
            r = other * 3
    return r


@pytest.mark.parametrize('x', [0, 1, 2, -3, 5])
def test_literal_and_or_patterns(x):
    check_ints(literals, x)


@pytest.mark.parametrize('x', [2, 8, 5])
def test_value_patterns_dotted_names(x):
    check_ints(value_patterns, x)


@pytest.mark.parametrize('x', [9, -4, 3])
def test_capture_with_guards(x):
    check_ints(capture_with_guard, x)


@pytest.mark.parametrize('x', [1, 4])
def test_first_matching_case_wins(x):
    check_ints(first_match_wins, x)


@pytest.mark.parametrize('x', [1, 2, 7])
def test_no_case_matches(x):
    check_ints(no_case_matches_keeps_binding, x)


@pytest.mark.parametrize('x', [1, 2, 9])
def test_or_pattern_with_guard_python(x):
    check(or_with_guard, x)


@pytest.mark.parametrize('x', [0, 1, 6])
def test_as_pattern(x):
    check_ints(as_pattern, x)


# --- singletons and equality -------------------------------------------------------------

def singletons(x):
    match x:
        case True:
            return 'true'
        case False:
            return 'false'
        case None:
            return 'none'
        case 1:
            return 'one'
        case 0:
            return 'zero'
    return 'other'


def float_equals_int(x):
    match x:
        case 0:
            return 'zero'
        case 2:
            return 'two'
    return 'neither'


def enum_members(c):
    match c:
        case Color.RED:
            return 'r'
        case Color.GREEN:
            return 'g'


@pytest.mark.parametrize('x', [True, False, None, 1, 0, 3])
def test_singletons_match_by_identity(x):
    check(singletons, x)


@pytest.mark.parametrize('x', [0.0, -0.0, 2.0, 2.5])
def test_literal_matches_by_equality(x):
    check(float_equals_int, x)


@pytest.mark.parametrize('c', [Color.RED, Color.GREEN])
def test_enum_value_patterns(c):
    check(enum_members, c)


# --- sequences ---------------------------------------------------------------------------

def sequences(s):
    match s:
        case []:
            return 'empty'
        case [x]:
            return f'one {x}'
        case [x, y] if x == y:
            return f'twin {x}'
        case [0, *rest]:
            return f'zero then {len(rest)}'
        case [first, *_, last]:
            return f'{first}..{last}'


def nested_sequences(s):
    match s:
        case [(a, b), [c, *d]]:
            return a + b + c + len(d)
        case [[x], *_]:
            return x
    return -1


def strings_are_not_sequences(s):
    match s:
        case [_, _, _]:
            return 'seq of 3'
        case str():
            return 'str'
    return 'other'


@pytest.mark.parametrize('s', [[], [5], (3, 3), [0, 1, 2], [1, 2, 3, 4], (7, 8)])
def test_sequence_patterns(s):
    check(sequences, s)


@pytest.mark.parametrize('s', [[(1, 2), [3, 4, 5]], [[9], 1], [1, 2]])
def test_nested_sequence_patterns(s):
    check(nested_sequences, s)


@pytest.mark.parametrize('s', ['abc', [1, 2, 3], {1, 2, 3}])
def test_str_does_not_match_a_sequence_pattern(s):
    check(strings_are_not_sequences, s)


# --- mappings ----------------------------------------------------------------------------

def mappings(m):
    match m:
        case {'kind': 'point', 'x': x, 'y': y}:
            return x + y
        case {'kind': 'scale', **rest}:
            return len(rest)
        case {}:
            return -1
    return -2


@pytest.mark.parametrize('m', [{'kind': 'point', 'x': 1, 'y': 2, 'z': 0},
                               {'kind': 'scale', 'a': 1, 'b': 2}, {'other': 1}, [1]])
def test_mapping_patterns(m):
    check(mappings, m)


def mapping_on_numbers(m):
    match m:
        case {'x': x} if x > 0:
            r = x * 2
        case {'x': x}:
            r = x - 1
        case _:
            r = 0
    return r


@pytest.mark.parametrize('x', [3, -3])
def test_mapping_pattern_with_python_value_and_guard(x):
    check(mapping_on_numbers, {'x': x})


@pytest.mark.parametrize('x', [3, -3])
def test_mapping_pattern_with_traced_value_and_guard(x):
    # the structure is Python's, the guard traced: staged like an `if`
    check(mapping_on_numbers, {'x': jnp.int32(x)})


# --- classes -----------------------------------------------------------------------------

def class_patterns(v):
    match v:
        case Point(0, 0):
            return 'origin'
        case Point(x=0, y=y):
            return f'on y {y}'
        case Point(x, y) if x == y:
            return f'diagonal {x}'
        case Pair(left, right=Point()):
            return f'pair {left}'
        case Plain(a=a):
            return f'plain {a}'
        case int(n) | float(n):
            return f'number {n}'
        case str() | bytes():
            return 'text'
    return 'other'


@pytest.mark.parametrize('v', [Point(0, 0), Point(0, 4), Point(3, 3), Point(1, 2),
                               Pair(1, Point(1, 1)), Pair(1, 2), Plain(5), 4, 2.5,
                               'abc', b'xy', None])
def test_class_patterns(v):
    check(class_patterns, v)


def class_pattern_on_numbers(p):
    match p:
        case Point(x, y) if x > y:
            r = x - y
        case Point(x, y):
            r = y - x + 100
    return r


@pytest.mark.parametrize('x,y', [(5, 2), (2, 5)])
def test_class_pattern_with_python_fields(x, y):
    check(class_pattern_on_numbers, Point(x, y))


@pytest.mark.parametrize('x,y', [(5, 2), (2, 5)])
def test_class_pattern_with_traced_fields(x, y):
    check(class_pattern_on_numbers, Point(jnp.int32(x), jnp.int32(y)))


def test_sequence_pattern_on_traced_subject_is_named():
    # an array subject has no Python structure to match: the project's error, at `match`
    with pytest.raises(autograph.ControlFlowError, match=site(sequences, 'match s:')):
        autograph.convert(sequences)(jnp.arange(3))
