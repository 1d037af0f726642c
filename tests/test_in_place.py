"""Item writes inside nested staged loops and under staged `if`s update the carried
array in place: no while body of the compiled program copies an array a loop carries
(each such copy is O(size) per iteration, and the DTW below took 1,600x longer with two
of them), and the values are plain Python's."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, loop_copies

MOVES = np.array([[1, 1], [0, 1], [1, 0]], np.int32)


def dtw_steps(C, D, steps, moves, weights_add, weights_mul):
    """librosa's accumulated-cost shape: two range loops over the cells, a loop over the
    step directions, both arrays written under an `if` that reads one of them."""
    for i in range(1, D.shape[0]):
        for j in range(1, D.shape[1]):
            for idx, w_add, w_mul in zip(range(3), weights_add, weights_mul):
                cur_cost = (D[i - moves[idx, 0], j - moves[idx, 1]]
                            + w_mul * C[i - 1, j - 1] + w_add)
                if cur_cost < D[i, j]:
                    D[i, j] = cur_cost
                    steps[i, j] = idx
    return D, steps


def clip_until(a, limit, budget):
    """An item write under an `if` in a while loop whose test is traced."""
    i = 0
    used = 0.0
    while i < a.shape[0] and used < budget:
        if a[i] > limit:
            used += a[i] - limit
            a[i] = limit
        i += 1
    return a, used


def fill_rows(out, totals, x):
    """Two nested range loops filling a matrix; a row total read back from it."""
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = x[i] * x[j] + totals[i]
            totals[i] = totals[i] + out[i, j] * 0.5
    return out, totals


def insertion_sort(a):
    """Swaps in a while loop nested in a range loop."""
    for i in range(1, a.shape[0]):
        j = i
        while j > 0 and a[j - 1] > a[j]:
            a[j], a[j - 1] = a[j - 1], a[j]
            j -= 1
    return a


def running_split(x, low, high):
    """An if/elif/else whose branches write one or both of two arrays (a switch)."""
    for i in range(1, x.shape[0]):
        if x[i] < low[i - 1]:
            low[i] = x[i]
        elif x[i] > high[i - 1]:
            high[i] = x[i]
        else:
            low[i] = low[i - 1]
            high[i] = high[i - 1]
    return low, high


def _dtw_inputs(n, m, seed=0):
    rng = np.random.default_rng(seed)
    D = np.full((n + 1, m + 1), np.inf, np.float32)
    D[0, 0] = 0
    return (rng.random((n, m)).astype(np.float32), D, np.zeros((n + 1, m + 1), np.int32),
            MOVES, np.array([0, 0.1, 0.1], np.float32), np.ones(3, np.float32))


def _split_inputs(n, seed=0):
    x = np.random.default_rng(seed).standard_normal(n).astype(np.float32)
    return x, np.full(n, x[0], np.float32), np.full(n, x[0], np.float32)


def _rng_vector(n, seed=0):
    return np.random.default_rng(seed).standard_normal(n).astype(np.float32)


CASES = {   # kernel, inputs (more items than a branch computes side by side)
    'dtw': (dtw_steps, lambda: _dtw_inputs(30, 24)),
    'while-if': (clip_until, lambda: (_rng_vector(300), np.float32(0.5), np.float32(20.0))),
    'fill': (fill_rows, lambda: (np.zeros((20, 30), np.float32), np.zeros(20, np.float32),
                                 _rng_vector(30))),
    'insertion-sort': (insertion_sort, lambda: (_rng_vector(120),)),
    'elif-two-arrays': (running_split, lambda: _split_inputs(200)),
}


def _plain(fn, args):
    return fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])


@pytest.mark.parametrize('name', [name for name in CASES if name != 'elif-two-arrays'])
def test_no_copy_of_a_carried_array_in_a_loop(name):
    fn, make = CASES[name]
    assert loop_copies(fn, *map(jnp.asarray, make())) == []


@pytest.mark.parametrize('name', CASES)
def test_values_equal_plain_python(name):
    fn, make = CASES[name]
    args = make()
    expected = _plain(fn, args)
    assert_same(autograph.convert(fn)(*map(jnp.asarray, args)), expected, rtol=1e-5,
                atol=1e-5)


def test_dtw_of_numpy_arrays():
    """D and steps given as NumPy arrays: the converted function returns Python's."""
    args = _dtw_inputs(12, 9, seed=1)
    assert_same(autograph.convert(dtw_steps)(*args), _plain(dtw_steps, args))


def test_dtw_under_vmap():
    """A batch of cost matrices: the conditional write becomes a select under vmap and
    still gives each example Python's value."""
    examples = [_dtw_inputs(9, 11, seed=s) for s in range(3)]
    C = jnp.stack([e[0] for e in examples])
    rest = tuple(map(jnp.asarray, examples[0][1:]))
    batched = jax.vmap(autograph.convert(dtw_steps), in_axes=(0,) + (None,) * 5)(C, *rest)
    for b, e in enumerate(examples):
        assert_same(jax.tree.map(lambda v: v[b], batched), _plain(dtw_steps, e))


@pytest.mark.xfail(strict=jax.default_backend() == 'cpu', reason=(
    'several branches writing different arrays: XLA on a CPU copies the arrays of a '
    'conditional whose branches write different arrays, and of selected writes that read one '
    'array for the other (runtime/staging/item_branches.py; on an H100 it does not)'))
def test_several_branches_writing_two_arrays():
    fn, make = CASES['elif-two-arrays']
    assert loop_copies(fn, *map(jnp.asarray, make())) == []


def test_the_check_can_fail():
    """A read of the old array used by a write after the array's first write (the swap
    as two statements) is copied by XLA: loop_copies finds it."""
    def swap_two_statements(a):
        for j in range(a.shape[0] - 1):
            if a[j] > a[j + 1]:
                x = a[j]
                a[j] = a[j + 1]
                a[j + 1] = x
        return a
    assert loop_copies(swap_two_statements, jnp.zeros(100, jnp.float32))


def systematic_walk(weights, positions):
    """Two pointers over a particle filter's weights (the resampling walk): an item write
    in one branch of a staged `if` whose other branch changes only a counter."""
    n = weights.shape[0]
    indexes = np.zeros(n, np.int32)
    cumulative = np.cumsum(weights)
    i, j = 0, 0
    while i < n:
        if positions[i] < cumulative[j]:
            indexes[i] = j
            i += 1
        else:
            j += 1
    return indexes


@pytest.mark.parametrize('n', [10, 65, 130])   # (past 64 items the array is written in place)
def test_a_walk_writing_one_branch_at_any_length(n):
    rng = np.random.default_rng(n)
    weights = rng.random(n).astype(np.float32)
    weights /= weights.sum()
    positions = ((np.arange(n) + rng.random()) / n).astype(np.float32) * np.float32(0.999)
    expected = systematic_walk(weights, positions)
    assert_same(autograph.convert(systematic_walk)(jnp.asarray(weights),
                                                   jnp.asarray(positions)), expected)
