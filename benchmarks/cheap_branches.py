"""`make bench`: cheap branches as selects (runtime/staging/cheap.py), before and after.

The loop workloads of benchmarks/workloads.py, compiled three ways in this one process:
"before" with every staged branch that computes something a conditional (the rule
switched off while tracing), "after" with the rule, and the hand-written lax version.
Reports the median time per call (variants interleaved) and the conditionals of each
compiled program, and writes its section of BENCHMARKS.md (after benchmarks/run.py).
"""
import os
import platform
import re
import sys
import types
from unittest import mock

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import jax  # noqa: E402

import autograph  # noqa: E402
from autograph.runtime.staging import cheap  # noqa: E402
from benchmarks import report, run  # noqa: E402
from benchmarks.run import steady_state  # noqa: E402
from benchmarks.workloads import make_workloads  # noqa: E402

NAMES = ('newton break', 'bisection', 'bisection break', 'mandelbrot 256x256',
         'mandelbrot break 256x256', 'mandelbrot break, one point')
SECTION = '## Cheap branches as selects'


def compiled(fn, wrap, args, select=True):
    """`fn` (wrapped) compiled for `args`, traced with the cost rule on or off."""
    fn = wrap(fn) if wrap else fn
    if select is None:
        return jax.jit(fn).lower(*args).compile()
    if select:
        return jax.jit(fn).lower(*args).compile()
    with mock.patch.object(cheap, 'selectable', lambda *_: False):
        return jax.jit(fn).lower(*args).compile()


def _fresh(fn):
    """`fn` converted as a new function object (traced afresh: no trace of another
    variant reused)."""
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__,
                              fn.__closure__)
    return autograph.convert(copy)


def conditionals(program):
    return len(re.findall(r' conditional\(', program.as_text()))


def main():
    rows = []
    for w in make_workloads():
        if w.name not in NAMES:
            continue
        variants = {'before': compiled(_fresh(w.plain), w.wrap, w.args, select=False),
                    'after': compiled(_fresh(w.plain), w.wrap, w.args),
                    'lax': compiled(w.lax, w.wrap, w.args, select=None)}
        outs = {name: jax.device_get(fn(*w.args)) for name, fn in variants.items()}
        assert all((outs['after'] == outs[n]).all() for n in outs), w.name
        times = {name: median for name, (median, _) in steady_state(variants, w.args).items()}
        rows.append((w.name, times, {n: conditionals(v) for n, v in variants.items()}))
        print(rows[-1])
    write(rows)


def write(rows):
    lines = [
        f'`benchmarks/cheap_branches.py` on {platform.machine()} / '
        f'{jax.default_backend()}, jax {jax.__version__}: each workload compiled with '
        'every computing branch a `lax.cond` ("before": the rule of '
        'runtime/staging/cheap.py switched off while tracing), with the rule ("after"), '
        f'and the hand-written lax; median of {run.ROUNDS} interleaved rounds in one process. '
        'Conditionals: `conditional` instructions of the compiled program (all inside the '
        'while bodies here).',
        '',
        '| workload | before / lax | after / lax | after / before | lax us/call | '
        'conditionals before / after / lax |',
        '|---|---|---|---|---|---|',
    ]
    for name, t, c in rows:
        lines.append(f'| {name} | {t["before"] / t["lax"]:.3f} | {t["after"] / t["lax"]:.3f} '
                     f'| {t["after"] / t["before"]:.3f} | {t["lax"] * 1e6:.1f} | '
                     f'{c["before"]} / {c["after"]} / {c["lax"]} |')
    lines += [
        '',
        '- On a CPU a conditional in a loop body costs little (the ratios move by a few '
        'percent, within the noise of this shared machine); on a GPU each is a round '
        'trip to the host per iteration (issue 31). Under `jax.vmap` the guard\'s test '
        'is batched and was a select already.',
    ]
    section = '\n'.join(lines)
    report.write_section(SECTION, section)
    print(section)


if __name__ == '__main__':
    main()
