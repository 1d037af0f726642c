"""An item stored in a list, dict display or attribute (`rows.append(M[i])`) is a view of
a row where the array has more dimensions than the item has indices, and a number (a
copy) where it has as many. A later change of the array in place is seen through the
row, so where the array is traced by then (the converted code makes a new array) it is
the named error numpy_held_write: it was a silent wrong value, the list kept the rows
from before the change. Where the item is a number, nothing holds the array and the
change converts (analysis.own_arrays `held_items`, runtime.items.items `check_held`)."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.runtime.errors import ControlFlowError


def rows_then_added(M, t):
    rows = []
    for i in range(3):
        rows.append(M[i])
    if t > 0:
        M += 1
    return rows[0] + rows[2]


def named_row_then_added(M, t):
    rows = []
    for i in range(3):
        r = M[i]
        rows.append(r)
    if t > 0:
        M += 1
    return rows[0] + rows[1]


def row_in_a_display_then_item_written(M, t):
    pair = [M[0], M[1]]
    if t > 0:
        M[0, 1] = t
    return pair[0] * 2.0


class Box:
    pass


def row_in_an_attribute_then_scaled(M, t):
    box = Box()
    box.row = M[1]
    if t > 0:
        M *= t
    return box.row + 1.0


def entries_then_added(M, t):
    seen = []
    for i in range(3):
        seen.append(M[i, 0])   # two indices of a matrix: a number
    if t > 0:
        M += 1
    return sum(seen) + M[0, 0]


def samples_then_stepped(x, t):
    trace = []
    for i in range(3):
        trace.append(x[i])     # an item of a vector: a number
        if t > 0:
            x += t
    return sum(trace)


def _matrix():
    return np.arange(6.0).reshape(3, 2)


HELD = [rows_then_added, named_row_then_added, row_in_a_display_then_item_written,
        row_in_an_attribute_then_scaled]


@pytest.mark.parametrize('fn', HELD)
def test_rows_stored_then_changed_run_as_python_unjitted(fn):
    expected, got = _matrix(), _matrix()
    want = fn(expected, 2.0)
    np.testing.assert_array_equal(autograph.convert(fn, jit=False)(got, 2.0), want)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize('fn', HELD)
def test_rows_stored_then_changed_when_traced_are_a_named_error(fn):
    with pytest.raises(ControlFlowError, match='also holds is changed in place'):
        autograph.convert(fn)(_matrix(), 2.0)


@pytest.mark.parametrize('fn, make', [(entries_then_added, _matrix),
                                      (samples_then_stepped, lambda: np.arange(4.0))])
@pytest.mark.parametrize('how', ['plain', 'jit', 'vmap'])
def test_numbers_stored_leave_the_array_free(fn, make, how):
    expected, given = make(), make()
    want = fn(expected, 2.0)
    converted = autograph.convert(fn)
    if how == 'plain':
        got = converted(given, 2.0)
        np.testing.assert_array_equal(given, expected)   # (written back in place)
    elif how == 'jit':
        got = jax.jit(converted)(jnp.asarray(given), 2.0)
    else:
        got = jax.vmap(converted, in_axes=(None, 0))(jnp.asarray(given), jnp.array([2.0]))[0]
    np.testing.assert_allclose(np.asarray(got), want)


def test_held_items_reach_the_generated_checks():
    assert 'held_items=1' in autograph.to_code(rows_then_added)
    assert 'held_items=2' in autograph.to_code(entries_then_added)
