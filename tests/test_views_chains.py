"""NumPy views made in more than one step (analysis.view_chains, runtime.items.
view_chains): `A = w.reshape(2, 2)`, `u = w.ravel()`, `u = w[None]`, `u = w.view()`,
`u = w[1:][::-1]`, `u = w.reshape(2, 2).T` and `h = head(w)` (a helper returning
`w[:2]`) are views of `w`, and writes through them reach `w`, as NumPy's do; a reshape
that NumPy must copy (`ravel()` of a column) is a copy. Ground truth: the same function run by
plain Python on NumPy arrays (fresh copies for each run), the arrays given compared
after the call too."""
import copy

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def _same_as_python(fn, *args):
    """`fn` converted (compiled, twice, and eagerly) against plain Python, on fresh
    copies of `args` (NumPy arrays): the results and the arrays after the calls."""
    given = copy.deepcopy(args)
    expected = fn(*given)
    for convert in (autograph.convert(fn), autograph.convert(fn, jit=False)):
        for _ in range(2):
            mine = copy.deepcopy(args)
            assert_same(convert(*mine), expected)
            assert_same(mine, given)
    return expected, given


def head(arr):
    return arr[:2]


def take(arr, k):
    return arr[:k]


def reshaped_row(v, n):
    w = v * 1.0
    A = w.reshape(2, 2)
    for i in range(n):   # (a staged loop: n traced)
        row = A[i % 2]
        row *= 0.5
    return w, A[1, 0] + 0.0


def raveled(v, x):
    w = v * 1.0
    u = w.ravel()
    if x > 0.0:   # (a staged `if`)
        u[1] = x
    return w


def new_axis(v, x):
    w = v * 1.0
    u = w[None]
    k = 0
    while k < 3:   # (a Python loop)
        u[0, k] = x * k
        k += 1
    return w


def whole_view(v, x):
    u = v.view()   # (the caller's array)
    if x > 0.0:
        u[2] = x
    return u.sum()


def reversed_tail(v, n):
    w = v * 1.0
    u = w[1:][::-1]
    i = 0
    while i < n:   # (a staged loop)
        u[0] *= 0.5
        i += 1
    return w


def returned_view(v, m):
    w = v * 1.0
    h = head(w)
    if m > 1:   # (a Python `if`)
        h[1] = 7.0
    return w


@pytest.mark.parametrize('n', [0, 1, 3])
def test_a_reshaped_array_s_rows_are_views_of_the_array(n):
    expected, _ = _same_as_python(reshaped_row, np.arange(1.0, 5.0, dtype=np.float32), n)
    if n:
        assert not np.array_equal(expected[0], np.arange(1.0, 5.0))   # (it changed)


@pytest.mark.parametrize('x', [2.0, -2.0])
def test_ravel_and_none_give_views_under_staged_and_python_flow(x):
    _same_as_python(raveled, np.arange(1.0, 5.0, dtype=np.float32), x)
    _same_as_python(new_axis, np.arange(1.0, 5.0, dtype=np.float32), x)


@pytest.mark.parametrize('x', [2.0, -2.0])
def test_view_method_writes_the_caller_s_array(x):
    _, given = _same_as_python(whole_view, np.arange(1.0, 5.0, dtype=np.float32), x)
    assert (given[0][2] == x) == (x > 0.0)


@pytest.mark.parametrize('n', [0, 2])
def test_a_view_of_a_view_writes_through_both(n):
    _same_as_python(reversed_tail, np.arange(1.0, 5.0, dtype=np.float32), n)


@pytest.mark.parametrize('m', [0, 2])
def test_a_helper_returning_a_slice_of_its_argument_gives_a_view(m):
    expected, _ = _same_as_python(returned_view, np.arange(1.0, 5.0, dtype=np.float32), m)
    assert (expected[1] == 7.0) == (m > 1)
    assert 'ag.chain(slice(None, 2))' in autograph.to_code(returned_view)


def test_ravel_of_an_array_not_in_c_order_is_a_copy():
    def column(v):
        w = v * 1.0
        u = w.reshape(2, 2)[:, 0].ravel()   # (NumPy copies: a column)
        u[1] = 9.0
        v2 = w[::2].reshape(2, 1)   # (a view: no copy needed)
        v2[0] = 5.0
        return w, u
    _same_as_python(column, np.arange(1.0, 5.0, dtype=np.float32))


def test_the_base_written_is_seen_through_the_chain():
    def later(v):
        w = v * 1.0
        u = w.reshape(2, 2)
        w[3] = 8.0
        return u[1, 1] + 0.0
    _same_as_python(later, np.arange(1.0, 5.0, dtype=np.float32))


def test_a_list_s_slices_stay_copies():
    def tail(values):
        u = values[1:][::-1]
        u[0] = 5
        return values, u
    _same_as_python(tail, [1, 2, 3, 4])


def test_jax_arrays_and_jit_give_copies():
    """Under the caller's `jax.jit` the arguments are JAX arrays: `w.reshape(2, 2)` is a
    new array, as JAX's is (the copies twin below is Python's result)."""
    def copies(v, x):
        w = v * 1.0
        u = w.ravel().copy()
        if x > 0.0:
            u[1] = x
        return w
    v = np.arange(1.0, 5.0, dtype=np.float32)
    expected = copies(v.copy(), 2.0)
    assert_same(jax.jit(autograph.convert(raveled))(v, 2.0), expected)
    assert_same(autograph.convert(raveled)(jnp.asarray(v), 2.0), expected)


def test_helpers_returning_views_given_names_and_constants():
    def by_helper(v, k):
        w = v * 1.0
        h = take(w, k)   # (`return arr[:k]`, with the caller's `k`)
        h[1] = 7.0
        g = same(w)   # (`return arr`: all of it)
        g[3] += 1.0
        return w
    _same_as_python(by_helper, np.arange(1.0, 5.0, dtype=np.float32), 2)


def same(arr):
    return arr


def tail(k, arr):
    b = arr[k:]
    return b


@pytest.mark.parametrize('x', [1.0, -1.0])
def test_a_transpose_is_a_view(x):
    def transposed(v, x):
        w = v * 1.0
        u = w.reshape(2, 2).T
        u[0] *= 2.0
        if x > 0.0:
            t = w.reshape(2, 2).transpose()[1]
            t += x
        return w, u
    _same_as_python(transposed, np.arange(1.0, 5.0, dtype=np.float32), x)


def test_views_not_followed_are_named_errors():
    """A reshape of a view (whose memory layout decides between NumPy's view and copy)
    and a helper returning a view it binds first are not followed: a named error, not
    the base left as it was."""
    def raveled_transpose(v):
        w = v * 1.0
        u = w.reshape(2, 2).T
        r = u.ravel()   # (NumPy: a copy, as `u` is not in C order)
        r[0] = 100.0
        return w

    def by_helper(v):
        w = v * 1.0
        h = tail(1, w)
        h[1] = 7.0
        return w
    with pytest.raises(autograph.ControlFlowError, match='memory layout'):
        autograph.convert(raveled_transpose)(np.arange(1.0, 5.0, dtype=np.float32))
    with pytest.raises(autograph.ControlFlowError, match="helper's result"):
        autograph.convert(by_helper)(np.arange(1.0, 5.0, dtype=np.float32))


def item_of(arr, i):
    if i < 0:
        return arr[0]
    return arr[i]


def test_a_helper_s_item_result_is_a_copy():
    """`relax`-like helpers returning an item of a vector (a NumPy scalar: a copy) keep
    working where the vector is written (only an array result is an error)."""
    def items(v):
        w = v * 1.0
        r = item_of(w, 1)
        w[1] = 9.0
        return w, r
    _same_as_python(items, np.arange(1.0, 5.0, dtype=np.float32))


def reshaped_copy(x):
    y = x.copy()
    M = y.reshape(2, 3)
    M[1, :] = 0.0
    return y


def raveled_copy_written(x):
    y = x.copy()
    y.ravel()[2] = -5.0
    y.reshape(2, 3)[1, 1] = 9.0
    return y


@pytest.mark.parametrize('fn', [reshaped_copy, raveled_copy_written])
def test_views_of_a_copy_of_a_parameter_write_through(fn):
    """`y = x.copy()` of a parameter: passes.calls routes its methods through `ag.call`
    (a parameter may be any object), which hid `y.reshape(2, 3)` from the view chains (a
    silent wrong value: `y` unchanged) and `.copy()`'s C order from the layouts."""
    _same_as_python(fn, np.arange(6.0, dtype=np.float32))
