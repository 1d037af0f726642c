"""State written by helpers in a statement that is staged again: a loop that runs as Python
for its first iterations (its `return` flag becomes traced later) calls, in a staged `if`,
a helper that writes a global, an object's attribute or a list. The loop is staged again
to carry that state, and what its first run changed as Python must not be changed twice.
Each program is compared with plain Python over two successive calls, state included.
(Found by tests/fuzzer.py, seed 278: a global counted three times instead of twice.)"""
import jax.numpy as jnp
import numpy as np
import pytest

import autograph

TOTAL = 0.0


class Cell:
    def __init__(self, f):
        self.f = f


OBJ = Cell(0.0)
PAIR = [jnp.float32(0.0), jnp.float32(0.0)]   # (a list of arrays: state)


def tick(amount):
    global TOTAL
    TOTAL = TOTAL + amount


def set_field(cell, value):
    cell.f = cell.f * 0.5 + value


def add_item(items, value):
    items[1] = items[1] + value


def ticks_until_return(x, n):
    k = n
    for _ in range(3):
        if k >= 2:
            tick(x * 0.1)
        for _ in range(3):
            if k > 5:
                return x, k
            k = k + 1
    return x + TOTAL, k


def sets_fields_until_return(x, n):
    k = n
    s = Cell(x)
    for _ in range(3):
        if k >= 2:
            set_field(OBJ, x * 0.1)
            set_field(s, x)
        for _ in range(3):
            if k > 5:
                return x + s.f, k
            k = k + 1
    return x + s.f + OBJ.f, k


def adds_items_until_return(x, n):
    k = n
    pair = [x * 0.0, x * 0.0]
    for _ in range(3):
        if k >= 2:
            add_item(pair, x)
            add_item(PAIR, x * 0.1)
        for _ in range(3):
            if k > 5:
                return pair[1], k
            k = k + 1
    return pair[1] + PAIR[1], k


def state():
    return [TOTAL, OBJ.f, PAIR[1]]


def reset():
    global TOTAL
    TOTAL = 0.0
    OBJ.f = 0.0
    PAIR[:] = [jnp.float32(0.0), jnp.float32(0.0)]


@pytest.mark.parametrize('fn', [ticks_until_return, sets_fields_until_return,
                                adds_items_until_return])
@pytest.mark.parametrize('n', [0, 3])
def test_state_written_before_the_loop_is_staged_again(fn, n):
    x = jnp.float32(0.8666)
    reset()
    expected = []
    for _ in range(2):
        expected.append((fn(x, n), state()))
    reset()
    converted = autograph.convert(fn)
    try:
        for want, got_state in expected:
            got = converted(x, jnp.int32(n))
            for a, b in zip(jnp.ravel(jnp.asarray(want)), jnp.ravel(jnp.asarray(got))):
                np.testing.assert_allclose(float(a), float(b), rtol=1e-5)
            np.testing.assert_allclose(np.asarray(state(), dtype=np.float64),
                                       np.asarray(got_state, dtype=np.float64), rtol=1e-5)
    finally:
        reset()
