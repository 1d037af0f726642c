"""NumPy views the converted code follows by binding them to a name first, and those it
names: item writes through a chain of views (`m.T[0, 1] = e`, `m.reshape(4)[k] += e`:
the write reaches `m`, as NumPy's does), rows of `enumerate(M, start)` with any start,
and the methods whose result may be a view no step follows (`m.squeeze()`,
`m.diagonal()`, `m.view(dtype)`, `m.astype(t, copy=False)`): where the result or its
array is changed in place, a named ControlFlowError (the converted code would change a
copy: a silent wrong value before).

Ground truth: the same function run by plain Python on fresh NumPy arrays; the caller's
arrays are compared after each call too.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def _agree(fn, make, runs=2):
    """`fn` converted (compiled, `runs` calls, and eagerly) against plain Python, each on
    fresh arguments from `make()`; the arguments are compared after each call too."""
    args = make()
    expected = fn(*args)
    for convert in (autograph.convert(fn), autograph.convert(fn, jit=False)):
        for _ in range(runs):
            mine = make()
            assert_same(convert(*mine), expected)
            assert_same(list(mine), list(args))
    return expected, args


def _matrix():
    return (np.arange(1.0, 7.0, dtype=np.float32).reshape(2, 3),)


# --- item writes through a chain of views -------------------------------------------------

def write_transposed(m):
    m.T[2, 1] = 7.0
    return m.sum()


def add_through_transposed_row(m):
    m.T[0] += 10.0
    return m.sum()


def write_reshaped(m):
    m.reshape(6)[4] = -1.0
    return m


def write_swapped_in_loop(m):
    for i in range(3):
        m.swapaxes(0, 1)[i, 1] = i * 2.0
    return m.sum()


def write_transposed_under_traced_test(m, x):
    if x > 0:
        m.T[1, 0] = x
    return m


@pytest.mark.parametrize('fn', [write_transposed, add_through_transposed_row, write_reshaped,
                                write_swapped_in_loop])
def test_item_write_through_a_chain_reaches_the_array(fn):
    expected, args = _agree(fn, _matrix)
    assert not np.array_equal(args[0], _matrix()[0])   # (Python's write reached `m`)


def test_item_write_through_a_chain_under_a_traced_test():
    for x in (2.5, -1.0):
        _agree(write_transposed_under_traced_test,
               lambda: _matrix() + (np.float32(x),))


def test_item_write_through_a_chain_under_jit_and_vmap_of_jax_arrays():
    # A JAX array's view is a copy (as `v = m.T; v[2, 1] = e` leaves `m`): the write
    # is made, no error, and `m` is the array given (Python raises: JAX arrays are
    # immutable).
    m = jnp.arange(1.0, 7.0).reshape(2, 3)
    fn = autograph.convert(write_transposed)
    assert_same(jax.jit(fn)(m), m.sum())
    assert_same(jax.vmap(fn)(jnp.stack([m, m + 1])), jnp.stack([m.sum(), (m + 1).sum()]))


def test_generated_code_binds_the_view_first():
    code = autograph.to_code(write_transposed)
    assert 'm_view, m_view_key = ag.view(m, ag.chain(ag.transposed())' in code
    assert 'ag.write_view(m, ' in code


# --- rows of enumerate with any start ------------------------------------------------------

def rows_of_enumerate_from(m, k):
    for i, row in enumerate(m, k):
        row[0] = i
        row *= 2.0
    return m.sum()


def rows_of_enumerate_from_a_call(m, k):
    calls = []

    def start():
        calls.append(k)
        return k + 1
    for i, row in enumerate(m, start()):
        row[1] = i + len(calls)
    return m.sum(), len(calls)


@pytest.mark.parametrize('fn', [rows_of_enumerate_from, rows_of_enumerate_from_a_call])
def test_rows_of_enumerate_with_a_start_are_views(fn):
    expected, args = _agree(fn, lambda: _matrix() + (3,))
    assert not np.array_equal(args[0], _matrix()[0])


# --- methods whose views are not followed -----------------------------------------------

def squeeze_written(w):
    s = w.reshape(1, 6).squeeze()
    s[1] = 7.0
    return w.sum()


def squeeze_then_base_written(m):
    s = m.squeeze()
    m[0, 1] = 7.0
    return s.sum()


def diagonal_read_after_base_written(m):
    d = m.diagonal()
    m[1, 1] = 0.0
    return d.sum()


def astype_without_copy_written(w):
    r = w.astype(np.float32, copy=False)
    r[1] = 3.0
    return w.sum()


def view_as_type_written(w):
    r = w.view(np.int32)
    r[0] = 0
    return w.sum()


@pytest.mark.parametrize('fn, method, make', [
    (squeeze_written, 'squeeze', lambda: (np.arange(6.0, dtype=np.float32),)),
    (squeeze_then_base_written, 'squeeze', _matrix),
    (diagonal_read_after_base_written, 'diagonal', _matrix),
    (astype_without_copy_written, 'astype', lambda: (np.arange(6.0, dtype=np.float32),)),
    (view_as_type_written, 'view', lambda: (np.arange(6.0, dtype=np.float32),)),
])
def test_methods_whose_views_are_not_followed_are_named(fn, method, make):
    with pytest.raises(autograph.ControlFlowError, match=rf'`\.{method}\(\.\.\.\)` here '
                                                         'may give a NumPy view'):
        autograph.convert(fn)(*make())
    # Run eagerly, the arrays stay NumPy's: its own views, Python's values.
    args, expected_args = make(), make()
    assert_same(autograph.convert(fn, jit=False)(*args), fn(*expected_args))
    assert_same(list(args), list(expected_args))


def test_methods_of_jax_arrays_give_copies():
    m = jnp.arange(1.0, 7.0).reshape(1, 6)
    assert_same(autograph.convert(squeeze_then_base_written)(m), m.sum())
    assert_same(jax.jit(autograph.convert(squeeze_written))(jnp.arange(6.0)), 15.0)


def astype_copied_written(w):
    r = w.astype(np.float32)
    r[1] = 3.0
    return w.sum() + r.sum()


def squeeze_only_read(w):
    s = w.reshape(1, 6).squeeze()
    return s.sum() + w[0]


def user_squeeze_method(w):
    class Box:
        def squeeze(self):
            return w * 2.0
    s = Box().squeeze()
    s[0] = 1.0
    return s


@pytest.mark.parametrize('fn', [astype_copied_written, squeeze_only_read, user_squeeze_method])
def test_copies_and_unchanged_views_agree(fn):
    _agree(fn, lambda: (np.arange(6.0, dtype=np.float32),))


def test_numpy_functions_are_not_methods_of_their_module():
    def np_squeeze_written(w):
        s = np.squeeze(w)
        s[1] = 7.0
        return w.sum()
    assert 'method=' not in autograph.to_code(np_squeeze_written)
