"""Corpus of public functions, third batch, statistics: Welford's online variance as a
small class and as a pair of functions on a tuple (its `finalize` gives nan or a tuple), a
MATLAB-style `histc` counting with item writes at traced (possibly negative) bins, and an
EM loop for a two-component mixture (a script made a function). Edits: `np.` becomes
`jnp.` where traced values flow; NumPy's global random state becomes a key passed in.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax
import jax.numpy as jnp
import pytest

import autograph

from tests.peers.corpus_harness import agree, agree_grad, agree_vmap, key

XS = jnp.array([0.5, 1.5, -0.2, 2.2, 0.9, 1.1, 3.0, -1.0])


# --- SavvasMel/Prox-DiffPIR: utils/utils_welford.py (welford) ---------------------------

class welford:
    def __init__(self, x):
        self.k = 1
        self.M = x
        self.S = 0

    def update(self, x):
        self.k += 1
        Mnext = self.M + (x - self.M) / self.k
        self.S += (x - self.M)*(x - Mnext)
        self.M = Mnext

    def get_mean(self):
        return self.M

    def get_var(self):
        return self.S/(self.k-1)


def welford_run(xs):
    w = welford(xs[0])
    for x in xs[1:]:
        w.update(x)
    return w.get_mean(), w.get_var()


def test_welford_class_over_samples():
    agree(welford_run, (XS,), (XS[::-1] * 3.0,))
    agree_vmap(welford_run, jnp.stack([XS, XS ** 2]))
    agree_grad(lambda xs: welford_run(xs)[1], XS)


# --- GiulioAppetito/SABD_Project_2: flink/src/flink_job_query1.py (update, finalize) -----

def update(existing_aggregate, new_value):
    (count, mean, M2) = existing_aggregate
    count += 1
    delta = new_value - mean
    mean += delta / count
    delta2 = new_value - mean
    M2 += delta * delta2
    return count, mean, M2


def finalize(existing_aggregate):
    (count, mean, M2) = existing_aggregate
    if count < 2:
        return float("nan")
    else:
        (mean, variance, sample_variance) = (mean, M2 / count, M2 / (count - 1))
        return mean, variance, sample_variance


def welford_tuple(xs, mask):
    agg = (0, 0.0, 0.0)
    for x, keep in zip(xs, mask):
        if keep:
            agg = update(agg, x)
    return finalize(agg)


def welford_all(xs):
    agg = (0, 0.0, 0.0)
    for x in xs:
        agg = update(agg, x)
    return finalize(agg)


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'project bug (named): `for x in xs` over a traced array of known length is one scan, '
    'and the Python count that `update` (a helper) adds 1 to inside the tuple `agg` comes '
    'out traced, so `finalize` meets a traced `count < 2` choosing between nan and a '
    'tuple; Python knows the count (a `count += 1` in the loop body itself is counted)'))
def test_welford_tuple_aggregate():
    agree(welford_all, (XS,), (XS[:1],))
    agree_vmap(welford_all, jnp.stack([XS, -XS]))


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the count is traced (samples kept under a traced test), and '
    '`finalize` gives nan or a tuple of 3 by it: a structure known only at run time'))
def test_welford_tuple_aggregate_traced_count():
    mask = jnp.array([True, False, True, True, False, True, True, False])
    agree(welford_tuple, (XS, mask), (XS * 2.0, ~mask))


# --- gimesia/zebrafisher: well/preProcessing/histc.py (histc) ----------------------------

def histc(x, bins):
    map_to_bins = jnp.digitize(x, bins)
    r = jnp.zeros(bins.shape)
    for i in map_to_bins:
        r[i - 1] += 1
    return [r, map_to_bins]


def test_histc_item_writes_at_traced_wrapping_bins():
    x = jnp.array([0.9828, 0.4662, 0.5245, 0.9334, 0.2163, 0.01, -3.0])
    bins = jnp.array([0.0191, 0.2057, 0.2820, 0.2851, 1.0])
    agree(histc, (x, bins), (x[::-1] * 0.5, bins))
    agree_vmap(histc, jnp.stack([x, x * 0.3]), bins, in_axes=(0, None))


# --- xingnix/learning: machinelearning/python/bayes/em.py (the script made a function) ---

def em(x, mu, iters):
    n = x.shape[0]
    k = 2
    Ez = jnp.zeros((n, k))

    for i in range(iters):
        p=jnp.exp(-(jnp.repeat(x,k,axis=1)-jnp.repeat(mu,n,axis=0))**2)
        Ez=p/jnp.repeat(jnp.sum(p,axis=1,keepdims=True),k,axis=1)

        mu=jnp.sum(Ez*jnp.repeat(x,k,axis=1),axis=0,keepdims=True)/jnp.sum(Ez,axis=0,keepdims=True)
    return mu, Ez


def em_data(k):
    k1, k2, k3 = jax.random.split(k, 3)
    x1 = jax.random.normal(k1, (3, 1))
    x2 = jax.random.normal(k2, (3, 1)) + 2
    x = jnp.sort(jnp.vstack((x1, x2)), axis=0)
    mu = jax.random.normal(k3, (1, 2))
    return x, mu


def test_em_script_as_function():
    agree(em, (*em_data(key(0)), 50), (*em_data(key(1)), 50), rtol=1e-4, atol=1e-5)
    x, mu = em_data(key(2))
    agree_grad(lambda mu, x: jnp.sum(em(x, mu, 20)[0]), mu, x)
