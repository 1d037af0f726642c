"""A read of a NumPy array at an index out of range is NumPy's IndexError: at a Python
integer while tracing, at a traced index when the program runs (a resampler's walk
`c = c + w[i]` past the end). A JAX array's read clamps the index, as plain JAX does,
and so does any read under the caller's `jax.jit` (the arguments are JAX arrays there).

Ground truth: the same function run unconverted on the same inputs."""
import contextlib

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph


def read(x, i):
    return x[i]


def read_row_item(m, i, j):
    return m[i, j]


def walk(w, u):
    """The cumulative-weight walk of a low-variance resampler."""
    c = w[0]
    i = 0
    while u > c:
        i = i + 1
        c = c + w[i]
    return i, c


W = np.array([0.2, 0.3, 0.4], np.float32)


class Raised:
    def __init__(self, error):
        self.message = str(error)


def outcome(fn, *args):
    try:
        return fn(*args)
    except IndexError as e:
        return Raised(e)


@pytest.mark.parametrize('i', [0, 2, -1, -3, 3, -4, 7])
def test_python_index(i):
    want = outcome(read, W, i)
    got = outcome(autograph.convert(read), W.copy(), i)
    if isinstance(want, Raised):
        assert isinstance(got, Raised) and got.message == want.message
    else:
        assert float(got) == float(want)


@pytest.mark.parametrize('u', [0.1, 0.45, 0.85, 0.95, 2.0])
def test_traced_index_in_a_staged_loop(u):
    want = outcome(walk, W, np.float32(u))
    converted = autograph.convert(walk)
    for _ in range(2):
        got = outcome(converted, W.copy(), np.float32(u))
        if isinstance(want, Raised):
            assert isinstance(got, Raised) and 'out of bounds' in got.message
        else:
            assert int(got[0]) == want[0] and np.isclose(float(got[1]), want[1])


def test_matrix_items():
    m = np.arange(6, dtype=np.float32).reshape(2, 3)
    converted = autograph.convert(read_row_item)
    assert float(converted(m, 1, 2)) == 5.0
    with pytest.raises(IndexError, match='axis 1 with size 3'):
        converted(m, 1, 3)
    with pytest.raises(IndexError, match='axis 0 with size 2'):
        converted(m, jnp.int32(2), 0)


def test_jax_arrays_clamp_as_plain_jax():
    w = jnp.asarray(W)
    assert float(autograph.convert(read)(w, 3)) == float(read(w, 3))
    assert float(jax.jit(autograph.convert(read))(W, 5)) == float(jax.jit(read)(W, 5))
    got = jax.vmap(autograph.convert(walk), in_axes=(None, 0))(w, jnp.array([0.1, 0.95]))
    want = jax.vmap(lambda u: jax.lax.while_loop(
        lambda s: u > s[1], lambda s: (s[0] + 1, s[1] + w[s[0] + 1]), (0, w[0])))(
        jnp.array([0.1, 0.95]))
    np.testing.assert_array_equal(np.asarray(got[0]), np.asarray(want[0]))


# --- writes at a traced index (NumPy's IndexError where the array stands for NumPy) -----

def write_argument(v, n):
    v[n] = 1.0
    return v


def write_own(n):
    w = np.zeros(3)
    w[n] = 1.0
    return w


@pytest.mark.parametrize('n', [5, -4, 1, -2])
def test_a_write_at_a_traced_index_out_of_range_is_numpys_index_error(n):
    for fn, args in ((write_argument, (np.zeros(3, np.float32),)), (write_own, ())):
        try:
            expected = fn(*[a.copy() for a in args], n)
        except IndexError:
            with pytest.raises(IndexError, match='out of bounds'):
                autograph.convert(fn)(*[a.copy() for a in args], jnp.int32(n))
        else:
            got = autograph.convert(fn)(*[a.copy() for a in args], jnp.int32(n))
            np.testing.assert_allclose(got, expected)


def fallback_past_the_end(x, v):
    a = x
    try:
        a = a + v[4] * 0.1
    except IndexError:
        a = a - 1.0
    return a


def fallback_negative(v):
    try:
        return v[-5]
    except (KeyError, LookupError):
        return v[0]


@pytest.mark.parametrize('fn, args', [(fallback_past_the_end, (1.0,)), (fallback_negative, ())])
def test_a_literal_index_past_the_end_inside_a_try_is_caught(fn, args):
    """`v[4]` (a literal index) of a NumPy array of 4 items inside a `try` whose `except`
    catches IndexError: NumPy's IndexError, caught (the converted read clamped the index,
    silently taking the last item: idiom fuzzer template `try_index`). A JAX array's read
    clamps, as plain JAX does."""
    v = np.arange(4.0, dtype=np.float32) + 1.0
    converted = autograph.convert(fn)
    np.testing.assert_allclose(converted(*args, v), fn(*args, v))
    np.testing.assert_allclose(converted(*args, jnp.asarray(v)), fn(*args, jnp.asarray(v)))
    assert 'ag.getitem(v, ' in autograph.to_code(fn)


def test_a_literal_index_outside_a_try_stays_plain_indexing():
    assert 'v[4]' in autograph.to_code(lambda x, v: x + v[4])


def fallback_of_a_product(x, v):
    w = v * 1.0   # (NumPy's arithmetic of a NumPy array: a NumPy array)
    try:
        a = w[4] * 0.5
    except IndexError:
        a = x * 0.25
    return a


def read_of_a_product(v, i):
    w = v * 2.0
    return w[i]


@pytest.mark.parametrize('array', [np.asarray, jnp.asarray])
def test_an_array_numpys_arithmetic_makes_has_numpys_bounds(array):
    """`w = v * 1.0` of a NumPy argument is a NumPy array: `w[4]` of 4 items is NumPy's
    IndexError, caught by the `try` (the converted read clamped it: idiom fuzzer seed
    99573), and `w[i]` at a traced index out of range raises it when the program runs.
    Of a JAX argument, a JAX array: the reads clamp, as plain JAX does."""
    v = array(np.arange(4.0, dtype=np.float32))
    assert float(autograph.convert(fallback_of_a_product)(1.0, v)) == \
        float(fallback_of_a_product(1.0, v))
    for i in (3, 4, -5):
        if array is jnp.asarray:
            assert float(autograph.convert(read_of_a_product)(v, jnp.int32(i))) == \
                float(read_of_a_product(v, i))
            continue
        with pytest.raises(IndexError, match='out of bounds') if i != 3 else \
                contextlib.nullcontext():
            assert float(autograph.convert(read_of_a_product)(v, jnp.int32(i))) == 6.0
    assert 'ag.getitem(w, 4, numpy=w_is_numpy)' in autograph.to_code(fallback_of_a_product)


def table_lookup(j, k):
    """A table the function makes with NumPy, read at traced indices (an auction's
    owners, a union-find's labels)."""
    table = np.array([10.0, 20.0, 30.0])
    grid = np.arange(6.0).reshape(2, 3)
    return table[j] + grid[k].sum() + grid[k, j]


@pytest.mark.parametrize('j, k', [(0, 1), (2, 0), (-1, -2)])
def test_a_numpy_table_made_here_read_at_a_traced_index(j, k):
    converted = autograph.convert(table_lookup)
    np.testing.assert_allclose(converted(jnp.int32(j), jnp.int32(k)), table_lookup(j, k))
    np.testing.assert_allclose(jax.vmap(converted)(jnp.asarray([j, 1]), jnp.asarray([k, 0])),
                               [table_lookup(j, k), table_lookup(1, 0)])


def test_a_numpy_table_read_at_a_traced_index_out_of_range_is_numpys_index_error():
    with pytest.raises(IndexError):
        table_lookup(3, 0)
    with pytest.raises(IndexError, match='out of bounds'):
        autograph.convert(table_lookup)(jnp.int32(3), jnp.int32(0))
