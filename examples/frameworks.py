"""Converted `__call__`s inside Flax NNX and Equinox models, trained with `jax.grad`.

Each model's forward pass has data-dependent control flow: an `if` on an activation and a
`while` that shrinks it, bounded with `set_loop_options` so reverse-mode differentiation
works (a bounded `while` becomes a `lax.scan`).
"""
import equinox as eqx
import jax
import jax.numpy as jnp
from flax import nnx

import autograph


def shrink(h):
    while jnp.linalg.norm(h) > 2.0:
        autograph.set_loop_options(maximum_iterations=8)
        h = h * 0.8
    return h


class FlaxGated(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(3, 3, rngs=rngs)

    def __call__(self, x):
        h = self.linear(x)
        if jnp.mean(h) > 0:
            h = jnp.tanh(h)
        else:
            h = h * 0.5
        return shrink(h)


class EquinoxGated(eqx.Module):
    weight: jax.Array
    bias: jax.Array

    def __init__(self, key):
        self.weight = jax.random.normal(key, (3, 3)) * 0.5
        self.bias = jnp.zeros(3)

    def __call__(self, x):
        h = self.weight @ x + self.bias
        if jnp.sum(h) > 0:
            h = jax.nn.relu(h)
        else:
            h = -h
        return shrink(h)


def mse(pred, target):
    return jnp.mean((pred - target) ** 2)


X, Y = jnp.array([0.5, -1.0, 2.0]), jnp.array([0.1, 0.2, 0.3])


def gradient_descent(loss, params, steps, learning_rate):
    """The losses of `steps` plain gradient steps on `loss(params)` (compiled)."""
    @jax.jit
    def step(params):
        value, grads = jax.value_and_grad(loss)(params)
        return jax.tree_util.tree_map(lambda p, g: p - learning_rate * g, params, grads), value
    losses = []
    for _ in range(steps):
        params, value = step(params)
        losses.append(float(value))
    return losses


def train_flax(steps=5, learning_rate=0.1):
    """Losses of a few gradient steps on a converted Flax NNX model."""
    forward = autograph.convert(FlaxGated.__call__, jit=False)
    graphdef, params = nnx.split(FlaxGated(nnx.Rngs(0)))
    return gradient_descent(lambda p: mse(forward(nnx.merge(graphdef, p), X), Y), params,
                            steps, learning_rate)


def train_equinox(steps=5, learning_rate=0.1):
    """Losses of a few gradient steps on a converted Equinox model."""
    forward = autograph.convert(EquinoxGated.__call__, jit=False)
    return gradient_descent(lambda m: mse(forward(m, X), Y), EquinoxGated(
        jax.random.PRNGKey(0)), steps, learning_rate)


if __name__ == '__main__':
    print('flax losses    ', train_flax())
    print('equinox losses ', train_equinox())
