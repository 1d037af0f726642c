"""Item and slice writes into attributes (`self.w[i] = v`, `self.b[k:] += d`,
`obj.state.x[i] = v`): the attribute is set to the array with the item written (a JAX
array), and a list's or NumPy array's attribute is the same object again, changed in
place as in Python. Converted vs plain Python, where the plain run holds NumPy arrays."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, converted

f32 = jnp.float32


class Filter:
    """An IIR filter kept in an object, as a user writes one (a buffer it shifts)."""

    def __init__(self, buffer):
        self.z = buffer

    def step(self, v):
        for i in range(self.z.shape[0] - 1, 0, -1):
            self.z[i] = self.z[i - 1]
        self.z[0] = v
        if v > 0:
            self.z[1:] *= 0.5
        return self.z.sum()


class Holder:
    def __init__(self, inner):
        self.inner = inner


class Inner:
    def __init__(self, x):
        self.x = x


def nested_attribute(h, v):
    for i in range(3):
        if v > i:
            h.inner.x[i] += v
    return h.inner.x


def signal(values):
    f = Filter(jnp.zeros(4))
    return jnp.stack([f.step(v) for v in values])


@pytest.mark.parametrize('v', [1.5, -2.0])
def test_a_method_writes_items_of_its_attribute(v):
    plain = Filter(np.zeros(4, np.float32))
    expected = [plain.step(np.float32(v)) for _ in range(3)]
    expected_z = plain.z.copy()
    obj = Filter(jnp.zeros(4))
    step = autograph.convert(obj.step)
    got = [step(f32(v)) for _ in range(3)]   # state survives across calls
    assert_same(got, expected)
    assert_same(obj.z, expected_z)


def test_items_of_an_attribute_of_an_attribute():
    for v in (0.5, 2.5):
        plain = Holder(Inner(np.zeros(3, np.float32)))
        expected = nested_attribute(plain, np.float32(v))
        h = Holder(Inner(jnp.zeros(3)))
        assert_same(autograph.convert(nested_attribute)(h, f32(v)), expected)
        assert_same(h.inner.x, plain.inner.x)


def test_a_numpy_attribute_is_changed_in_place():
    buffer = np.zeros(4, np.float32)
    obj = Filter(buffer)
    autograph.convert(obj.step, jit=False)(2.0)
    assert obj.z is buffer and buffer[0] == 2.0


def test_an_object_made_in_converted_code_under_jit_vmap_grad():
    values = jnp.array([1.0, -1.0, 2.0])
    plain = Filter(np.zeros(4, np.float32))
    expected = np.stack([plain.step(np.float32(v)) for v in np.asarray(values)])
    assert_same(autograph.convert(signal)(values), expected)
    batch = jnp.stack([values, -values])
    assert_same(jax.vmap(converted(signal))(batch),
                np.stack([signal_plain(row) for row in np.asarray(batch)]))
    grad = jax.grad(lambda vs: converted(signal)(vs).sum())(values)
    eps = 1e-3
    numeric = [(signal_plain(np.asarray(values) + eps * e).sum()
                - signal_plain(np.asarray(values) - eps * e).sum()) / (2 * eps)
               for e in np.eye(3, dtype=np.float32)]
    np.testing.assert_allclose(grad, numeric, rtol=1e-2, atol=1e-2)


def signal_plain(values):
    f = Filter(np.zeros(4, np.float32))
    return np.stack([f.step(np.float32(v)) for v in values])


class Adam:
    """A user optimiser whose method is named like a dict's (`update`)."""

    def __init__(self):
        self.t = 0

    def update(self, p, g):
        self.t += 1
        if jnp.sum(g) > 0:
            g = g * 0.5
        return p - g


def fit(w, n):
    opt = Adam()
    for _ in range(n):
        w = opt.update(w, w * 2.0)
    return w, opt.t


def test_a_user_method_named_like_a_containers_is_converted():
    for w in (jnp.ones(2), -jnp.ones(2)):
        assert_same(autograph.convert(fit)(w, 3), fit(w, 3))
    batch = jnp.stack([jnp.ones(2), -jnp.ones(2)])
    assert_same(jax.vmap(lambda w: converted(fit)(w, 3)[0])(batch),
                jnp.stack([fit(w, 3)[0] for w in batch]))


class Descent:
    """An optimiser holding its parameters in a dict (and a history list) it changes
    in place, as PyTorch-style optimisers do."""

    def __init__(self, params, lr):
        self.params = params
        self.seen = [0.0]
        self.lr = lr

    def step(self):
        self.params['w'] = self.params['w'] - self.lr
        self.seen[0] = self.seen[0] + 1.0


def descend(w, lr):
    opt = Descent({'w': w, 'b': 1.0}, lr)
    params, seen = opt.params, opt.seen   # (other names for the very containers)
    n = 0
    while params['w'] > 2 and seen[0] < 50:
        opt.step()
        n += 1
    return params['w'], seen[0], n, params['b']


@pytest.mark.parametrize('w', [5.0, 1.0])
def test_other_names_for_an_attributes_containers_see_a_staged_loops_changes(w):
    """`params = opt.params; while params['w'] > 2: opt.step()`: the test reads the dict
    the loop changes through `opt` (a named "never ends" error before: the staged test
    read the dict as it came in)."""
    expected = descend(w, 0.5)
    assert_same(autograph.convert(descend)(f32(w), f32(0.5)), expected)
    assert_same(jax.jit(converted(descend))(f32(w), f32(0.5)), expected)
