"""Objects whose attributes are not plain entries of their `__dict__`, changed in staged
branches and loops: a property with a setter (`t.f = v` runs the setter, which changes
the object's own attributes) and a class with `__slots__`. Ground truth: the same
function run as plain Python on NumPy values (converted: JAX arrays; plain call, a
second call, the caller's jit and vmap)."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


class Temperature:
    def __init__(self, celsius):
        self._celsius = celsius

    @property
    def fahrenheit(self):
        return self._celsius * 1.8 + 32

    @fahrenheit.setter
    def fahrenheit(self, value):
        self._celsius = (value - 32) / 1.8


def warmed(v):
    """A property assigned under a traced `if` in a staged loop (an EscapedTracer: the
    property was carried, the attribute its setter writes was not)."""
    t = Temperature(0.0)
    for y in v:
        if y > 0:
            t.fahrenheit = t.fahrenheit + y
    return t._celsius, t.fahrenheit


class Slotted:
    __slots__ = ('total', 'count')

    def __init__(self):
        self.total = 0.0
        self.count = 0


def tallied(v):
    """Attributes in `__slots__` assigned under a traced `if` (a raw TypeError from
    `vars()` of an object with no `__dict__`)."""
    s = Slotted()
    for y in v:
        if y > 0:
            s.total += y
            s.count += 1
    return s.total, s.count


CASES = [[0.5, -1.0, 2.0], [-1.0, -2.0, -3.0], [3.0, 1.0, 0.5]]


@pytest.mark.parametrize('fn', [warmed, tallied])
@pytest.mark.parametrize('case', CASES)
def test_converted_as_python(fn, case):
    expected = fn(np.asarray(case, np.float32))
    converted = autograph.convert(fn)
    x = jnp.asarray(case, jnp.float32)
    assert_same(converted(x), expected)
    assert_same(converted(x), expected)
    assert_same(jax.jit(autograph.convert(fn))(x), expected)


@pytest.mark.parametrize('fn', [warmed, tallied])
def test_under_vmap(fn):
    expected = [fn(np.asarray(c, np.float32)) for c in CASES]
    got = jax.vmap(autograph.convert(fn))(jnp.asarray(CASES, jnp.float32))
    assert_same(got, tuple(np.stack(parts) for parts in zip(*expected)))
