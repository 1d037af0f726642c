"""A converted training loop with early stopping, run by several processes (`jax.distributed`).

Each process holds its own rows of the data. `train` is ordinary Python: a `for` over
epochs, an `if` on the loss, a `break` once it has stopped improving. Run by every device
of every process under `jax.shard_map`, it averages its loss and gradient over the mesh
axis `'rows'` with `lax.pmean`, so the loss the `if` tests is the same on every device
of every process: the converted loop stops at the same epoch everywhere (a condition
varying between devices that guarded a collective would be autograph's named error).

With `mean=lambda v: v` and all the rows in one process, `train` is the same loop run as
plain Python: the reference the distributed result is compared with
(tests/test_distributed.py). Run it as two processes on one machine:

    python -m examples.distributed_early_stopping --process-id 0 --port 12355 &
    python -m examples.distributed_early_stopping --process-id 1 --port 12355

(each prints the trained weights, best loss and epoch reached as one line of JSON).
"""
import argparse
import json
import os

if __name__ == '__main__':   # (before JAX starts: the simulated CPU devices of a process)
    os.environ.setdefault('XLA_FLAGS', '--xla_force_host_platform_device_count=2')

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P

import autograph

ROWS, FEATURES = 256, 4


def train(x, y, w, mean, lr=0.05, max_epochs=300, patience=4, min_delta=1e-4):
    """Gradient descent on the mean squared error of `x @ w` against `y`, stopped once the
    loss has not improved by `min_delta` for `patience` epochs; `mean(v)` averages `v`
    over every process's rows. Returns the best weights, their loss and the last epoch."""
    best_w, best = w, jnp.float32(jnp.inf)
    wait = 0
    epoch = 0
    for epoch in range(max_epochs):
        error = x @ w - y
        loss = mean(jnp.mean(error ** 2))
        if loss < best - min_delta:
            best_w, best = w, loss
            wait = 0
        else:
            wait += 1
            if wait >= patience:
                break
        w = w - lr * mean(2.0 * x.T @ error / x.shape[0])
    return best_w, best, epoch


def data(seed=0):
    """All the rows (each process takes its own part of them) and the first weights."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(ROWS, FEATURES)).astype(np.float32)
    true_w = rng.normal(size=(FEATURES,)).astype(np.float32)
    y = (x @ true_w + 0.3 * rng.normal(size=ROWS)).astype(np.float32)
    return x, y, np.zeros(FEATURES, np.float32)


def train_distributed(x, y, w):
    """`train` on every device of every process, each on its rows of `x` and `y` (this
    process passes its own part of them)."""
    mesh = jax.make_mesh((jax.device_count(),), ('rows',))
    rows = NamedSharding(mesh, P('rows'))
    x, y = (jax.make_array_from_process_local_data(rows, a) for a in (x, y))

    def step(x, y, w):
        return train(x, y, w, mean=lambda v: lax.pmean(v, 'rows'))

    run = jax.jit(jax.shard_map(autograph.convert(step, jit=False), mesh=mesh,
                                in_specs=(P('rows'), P('rows'), P()), out_specs=P()))
    return run(x, y, jnp.asarray(w))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--process-id', type=int, required=True)
    parser.add_argument('--processes', type=int, default=2)
    parser.add_argument('--port', type=int, required=True)
    args = parser.parse_args()
    try:   # (JAX versions that need it name the CPU collectives to use)
        jax.config.update('jax_cpu_collectives_implementation', 'gloo')
    except AttributeError:
        pass
    jax.distributed.initialize(coordinator_address=f'localhost:{args.port}',
                               num_processes=args.processes, process_id=args.process_id)
    x, y, w = data()
    mine = np.array_split(np.arange(ROWS), args.processes)[args.process_id]
    best_w, best, epoch = train_distributed(x[mine], y[mine], w)
    print(json.dumps({'process': jax.process_index(), 'devices': jax.device_count(),
                      'w': np.asarray(best_w).tolist(), 'loss': float(best),
                      'epoch': int(epoch)}), flush=True)
    jax.distributed.shutdown()


if __name__ == '__main__':
    main()
