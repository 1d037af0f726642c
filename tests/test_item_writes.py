"""Item updates in staged loops are O(1): several items written by one statement are one
write (runtime/items/item_writes.py), and a staged `if` whose branches only write a few items
selects the items and writes once (runtime/staging/item_branches.py). Values equal
plain Python; the compiled while bodies do not copy the carried array."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, converted, loop_copies, primitives


def bubble_sort(a):
    n = a.shape[0]
    for i in range(n):
        for j in range(n - i - 1):
            if a[j] > a[j + 1]:
                a[j], a[j + 1] = a[j + 1], a[j]
    return a


def bubble_sort_two_statements(a):
    """The control: the swap as two statements, two writes of the array per step."""
    n = a.shape[0]
    for i in range(n):
        for j in range(n - i - 1):
            if a[j] > a[j + 1]:
                x = a[j]
                a[j] = a[j + 1]
                a[j + 1] = x
    return a


def sort_backwards(a):
    """Adjacent swap with an offset below the counter: no box proven, one scatter."""
    n = a.shape[0]
    for i in range(n):
        for j in range(1, n - i):
            if a[j - 1] > a[j]:
                a[j - 1], a[j] = a[j], a[j - 1]
    return a


def selection_sort(a):
    n = a.shape[0]
    for i in range(n):
        m = i
        for j in range(i + 1, n):
            if a[j] < a[m]:
                m = j
        a[i], a[m] = a[m], a[i]
    return a


def row_swaps(a):
    h, w = a.shape
    for i in range(h):
        for j in range(w - 1):
            if a[i, j] < a[i, j + 1]:
                a[i, j], a[i, j + 1] = a[i, j + 1], a[i, j]
    return a


def swap(a, i, j):
    a[i], a[j] = a[j], a[i]
    return a


def rotate_three(a, i, j, k):
    a[i], a[j], a[k] = a[j], a[k], a[i]
    return a


def either_branch(a, i, k):
    for t in range(a.shape[0]):
        if a[t] > 0:
            a[i] = a[t] + 1
        else:
            a[k] = a[t] - 1
    return a


def augmented_under_if(c, x):
    n, m = c.shape
    for i in range(1, n):
        for j in range(1, m):
            if x[i] > x[j]:
                c[i, j] += abs(x[i] - x[j]) + min(c[i - 1, j], c[i, j - 1])
    return c


def lcs(x, y, table):
    """Longest common subsequence: each branch writes one item of the table."""
    n, m = x.shape[0], y.shape[0]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            if x[i - 1] == y[j - 1]:
                table[i, j] = table[i - 1, j - 1] + 1
            else:
                table[i, j] = max(table[i - 1, j], table[i, j - 1])
    return table


def _np(values, dtype=np.float32):
    return np.array(values, dtype)


def _plain_and_converted(fn, *args):
    """(fn on NumPy copies, fn converted under jit on JAX arrays)."""
    plain = fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    staged = autograph.convert(fn)(*[jnp.asarray(a) if isinstance(a, np.ndarray) else a
                                     for a in args])
    return plain, staged


@pytest.mark.parametrize('fn', [bubble_sort, bubble_sort_two_statements, sort_backwards,
                                selection_sort])
def test_sorts_equal_python(fn):
    a = np.random.default_rng(1).standard_normal(23).astype(np.float32)
    plain, staged = _plain_and_converted(fn, a)
    np.testing.assert_array_equal(np.asarray(staged), plain)


def test_two_dimensional_box():
    a = np.random.default_rng(2).standard_normal((5, 7)).astype(np.float32)
    plain, staged = _plain_and_converted(row_swaps, a)
    np.testing.assert_array_equal(np.asarray(staged), plain)


@pytest.mark.parametrize('i, j', [(1, 3), (2, 2), (-1, 0), (0, -1), (-2, -2), (-4, 3)])
def test_swap_at_traced_indices(i, j):
    """i == j, negative indices: Python's meaning, indices traced."""
    a = _np([1, 2, 3, 4])
    expected = swap(a.copy(), i, j)
    fn = converted(swap)
    actual = jax.jit(fn)(jnp.asarray(a), jnp.int32(i), jnp.int32(j))
    np.testing.assert_array_equal(np.asarray(actual), expected)


@pytest.mark.parametrize('ijk', [(0, 1, 2), (2, 2, 0), (1, 1, 1), (-1, 0, -4)])
def test_three_items_at_traced_indices(ijk):
    """A repeated index keeps the last value written, as the sequence of stores does."""
    a = _np([5, 6, 7, 8])
    expected = rotate_three(a.copy(), *ijk)
    actual = jax.jit(converted(rotate_three))(jnp.asarray(a), *map(jnp.int32, ijk))
    np.testing.assert_array_equal(np.asarray(actual), expected)


def test_out_of_range_as_single_stores():
    """An index out of range writes nothing, as the project's `x[i] = v` on a JAX array
    (Python would raise): the statement equals its stores made one by one."""
    def one_by_one(a, i, j):
        x, y = a[j], a[i]
        a[i] = x
        a[j] = y
        return a
    a = jnp.asarray(_np([1, 2, 3]))
    for i, j in [(5, 1), (1, 7), (-9, 0)]:
        args = (a, jnp.int32(i), jnp.int32(j))
        assert_same(jax.jit(converted(swap))(*args), jax.jit(converted(one_by_one))(*args))

    def past_the_end(a, n):   # a box: j + 1 == len(a) on the last step
        for j in range(n):
            a[j], a[j + 1] = a[j + 1] * 2, a[j] + 1
        return a

    def past_the_end_one_by_one(a, n):
        for j in range(n):
            x, y = a[j + 1] * 2, a[j] + 1
            a[j] = x
            a[j + 1] = y
        return a
    assert 'window=(2,)' in autograph.to_code(past_the_end)
    a = jnp.asarray(np.arange(40, dtype=np.float32))
    assert_same(jax.jit(converted(past_the_end))(a, jnp.int32(40)),
                jax.jit(converted(past_the_end_one_by_one))(a, jnp.int32(40)))


def test_branches_writing_different_items():
    a = _np([1, -2, 3, -4, 5])
    for i, k in [(0, 4), (2, 2), (-1, 1)]:
        expected = either_branch(a.copy(), i, k)
        actual = jax.jit(converted(either_branch))(jnp.asarray(a), jnp.int32(i),
                                                   jnp.int32(k))
        np.testing.assert_array_equal(np.asarray(actual), expected)


def test_augmented_item_under_if_in_nested_loops():
    rng = np.random.default_rng(3)
    c, x = rng.standard_normal((6, 6)).astype(np.float32), rng.standard_normal(6)
    plain, staged = _plain_and_converted(augmented_under_if, c, x.astype(np.float32))
    np.testing.assert_allclose(np.asarray(staged), plain, rtol=1e-5)


def test_branches_writing_one_item_each():
    rng = np.random.default_rng(5)
    x, y = rng.integers(0, 3, 12).astype(np.int32), rng.integers(0, 3, 9).astype(np.int32)
    plain, staged = _plain_and_converted(lcs, x, y, np.zeros((13, 10), np.int32))
    np.testing.assert_array_equal(np.asarray(staged), plain)
    assert 'cond' not in primitives(lcs, jnp.asarray(x), jnp.asarray(y),
                                    jnp.zeros((13, 10), jnp.int32))


def test_vmap_and_grad():
    a = np.random.default_rng(4).standard_normal((3, 9)).astype(np.float32)
    batched = jax.vmap(converted(bubble_sort))(jnp.asarray(a))
    np.testing.assert_array_equal(np.asarray(batched), np.sort(a, axis=1))
    weights = jnp.arange(9.0)

    def loss(x):
        return jnp.sum(converted(bubble_sort)(x) * weights)
    order = np.argsort(a[0])
    expected = np.zeros(9, np.float32)
    expected[order] = np.arange(9.0)   # d/dx_k of sum(sorted(x) * w) = w[rank of x_k]
    np.testing.assert_array_equal(np.asarray(jax.grad(loss)(jnp.asarray(a[0]))), expected)


def test_keys_reading_the_array_stay_stores_in_order():
    """`a[0], a[a[0]] = ...`: the second key reads the item the first store wrote."""
    def reads_itself(a):
        a[0], a[a[0]] = 2, 9
        return a
    code = autograph.to_code(reads_itself)
    assert 'setitems' not in code
    a = np.array([1, 0, 0, 0], np.int32)
    plain, staged = _plain_and_converted(reads_itself, a)
    np.testing.assert_array_equal(np.asarray(staged), plain)


def test_generated_code():
    # (`reads=`: the values read items of `a`, views where `a` is a NumPy array's rows)
    assert 'ag.setitems(a, (j, j + 1), (item, item_1), window=(2,), reads=(j + 1, j), ' \
        'numpy=a_is_numpy)' in autograph.to_code(bubble_sort)
    code = autograph.to_code(sort_backwards)   # j - 1 may be -1: no box
    assert 'ag.setitems(a, (j - 1, j), (item, item_1), reads=(j, j - 1), ' \
        'numpy=a_is_numpy)' in code
    assert 'window' not in code

    def parameter(a, j):   # j may be negative
        a[j], a[j + 1] = a[j + 1], a[j]
        return a

    def counter_moved(a):
        for j in range(3):
            j += 2
            a[j], a[j + 1] = a[j + 1], a[j]
        return a
    for fn in parameter, counter_moved:
        assert 'ag.setitems(' in autograph.to_code(fn)
        assert 'window' not in autograph.to_code(fn)
    a = _np([1, 2, 3, 4])
    for j in range(-4, 4):
        np.testing.assert_array_equal(np.asarray(jax.jit(converted(parameter))(
            jnp.asarray(a), jnp.int32(j))), parameter(a.copy(), j) if j < 3 else a)


def test_branch_computing_more_than_items_stays_a_conditional():
    """A branch that divides (a derivative that may be infinite) or computes a whole
    array is not computed side by side (the loops read the previous item: sequential)."""
    def divides(a, x):
        for t in range(1, a.shape[0]):
            if a[t] > 0:
                a[t] = 1 / a[t - 1]
        return a

    def whole(a):
        for t in range(a.shape[0]):
            if a[t] > 0:
                a = a * 2
        return a
    x = jnp.asarray(np.linspace(-1, 1, 100, dtype=np.float32))   # (more than SMALL)
    assert 'cond' in primitives(divides, x, 0.0)
    # (a whole array of a few items is cheap enough to select: runtime.staging.cheap)
    large = jnp.asarray(np.linspace(-1, 1, 2000, dtype=np.float32))
    assert 'cond' in primitives(whole, large)
    assert 'cond' not in primitives(bubble_sort, x)


# --- the compiled loop updates the carried array in place --------------------------------

@pytest.mark.parametrize('fn, shape', [(bubble_sort, (200,)), (row_swaps, (20, 30)),
                                       (augmented_under_if, None), (lcs, None)])
def test_no_copy_of_the_carried_array(fn, shape):
    if shape is not None:
        args = (jnp.zeros(shape, jnp.float32),)
    elif fn is lcs:
        args = (jnp.zeros(40, jnp.int32), jnp.zeros(30, jnp.int32),
                jnp.zeros((41, 31), jnp.int32))
    else:
        args = (jnp.zeros((40, 40), jnp.float32), jnp.zeros(40, jnp.float32))
    assert loop_copies(fn, *args) == []


def test_control_two_writes_copy_the_array():
    """The test above can fail: the swap as two statements writes the array twice per
    step, and XLA copies it (what one write avoids)."""
    assert loop_copies(bubble_sort_two_statements, jnp.zeros(200, jnp.float32))


def clip_checked(a):
    for t in range(a.shape[0]):
        if a[t] < 0:
            if a[t] < -100:
                raise ValueError('too small')
            a[t] = 0
    return a


def three_way(a, i):
    for t in range(a.shape[0]):
        if a[t] > 1:
            a[i] = a[t]
        elif a[t] < -1:
            a[t] = -a[t]
        else:
            a[t] = 0
    return a


def test_check_in_a_branch_that_writes_items():
    """A `raise` in the branch is checked only where Python takes the branch."""
    a = np.linspace(-5, 5, 80, dtype=np.float32)
    plain, staged = _plain_and_converted(clip_checked, a)
    np.testing.assert_array_equal(np.asarray(staged), plain)
    a[7] = -200
    with pytest.raises(ValueError, match='too small'):
        clip_checked(a.copy())
    with pytest.raises(ValueError, match='too small'):
        autograph.convert(clip_checked)(jnp.asarray(a))


def test_elif_chain_writing_items():
    a = np.linspace(-3, 3, 70, dtype=np.float32)
    for i in (0, 5, -1):
        expected = three_way(a.copy(), i)
        actual = jax.jit(converted(three_way))(jnp.asarray(a), jnp.int32(i))
        np.testing.assert_array_equal(np.asarray(actual), expected)
    assert 'cond' not in primitives(three_way, jnp.asarray(a), 0)


def write_row_and_item(R, row, item):
    R[0, :] = row      # a (1, n) row: NumPy drops its leading unit axis
    R[1, 1:] = row[:, 1:] * 2
    R[2, 0] = item     # one item
    return R


def test_item_writes_shape_values_as_numpy_does():
    R, row = np.zeros((3, 3), np.float32), np.arange(3, dtype=np.float32)[None, :]
    expected = write_row_and_item(R.copy(), row, np.float32(5.0))
    assert_same(autograph.convert(write_row_and_item)(jnp.asarray(R), jnp.asarray(row),
                                                      jnp.float32(5.0)), expected)
    for run in (lambda: write_row_and_item(R.copy(), row, np.ones((1, 1), np.float32)),
                lambda: autograph.convert(write_row_and_item)(
                    jnp.asarray(R), jnp.asarray(row), jnp.ones((1, 1)))):
        with pytest.raises(ValueError, match='setting an array element with a sequence'):
            run()
