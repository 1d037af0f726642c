"""Tables of tables read at two traced keys (`P[state][action]`, a FrozenLake transition
table; a list of dicts; a dict of lists): the first read gives the row as a read copy
(runtime.values.item_copies), which the second read indexes like the table it copies
(a dict's copy fell through to Python's `[]`: a raw "unhashable type" TypeError). A key
that is none of the row's is Python's KeyError when the program runs; `k in table` at a
traced key compares it with the keys. Ground truth: the same function run as plain
Python on the same keys."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph

P = {s: {a: 10.0 * s + a for a in range(2)} for s in range(3)}
ROWS = [{0: 1.5, 1: -2.0}, {0: 4.0, 1: 0.25}]
COLUMNS = {0: [1.0, 2.0, 3.0], 1: [4.0, 5.0, 6.0]}


def lookup(state, action):
    return P[state][action], ROWS[action][state % 2], COLUMNS[action][state]


@pytest.mark.parametrize('state, action', [(2, 1), (0, 0), (1, 1)])
def test_two_traced_keys(state, action):
    expected = lookup(state, action)
    got = autograph.convert(lookup)(jnp.int32(state), jnp.int32(action))
    assert tuple(float(v) for v in got) == expected
    batched = jax.vmap(autograph.convert(lookup))(jnp.asarray([state, 1]),
                                                  jnp.asarray([action, 0]))
    assert tuple(float(v[0]) for v in batched) == expected


def test_a_key_none_of_the_rows_is_pythons_key_error():
    with pytest.raises(KeyError):
        lookup(0, 2)
    with pytest.raises(KeyError):
        autograph.convert(lambda s, a: P[s][a])(jnp.int32(0), jnp.int32(2))


def price_of(xs):
    prices = {1: 10.0, 2: 20.0, 5: 50.0}
    total = 0.0
    for x in xs:
        if x in prices:            # (a raw "unhashable type" TypeError before)
            total += prices[x]
        if x not in prices:
            total -= 1.0
    return total


def test_a_traced_key_in_a_dict_of_python_number_keys():
    xs = jnp.asarray([1, 3, 5, 5])
    assert float(autograph.convert(price_of)(xs)) == price_of([1, 3, 5, 5])


def histogram(xs):
    counts = {0: 0, 1: 0, 2: 0}
    for x in xs:
        counts[int(x) % 3] += 1
    return counts


def weighted(xs, ws):
    totals = {1: 0.0, 2: 0.0, 5: 0.0}
    for x, w in zip(xs, ws):
        totals[int(x)] -= w
    return totals


@pytest.mark.parametrize('xs', [[1.0, 4.0, 2.0, 7.0], [0.0, 3.0, 6.0, 9.0]])
def test_an_item_of_a_dict_updated_at_a_traced_key(xs):
    """`counts[k] += 1`: `+=` keeps the keys (Python's KeyError for a missing one), so
    each item is selected; a named error before."""
    expected = histogram(xs)
    got = autograph.convert(histogram)(jnp.asarray(xs))
    assert {k: int(v) for k, v in got.items()} == expected
    ws = [0.5, 1.5, 2.0, 4.0]
    expected = weighted([1, 5, 1, 2], ws)
    got = autograph.convert(weighted)(jnp.asarray([1, 5, 1, 2]), jnp.asarray(ws))
    assert {k: float(v) for k, v in got.items()} == expected


def test_an_update_at_a_traced_key_none_of_the_keys_is_pythons_key_error():
    with pytest.raises(KeyError):
        weighted([1, 3], [1.0, 1.0])
    with pytest.raises(KeyError):
        autograph.convert(weighted)(jnp.asarray([1, 3]), jnp.asarray([1.0, 1.0]))


COST = {0: 1.0, 1: 2.0, 4: 3.0}


def cost_of(x, k, table):
    return COST.get(k, 0.5) * x + table.get(k, -1.0)


@pytest.mark.parametrize('k', [1, 4, 3])
def test_get_at_a_traced_key(k):
    """`d.get(k, e)`: the item whose key equals `k`, else `e` (a raw TypeError, an
    unhashable tracer, before)."""
    table = {1: 10.0, 3: 30.0}
    expected = cost_of(2.0, k, table)
    assert float(autograph.convert(cost_of)(2.0, jnp.int32(k), table)) == expected
    got = jax.vmap(autograph.convert(cost_of), in_axes=(None, 0, None))(
        2.0, jnp.asarray([k, 0]), table)
    assert float(got[0]) == expected


Q = {(r, c): float(r * 2 + c) for r in range(2) for c in range(3)}


def q_learning_step(x, reward):
    table = dict(Q)
    s = (int(x[0]) % 2, int(x[1]) % 3)
    table[s] += reward
    best = table[s]
    return best, table.get(s, -1.0), table.get((s[0], 7), -1.0), s in table, (5, 0) in table


@pytest.mark.parametrize('x', [[1.0, 0.0], [2.0, 2.0], [3.0, 1.0]])
def test_tuple_keys_at_a_tuple_of_traced_items(x):
    """`Q[(r, c)]`, `Q[s] += r`, `Q.get(s)`, `s in Q` of a dict with (row, col) keys (a raw
    unhashable-tracer TypeError before: tabular Q-learning)."""
    expected = q_learning_step(np.array(x), 0.5)
    got = autograph.convert(q_learning_step)(jnp.asarray(x), jnp.float32(0.5))
    assert [float(g) for g in got] == [float(e) for e in expected]


def test_a_tuple_key_none_of_the_keys_is_pythons_key_error():
    with pytest.raises(KeyError):
        autograph.convert(lambda x: Q[(int(x[0]), 5)])(jnp.asarray([1.0]))
