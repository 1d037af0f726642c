"""Tables of tables read at two traced keys (`P[state][action]`, a FrozenLake transition
table; a list of dicts; a dict of lists): the first read gives the row as a read copy
(runtime.values.item_copies), which the second read indexes like the table it copies
(a dict's copy fell through to Python's `[]`: a raw "unhashable type" TypeError). A key
that is none of the row's is Python's KeyError when the program runs; `k in table` at a
traced key compares it with the keys. Ground truth: the same function run as plain
Python on the same keys."""
import jax
import jax.numpy as jnp
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
