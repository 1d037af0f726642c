"""An array the function makes, fills with traced values and then appends to a list,
made anew before it is changed again: `r = np.zeros(3); r[0] = x[i]; rows.append(r)` in
a loop. The list, which the function only grows and reads whole (`np.stack(rows)`),
holds each array once it is complete, so the array is the function's own while it is
written (analysis.own_arrays with identity_uses.handed_on_last): it converts, where the
traced write was the named error numpy_traced_write. Where the array is changed after it
is handed on, the list would see the change in NumPy, and where the holder gives its
items out (`rows[-1][0] = e`, a dict's `table[0]`) it could change them: the named error
stays."""
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def filled_rows(x, n):
    rows = []
    for i in range(n):
        r = np.zeros(3)
        r[0] = x[i]
        r[1] = x[i] * 2.0
        rows.append(r)
    if rows:   # (a truth test reads the list whole)
        return np.stack(rows)
    return np.zeros((0, 3))


def perturbed_columns(x0, eps):
    cols = []
    for k in range(3):
        y = x0.copy()
        y[k] += eps
        cols.append(y)
    return np.stack(cols)


def stored_by_key(x, n):
    table = {}
    for i in range(n):
        entry = np.ones(2)
        entry[1] = x[i]
        table[i] = entry
    return table[0] + table[n - 1]


def changed_after_append(x, n):
    rows = []
    for i in range(n):
        r = np.zeros(3)
        rows.append(r)
        r[0] = x[i]          # (the list's array changes too)
    return np.stack(rows)


def one_array_appended_again(x, n):
    rows = []
    r = np.zeros(3)
    for i in range(n):
        r[0] = x[i]          # (changes the array the list already holds)
        rows.append(r)
    return np.stack(rows)


def copied_into_after_append(x, n):
    rows = []
    for i in range(n):
        r = np.zeros(2)
        rows.append(r)
        np.copyto(r, x[i:i + 2])
    return np.stack(rows)


X = np.array([1.0, -2.0, 3.0, 0.5], np.float32)


@pytest.mark.parametrize('make', [np.asarray, jnp.asarray], ids=['numpy', 'jax'])
def test_arrays_handed_on_complete(make):
    assert_same(autograph.convert(filled_rows)(make(X), 4), filled_rows(X, 4))


def test_perturbed_copies():
    x0 = np.array([0.0, 1.0, 2.0], np.float32)
    assert_same(autograph.convert(perturbed_columns)(x0, jnp.float32(0.1)),
                perturbed_columns(x0, np.float32(0.1)))


def changed_through_the_list(x, n):
    rows = []
    for i in range(n):
        r = np.zeros(3)
        r[1] = x[i]
        rows.append(r)
        rows[-1][0] = x[i] * 2.0   # (changes `r`'s array through the list)
    return np.stack(rows)


@pytest.mark.parametrize('fn', [changed_after_append, one_array_appended_again,
                                copied_into_after_append, changed_through_the_list,
                                stored_by_key])
def test_arrays_changed_after_they_are_handed_on_stay_a_named_error(fn):
    assert_same(autograph.convert(fn, jit=False)(X, 3), fn(X, 3))   # (as Python)
    with pytest.raises(autograph.ControlFlowError):
        autograph.convert(fn)(jnp.asarray(X), 3)


# --- loops with `break` and `continue` (the liveness follows them: they were refused) ---

def rows_skipping_and_stopping(x, n, limit):
    rows = []
    for i in range(n):
        r = np.zeros(3)
        r[0] = x[i]
        if i == 1:
            continue
        r[2] = x[i] * 3.0
        rows.append(r)
        if len(rows) >= limit:
            break
    return np.stack(rows)


@pytest.mark.parametrize('limit', [1, 2, 5])
@pytest.mark.parametrize('make', [np.asarray, jnp.asarray], ids=['numpy', 'jax'])
def test_arrays_handed_on_complete_in_a_loop_with_break_and_continue(make, limit):
    assert_same(autograph.convert(rows_skipping_and_stopping, jit=False)(X, 4, limit),
                rows_skipping_and_stopping(X, 4, limit))
    assert_same(autograph.convert(rows_skipping_and_stopping)(make(X), 4, limit),
                rows_skipping_and_stopping(X, 4, limit))


def changed_after_a_break(x, n):
    rows = []
    for i in range(3):
        r = np.zeros(2)
        r[0] = x[i]
        rows.append(r)
        if i == n:
            break
    else:
        r = np.zeros(2)      # (a loop that ends without `break` binds `r` anew)
    r[1] = 9.0               # (after a `break`: the list's last array changes too)
    return np.stack(rows)


@pytest.mark.parametrize('n', [1, 5])
def test_an_array_changed_after_a_break_stays_a_named_error(n):
    """Only a `break` reaches `r[1] = 9.0` with the array the list holds: liveness that
    took the `break` for the loop's end (through its `else`) would let the traced write
    make a new array, which the list would not see (whether the loop breaks is decided
    as the program runs: the error stands where it does not)."""
    assert_same(autograph.convert(changed_after_a_break, jit=False)(X, n),
                changed_after_a_break(X, n))
    with pytest.raises(autograph.ControlFlowError):
        autograph.convert(changed_after_a_break)(jnp.asarray(X), n)


# --- in a `match` case, and changed in an `except` clause ---------------------------------

def rows_in_a_case(x, n):
    total = x[0] * 0.0
    match n:
        case 1 | 2:
            rows = []
            for i in range(3):
                r = np.zeros(2)
                r[0] = x[i] * 0.5 + i
                rows.append(r)
            if rows:
                total = total + np.stack(rows).sum()
        case _:
            total = total + 1.0
    return total


def changed_in_a_handler(x, n):
    rows = []
    for i in range(3):
        r = np.zeros(2)
        r[0] = x[i]
        rows.append(r)
        try:
            if i == n:
                raise ValueError
        except ValueError:
            r[1] = 9.0       # (the list's last array changes too)
    return np.stack(rows)


@pytest.mark.parametrize('n', [1, 3])
def test_arrays_handed_on_complete_in_a_match_case(n):
    """The uses of `r` in a case's body were taken for the `match` statement's own (so
    for a hand-on the analysis could not place: the named error numpy_traced_write)."""
    assert_same(autograph.convert(rows_in_a_case)(jnp.asarray(X), n), rows_in_a_case(X, n))


def test_an_array_changed_in_an_except_clause_stays_a_named_error():
    assert_same(autograph.convert(changed_in_a_handler, jit=False)(X, 1),
                changed_in_a_handler(X, 1))
    with pytest.raises(autograph.ControlFlowError):
        autograph.convert(changed_in_a_handler)(jnp.asarray(X), 1)
