"""Element-wise kernels (benchmarks/kernel_sources.py): autograph vs Numba vs CPython vs
hand-vectorised JAX, side by side in one process, at three sizes.

Each kernel is one Python function run four ways: as CPython (NumPy arrays, the loops in
the interpreter), under `numba.njit`, converted by `autograph.convert` (JAX arrays, jit),
and its hand-vectorised JAX version under `jax.jit`. Results are checked against CPython's
first. Reported: steady-state seconds per call (the best of interleaved rounds, each as
many calls as fit a budget after one warm call: other work on a shared machine only
ever adds time) and the
first call (conversion/compilation included), and the ratios converted/Numba and
converted/hand-written JAX. Runs in .venv-bench (`make bench`), which has Numba; with
--write it replaces the "Element-wise kernels" section of BENCHMARKS.md and draws
benchmarks/kernels.png.
"""
import argparse
import math
import os
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import autograph  # noqa: E402
from benchmarks import kernel_sources as k, report  # noqa: E402

SECTION = '## Element-wise kernels'
BUDGET = 0.5        # seconds per variant per size, for the steady-state repeats
ROUNDS = 5


def _bubble(n, rng):
    return (rng.standard_normal(n).astype(np.float32),)


def _dtw(n, rng):
    cost = np.full((n + 1, n + 1), np.inf, np.float32)
    cost[0, 0] = 0
    return (rng.standard_normal(n).astype(np.float32),
            rng.standard_normal(n).astype(np.float32), cost)


def _dtw_steps(n, rng):
    cost = np.full((n + 1, n + 1), np.inf, np.float32)
    cost[0, 0] = 0
    return (rng.random((n, n)).astype(np.float32), cost, np.zeros((n + 1, n + 1), np.int32),
            np.array([[1, 1], [0, 1], [1, 0]], np.int32),
            np.array([0, 0.1, 0.1], np.float32), np.ones(3, np.float32))


def _conv(n, rng):
    return (rng.standard_normal((n, n)).astype(np.float32),
            rng.standard_normal((5, 5)).astype(np.float32), np.zeros((n, n), np.float32))


def _nbody(n, rng):
    return (rng.standard_normal((n, 3)).astype(np.float32),
            rng.uniform(0.5, 1.5, n).astype(np.float32), np.zeros((n, 3), np.float32))


def _julia(n, rng):
    grid = np.linspace(-1.5, 1.5, n, dtype=np.float32)
    zr, zi = np.meshgrid(grid, grid)
    return zr, zi, np.float32(-0.8), np.float32(0.156), np.zeros((n, n), np.int32)


KERNELS = [   # name, kernel, hand-vectorised JAX, inputs, sizes
    ('bubble sort', k.bubble_sort, k.bubble_sort_jax, _bubble, (100, 300, 1000)),
    ('DTW', k.dtw, k.dtw_jax, _dtw, (50, 150, 500)),
    ('DTW with steps (librosa)', k.dtw_steps, k.dtw_steps_jax, _dtw_steps, (50, 150, 300)),
    ('2-D convolution (5x5)', k.conv2d, k.conv2d_jax, _conv, (50, 100, 200)),
    ('n-body accelerations', k.nbody, k.nbody_jax, _nbody, (100, 300, 1000)),
    ('Julia set (100 iterations)', k.julia, k.julia_jax, _julia, (50, 100, 200)),
]


def _njit(kernel):
    import numba   # (here: the HLO table reads KERNELS in the main environment)
    return numba.njit(kernel)


def _copy(args):
    return tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)


def _block(value):
    return jax.block_until_ready(value)   # (a pytree: NumPy leaves pass through)


def _timed(fn, args):
    start = time.perf_counter()
    _block(fn(*args))
    return time.perf_counter() - start


def measure(name, kernel, vectorised, make, size, rng, python=True, extra=()):
    """Steady-state and first-call seconds per variant; `extra`: more JAX variants by
    name (functions of the inputs as JAX arrays), timed interleaved with the others."""
    inputs = make(size, rng)
    variants = {
        'numba': (_njit(kernel), lambda: _copy(inputs)),
        'autograph': (autograph.convert(kernel), lambda: tuple(map(jnp.asarray, inputs))),
        'jax': (jax.jit(vectorised), lambda: tuple(map(jnp.asarray, inputs))),
    }
    for variant, fn in dict(extra).items():
        variants[variant] = (fn, lambda: tuple(map(jnp.asarray, inputs)))
    if python:
        variants['python'] = (kernel, lambda: _copy(inputs))
    first, results = {}, {}
    for variant, (fn, fresh) in variants.items():
        args = fresh()
        start = time.perf_counter()
        results[variant] = np.asarray(_block(fn(*args)))
        first[variant] = time.perf_counter() - start
    reference = results.get('python', results['numba'])
    for variant, value in results.items():
        _check(value, reference, f'{name} {size}: {variant}')
    # Calls per round from a second call's time (the first one compiles).
    warm = {v: _timed(fn, fresh()) for v, (fn, fresh) in variants.items()}
    times = {v: [] for v in variants}
    for _ in range(ROUNDS):   # interleaved rounds
        for variant, (fn, fresh) in variants.items():
            args = fresh()
            repeats = max(1, min(50, int(BUDGET / ROUNDS / max(warm[variant], 1e-6))))
            times[variant].append(min(_timed(fn, args) for _ in range(repeats)))
    steady = {v: min(t) for v, t in times.items()}
    return steady, first


def _check(value, reference, what):
    """Equal to CPython's result: floats to float32 rounding; escape-time counts may
    differ on a few points of the set's boundary, where one rounding (an FMA that LLVM or
    XLA contracts) changes the orbit (at most 0.1% of the points)."""
    if np.issubdtype(reference.dtype, np.integer):
        differ = np.mean(value != reference)
        assert differ <= 1e-3, f'{what}: {differ:.2%} of the points differ'
    else:
        np.testing.assert_allclose(value, reference, rtol=2e-3, atol=2e-3, err_msg=what)


def _ms(seconds):
    return f'{seconds * 1e3:.3g} ms' if seconds < 1 else f'{seconds:.2f} s'


def run(quick=False):
    rng = np.random.default_rng(0)
    rows, ratios = [], {'numba': [], 'jax': []}
    for name, kernel, vectorised, make, sizes in KERNELS:
        for size in sizes[:1] if quick else sizes:
            steady, first = measure(name, kernel, vectorised, make, size, rng)
            rows.append((name, size, steady, first))
            for other in ratios:
                ratios[other].append(steady['autograph'] / steady[other])
            print(f'{name:28} {size:5}  ' + '  '.join(
                f'{v} {_ms(t)}' for v, t in steady.items()), flush=True)
    return rows, ratios


def table(rows, ratios):
    lines = ['| kernel | size | autograph | Numba | CPython | JAX by hand | autograph / Numba '
             '| autograph / JAX | first call: autograph, Numba |', '|' + '---|' * 9]
    for name, size, steady, first in rows:
        lines.append(
            f"| {name} | {size} | {_ms(steady['autograph'])} | {_ms(steady['numba'])} | "
            f"{_ms(steady['python'])} | {_ms(steady['jax'])} | "
            f"{steady['autograph'] / steady['numba']:.2f}x | "
            f"{steady['autograph'] / steady['jax']:.2f}x | "
            f"{_ms(first['autograph'])}, {_ms(first['numba'])} |")
    geo = {v: math.exp(statistics.mean(map(math.log, r))) for v, r in ratios.items()}
    worst = {}
    for name, _, steady, _ in rows:
        worst[name] = max(worst.get(name, 0), steady['autograph'] / steady['numba'])
    lines.append('')
    lines.append(f"Geometric mean over all rows: autograph / Numba {geo['numba']:.2f}x, "
                 f"autograph / hand-vectorised JAX {geo['jax']:.2f}x "
                 f"(steady state, CPU, {os.cpu_count()} cores; load average "
                 f"{os.getloadavg()[0]:.1f} at the end). Worst autograph / Numba per kernel: "
                 + ', '.join(f'{name} {ratio:.2f}x' for name, ratio in worst.items()) + '.')
    return '\n'.join(lines)


def chart(rows, path):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    names = [f'{name}\n{size}' for name, size, _, _ in rows]
    variants = ['autograph', 'numba', 'jax', 'python']
    fig, ax = plt.subplots(figsize=(14, 5))
    width = 0.2
    for i, variant in enumerate(variants):
        ax.bar([x + i * width for x in range(len(rows))],
               [steady[variant] * 1e3 for _, _, steady, _ in rows], width, label=variant)
    ax.set_yscale('log')
    ax.set_ylabel('ms per call (log)')
    ax.set_xticks([x + 1.5 * width for x in range(len(rows))], names, fontsize=7)
    ax.legend()
    ax.set_title('Element-wise kernels: steady state per call (CPU)')
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def write(text):
    summary = __doc__.split('\n\n')[0].replace('\n', ' ')
    report.write_section(SECTION, f'{summary} Made by `make bench` (benchmarks/kernels.py).'
                         f'\n\n{text}\n\n![kernels](benchmarks/kernels.png)')


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--quick', action='store_true', help='the smallest size only')
    parser.add_argument('--write', action='store_true', help='update BENCHMARKS.md')
    options = parser.parse_args()
    rows, ratios = run(options.quick)
    text = table(rows, ratios)
    print(text)
    if options.write:
        chart(rows, ROOT / 'benchmarks' / 'kernels.png')
        write(text)


if __name__ == '__main__':
    main()
