"""Corpus of public functions, sampling: the samplers of c-matthews/racecar (HMC,
random-walk Metropolis, BAOAB Langevin, SGLD) as objects whose `np` is a module-like
parameter and whose state (acceptance count, energy, force, momentum, the random key) lives
in attributes. The `np` given to them draws from a `jax.random` key it holds.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import types

import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.peers.corpus_harness import agree, agree_vmap, close, key


def log_target(x):
    return -0.5 * jnp.sum((x - 1.0) ** 2) - 0.1 * jnp.sum(x ** 4)


# --- c-matthews/racecar: samplers as objects whose `np` is a module-like parameter ---------

class KeyedRandom:
    """`np.random` for the samplers: randn/rand draw from a key the object holds."""

    def __init__(self, rng):
        self.key = rng

    def randn(self, *shape):
        self.key, k = jax.random.split(self.key)
        return jax.random.normal(k, shape)

    def rand(self):
        self.key, k = jax.random.split(self.key)
        return jax.random.uniform(k)


def jax_np(rng):
    return types.SimpleNamespace(random=KeyedRandom(rng), exp=jnp.exp, sqrt=jnp.sqrt,
                                 log=jnp.log, sum=jnp.sum)


def force(q):
    return {'llh': log_target(q), 'grad': jax.grad(log_target)(q)}


class Algorithm:
    # racecar.algos.algorithm.Algorithm is not in the index: its fields, as its
    # subclasses read them
    def __init__(self, np, ic, h, force, params):
        self.np, self.h, self.h2, self.force = np, h, h / 2, force
        self.sq2h = np.sqrt(2 * h)
        fres = force(ic)
        self.v, self.f = fres.get('llh'), fres.get('grad')
        self.p = np.random.randn(*ic.shape)
        self.acc = 0


class HMC(Algorithm):
    def __init__(self, np, ic, h, force, params):
        super().__init__(np, ic, h, force, params)
        self.T = params.get("T", 5)

    def step(self, q):
        p = self.np.random.randn(*q.shape)
        q0 = q.copy()
        V0 = self.v
        K0 = -self.np.sum(p * p) / 2
        f = self.f.copy()
        h2 = self.h2
        h = self.h
        for m in range(self.T):
            p = p + h2 * f
            q = q + h * p
            fres = self.force(q)
            V1, f = fres.get("llh"), fres.get("grad")
            p = p + h2 * f
        K1 = -self.np.sum(p * p) / 2
        dH = (V0 - V1) + (K0 - K1)
        if self.np.log(self.np.random.rand()) < -dH:
            # Accept
            self.acc += 1
            self.v = V1
            self.f = f.copy()
            self.p = p.copy()
            return q
        # Not accept
        return q0


class RWMETROPOLIS(Algorithm):
    def step(self, q):
        p = self.np.random.randn(*q.shape)
        q0 = q.copy()
        V0 = self.v
        h = self.h
        q = q + h * p
        fres = self.force(q)
        V1, F = fres.get("llh"), fres.get("grad")
        dH = V0 - V1
        if self.np.log(self.np.random.rand()) < -dH:
            # Accept
            self.acc += 1
            self.v = V1
            self.f = F
            return q
        # Not accept
        return q0


class BAOAB(Algorithm):
    def __init__(self, np, ic, h, force, params):
        super().__init__(np, ic, h, force, params)
        self.g = params.get("g", 1)

    def step(self, q):
        h = self.h
        h2 = self.h2
        self.p = self.p + h2 * self.f
        q = q + h2 * self.p
        c1 = self.np.exp(-self.g * h)
        c3 = self.np.sqrt(1 - c1 * c1)
        self.p = self.p * c1 + c3 * self.np.random.randn(*self.p.shape)
        q = q + h2 * self.p
        fres = self.force(q)
        self.v, self.f = fres.get("llh"), fres.get("grad")
        self.p = self.p + h2 * self.f
        return q


class SGLD(Algorithm):
    def step(self, q):
        q = q + self.h * self.f + self.sq2h * self.np.random.randn(*q.shape)
        fres = self.force(q)
        self.v, self.f = fres.get("llh"), fres.get("grad")
        return q


def racecar_chain(cls, rng, q, steps=4):
    sampler = cls(jax_np(rng), q, 0.3, force, {})
    out = []
    for _ in range(steps):
        q = sampler.step(q)
        out.append(q)
    return jnp.stack(out), sampler.acc, sampler.v, sampler.np.random.key


@pytest.mark.parametrize('cls', [HMC, RWMETROPOLIS, BAOAB, SGLD])
def test_racecar_sampler_objects(cls):
    run = lambda rng, q: racecar_chain(cls, rng, q)
    agree(run, (key(0), jnp.zeros(2)), (key(7), jnp.array([1.5, -0.5])))
    if cls is RWMETROPOLIS:   # the accept/reject branch that sets attributes, per chain
        agree_vmap(run, jax.vmap(key)(jnp.arange(2)), jnp.zeros((2, 2)))


def test_racecar_step_method_converted_alone():
    # HMC.step, the bound method converted on its own: the attributes it sets (also those
    # of the objects its attributes hold) are written back
    plain = HMC(jax_np(key(2)), jnp.zeros(2), 0.3, force, {})
    conv = HMC(jax_np(key(2)), jnp.zeros(2), 0.3, force, {})
    step = autograph.convert(conv.step)
    q_plain = q_conv = jnp.array([0.5, 0.5])
    for _ in range(2):
        q_plain, q_conv = plain.step(q_plain), step(q_conv)
        assert not isinstance(conv.np.random.key, jax.core.Tracer)
        close((q_conv, conv.acc, conv.v, conv.np.random.key),
              (q_plain, plain.acc, plain.v, plain.np.random.key))
