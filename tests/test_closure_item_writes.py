"""A nested function that writes items of an array of the function around it
(`def visit(u): seen[u] = True`): Python changes the array in place, which the enclosing
function sees. The converted nested function declares it `nonlocal` and rebinds it
(`seen = ag.setitem(seen, u, True)`), so the write of a JAX array, of one that stands for
a NumPy array, or of a NumPy array the function keeps to itself given a traced value
reaches it (a raw TypeError or a named error before). Ground truth: the same function run
as plain Python."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def write_a_copy(x, v):
    w = v * 1.0

    def put():
        w[0] = x
    put()
    return w


def write_the_argument(x, v):
    def put():
        v[0] = x
    put()
    return v


def visit_all(edges, start):
    seen = np.zeros(4, dtype=bool)

    def visit(u):
        seen[u] = True
        seen[(u + 1) % 4] = seen[(u + 1) % 4] or edges[u] > 0
    for k in range(3):
        visit((start + k) % 4)
    return seen


def bump_in_a_loop(v, n):
    total = v * 0.0

    def add(i):
        total[i % 3] += v[i % 3]
    i = 0
    while i < n:
        add(i)
        i += 1
    return total


V = np.array([1.0, 2.0, 3.0], np.float32)
EDGES = np.array([1.0, -1.0, 1.0, -1.0], np.float32)


@pytest.mark.parametrize('fn, args, traced', [
    (write_a_copy, (2.0, V), (jnp.float32(2.0), V)),
    (write_the_argument, (2.0, V), (jnp.float32(2.0), V)),
    (visit_all, (EDGES, 1), (EDGES, jnp.int32(1))),
    (bump_in_a_loop, (V, 4), (V, jnp.int32(4))),
])
def test_a_nested_function_writes_the_enclosing_array(fn, args, traced):
    copies = lambda a: [x.copy() if isinstance(x, np.ndarray) else x for x in a]
    expected = fn(*copies(args))
    assert_same(autograph.convert(fn)(*copies(traced)), expected)
    jax_args = [jnp.asarray(x) if isinstance(x, np.ndarray) else x for x in traced]
    if fn is not write_the_argument:   # (plain JAX: no item assignment of a tracer)
        assert_same(jax.jit(autograph.convert(fn))(*jax_args), expected)


def test_the_nested_function_declares_it_nonlocal():
    code = autograph.to_code(visit_all)
    assert 'nonlocal seen' in code and 'own=True' in code


def write_an_alias_of_the_argument(x, v):
    w = v

    def put(e):
        w[2] = e
    if x > 0:
        put(v[1] * x)
    return w[2] + x, v


@pytest.mark.parametrize('x', [1.0, -1.0])
def test_a_nested_write_through_an_alias_reaches_the_argument(x):
    """(`w = v`: the call of `put` changes `w` in place, so passes.views writes it back)"""
    plain, given = V.copy(), V.copy()
    expected = write_an_alias_of_the_argument(x, plain)
    assert_same(autograph.convert(write_an_alias_of_the_argument)(jnp.float32(x), given),
                expected)
    np.testing.assert_allclose(given, plain)
