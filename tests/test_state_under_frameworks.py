"""State written by converted code inside someone else's trace (`convert(fn, jit=False)`
under `equinox.filter_jit`, `flax.nnx.jit`, `jax.vmap`): the writes happen in their trace,
as plain Python's would, and their own rules carry them out. Compared with plain Python
run on concrete values."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph

eqx = pytest.importorskip('equinox')
nnx = pytest.importorskip('flax.nnx')


class Acc:
    def __init__(self, total):
        self.total = total


def add(acc, x):
    if x > 0:
        acc.total = acc.total + x
    return acc.total


def twice(acc, x):
    add(acc, x)
    return add(acc, x - 1.5)


@pytest.mark.parametrize('x', [2.0, 1.0, -1.0])
def test_an_object_changed_under_equinox_filter_jit(x):
    converted = autograph.convert(twice, jit=False)

    @eqx.filter_jit
    def run(x):
        acc = Acc(jnp.float32(0.5))
        result = converted(acc, x)
        return result, acc.total   # (the write is seen in their trace)
    plain = Acc(0.5)
    expected = twice(plain, x)
    result, total = run(jnp.float32(x))
    np.testing.assert_allclose([float(result), float(total)], [expected, plain.total],
                               rtol=1e-6)


class Counter(nnx.Module):
    def __init__(self):
        self.total = nnx.Variable(jnp.float32(0.0))
        self.count = nnx.Variable(jnp.int32(0))

    def add(self, x):
        if x > 0:   # (`.value =`: an attribute write, carried through the staged if)
            self.total.value = self.total.value + x
            self.count.value = self.count.value + 1
        return self.total.value


class PlainCounter:
    def __init__(self):
        self.total, self.count = 0.0, 0

    def add(self, x):
        if x > 0:
            self.total = self.total + x
            self.count = self.count + 1
        return self.total


@pytest.mark.filterwarnings('ignore::DeprecationWarning')   # (nnx's `.value`)
def test_an_nnx_module_changed_under_nnx_jit():
    counter, plain = Counter(), PlainCounter()
    add_converted = autograph.convert(Counter.add, jit=False)

    @nnx.jit
    def step(module, x):
        return add_converted(module, x)
    for x in (2.0, -1.0, 3.0):
        np.testing.assert_allclose(float(step(counter, jnp.float32(x))), plain.add(x),
                                   rtol=1e-6)
        assert (float(counter.total.get_value()), int(counter.count.get_value())) == \
            (plain.total, plain.count)


def per_element(x):
    acc = Acc(x * 0.0)
    for _ in range(3):
        add(acc, x)
    return acc.total


def test_state_per_element_under_vmap():
    xs = jnp.asarray([2.0, -1.0, 0.5, -3.0], jnp.float32)
    expected = [per_element(float(x)) for x in xs]
    for converted in (autograph.convert(per_element, jit=False),
                      autograph.convert(per_element)):
        np.testing.assert_allclose(np.asarray(jax.vmap(converted)(xs)), expected, rtol=1e-6)
