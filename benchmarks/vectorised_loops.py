"""Loops with independent iterations (runtime.loops.vectorized), before and after: the kernels
of benchmarks/kernel_sources.py whose loops the converter proves independent, converted
with the vectorisation declined (the sequential staged loop they ran as before) and as
converted now, against Numba and the hand-vectorised JAX version, side by side in one
process at three sizes (benchmarks/kernels.py measures them).

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
takes longer to compile than the sequential ones (the last column)."""
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
            after, after_first = measure(name, kernel, by_hand, make, size, rng,
                                         python=False, extra={'sequential': sequential})
            before = after['sequential']
            rows.append((name, size, before, after, after_first['autograph'], before_first))
            print(f'{name:28} {size:5}  sequential {_ms(before)}  vectorised '
                  f'{_ms(after["autograph"])}  Numba {_ms(after["numba"])}  JAX by hand '
                  f'{_ms(after["jax"])}', flush=True)
    return rows


def table(rows):
    lines = ['| kernel | size | sequential (before) | vectorised | Numba | JAX by hand '
             '| vectorised / sequential | vectorised / Numba | vectorised / JAX '
             '| first call: before, after |', '|' + '---|' * 10]
    for name, size, before, after, first, before_first in rows:
        lines.append(
            f"| {name} | {size} | {_ms(before)} | {_ms(after['autograph'])} | "
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
