"""examples/distributed_early_stopping.py in two processes (`jax.distributed`) on one machine.

Each process starts JAX with 2 simulated CPU devices and joins the other through a
coordinator on a free localhost port; the converted training loop runs under
`jax.shard_map` over the 4 devices of both, with its loss and gradient averaged across
processes (`lax.pmean`), and stops early at an epoch the loop's `if` decides. Both
processes must report the weights, loss and epoch of the same loop run as plain Python
in this process on all the rows.
"""
import json
import os
import socket
import subprocess
import sys

import jax.numpy as jnp
import numpy as np
import pytest

from examples import distributed_early_stopping as example

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROCESSES, DEVICES_EACH, LIMIT_S = 2, 2, 60


def free_port():
    try:
        with socket.socket() as s:
            s.bind(('localhost', 0))
            return s.getsockname()[1]
    except OSError as error:
        pytest.skip(f'this machine has no localhost TCP port for the coordinator: {error}')


def run_processes():
    """Each process's JSON report (the processes are ended after LIMIT_S seconds)."""
    port = free_port()
    env = dict(os.environ, JAX_PLATFORMS='cpu',
               XLA_FLAGS=f'--xla_force_host_platform_device_count={DEVICES_EACH}')
    command = [sys.executable, '-m', 'examples.distributed_early_stopping',
               '--processes', str(PROCESSES), '--port', str(port), '--process-id']
    children = [subprocess.Popen(command + [str(i)], cwd=ROOT, env=env, text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                for i in range(PROCESSES)]
    try:
        outputs = [child.communicate(timeout=LIMIT_S) for child in children]
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.communicate()
    for child, (out, err) in zip(children, outputs):
        assert child.returncode == 0, err[-3000:]
    return [json.loads(out.strip().splitlines()[-1]) for out, _ in outputs]


def test_two_processes_stop_where_plain_python_stops():
    x, y, w = example.data()
    want_w, want_loss, want_epoch = example.train(
        jnp.asarray(x), jnp.asarray(y), jnp.asarray(w), mean=lambda v: v)
    assert want_epoch < 300 - 1   # (the loop does stop early)
    reports = run_processes()
    assert sorted(r['process'] for r in reports) == list(range(PROCESSES))
    for report in reports:
        assert report['devices'] == PROCESSES * DEVICES_EACH
        assert report['epoch'] == want_epoch
        np.testing.assert_allclose(report['w'], np.asarray(want_w), rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(report['loss'], float(want_loss), rtol=1e-4)
