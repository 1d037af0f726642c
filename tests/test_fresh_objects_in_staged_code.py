"""Objects a staged loop's body or a staged branch makes fresh before changing them in
place (`cn = Counter(); cn.add(y)` in each iteration, `row = []; row.append(...)`): their
changes reach no object the statement was given, so the name is not carried out of it
unless it is read afterwards (passes.statement_parts' `live_after`). Before, every name
changed in place was carried, and a traced `if` around such a loop (a `break` under a
traced test) was refused: "'cn' is a Counter object in both branches" (the idiom
fuzzer's counter_attr). Objects the statement was given and changes stay carried."""
import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same


class Counter:
    def __init__(self):
        self.k = 0
        self.total = 0.0

    def add(self, y):
        self.k += 1
        self.total = self.total + y
        return self.total


def fresh_counter_after_a_traced_break(x, n):
    a = x * 1.0
    steps = 0
    while True:
        steps += 1
        if steps > 3 or a > 5.0:
            break
        for _ in range(2):
            counter = Counter()
            for _ in range(n):
                counter.add(a * 0.5)
            a = a + counter.total * 0.1
    return a


def fresh_rows_in_a_staged_loop(x, n):
    total = 0.0
    for i in range(n):
        row = []
        row.append(x * i)
        row.append(x + i)
        total = total + row[0] * row[1]
    return total


def given_counter(x, n):
    counter = Counter()
    for i in range(n):
        if x > i:
            counter.add(x)
    return counter.total, counter.k


CASES = [fresh_counter_after_a_traced_break, fresh_rows_in_a_staged_loop]


@pytest.mark.parametrize('fn', CASES)
@pytest.mark.parametrize('x, n', [(1.0, 3), (jnp.float32(1.0), 3), (1.0, jnp.int32(3)),
                                  (jnp.float32(2.0), jnp.int32(0))])
def test_fresh_objects(fn, x, n):
    assert_same(autograph.convert(fn)(x, n), fn(float(x), int(n)))


def test_under_vmap():
    xs = jnp.array([0.5, 1.0, 3.0])
    out = jax.vmap(autograph.convert(fresh_counter_after_a_traced_break),
                   in_axes=(0, None))(xs, 3)
    for k, x in enumerate([0.5, 1.0, 3.0]):
        assert_same(out[k], fresh_counter_after_a_traced_break(x, 3))


def test_an_object_given_to_the_loop_is_still_carried():
    """`counter` is made before the staged loop: its changes come out of it."""
    assert_same(autograph.convert(given_counter)(jnp.float32(2.5), 4), given_counter(2.5, 4))



def test_a_fresh_row_is_not_loop_state():
    assert "'row'" not in autograph.to_code(fresh_rows_in_a_staged_loop)
