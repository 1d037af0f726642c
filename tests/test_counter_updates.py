"""A counter's update (`n += 1` of a name bound only by number literals) cannot change an
array in place, so the census leaves out IN_PLACE for it and the passes that follow NumPy's
in-place changes are skipped (analysis.census). A name that looks like a counter but may
hold an array (bound otherwise too: a parameter, a copy, a loop target, `global`) keeps
them, and NumPy's view of it sees the change, as in Python."""
import ast
import inspect
import textwrap

import numpy as np
import pytest

from autograph.analysis.census import IN_PLACE, census
from tests.helpers import check

G = np.arange(4.0)


def counters_only(x, n):
    count = 0
    total = 0.0
    for i in range(n):
        count += 1
        total = total + 2
        count = count * 2
    best = -1
    best -= 1
    return x * count + total + best


def copy_then_update(x):
    n = 0
    n = x.copy()
    view = n[:2]
    n += 1
    return view


def parameter_update(n):
    view = n[:2]
    n += 1
    return view


def loop_target_update(rows):
    views = []
    for n in rows:
        views.append(n[:1])
        n += 1
    return views


def global_update():
    global G
    view = G[:2]
    G += 1
    return view.copy()


def walrus_update(x):
    n = 0
    if (n := x.copy()) is not None:
        view = n[1:]
        n *= 2
    return view


def tuple_bound_update(x):
    n = 0
    n, k = x.copy(), 1
    view = n[:3]
    n -= k
    return view


def augmented_by_array(x):
    n = 0
    n = n + 1
    n += x          # a new array: n was a number
    view = n[:2]
    n += 1          # NumPy's in-place change, seen through the view
    return view


def _in_place(fn):
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
    return IN_PLACE in census(tree, 100).present


def test_counters_leave_out_in_place():
    assert not _in_place(counters_only)
    check(counters_only, np.arange(3.0), 4)


@pytest.mark.parametrize('fn', [copy_then_update, parameter_update, loop_target_update,
                                global_update, walrus_update, tuple_bound_update,
                                augmented_by_array])
def test_names_that_may_hold_arrays_are_in_place(fn):
    assert _in_place(fn)


@pytest.mark.parametrize('fn', [copy_then_update, parameter_update])
def test_views_of_updated_arrays_see_the_change(fn):
    check(fn, np.arange(5.0))


def test_global_view_sees_the_change():
    global G
    G = np.arange(4.0)
    expected = global_update()
    G = np.arange(4.0)
    from autograph import convert
    np.testing.assert_array_equal(convert(global_update, jit=False)(), expected)
    np.testing.assert_array_equal(G, np.arange(4.0) + 1)
