"""NumPy's views by NumPy's functions (`np.reshape(w, s)`, `np.ravel`, `np.transpose`,
`np.swapaxes`, `np.moveaxis`, `np.asarray`), by reshapes in another order (`order='F'`,
`'A'`, ravel's `'K'`), by permutations of the axes (`swapaxes`, `transpose(axes)`), the
flat items (`w.flat[i] = e`: C order of the shape, written into `w`), and reshapes of
arguments not laid out in C order (`f(m.T)`, `f(x[::2])`: NumPy's reshape is then a
copy where the layout needs one; the converted Function keys calls by layout).

Ground truth: the same function run by plain Python on fresh NumPy arrays; the arrays the
caller gave (and the arrays they are views of) are compared after each call too.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def _agree(fn, make, runs=2):
    """`fn` converted (compiled, `runs` calls, and eagerly) against plain Python, each
    on fresh arguments from `make()`: (arguments, the arrays to compare after the call:
    the arguments' own arrays, or the arrays they are views of)."""
    args, watched = make()
    expected = fn(*args)
    for convert in (autograph.convert(fn), autograph.convert(fn, jit=False)):
        for _ in range(runs):
            mine, mine_watched = make()
            assert_same(convert(*mine), expected)
            assert_same(mine_watched, watched)
    return expected, watched


def _vector(n=4):
    def make():
        w = np.arange(1.0, n + 1.0, dtype=np.float32)
        return (w,), [w]
    return make


def _matrix(rows=2, cols=3):
    def make():
        m = np.arange(1.0, rows * cols + 1.0, dtype=np.float32).reshape(rows, cols)
        return (m,), [m]
    return make


def _transposed(rows=2, cols=3):
    """`f(m.T)`: an argument laid out in Fortran order."""
    def make():
        m = np.arange(1.0, rows * cols + 1.0, dtype=np.float32).reshape(rows, cols)
        return (m.T,), [m]
    return make


def _strided(n=8):
    """`f(x[::2])`: an argument neither in C nor in Fortran order."""
    def make():
        x = np.arange(1.0, n + 1.0, dtype=np.float32)
        return (x[::2],), [x]
    return make


# --- NumPy's functions ------------------------------------------------------------------

def np_reshape(w):
    r = np.reshape(w, (2, 2))
    r[1] *= 0.5
    return w.sum()


def np_reshape_keyword(w):
    r = np.reshape(w, shape=(2, 2))
    r[0, 1] = 7.0
    return w


def np_ravel(w):
    r = np.ravel(w)
    r[1] = 9.0
    return w.sum()


def np_transpose(m):
    t = np.transpose(m)
    t[0] += 10.0
    return m


def np_transpose_axes(m):
    t = np.transpose(m, (1, 0))
    t[2, 1] = -1.0
    return m


def np_swapaxes(m):
    s = np.swapaxes(m, 0, 1)
    s[1, 0] = 9.0
    return m.sum()


def np_moveaxis(c):
    s = np.moveaxis(c, 0, -1)
    s[1, 0, 1] = 9.0
    s[0] *= 2.0
    return c


def np_asarray(w):
    a = np.asarray(w)
    a += 1.0
    b = np.asanyarray(w)
    b[0] = 5.0
    return w


@pytest.mark.parametrize('fn', [np_reshape, np_reshape_keyword, np_ravel, np_asarray])
def test_numpy_functions_of_a_vector_are_views(fn):
    _agree(fn, _vector())


@pytest.mark.parametrize('fn', [np_transpose, np_transpose_axes, np_swapaxes])
def test_numpy_functions_of_a_matrix_are_views(fn):
    _agree(fn, _matrix())


def test_moveaxis_is_a_view():
    def make():
        c = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
        return (c,), [c]
    _agree(np_moveaxis, make)


def test_a_function_of_a_list_is_a_new_array():
    def fill(values):
        r = np.ravel(values)
        r[0] = 9.0
        return r, values
    assert_same(autograph.convert(fill)([[1.0, 2.0], [3.0, 4.0]]),
                fill([[1.0, 2.0], [3.0, 4.0]]))


def jax_reshaped(w):
    w[0] = 5.0
    r = jnp.reshape(w, (2, 2))   # (a JAX array: no view of `w`, nor of `jnp`)
    r += 2.0
    return r.sum()


def test_another_module_s_function_makes_no_view():
    code = autograph.to_code(jax_reshaped)
    assert 'jnp = ' not in code and 'global jnp' not in code
    assert_same(autograph.convert(jax_reshaped)(np.arange(4.0, dtype=np.float32)),
                jax_reshaped(np.arange(4.0, dtype=np.float32)))


# --- other orders and axes ----------------------------------------------------------------

def fortran(w):
    r = w.reshape((2, 2), order='F')
    r[1, 0] = 9.0
    return w.sum(), r


def any_order(w):
    r = w.reshape((2, 2), order='A')
    r[1, 0] = 9.0
    return w, r


def ravel_orders(m):
    f = m.ravel(order='F')   # (a copy of a C-ordered matrix, a view of a transposed one)
    f[1] = -1.0
    k = m.ravel('K')   # (memory order: a view of either)
    k[2] = -2.0
    a = np.ravel(m, order='A')
    a[3] = -3.0
    return m, f, k, a


def swapaxes_method(w):
    m = w.reshape(2, 2)
    s = m.swapaxes(0, 1)
    s[0, 1] = 9.0
    return w.sum()


def transpose_axes(c):
    t = c.transpose((1, 0, 2))
    t[2, 1, 0] = -5.0
    u = c.transpose(2, 1, 0)
    u[0] += 100.0
    return c


@pytest.mark.parametrize('fn', [fortran, any_order, swapaxes_method])
def test_orders_and_axes_of_a_vector(fn):
    _agree(fn, _vector())


@pytest.mark.parametrize('make', [_matrix, _transposed])
def test_ravel_orders_follow_the_layout(make):
    _agree(ravel_orders, make())


def test_transpose_with_axes():
    def make():
        c = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
        return (c,), [c]
    _agree(transpose_axes, make)


def test_reshape_order_k_is_numpy_s_error():
    def bad(w):
        r = w.reshape((2, 2), order='K')
        r[0] = 1.0
        return w
    with pytest.raises(ValueError):
        bad(np.zeros(4))
    with pytest.raises(ValueError):
        autograph.convert(bad)(np.zeros(4))


# --- flat items ------------------------------------------------------------------------------

def flat_write(w):
    w.flat[1] = 7.0
    w.flat[-1] += 1.0
    return w.sum(), w.flat[2]


def flat_slices(m):
    m.flat[1:4] = np.array([10.0, 20.0], dtype=np.float32)   # (repeated: 10, 20, 10)
    m.flat[[0, 5]] = -1.0
    return m, m.flat[::2]


def flat_whole(m):
    m.flat = [1.0, 2.0]
    return m


def flat_traced(w, n):
    for i in range(n):
        w.flat[i] = w.flat[i] * 2.0
    return w


@pytest.mark.parametrize('make', [_matrix, _transposed])
@pytest.mark.parametrize('fn', [flat_write, flat_slices, flat_whole])
def test_flat_items_are_in_c_order_and_written_into_the_array(fn, make):
    _agree(fn, make())


def test_flat_items_with_a_traced_index():
    def make():
        m = np.arange(1.0, 7.0, dtype=np.float32).reshape(2, 3)
        return (m.T, jnp.int32(4)), [m]
    _agree(flat_traced, make)


def flat_loop(w):
    total = 0.0
    for e in w.flat:
        total = total + e
    return total + sum(list(w.flat)) * 0.5


def flat_loop_writing(w):
    total = 0.0
    for k, e in enumerate(w.flat):
        w[1, 1] = 10.0 + k   # (the iterator reads the items live: later ones see it)
        total = total + e
    return total


@pytest.mark.parametrize('make', [_matrix, _transposed])
@pytest.mark.parametrize('fn', [flat_loop, flat_loop_writing])
def test_flat_iterated_reads_items_in_c_order_live(fn, make):
    _agree(fn, make())


class Options:
    def __init__(self, flat):
        self.flat = flat      # (an attribute named `flat`: not NumPy's)


def options_named_flat(x, flat):
    options = Options(flat)
    shown = [e for e in [x, x + 1.0]] if options.flat else []
    if options.flat:
        return x * 2.0, len(shown)
    return x, len(shown)


def test_an_attribute_named_flat_is_not_numpys():
    # (A raw AttributeError before: `self.flat = flat` in `__init__` was rewritten as a
    # flat item write of `self`, and since 190087e `options.flat` read as a reshape.)
    for flat in (True, False):
        assert_same(autograph.convert(options_named_flat)(1.5, flat),
                    options_named_flat(1.5, flat))


def test_flat_index_out_of_bounds_is_numpy_s_index_error():
    with pytest.raises(IndexError):
        flat_write(np.zeros(1))
    with pytest.raises(IndexError):
        autograph.convert(flat_write)(np.zeros(1))


# --- arguments not laid out in C order ----------------------------------------------------------

def reshaped_written(w):
    r = w.reshape(-1)
    r[1] = 9.0
    return w.sum(), r


def raveled_written(w):
    r = w.ravel()
    r[0] = -4.0
    return w, r


def column_written(w):
    r = w.reshape(w.shape[0], 1)   # (a view of a strided vector too)
    r[1, 0] = 9.0
    return w


@pytest.mark.parametrize('make', [_transposed, _strided, _matrix, _vector])
@pytest.mark.parametrize('fn', [reshaped_written, raveled_written])
def test_a_reshape_of_an_argument_follows_its_layout(fn, make):
    _agree(fn, make())


def test_a_strided_argument_s_column_is_a_view():
    _agree(column_written, _strided())


def test_calls_with_other_layouts_are_keyed_apart():
    converted = autograph.convert(reshaped_written)
    for layout in (_matrix, _transposed, _matrix, _strided, _vector, _strided):
        make = layout()
        args, watched = make()
        expected_args, expected_watched = make()
        assert_same(converted(*args), reshaped_written(*expected_args))
        assert_same(watched, expected_watched)
    assert converted.trace_count == 4   # (C-ordered 2x3, F-ordered 3x2, strided, 4)


# --- JAX arrays (jax.jit, jax.vmap): copies, as plain Python gives them -----------------------

def jax_copies(w):
    s = np.swapaxes(w.reshape(2, 2), 0, 1)   # (of a JAX array: a JAX array, a copy)
    s += 1.0
    r = w.reshape((2, 2), order='F')
    r += 2.0
    return w.sum() + s[0, 1] + r[1, 0]


def test_jax_arrays_under_jit_and_vmap():
    w = jnp.arange(1.0, 5.0, dtype=jnp.float32)
    expected = jax_copies(w)
    converted = autograph.convert(jax_copies, jit=False)
    assert_same(jax.jit(converted)(w), expected)
    batch = jnp.stack([w, w * 2.0])
    assert_same(jax.vmap(converted)(batch), jnp.stack([jax_copies(b) for b in batch]))
