"""Converted code inside `jax.shard_map`, with JAX's check of varying manual axes on
(`check_vma=True`, its default), on 8 simulated CPU devices.

Inside `jax.shard_map` each device runs the function on its shard; the values the runtime
makes (zeros, flags, counters, the markers of unbound variables, the error state) must
vary over the mesh axes as the user's values they meet do (runtime.values.varying).
Each case compares the converted function under `shard_map` with plain Python run on
each shard, or, where it calls collectives (`lax.psum`, `pmax`, `pmean`, `axis_index`),
with the same function written by hand with `lax`; some run under `jax.vmap` with an
axis name too. A collective that a condition varying between devices guards is the
named error (the program would hang).

The main test process has JAX on one device: all cases run in one child process started
with XLA_FLAGS=--xla_force_host_platform_device_count=8 (`outcomes`), which reports each
case's outcome; each test checks one.
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

pytestmark = pytest.mark.x64   # (the child inherits JAX_ENABLE_X64: 64-bit counters)

N, DEVICES = 64, 8
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# --- cases without collectives: plain Python per shard is the reference -------------------

def while_halving(x):
    while jnp.sum(x) > 1.0:
        x = x * 0.5
    return x


def item_set_under_if(x):
    for i in range(x.shape[0]):
        if x[i] > 1.5:
            x = x.at[i].set(x[i] * 2)
    return x


def item_write_under_if(x):
    for i in range(40):
        if x[i % x.shape[0]] > 1.5 + i * 0.01:
            x[i % x.shape[0]] = x[i % x.shape[0]] - 0.5
    return x


def if_on_one_path(x):
    y = 0.0
    if jnp.sum(x) > 10.0:
        y = jnp.max(x)
    return x + y


def continue_break_return(x):
    s = jnp.zeros_like(x)
    for i in range(6):
        if jnp.sum(x) + i > 14.0:
            continue
        if jnp.max(s) > 40.0:
            break
        if jnp.min(x) > 2.9:
            return x * 10
        s = s + x * i
    return s


def while_true_break(x):
    n = 0
    while True:
        n += 1
        if jnp.sum(x) > 20.0:
            break
        x = x * 2.0
    return x + n


def created_in_loop(x):
    n = 0
    while jnp.sum(x) < 30.0:
        last = x
        x = x * 2
        n += 1
    if n > 0:
        x = x + last
    return x


def items_and_lists(x):
    kept = []
    for v in x:
        if v > 1.5:
            v = v * 2
        kept.append(v)
    return jnp.stack(kept)


def dict_state_and_else(x):
    d = {'a': x, 'n': 0}
    for i in range(jnp.int32(5)):
        if jnp.sum(d['a']) > 40.0:
            break
        d['a'] = d['a'] * 2
        d['n'] = d['n'] + 1
    else:
        d['a'] = d['a'] - 1
    return d['a'] + d['n']


def checks_that_pass(x):
    assert jnp.sum(x) > -100.0, 'too small'
    if jnp.sum(x) > 1000.0:
        raise ValueError('too big')
    y = x * 2 if jnp.sum(x) > 10 else x
    k = 0
    while (jnp.sum(y) < 40 or k < 2) and not k > 30:
        y = y + 1
        k += 1
    return y


PER_SHARD = [while_halving, item_set_under_if, item_write_under_if, if_on_one_path,
             continue_break_return, while_true_break, created_in_loop, items_and_lists,
             dict_state_and_else, checks_that_pass]


# --- collectives in tests and bodies: the same function with lax is the reference ---------

def psum_while_test(x):
    k = 0
    while lax.psum(jnp.sum(x * x), 'data') > 1.0 and k < 50:
        x = x * 0.9
        k += 1
    return x + k


def psum_while_test_lax(x):
    def test(c):
        return jnp.logical_and(lax.psum(jnp.sum(c[0] * c[0]), 'data') > 1.0, c[1] < 50)
    x, k = lax.while_loop(test, lambda c: (c[0] * 0.9, c[1] + 1), (x, 0))
    return x + k


def pmax_break(x):
    for i in range(10):
        if lax.pmax(jnp.max(x), 'data') > 5.0:
            break
        x = x + 1.0
    return x


def pmax_break_lax(x):
    def step(c):
        return c[0] + 1.0, c[1] + 1
    x, _ = lax.while_loop(lambda c: jnp.logical_and(
        c[1] < 10, lax.pmax(jnp.max(c[0]), 'data') <= 5.0), step, (x, 0))
    return x


def psum_if_and_body(x):
    if lax.psum(jnp.sum(x), 'data') > 2.0:
        x = x + lax.psum(jnp.sum(x), 'data')
    while True:
        x = x * 1.5
        if lax.pmean(jnp.mean(x), 'data') > 20.0:
            break
    return x


def psum_if_and_body_lax(x):
    x = lax.cond(lax.psum(jnp.sum(x), 'data') > 2.0,
                 lambda x: x + lax.psum(jnp.sum(x), 'data'), lambda x: x, x)
    x = x * 1.5
    return lax.while_loop(lambda x: lax.pmean(jnp.mean(x), 'data') <= 20.0,
                          lambda x: x * 1.5, x)


def rank_tests(x):
    r = lax.axis_index('data')
    if r > 3:
        x = x * 2
    k = 0
    while k < r:
        x = x + 1
        k += 1
    for i in range(r, DEVICES):
        x = x + i
    return x


def rank_tests_lax(x):
    r = lax.axis_index('data')
    x = lax.cond(r > 3, lambda x: x * 2, lambda x: x, x)
    x, _ = lax.while_loop(lambda c: c[1] < r, lambda c: (c[0] + 1, c[1] + 1), (x, 0))
    return lax.fori_loop(r, DEVICES, lambda i, x: x + i, x)


def write_at_rank(x):
    y = jnp.zeros(DEVICES)
    y[lax.axis_index('data')] = 1.0
    return x + jnp.sum(y * jnp.arange(DEVICES))


def write_at_rank_lax(x):
    y = jnp.zeros(DEVICES).at[lax.axis_index('data')].set(1.0)
    return x + jnp.sum(y * jnp.arange(DEVICES))


WITH_LAX = {f: twin for f, twin in [
    (psum_while_test, psum_while_test_lax), (pmax_break, pmax_break_lax),
    (psum_if_and_body, psum_if_and_body_lax), (rank_tests, rank_tests_lax),
    (write_at_rank, write_at_rank_lax)]}
UNDER_VMAP = [psum_while_test, pmax_break, psum_if_and_body, rank_tests]


# --- a collective under a condition that differs between devices: the named error ---------

def psum_under_varying_if(x):
    if jnp.sum(x) > 10.0:
        x = x + lax.psum(jnp.sum(x), 'data')
    return x


def pmean_in_varying_while(x):
    while jnp.sum(x) < 40.0:
        x = x + lax.pmean(jnp.sum(x), 'data')
    return x


def gather_in_rank_range(x):
    for i in range(lax.axis_index('data')):
        x = x + lax.all_gather(x, 'data').sum()
    return x


HANGS = [psum_under_varying_if, pmean_in_varying_while, gather_in_rank_range]


# --- in the child process (8 devices) ----------------------------------------------------

IN_PLACE = {item_write_under_if}    # (plain Python writes items of a NumPy array)


def per_shard(fn, x):
    """`fn` run as plain Python on each shard of `x`, the results concatenated."""
    shards = np.split(np.asarray(x), DEVICES)
    return np.concatenate([np.asarray(fn(np.array(s) if fn in IN_PLACE else jnp.asarray(s)))
                           for s in shards])


def sharded(fn, mesh):
    spec = jax.sharding.PartitionSpec('data')
    return jax.jit(jax.shard_map(fn, mesh=mesh, in_specs=spec, out_specs=spec))


def _outcome(run):
    try:
        run()
        return 'ok'
    except Exception as error:   # (reported to the parent, which names the case)
        return f'{type(error).__name__}: {str(error).splitlines()[0][:300]}'


def _same(got, want):
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-5, atol=1e-5)


def _hang_is_named(fn, mesh, x):
    try:
        sharded(autograph.convert(fn), mesh).lower(x)
    except autograph.ControlFlowError as error:
        line = f'test_shard_map.py:{fn.__code__.co_firstlineno + 1} '
        assert error.kind == 'condition' and line in str(error), error
        return
    raise AssertionError('no error: the program would hang')


def run_cases(mesh, x, label):
    """{label/case: outcome} of every case on `mesh`."""
    out = {}
    for fn in PER_SHARD:
        out[f'{label}/{fn.__name__}'] = _outcome(lambda: _same(
            sharded(autograph.convert(fn), mesh)(x), per_shard(fn, x)))
    for fn, twin in WITH_LAX.items():
        out[f'{label}/{fn.__name__}'] = _outcome(lambda: _same(
            sharded(autograph.convert(fn), mesh)(x), sharded(twin, mesh)(x)))
    for fn in HANGS:
        out[f'{label}/{fn.__name__}'] = _outcome(lambda: _hang_is_named(fn, mesh, x))
    return out


def main():
    """Run every case; print {case: 'ok' or what went wrong} as JSON."""
    assert jax.device_count() == DEVICES, jax.devices()
    values = jnp.linspace(0.1, 3.0, N, dtype=jnp.float32)
    mesh = jax.make_mesh((DEVICES,), ('data',))
    spec = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec('data'))
    out = run_cases(mesh, jax.device_put(values, spec), 'shard_map')
    explicit = jax.make_mesh((DEVICES,), ('data',),
                             axis_types=(jax.sharding.AxisType.Explicit,))
    with jax.sharding.set_mesh(explicit):
        spec = jax.sharding.NamedSharding(explicit, jax.sharding.PartitionSpec('data'))
        out.update(run_cases(explicit, jax.device_put(values, spec), 'explicit'))
    rows = values.reshape(DEVICES, -1)
    for fn in UNDER_VMAP:
        out[f'vmap/{fn.__name__}'] = _outcome(lambda: _same(
            jax.vmap(autograph.convert(fn), axis_name='data')(rows),
            jax.vmap(WITH_LAX[fn], axis_name='data')(rows)))
    print(json.dumps(out))


# --- in the test process -----------------------------------------------------------------

CASES = [f'{label}/{fn.__name__}' for label in ('shard_map', 'explicit')
         for fn in [*PER_SHARD, *WITH_LAX, *HANGS]] + [
    f'vmap/{fn.__name__}' for fn in UNDER_VMAP]


@pytest.fixture(scope='module')
def outcomes():
    env = dict(os.environ, XLA_FLAGS='--xla_force_host_platform_device_count=8',
               JAX_PLATFORMS='cpu')
    done = subprocess.run([sys.executable, '-c', 'import tests.test_shard_map as m; m.main()'],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize('case', CASES)
def test_case(outcomes, case):
    assert outcomes[case] == 'ok', outcomes[case]


def test_the_references_differ_from_the_input():
    """The cases change their input on some shards (a reference equal to the input would
    pass a runtime that did nothing); the lax twins run here under `jax.vmap`."""
    x = jnp.linspace(0.1, 3.0, N, dtype=jnp.float32)
    for fn in PER_SHARD:
        assert not np.allclose(per_shard(fn, x), x), fn.__name__
    for fn, twin in WITH_LAX.items():
        rows = x.reshape(DEVICES, -1)
        assert not np.allclose(jax.vmap(twin, axis_name='data')(rows), rows), fn.__name__
