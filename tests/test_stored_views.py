"""A view stored in a list, dict or attribute holds its base's array: NumPy's in-place
change of the base is seen through it (analysis.own_arrays: the base is held). Where the
base is traced, the converted code makes a new array, which the stored view would not
see, so the change is the named error numpy_held_write (it was a silent wrong value: the
list kept the rows from before the change); as Python, the same code gives NumPy's
values. A loop that would run such changes as one reduction runs them one by one,
through their checks (analysis.independence)."""
import numpy as np
import pytest

import autograph
from autograph.runtime.errors import ControlFlowError


def rows_stored_then_changed(rows):
    heads = []
    for row in rows:
        heads.append(row[:1])
        row += 1
    return heads


def named_view_stored_then_changed(rows):
    heads = []
    for row in rows:
        head = row[:1]
        heads.append(head)
        row += 1
    return heads


def item_written_after_store(rows):
    heads = []
    for row in rows:
        heads.append(row[:1])
        row[0] += 1
    return heads


def stored_in_display(x, n):
    box = {'head': x[:2]}
    for i in range(n):
        x += 1
    return box['head']


def held_then_accumulated(x, n):
    box = {'all': x}
    for i in range(n):   # (an accumulation the loop would run as one sum)
        x += 1
    return box['all']


def scalar_items_are_copies(x, n):
    history = []
    for i in range(n):
        history.append(x[0])   # a 1-D array's item: a copy, nothing holds `x`
        x[0] += 1
    return history


def _rows():
    return np.arange(6.0).reshape(3, 2)


@pytest.mark.parametrize('fn', [rows_stored_then_changed, named_view_stored_then_changed,
                                item_written_after_store])
def test_stored_views_of_traced_rows_are_a_named_error(fn):
    expected = fn(_rows())
    got = autograph.convert(fn, jit=False)(_rows())   # (NumPy throughout: Python's run)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(expected))
    with pytest.raises(ControlFlowError, match='also holds is changed in place'):
        autograph.convert(fn)(_rows())


def test_view_in_a_dict_display_is_a_named_error_when_traced():
    expected = stored_in_display(np.arange(4.0), 3)
    np.testing.assert_array_equal(
        autograph.convert(stored_in_display, jit=False)(np.arange(4.0), 3), expected)
    with pytest.raises(ControlFlowError, match='also holds is changed in place'):
        autograph.convert(stored_in_display)(np.arange(4.0), 3)


def test_held_accumulator_runs_its_check():
    expected = held_then_accumulated(np.arange(4.0), 3)
    np.testing.assert_array_equal(
        autograph.convert(held_then_accumulated, jit=False)(np.arange(4.0), 3), expected)
    with pytest.raises(ControlFlowError, match='also holds is changed in place'):
        autograph.convert(held_then_accumulated)(np.arange(4.0), 3)


def test_items_of_a_vector_are_copies():
    expected = scalar_items_are_copies(np.arange(3.0), 3)
    got = autograph.convert(scalar_items_are_copies)(np.arange(3.0), 3)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(expected))
