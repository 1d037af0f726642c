"""Corpus of public functions, third batch, SMC resampling (filterpy's four schemes): two
`while i < N` loops that write an index per particle and step along the cumulative sum on
a traced test, a residual scheme whose inner loop runs `num_copies[i]` times (a traced
bound) and fills the rest of its output from a slice of traced start, and a multinomial
one with an item write into the cumulative sum. Edits: `np.` becomes `jnp.` where traced
values flow; NumPy's `random()` / `random(n)` become draws from a key passed in.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.peers.corpus_harness import agree, agree_vmap, key

W = jnp.array([0.05, 0.3, 0.02, 0.13, 0.25, 0.1, 0.05, 0.1])


# --- rlabbe/filterpy: filterpy/monte_carlo/resampling.py ---------------------------------

def residual_resample(weights, key):
    N = len(weights)
    indexes = jnp.zeros(N, 'i')

    # take int(N*w) copies of each weight, which ensures particles with the
    # same weight are drawn uniformly
    num_copies = (jnp.floor(N*jnp.asarray(weights))).astype(int)
    k = 0
    for i in range(N):
        for _ in range(num_copies[i]): # make n copies
            indexes[k] = i
            k += 1

    # use multinormal resample on the residual to fill up the rest. This
    # maximizes the variance of the samples
    residual = weights - num_copies     # get fractional part
    residual /= sum(residual)           # normalize
    cumulative_sum = jnp.cumsum(residual)
    cumulative_sum[-1] = 1. # avoid round-off errors: ensures sum is exactly one
    indexes[k:N] = jnp.searchsorted(cumulative_sum, jax.random.uniform(key, (N-k,)))

    return indexes


def stratified_resample(weights, key):
    N = len(weights)
    # make N subdivisions, and chose a random position within each one
    positions = (jax.random.uniform(key, (N,)) + jnp.arange(N)) / N

    indexes = jnp.zeros(N, 'i')
    cumulative_sum = jnp.cumsum(weights)
    i, j = 0, 0
    while i < N:
        if positions[i] < cumulative_sum[j]:
            indexes[i] = j
            i += 1
        else:
            j += 1
    return indexes


def systematic_resample(weights, key):
    N = len(weights)

    # make N subdivisions, and choose positions with a consistent random offset
    positions = (jax.random.uniform(key) + jnp.arange(N)) / N

    indexes = jnp.zeros(N, 'i')
    cumulative_sum = jnp.cumsum(weights)
    i, j = 0, 0
    while i < N:
        if positions[i] < cumulative_sum[j]:
            indexes[i] = j
            i += 1
        else:
            j += 1
    return indexes


def multinomial_resample(weights, key):
    cumulative_sum = jnp.cumsum(weights)
    cumulative_sum[-1] = 1.  # avoid round-off errors: ensures sum is exactly one
    return jnp.searchsorted(cumulative_sum, jax.random.uniform(key, (len(weights),)))


@pytest.mark.parametrize('fn', [stratified_resample, systematic_resample,
                                multinomial_resample])
def test_resampling_while_loops_and_item_writes(fn):
    agree(fn, (W, key(0)), (W[::-1], key(1)))
    agree_vmap(fn, jnp.stack([W, W[::-1], jnp.roll(W, 3)]), jax.random.split(key(2), 3))


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `random(N - k)` draws a number of values that the traced copy '
    'counts decide, a shape known only at run time'))
def test_residual_resample_traced_copy_counts():
    agree(residual_resample, (W, key(0)), (W[::-1], key(1)))
