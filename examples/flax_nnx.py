"""A Flax NNX module whose `__call__` changes module state inside data-dependent control
flow, staged through NNX's own `nnx.cond` / `nnx.while_loop` / `nnx.fori_loop`.

NNX's control-flow transforms carry module state (Variables) into and out of a branch or
loop body; `jax.lax` alone would update only a copy inside the trace. An `Embedding` with
one lowering and no predicate sends every traced `if`/`while`/`for` of code converted for
it to those transforms, and only while that code runs: other converted code keeps the
`lax` lowering. The model is trained with `nnx.jit` + `nnx.value_and_grad`.
"""
import jax.numpy as jnp
import optax
from flax import nnx

import autograph

NNX = autograph.Embedding()
NNX.register(cond=nnx.cond, while_loop=nnx.while_loop, fori_loop=nnx.fori_loop)


class GatedCounter(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(3, 3, rngs=rngs)
        self.mean = nnx.BatchStat(jnp.zeros(3))     # running mean of the rows seen
        self.opened = nnx.Variable(jnp.array(0))    # how often the gate opened
        self.shrinks = nnx.Variable(jnp.array(0))   # how many shrinking steps ran

    @autograph.transform(embedding=NNX)
    def __call__(self, xs):
        for x in xs:                                # nnx.fori_loop over the rows
            self.mean[...] = 0.9 * self.mean[...] + 0.1 * x
        h = self.linear(self.mean[...] + xs[-1])
        if jnp.mean(h) > 0:                         # nnx.cond
            self.opened[...] += 1
            h = jnp.tanh(h) * 4.0
        else:
            h = 0.5 * h
        while jnp.linalg.norm(h) > 1.0:             # bounded: nnx.fori_loop + nnx.cond
            autograph.set_loop_options(maximum_iterations=8)
            self.shrinks[...] += 1
            h = h * 0.8
        return h


def loss_fn(model, xs, target):
    return jnp.mean((model(xs) - target) ** 2)


@nnx.jit
def train_step(model, optimizer, xs, target):
    loss, grads = nnx.value_and_grad(loss_fn)(model, xs, target)
    optimizer.update(model, grads)
    return loss


XS = jnp.array([[0.5, -1.0, 2.0], [1.0, 0.5, -0.5], [0.2, 0.3, 0.4]])
TARGET = jnp.array([0.1, 0.2, 0.3])


def train(steps=10, learning_rate=0.1, seed=0):
    """The losses of `steps` SGD steps, and the trained model."""
    model = GatedCounter(nnx.Rngs(seed))
    optimizer = nnx.Optimizer(model, optax.sgd(learning_rate), wrt=nnx.Param)
    losses = [float(train_step(model, optimizer, XS, TARGET)) for _ in range(steps)]
    return losses, model


if __name__ == '__main__':
    losses, model = train()
    print('losses ', [round(v, 4) for v in losses])
    print('gate opened', int(model.opened[...]), 'times; shrinking steps:',
          int(model.shrinks[...]))
