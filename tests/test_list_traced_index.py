"""A Python list of like items (numbers, arrays of one shape) assigned at an index known
only when the program runs (`tail[length] = v`, `table[j] += table[j - c]` with a
traced `j`): the list keeps its length and each item is selected between the value and
itself, with Python's meaning of negative indices and Python's IndexError out of range.
Each compared with the same function run as plain Python (issue 28)."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, check


def longest_increasing_run(v):
    tail = [0] * v.shape[0]
    length = 1
    tail[0] = v[0]
    for i in range(1, v.shape[0]):
        if v[i] > tail[length - 1]:
            tail[length] = v[i]
            length += 1
        elif v[i] < tail[0]:
            tail[0] = v[i]
    return length, tail


def coin_ways(coins, n):
    table = [0] * (n + 1)
    table[0] = 1
    for c in coins:
        for j in range(c, n + 1):
            table[j] += table[j - c]
    return table[n]


def write_from_the_end(x, k):
    out = [0.0, 0.0, 0.0, 0.0]
    out[-k] = x
    out[k - 1] += x * 2.0
    return out


def rows(m, i):
    acc = [jnp.zeros(3), jnp.zeros(3)]
    acc[i] = m[i] * 2.0
    acc[1 - i] += m[0]
    return acc


@pytest.mark.parametrize('v', [[10, 22, 9, 33, 21, 50, 41, 60], [5, 4, 3, 2, 6, 7, 1, 8]])
def test_a_list_written_at_a_counter_the_loop_carries(v):
    check(longest_increasing_run, jnp.array(v, jnp.int32))


@pytest.mark.parametrize('coins', [[1, 2, 3], [2, 5, 3]])
def test_augmented_writes_at_a_traced_index(coins):
    expected = coin_ways(coins, 10)
    assert_same(autograph.convert(coin_ways)(jnp.array(coins, jnp.int32), 10), expected)


@pytest.mark.parametrize('k', [1, 2, 4])
def test_negative_indices_and_reads_of_what_was_written(k):
    check(write_from_the_end, jnp.float32(1.5), jnp.int32(k))


def test_an_index_out_of_range_is_pythons_index_error():
    with pytest.raises(IndexError):
        write_from_the_end(1.5, 5)
    with pytest.raises(IndexError):
        autograph.convert(write_from_the_end)(jnp.float32(1.5), jnp.int32(5))


def test_items_that_are_arrays_under_vmap_and_grad():
    m = jnp.arange(6.0).reshape(2, 3)
    for i in (0, 1):
        check(rows, m, jnp.int32(i))
    batched = jax.vmap(autograph.convert(rows), in_axes=(None, 0))(m, jnp.array([0, 1]))
    expected = [np.stack(parts) for parts in zip(*[rows(m, i) for i in (0, 1)])]
    assert_same(batched, expected)
    loss = lambda m, i: sum(jnp.sum(a) for a in rows(m, i))
    assert_same(jax.grad(autograph.convert(loss))(m, jnp.int32(1)), jax.grad(loss)(m, 1))


def test_a_list_of_unlike_items_is_still_the_named_error():
    def f(i):
        names = ['a', 'b']
        names[i] = 'c'
        return names
    with pytest.raises(autograph.ControlFlowError, match='traced index'):
        autograph.convert(f)(jnp.int32(0))


def test_a_list_item_read_at_a_traced_index_refuses_in_place_changes():
    # `rows[i]` is built from the stacked items: changing it would not change `rows`
    def f(i, x):
        rows = [[0.0, 1.0], [2.0, 3.0]]
        rows[i].append(x)
        return rows
    with pytest.raises(autograph.ControlFlowError, match=r'changed in place \(`append`\)'):
        autograph.convert(f)(jnp.int32(1), jnp.float32(4.0))

    def g(i, x):
        rows = [[0.0, 1.0], [2.0, 3.0]]
        row = rows[i]
        row[0] = x
        return rows, row[1]
    with pytest.raises(autograph.ControlFlowError, match='at a traced index is changed'):
        autograph.convert(g)(jnp.int32(1), jnp.float32(4.0))

    def reads(i):
        rows = [[0.0, 1.0], [2.0, 3.0]]
        return rows[i][1] + len(rows[i])
    check(reads, jnp.int32(1))


def assign_owner(x):
    owner = [2, 2, 0]
    assigned = [-1, -1, -1]
    counts = np.zeros(3)
    j = int(np.argmax(x))
    assigned[owner[j]] = 7          # (the key itself a list read at a traced index)
    counts[owner[j]] += x[j]
    return assigned, counts


@pytest.mark.parametrize('x', [[0.1, 0.5, 0.2], [0.9, 0.5, 0.2], [0.1, 0.2, 0.5]])
def test_an_item_written_at_a_key_read_from_a_list_at_a_traced_index(x):
    """`assigned[owner[j]] = 7`: the key is read as `k = owner[j]` would be (Python's
    list indexed with a traced value before: TracedValueNeeded)."""
    x = np.array(x, np.float32)
    expected = assign_owner(x)
    got = autograph.convert(assign_owner)(jnp.asarray(x))
    assert_same(list(got[0]), expected[0])
    assert_same(got[1], expected[1])
    batch = jax.vmap(autograph.convert(assign_owner, jit=False))(jnp.stack([x, x[::-1]]))
    assert_same([b[0] for b in batch[0]], expected[0])
    assert_same(batch[1][1], assign_owner(x[::-1].copy())[1])
