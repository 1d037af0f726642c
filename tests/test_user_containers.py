"""Objects of the user's classes indexed like containers (`cells[i]`, `cells[i] = v`):
their `__getitem__` and `__setitem__` run converted, as a method call would, so a traced
index reaches the list inside (`self.items[i]`) as in converted code, and a staged loop
carries the attributes `__setitem__` writes (`self.items[i] = v`: analysis.mutation,
self_attributes). Before: JAX's raw TracerIntegerConversionError from the unconverted
method (the idiom fuzzer's custom_container)."""
import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same


class Cells:
    def __init__(self, first, second):
        self.items = [first, second]

    def __getitem__(self, i):
        return self.items[i]

    def __setitem__(self, i, val):
        self.items[i] = val


class Wrapping(Cells):
    """An index past the end wraps around, by a test on the index."""

    def __getitem__(self, i):
        if i >= len(self.items):
            i = i - len(self.items)
        return self.items[i]


def relax(a, x, n):
    cells = Cells(a, x)
    for i in range(n):
        cells[i % 2] = cells[1 - i % 2] * 0.5 + 0.25
    return a + cells[0] * 0.1


def wrapped(a, x, i):
    cells = Wrapping(a, x)
    return cells[i] * 2.0


@pytest.mark.parametrize('a, x, n', [(1.0, 2.0, 3), (jnp.float32(1.0), 2.0, 3),
                                     (1.0, 2.0, jnp.int32(3)), (1.0, 2.0, jnp.int32(0))])
def test_items_at_traced_indices_in_a_staged_loop(a, x, n):
    assert_same(autograph.convert(relax)(a, x, n), relax(float(a), x, int(n)))


def test_under_jit_and_vmap():
    assert_same(jax.jit(autograph.convert(relax))(1.0, 2.0, 4), relax(1.0, 2.0, 4))
    out = jax.vmap(autograph.convert(relax), in_axes=(0, None, None))(
        jnp.array([1.0, -1.0]), 2.0, jnp.int32(3))
    assert_same(out, jnp.array([relax(1.0, 2.0, 3), relax(-1.0, 2.0, 3)]))


@pytest.mark.parametrize('i', [0, 1, 2, 3])
def test_a_method_with_a_test_on_a_traced_index(i):
    assert_same(autograph.convert(wrapped)(1.0, 2.0, jnp.int32(i)), wrapped(1.0, 2.0, i))


def made_in_each_step(a, x, n):
    total = 0.0
    for i in range(n):
        cells = Cells(a, x)
        for j in range(3):
            cells[j % 2] = cells[1 - j % 2] * 0.5 + 0.25
        total = total + cells[0] * 0.1 + i
    return total


@pytest.mark.parametrize('n', [3, jnp.int32(3), jnp.int32(0)])
def test_an_object_made_in_each_step_of_an_outer_loop(n):
    """`cells` is made anew in each step of the outer loop: not its state (a raw
    unpacking error before, from the outer loop carrying its attributes; idiom fuzzer
    seed 80065)."""
    assert_same(autograph.convert(made_in_each_step)(1.0, 2.0, n),
                made_in_each_step(1.0, 2.0, int(n)))
    assert "method_fields(cells" not in autograph.to_code(made_in_each_step).split(
        'return total')[0].splitlines()[-2]
