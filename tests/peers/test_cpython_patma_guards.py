"""CPython's pattern-matching tests on guards and the names a case binds, restated as
functions run plain and converted (python/cpython Lib/test/test_patma.py, commit
fd56269cc863fb51d7ac1fb22148c160b38410bd): a capture is bound before its guard runs and
stays bound when the guard fails; a guard may be traced while the patterns test Python
structure (staged like an `if`). Compared to plain Python on the same inputs.
"""
import dataclasses

import jax.numpy as jnp
import pytest

from tests.helpers import check, check_ints


@dataclasses.dataclass
class Point:
    x: int
    y: int


# --- bindings of failed cases ------------------------------------------------------------

def guard_failure_keeps_binding(s):
    match s:
        case [a, b] if a > b:
            r = 'descending'
        case _:
            r = 'else'
    return r, a  # noqa: F821 (bound by the failed case, as CPython does)


def guard_sees_bindings(s):
    match s:
        case [x, y] if (total := x + y) > 3:
            return total
    return -1


@pytest.mark.parametrize('s', [[1, 2], [2, 1]])
def test_names_bound_by_a_case_whose_guard_failed_stay_bound(s):
    check(guard_failure_keeps_binding, s)


@pytest.mark.parametrize('s', [[1, 1], [2, 3]])
def test_guard_walrus_binds(s):
    check(guard_sees_bindings, s)


def capture_bound_before_guard(x):
    match x:
        case n if n > 5:
            r = 1
        case (0 | 1) as bit if bit > 0:
            r = 2
        case _:
            r = 0
    return r, n


@pytest.mark.parametrize('x', [7, 2, 0])
def test_capture_stays_bound_when_its_guard_fails(x):
    check_ints(capture_bound_before_guard, x)


def several_guarded_structural_cases(p):
    match p:
        case Point(x, y) if x > y:
            r = x - y
        case Point(x, y) if x < 0:
            r = -x * y
        case Point(x, y):
            r = x + y + 100
    return r, x


@pytest.mark.parametrize('x,y', [(5, 2), (-3, 2), (1, 4)])
def test_several_guarded_structural_cases(x, y):
    check(several_guarded_structural_cases, Point(x, y))
    check(several_guarded_structural_cases, Point(jnp.int32(x), jnp.int32(y)))
