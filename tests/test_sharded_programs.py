"""Converted code under `jax.jit` over arrays sharded along the batch, on 8 simulated CPU
devices: each case gives the values, the output shardings and no more collectives than the
same program written by hand with `lax` (its `lax.while_loop`, `jax.vmap`), read from the
compiled HLO. A runtime that gathered a sharded array onto one device (an `all-gather` the
hand-written program does not have) or lost an output's sharding fails here.

As in tests/test_shard_map.py, the cases run in one child process with
XLA_FLAGS=--xla_force_host_platform_device_count=8, which reports each case's outcome.
"""
import json
import os
import subprocess
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import autograph

DEVICES = 8
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COLLECTIVES = ('all-gather', 'all-to-all', 'collective-permute', 'all-reduce')


def train(w, xs, ys):
    """Gradient descent on a batch-sharded least-squares problem, with early stopping."""
    loss = jnp.sum((xs @ w - ys) ** 2)
    step = 0
    while loss > 0.05 and step < 100:
        w = w - 0.01 * (2 * xs.T @ (xs @ w - ys))
        loss = jnp.sum((xs @ w - ys) ** 2)
        step += 1
    return w, loss, step


def train_lax(w, xs, ys):
    def cond(c):
        return jnp.logical_and(c[1] > 0.05, c[2] < 100)

    def body(c):
        w = c[0] - 0.01 * (2 * xs.T @ (xs @ c[0] - ys))
        return w, jnp.sum((xs @ w - ys) ** 2), c[2] + 1
    return lax.while_loop(cond, body, (w, jnp.sum((xs @ w - ys) ** 2), 0))


def rows_doubled_where_positive(w, xs, ys):
    """A loop over the sharded rows that writes each row of the result (vectorised: the
    body takes the rows of `xs` and `ys`, no gather over the index range)."""
    out = xs * 0.0
    for i in range(xs.shape[0]):
        row = xs[i]
        if jnp.sum(row) + ys[i] > 0:
            row = row * 2 + w
        out[i] = row
    return out


def rows_doubled_lax(w, xs, ys):
    return jax.vmap(lambda row, y: jnp.where(jnp.sum(row) + y > 0, row * 2 + w, row))(xs, ys)


def clipped_total(w, xs, ys):
    """A sum over the sharded labels under a staged `if` (a reduction over the items of
    `ys`: one all-reduce, as the hand-written sum has)."""
    total = 0.0
    for i in range(ys.shape[0]):
        if ys[i] > 0.5:
            total += ys[i] * w[0]
    return total


def clipped_total_lax(w, xs, ys):
    return jnp.sum(jnp.where(ys > 0.5, ys * w[0], 0.0))


CASES = {train: train_lax, rows_doubled_where_positive: rows_doubled_lax,
         clipped_total: clipped_total_lax}


# --- in the child process (8 devices) ----------------------------------------------------

def _collectives(jitted, *args):
    text = jitted.lower(*args).compile().as_text()
    return {name: text.count(f' {name}(') + text.count(f' {name}-start(')
            for name in COLLECTIVES}


def _compare(fn, twin, args):
    ours, theirs = jax.jit(autograph.convert(fn, jit=False)), jax.jit(twin)
    got, want = ours(*args), theirs(*args)
    for a, b in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-5)
        assert a.sharding.is_equivalent_to(b.sharding, a.ndim), (a.sharding, b.sharding)
    counted, reference = _collectives(ours, *args), _collectives(theirs, *args)
    extra = {k: (counted[k], reference[k]) for k in COLLECTIVES if counted[k] > reference[k]}
    assert not extra, f'collectives the hand-written program does not have: {extra}'


def main():
    """Run every case; print {case: 'ok' or what went wrong} as JSON."""
    assert jax.device_count() == DEVICES, jax.devices()
    mesh = jax.make_mesh((DEVICES,), ('data',), axis_types=(jax.sharding.AxisType.Auto,))
    batch = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec('data'))
    xs = jax.device_put(jnp.linspace(-1.0, 1.0, 64 * 4).reshape(64, 4), batch)
    ys = jax.device_put(jnp.linspace(0.0, 1.0, 64), batch)
    args = (jnp.asarray([0.5, -0.25, 0.0, 0.125]), xs, ys)
    out = {}
    for fn, twin in CASES.items():
        try:
            _compare(fn, twin, args)
            out[fn.__name__] = 'ok'
        except Exception as error:   # (reported to the parent, which names the case)
            out[fn.__name__] = f'{type(error).__name__}: {str(error)[:400]}'
    print(json.dumps(out))


# --- in the test process -----------------------------------------------------------------

@pytest.fixture(scope='module')
def outcomes():
    env = dict(os.environ, XLA_FLAGS=f'--xla_force_host_platform_device_count={DEVICES}',
               JAX_PLATFORMS='cpu')
    done = subprocess.run(
        [sys.executable, '-c', 'import tests.test_sharded_programs as m; m.main()'],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize('case', [fn.__name__ for fn in CASES])
def test_case(outcomes, case):
    assert outcomes[case] == 'ok', outcomes[case]


def test_the_cases_agree_with_python_on_one_device():
    """The hand-written twins are the plain functions' meaning (NumPy arrays: item writes)."""
    xs = np.linspace(-1.0, 1.0, 64 * 4, dtype=np.float32).reshape(64, 4)
    ys = np.linspace(0.0, 1.0, 64, dtype=np.float32)
    w = np.asarray([0.5, -0.25, 0.0, 0.125], np.float32)
    for fn, twin in CASES.items():
        want = twin(jnp.asarray(w), jnp.asarray(xs), jnp.asarray(ys))
        got = fn(w, xs, ys)
        for a, b in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)):
            np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-4, atol=1e-5)
