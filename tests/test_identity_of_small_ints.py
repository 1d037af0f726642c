"""`p is 0`, `p is not 0` on a Python int that staged code made traced (a counter in a
staged `while`): CPython makes each small int once, so Python's answer is `p == 0`; a
JAX array's integer is never the object `0`. Real code does this (a Q-learning script's
`pos[0] is not 0`; Python warns "is not" with a literal, but the program is
deterministic). Ground truth: the same function run as plain Python."""
import linecache
import warnings

import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same

SOURCE = '''
def bounce(n):
    p = 0
    i = 0
    while i < n:
        if p is not 0:
            p = p - 1
        else:
            p = p + 1
        i += 1
    return p


def jax_zero(x):
    y = jnp.int32(0) + x
    return y is 0, y is not 0


def counted(n):
    hits = 0
    k = 0
    for i in range(n):
        k = (k + 3) % 5
        if k is 2:
            hits += 1
    return hits
'''

FILE = '<identity of small ints>'   # (compiled here: Python warns of `is` with a literal)
linecache.cache[FILE] = (len(SOURCE), None, SOURCE.splitlines(True), FILE)
namespace = {'jnp': jnp}
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    exec(compile(SOURCE, FILE, 'exec'), namespace)   # noqa: S102
bounce, jax_zero, counted = namespace['bounce'], namespace['jax_zero'], namespace['counted']


@pytest.mark.parametrize('n', [0, 1, 4, 5])
def test_a_traced_python_int_is_a_small_int_by_value(n):
    assert_same(autograph.convert(bounce)(jnp.int32(n)), bounce(n))
    assert_same(autograph.convert(counted)(jnp.int32(n)), counted(n))


def test_under_vmap():
    out = jax.vmap(autograph.convert(bounce))(jnp.array([4, 5]))
    assert list(out) == [bounce(4), bounce(5)]


def test_a_jax_integer_is_never_the_object():
    assert autograph.convert(jax_zero)(jnp.int32(0)) == jax_zero(jnp.int32(0)) == (False, True)
