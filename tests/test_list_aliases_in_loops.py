"""A list that a loop writes and that another name also holds (`l2 = l`), or that holds
one row object twice (`[[0.0] * 2] * 2`): in Python a write through one name is seen
through the other. A loop that runs as Python keeps that meaning; a staged loop (a
traced bound) passes its lists to the body as new lists, and says so with a named
ControlFlowError instead of reading the items as they were before the loop.

Ground truth: the same function run unconverted on the same inputs."""
import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same


def alias_read(x, n):
    a = x * 1.0
    l = [a, x]
    l2 = l
    for i in range(n):
        l[0] = l2[0] * 0.5 + 1.0
    return a + l2[0] * 0.1, l, l2


def repeated_rows(x, n):
    a = x * 1.0
    rows = [[0.0] * 2] * 2
    for i in range(n):
        rows[0][i % 2] = rows[1][i % 2] * 0.5 + a * 0.1
    return a + rows[1][0] * 0.1, rows


def alias_in_test(x, n):
    l = [x * 1.0]
    l2 = l
    k = 0
    while l2[0] < n:
        l[0] = l[0] * 2.0 + 1.0
        k += 1
    return k, l2


def alias_in_python_loop_inside_staged(x, n):
    a = x * 1.0
    for j in range(n):          # (staged: the list is made in each iteration)
        l = [a, x]
        l2 = l
        for i in range(3):      # (a Python bound: runs as Python)
            l[0] = l2[0] * 0.5 + 1.0
        a = a + l2[0] * 0.1
    return a


@pytest.mark.parametrize('fn', [alias_read, repeated_rows])
@pytest.mark.parametrize('x', [0.5, jnp.float32(0.5)])
def test_a_python_loop_keeps_one_object(fn, x):
    expected = fn(0.5, 3)
    assert_same(autograph.convert(fn)(x, 3), expected)
    assert_same(jax.jit(autograph.convert(fn, jit=False), static_argnums=1)(x, 3), expected)


@pytest.mark.parametrize('fn, name', [(alias_read, "'l'"), (repeated_rows, "'rows'")])
def test_a_staged_loop_is_a_named_error(fn, name):
    with pytest.raises(autograph.ControlFlowError,
                       match=f'staged loop changes the list {name}'):
        autograph.convert(fn)(0.5, jnp.int32(3))


def test_a_staged_while_test_reading_the_alias_is_a_named_error():
    assert autograph.convert(alias_in_test)(0.5, 10.0) == alias_in_test(0.5, 10.0)
    with pytest.raises(autograph.ControlFlowError, match="held by 'l2'"):
        autograph.convert(alias_in_test)(jnp.float32(0.5), 10.0)


def test_a_python_loop_inside_a_staged_one():
    expected = alias_in_python_loop_inside_staged(0.5, 3)
    assert_same(autograph.convert(alias_in_python_loop_inside_staged)(0.5, jnp.int32(3)),
                expected)
