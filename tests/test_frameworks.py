"""Converted model `__call__`s embedded in Flax NNX and Equinox, trained with jax.grad."""
import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx

import autograph
from examples import frameworks
from tests.helpers import staged


def test_flax_nnx_model_trains():
    losses = frameworks.train_flax(steps=5)
    assert losses[-1] < losses[0] * 0.8


def test_equinox_model_trains():
    losses = frameworks.train_equinox(steps=5)
    assert losses[-1] < losses[0] * 0.5


def test_converted_forward_matches_python():
    x = jnp.array([0.5, -1.0, 2.0])
    flax_model = frameworks.FlaxGated(nnx.Rngs(0))
    eqx_model = frameworks.EquinoxGated(jax.random.PRNGKey(0))
    for cls, model in [(frameworks.FlaxGated, flax_model),
                       (frameworks.EquinoxGated, eqx_model)]:
        converted = autograph.convert(cls.__call__, jit=False)
        np.testing.assert_allclose(converted(model, x), model(x), rtol=1e-6)
        jaxpr = str(jax.make_jaxpr(lambda x: converted(model, x))(x))
        assert 'cond[' in jaxpr and 'scan[' in jaxpr


def test_bounded_while_is_a_scan():
    assert staged(frameworks.shrink, jnp.ones(3) * 5) == {'scan', 'cond'}
