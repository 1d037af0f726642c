"""PennyLane Catalyst's AutoGraph tests of calls through transformations and decorated
functions, restated for plain JAX.

Upstream: PennyLaneAI/catalyst, frontend/test/pytest/test_autograph.py (classes
TestIntegration and TestDecorators). Catalyst's `grad`/`jacobian`/`vjp`/`jvp`/`vmap` are
`jax.grad`/`jax.jacobian`/`jax.vjp`/`jax.jvp`/`jax.vmap`; `qjit(autograph=True)` is
`autograph.convert`. The functions given to the transformations here contain a Python `if`
on a traced value, so they pass only if they were converted.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def inner(x):
    if x > 0:
        return 2 * x, x ** 2
    return -2 * x, x ** 3


def inner_where(x):
    """`inner` written with jnp.where, the reference under transformations."""
    return jnp.where(x > 0, 2 * x, -2 * x), jnp.where(x > 0, x ** 2, x ** 3)


@pytest.mark.parametrize('x', [3., -2.])
def test_grad_wrapper(x):
    # upstream: TestIntegration.test_grad_wrapper
    def fn(x):
        return jax.grad(lambda v: inner(v)[0])(x)
    assert float(autograph.convert(fn)(x)) == (2. if x > 0 else -2.)


@pytest.mark.parametrize('x', [3., -2.])
def test_jacobian_wrapper(x):
    # upstream: TestIntegration.test_jacobian_wrapper
    def fn(x):
        return jax.jacobian(inner)(x)
    assert_same(autograph.convert(fn)(x), jax.jacobian(inner_where)(x))


@pytest.mark.parametrize('x', [3., -2.])
def test_vjp_wrapper(x):
    # upstream: TestIntegration.test_vjp_wrapper (Catalyst's vjp returns the outputs and
    # the cotangent product; JAX's returns the outputs and a function)
    def fn(x):
        outputs, pullback = jax.vjp(inner, x)
        return outputs, pullback((1.0, 1.0))

    outputs, pullback = jax.vjp(inner_where, x)
    assert_same(autograph.convert(fn)(x), (outputs, pullback((1.0, 1.0))))


@pytest.mark.parametrize('x', [3., -2.])
def test_jvp_wrapper(x):
    # upstream: TestIntegration.test_jvp_wrapper
    def fn(x):
        return jax.jvp(inner, (x,), (1.0,))
    assert_same(autograph.convert(fn)(x), jax.jvp(inner_where, (x,), (1.0,)))


def test_decorated_vmap():
    # upstream: TestDecorators.test_vmap: conversion applied to a vmap-decorated function
    def workflow(axes_dct):
        if axes_dct['y'] > 2:
            return axes_dct['x'] + axes_dct['y']
        return axes_dct['x'] * axes_dct['y']

    batched = jax.vmap(workflow, in_axes=({'x': None, 'y': 0},))
    result = autograph.convert(batched)({'x': 1, 'y': jnp.arange(5)})
    np.testing.assert_array_equal(result, [0, 1, 2, 4, 5])


def test_decorated_cond():
    # upstream: TestDecorators.test_cond. Catalyst's `@cond(pred)` decorator has no JAX
    # counterpart; restated as a converted function whose lax.cond branches have a traced if.
    n = 6

    def cond_fn(m):
        def square(k):
            if k > 5:
                return k ** 2
            return k
        return jax.lax.cond(m > 4, square, lambda k: k, m)
    assert int(autograph.convert(cond_fn)(jnp.int32(n))) == 36
    assert int(autograph.convert(cond_fn)(jnp.int32(5))) == 5


def test_decorated_for_loop():
    # upstream: TestDecorators.test_for_loop (`@for_loop(0, n, 1)` is lax.fori_loop)
    x, n = 5, 6

    def loop(_, agg):
        if agg > 20:
            return agg + 2 * x
        return agg + x

    def run(start):
        return jax.lax.fori_loop(0, n, loop, start)
    assert int(autograph.convert(run)(jnp.int32(0))) == 5 + 5 + 5 + 5 + 5 + 10
    assert int(autograph.convert(jax.jit(run))(jnp.int32(0))) == 35


def test_decorated_while_loop():
    # upstream: TestDecorators.test_while_loop (`@while_loop(cond)` is lax.while_loop)
    n = 6

    def body(i):
        if i % 2 == 0:
            return i + 1
        return i + 1

    def run(start):
        return jax.lax.while_loop(lambda i: i < n, body, start)
    assert int(autograph.convert(run)(jnp.int32(0))) == n
