"""Loops with independent iterations (runtime.loops.vectorized), before and after: the kernels
of benchmarks/kernel_sources.py whose loops the converter proves independent, converted
with the vectorisation declined (the sequential staged loop they ran as before) and as
converted now, against Numba and the hand-vectorised JAX version, side by side in one
process at three sizes (benchmarks/kernels.py measures them). "sums in order" is the
kernel converted with `sequential_sums=True`: its accumulations (the convolution's
5x5 sum, n-body's sum over j) stay sequential loops inside the vectorised nest.

Runs in .venv-bench (it needs Numba); with --write it replaces the "Vectorised loops" section of BENCHMARKS.md.
"""
import argparse
import os
import pathlib
import sys
import time
from unittest import mock

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import autograph  # noqa: E402
from autograph.runtime.loops import vectorized
from benchmarks import report  # noqa: E402
from benchmarks.kernels import KERNELS, _ms, measure  # noqa: E402

SECTION = '## Vectorised loops'
NOTES = """Where it gains: a nest whose body is a few operations or a short sequential inner
loop (the convolution's 5x5 sum, n-body's sum over j) becomes one batched computation,
ahead of Numba at the largest sizes on this CPU. The Julia set's escape-time `while`
runs in lock step over the pixels (runtime.staging.lockstep): blocks of 4 masked steps with the
test reduced over the batch once per block, about 2x faster than the vmapped
`lax.while_loop` it ran as before in either autodiff mode (1.19 ms against 0.51 ms at
100x100 in one process, the sequential loop 0.92 ms, hand-written JAX 0.50 ms), so it
is no longer slower than the sequential loop, although every pixel still pays for the
slowest of the batch: 0.57-0.75x the sequential loop in the table above, where the
vmapped `while` took 1.7-3.4x before. A first call compiles batched loops, which XLA
takes longer to compile than the sequential ones (the last column).

Reductions (2026-11-27): the convolution's 5x5 sum and n-body's sums over j are now
vectorised too (runtime.loops.reductions; "sums in order" is the kernel converted with
`sequential_sums=True`, the nest as it ran before, an inner scan per sum). Measured on
this 2-core CPU without Numba (load average 10-13, so +-30%), best of interleaved
rounds, before (the previous commit) / now / now with `sequential_sums=True` / JAX by
hand: n-body 100: 0.156 / 0.130 / 0.080 / 0.153 ms, 300: 0.352 / 0.501 / 0.289 / 1.33 ms,
1000: 1.52 / 7.07 / 2.45 / 43.1 ms; convolution 50: 0.081 / 0.123 / 0.050 / 0.118 ms,
100: 0.201 / 0.405 / 0.172 / 0.410 ms, 200: 0.692 / 1.96 / 0.645 / 2.34 ms. On a CPU
the reductions cost 1.6-3x the inner scans at these sizes: the batched body
materialises n x n (n-body) or n x n x 25 (the convolution's gather indices) arrays
where a scan step works on cache-sized rows; they stay at or below the hand-written
JAX programs, which materialise the same. The gain is meant for a GPU, where each scan
step was a ~12 us round trip (issue 31: 135-240x the hand-written JAX); it was not
measured on one here. n-body's `if i != j:` branch stays a vmapped `lax.cond` (its
division could have an infinite derivative on the untaken side, and its float operands
do not vary with the indices: see runtime.loops.selects), which gathered `pos[j, 0]` for
every pair: 6 n x n gathers at n = 1000; a branch without such a risk is a select on
values of their own axes (2.3 ms at 1000 in one run before that guard was added).

Items of the arrays a loop reads at its index (2026-11-27, runtime.items.parts):
`pos[j, 0]`, `pos[i, 0]`, `mass[j]` and the Julia set's `zr[i, j]` are the iterations'
items of arrays cut along the loops' axes, no longer gathers at the batched indices
(n-body: 7 gathers -> 0, the Julia set: 2 -> 0; the convolution's `image[i - 2 + ii,
...]` reads other iterations' items and keeps its 2). Measured in one process, interleaved, the
lookup declined while tracing for "before" (this 2-core CPU, load average 5-7, best of
15 rounds), before / after / JAX by hand: n-body 100: 0.16-0.18 / 0.14-0.15 / 0.18-0.22
ms, 300: 0.64-0.71 / 0.27 / 1.3-1.7 ms, 1000: 5.5-7.7 / 2.1-2.3 / 18-32 ms; the
convolution and the Julia set unchanged within the noise (convolution 200: 1.36-1.87 /
1.30-1.94 ms, Julia 200: 3.0-4.0 / 3.0-3.8 ms)."""
VECTORISED = ('2-D convolution (5x5)', 'n-body accelerations', 'Julia set (100 iterations)')


def run(quick=False):
    rng = np.random.default_rng(0)
    rows = []
    for name, kernel, by_hand, make, sizes in KERNELS:
        if name not in VECTORISED:
            continue
        for size in sizes[:1] if quick else sizes:
            # The loop as it ran before: converted with the vectorisation declined, compiled
            # on inputs of the same shapes (the converted function's cache then serves it),
            # then timed interleaved with the other variants.
            sequential = autograph.convert(kernel)
            like = tuple(map(jnp.asarray, make(size, np.random.default_rng(1))))
            start = time.perf_counter()
            with mock.patch.object(vectorized, 'wanted', lambda unroll: False):
                jax.block_until_ready(sequential(*like))
            before_first = time.perf_counter() - start
            # The accumulations (`num +=`, `ax +=`) kept sequential: inner scans in the
            # vectorised nest, as they ran before reductions were vectorised.
            in_order = autograph.convert(kernel, sequential_sums=True)
            after, after_first = measure(name, kernel, by_hand, make, size, rng,
                                         python=False, extra={'sequential': sequential,
                                                              'sums in order': in_order})
            before = after['sequential']
            rows.append((name, size, before, after, after_first['autograph'], before_first))
            print(f'{name:28} {size:5}  sequential {_ms(before)}  vectorised '
                  f'{_ms(after["autograph"])}  sums in order {_ms(after["sums in order"])}  '
                  f'Numba {_ms(after["numba"])}  JAX by hand {_ms(after["jax"])}', flush=True)
    return rows


def table(rows):
    lines = ['| kernel | size | sequential (before) | vectorised | sums in order | Numba '
             '| JAX by hand | vectorised / sequential | vectorised / Numba | vectorised / JAX '
             '| first call: before, after |', '|' + '---|' * 11]
    for name, size, before, after, first, before_first in rows:
        lines.append(
            f"| {name} | {size} | {_ms(before)} | {_ms(after['autograph'])} | "
            f"{_ms(after['sums in order'])} | "
            f"{_ms(after['numba'])} | {_ms(after['jax'])} | "
            f"{after['autograph'] / before:.2f}x | {after['autograph'] / after['numba']:.2f}x "
            f"| {after['autograph'] / after['jax']:.2f}x | {_ms(before_first)}, {_ms(first)} |")
    lines.append('')
    lines.append(f'Best of interleaved rounds; load average {os.getloadavg()[0]:.1f} at the end '
                 f'({os.cpu_count()} cores).')
    return '\n'.join(lines)


def write(text):
    summary = __doc__.split('\n\n')[0].replace('\n', ' ')
    report.write_section(SECTION, f'{summary} Made by `make bench` '
                         f'(benchmarks/vectorised_loops.py).\n\n{text}\n\n{NOTES}')


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--quick', action='store_true', help='the smallest size only')
    parser.add_argument('--write', action='store_true', help='update BENCHMARKS.md')
    options = parser.parse_args()
    text = table(run(options.quick))
    print(text)
    if options.write:
        write(text)


if __name__ == '__main__':
    sys.exit(main())
