"""First call (trace + compile + run) of loops that used to unroll while tracing.

    for i in range(2, n - 2):                 # a window with a shift
        out[i - 2] = x[i - 2:i + 3].sum()
    for i in range(n):                        # a window shortened at the ends
        out[i] = x[max(0, i - 2):i + 3].sum()
    for i in range(1, n):                     # a DP over a prefix (a traced slice bound)
        best[i] = 1 + ((x[:i] < x[i]) * best[:i]).max()

(written with `.at[].set`, so that the unrolled loops, which write traced values, run
too). Each is converted as it is (one staged loop) and with `unroll_loops=True` (the loop
unrolled while tracing, as these loops were before the converter staged them), side by
side in one process, at 120, 480 and 960 iterations. Prints a markdown table; the
unrolled 960-iteration calls take minutes, so they run only with `--all`.
"""
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import autograph  # noqa: E402
from benchmarks.run import fresh_copy  # noqa: E402

LENGTHS = (120, 480, 960)


def centred_sums(x):
    out = jnp.zeros(x.shape[0] - 4)
    for i in range(2, x.shape[0] - 2):
        out = out.at[i - 2].set(x[i - 2:i + 3].sum())
    return out


def shrinking_sums(x):
    out = jnp.zeros(x.shape[0])
    for i in range(x.shape[0]):
        out = out.at[i].set(x[max(0, i - 2):i + 3].sum())
    return out


def increasing_run(x):
    best = jnp.ones(x.shape[0])
    for i in range(1, x.shape[0]):
        best = best.at[i].set(1 + ((x[:i] < x[i]) * best[:i]).max())
    return best.max()


KERNELS = {'window x[i - 2:i + 3]': (centred_sums, 4),
           'window x[max(0, i - 2):i + 3]': (shrinking_sums, 0),
           'DP over x[:i]': (increasing_run, 1)}


def first_call(fn, x, unroll):
    converted = autograph.convert(fresh_copy(fn), unroll_loops=unroll or None)
    start = time.perf_counter()
    result = jax.block_until_ready(converted(x))
    elapsed = time.perf_counter() - start
    np.testing.assert_allclose(np.asarray(result), fn(x), rtol=1e-4, atol=1e-4)
    return elapsed


def main(everything=False):
    print('| kernel | iterations | staged first call (s) | unrolled first call (s) |')
    print('|---|---|---|---|')
    for name, (fn, extra) in KERNELS.items():
        for n in LENGTHS:
            x = jax.random.normal(jax.random.PRNGKey(n), (n + extra,))
            staged = first_call(fn, x, unroll=False)
            unrolled = (f'{first_call(fn, x, unroll=True):.2f}' if everything or n < 960
                        else '(--all)')
            print(f'| {name} | {n} | {staged:.2f} | {unrolled} |', flush=True)


if __name__ == '__main__':
    main('--all' in sys.argv)
