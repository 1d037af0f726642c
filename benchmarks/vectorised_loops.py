"""Loops with independent iterations (runtime.vectorized), before and after: the kernels
of benchmarks/kernel_sources.py whose loops the converter proves independent, converted
with the vectorisation declined (the sequential staged loop they ran as before) and as
converted now, against Numba and the hand-vectorised JAX version, side by side in one
process at three sizes (benchmarks/kernels.py measures them).

Runs in .venv-bench (it needs Numba); with --write it replaces the "Vectorised loops" section of BENCHMARKS.md.
"""
import argparse
import pathlib
import sys
from unittest import mock

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from autograph.runtime import vectorized  # noqa: E402
from benchmarks.kernels import KERNELS, _ms, measure  # noqa: E402

SECTION = '## Vectorised loops'
NOTES = """Where it gains: a nest whose body is a few operations or a short sequential inner
loop (the convolution's 5x5 sum, n-body's sum over j) becomes one batched computation,
ahead of Numba at the largest sizes on this CPU. Where it loses on a CPU: the Julia set's
escape-time `while` runs in lock step until the last pixel of the batch stops, so every
pixel pays for the slowest (the sequential loop stops each pixel when it escapes), and
the reverse-differentiable lowering of a `while` (runtime.loop_autodiff) costs about 2.5x
a plain `lax.while_loop` under vmap (converted with `loop_autodiff='forward'` the 100x100
Julia set took 2.2 ms against 5.1 ms, the hand-written version 1.3 ms, in one separate
measurement). A first call compiles batched loops, which XLA takes longer to compile
than the sequential ones (the last column)."""
VECTORISED = ('2-D convolution (5x5)', 'n-body accelerations', 'Julia set (100 iterations)')


def run(quick=False):
    rng = np.random.default_rng(0)
    rows = []
    for name, kernel, by_hand, make, sizes in KERNELS:
        if name not in VECTORISED:
            continue
        for size in sizes[:1] if quick else sizes:
            with mock.patch.object(vectorized, 'wanted', lambda unroll: False):
                before, before_first = measure(name, kernel, by_hand, make, size, rng,
                                               python=False)
            after, after_first = measure(name, kernel, by_hand, make, size, rng,
                                         python=False)
            rows.append((name, size, before['autograph'], after, after_first['autograph'],
                         before_first['autograph']))
            print(f'{name:28} {size:5}  sequential {_ms(before["autograph"])}  vectorised '
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
    return '\n'.join(lines)


def write(text):
    path = ROOT / 'BENCHMARKS.md'
    document = path.read_text()
    summary = __doc__.split('\n\n')[0].replace('\n', ' ')
    section = (f'{SECTION}\n\n{summary} Made by `make bench` '
               f'(benchmarks/vectorised_loops.py).\n\n{text}\n\n{NOTES}\n')
    if SECTION in document:
        before, _, rest = document.partition(SECTION)
        after = rest[rest.find('\n## '):] if '\n## ' in rest else '\n'
        document = before + section + after
    else:
        document = document.rstrip('\n') + '\n\n' + section
    path.write_text(document)


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
