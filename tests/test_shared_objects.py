"""Objects and dicts that other objects share. Objects that a list or tuple holds,
changed through it (`for layer in layers: layer.w = layer.w - lr`, a model's
`self.layers[0].update(g)`): their attributes are state of the Function as the attributes
of an object argument are (runtime.state.places); before, the objects were left holding
the trace's tracers after the call. A dict an attribute shares with a local, changed by
a method in a staged loop: filled in place (runtime.state.mutation), as Python changes
it; before, the attribute was bound to a new dict and the local kept the old values.
Both were silent wrong values. Ground truth: the same code run as plain Python on fresh
objects."""
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


class Layer:
    def __init__(self, w):
        self.w = w
        self.steps = 0

    def update(self, g, lr):
        self.w = self.w - lr * g
        self.steps += 1


def sgd_step(layers, lr):
    for layer in layers:
        layer.w = layer.w - lr


class Sequential:
    def __init__(self, layers):
        self.layers = layers

    def fit(self, x, n):
        loss = 0.0
        for _ in range(n):
            out = x
            for layer in self.layers:
                out = out * layer.w
            loss = out * out
            for layer in self.layers:
                layer.update(out, 0.01)
            if loss < 1e-3:
                break
        return loss


def weights(layers):
    return [float(np.asarray(layer.w)) for layer in layers]


@pytest.mark.parametrize('make', [list, tuple])
def test_objects_of_a_list_argument_changed_through_it(make):
    plain = make([Layer(np.float32(5.0)), Layer(np.float32(7.0))])
    mine = make([Layer(jnp.float32(5.0)), Layer(jnp.float32(7.0))])
    converted = autograph.convert(sgd_step)
    for _ in range(2):   # (the second call reads what the first wrote)
        sgd_step(plain, np.float32(1.0))
        converted(mine, jnp.float32(1.0))
        assert weights(mine) == weights(plain)


@pytest.mark.parametrize('n', [3, jnp.int32(5)], ids=['python n', 'traced n'])
def test_a_models_layers_updated_by_a_method_in_a_staged_loop(n):
    plain = Sequential([Layer(np.float32(0.9)), Layer(np.float32(1.1))])
    mine = Sequential([Layer(jnp.float32(0.9)), Layer(jnp.float32(1.1))])
    expected = plain.fit(np.float32(2.0), int(n))
    assert_same(autograph.convert(mine.fit)(jnp.float32(2.0), n), expected)
    assert_same(weights(mine.layers), weights(plain.layers))
    assert [int(layer.steps) for layer in mine.layers] == \
        [layer.steps for layer in plain.layers]


class Optimizer:
    def __init__(self, params):
        self.params = params          # (the caller's dict: one object, two names)

    def step(self, g):
        self.params['w'] = self.params['w'] - g


def fit(x, n):
    params = {'w': x}
    opt = Optimizer(params)
    for _ in range(n):
        opt.step(1.0)
    if x > 10.0:
        opt.step(2.0)
    return params['w'], opt.params['w'], opt.params is params


@pytest.mark.parametrize('x', [5.0, 12.0])
def test_a_dict_an_attribute_shares_with_a_local_is_changed_in_place(x):
    """(the staged loop's write-back bound `opt.params` to a new dict: `params` kept the
    old values, a silent wrong value)"""
    expected = fit(np.float32(x), 4)
    got = autograph.convert(fit)(jnp.float32(x), 4)
    assert_same(got[:2], expected[:2])
    assert got[2] is True


class Particle:
    def __init__(self, x):
        self.x = x


def drift(x, dt, steps):
    ps = [Particle(x), Particle(x * 2)]
    for _ in range(steps):
        for p in ps:              # (the objects of a list made before the staged loop)
            p.x = p.x + dt
    fresh = 0.0
    for _ in range(steps):
        qs = [Particle(x)]        # (a list the loop makes: its objects are its own)
        for q in qs:
            q.x = q.x * 2
        fresh = fresh + qs[0].x
    return ps[0].x + ps[1].x, fresh


@pytest.mark.parametrize('steps', [4, 6])
def test_objects_of_a_list_changed_by_an_inner_loop_of_a_staged_loop(steps):
    """`for p in ps: p.x = ...` in a staged loop's body: the attributes of the objects
    `ps` holds are the staged loop's state (an EscapedTracer before, a raw
    UnexpectedTracerError under jax.jit: a particle simulation's update)."""
    expected = drift(1.0, 0.5, steps)
    assert_same(autograph.convert(drift)(jnp.float32(1.0), jnp.float32(0.5), steps),
                expected)
