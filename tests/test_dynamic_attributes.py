"""Attributes read and written by names the code computes (`getattr(p, k)`,
`setattr(p, k, v)`, `vars(p)`): Python reads the attribute's value when the call runs
and sets it where the code runs. A Function keys its trace by every attribute of the
objects it reaches when the code names attributes this way (runtime.state.places
`StateFinder.dynamic`), and a staged statement carries an attribute set by a computed
name (runtime.state.attributes)."""
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


@dataclasses.dataclass
class Params:
    w: jnp.ndarray
    b: jnp.ndarray


def fresh():
    return Params(jnp.array([2.0, 0.5]), jnp.array([0.1]))


def scaled(p, x):
    k = 'w'
    return getattr(p, k) * x


def update(p, g, lr):
    for k in ('w', 'b'):
        val = getattr(p, k)
        if jnp.abs(val).max() > 1:
            setattr(p, k, val - lr * g)
        else:
            setattr(p, k, val + lr * g)
    return p.w.sum() + p.b.sum()


def in_loop(p, n):
    i = 0
    while i < n:
        setattr(p, 'w', p.w * 2)
        i += 1
    return i


def test_an_attribute_read_by_a_computed_name_is_read_on_every_call():
    p = fresh()
    converted = autograph.convert(scaled)
    assert_same(converted(p, jnp.float32(2.0)), scaled(p, jnp.float32(2.0)))
    p.w = jnp.array([5.0, 1.0])   # (the same type and shape: the same trace)
    assert_same(converted(p, jnp.float32(2.0)), scaled(p, jnp.float32(2.0)))


@pytest.mark.parametrize('g', [1.0, -3.0])
def test_attributes_set_by_computed_names_in_staged_branches_are_pythons(g):
    python, mine = fresh(), fresh()
    converted = autograph.convert(update)
    for _ in range(2):   # (the second call runs the compiled program)
        assert_same(converted(mine, jnp.float32(g), 0.1), update(python, g, 0.1))
        assert_same((mine.w, mine.b), (python.w, python.b))


@pytest.mark.parametrize('n', [0, 3])
def test_an_attribute_set_by_name_in_a_staged_loop_is_carried(n):
    python, mine = fresh(), fresh()
    assert_same(autograph.convert(in_loop)(mine, jnp.int32(n)), in_loop(python, n))
    np.testing.assert_allclose(mine.w, python.w)


def test_under_the_callers_jit_the_values_are_pythons():
    python = fresh()
    expected = update(python, 1.0, 0.1)
    got = jax.jit(lambda g: autograph.convert(update, jit=False)(fresh(), g, 0.1))(
        jnp.float32(1.0))
    assert_same(got, expected)


class Box:
    pass


def test_an_attribute_a_computed_name_creates_is_given_back():
    box, python_box = Box(), Box()

    def make(b, x):
        setattr(b, 'val' + 'ue', x + 1)
        return x
    converted = autograph.convert(make)
    for x in (1.0, 2.0):   # (the second call runs the compiled program)
        converted(box, jnp.float32(x))
        make(python_box, jnp.float32(x))
        assert_same(box.value, python_box.value)
