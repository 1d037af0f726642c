"""`make bench`: what XLA compiled, converted vs hand-written, per workload and kernel.

For each workload of benchmarks/workloads.py and each kernel of benchmarks/kernels.py
(its smallest size), both programs are compiled under `jax.jit` and their optimised HLO
read: the while loops, the conditionals, the instructions that run inside while loops
(bodies and conditions, with the branches, nested loops and fusions they call) and the
copies among those. A converted program that keeps a loop the hand-written one does not,
or a conditional or copy per iteration, shows here before it shows in a timing; on a GPU
each conditional in a loop is a round trip to the host per iteration.

Writes its section of BENCHMARKS.md (benchmarks/report.py).
"""
import os
import pathlib
import platform
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import jax  # noqa: E402
import numpy as np  # noqa: E402

import autograph  # noqa: E402
from benchmarks import report  # noqa: E402
from benchmarks.hlo import census  # noqa: E402
from benchmarks.kernels import KERNELS  # noqa: E402
from benchmarks.workloads import make_workloads  # noqa: E402

SECTION = '## Compiled programs: loops, conditionals and copies (HLO)'


def programs():
    """(kind, name, converted function, hand-written function, arguments)."""
    for w in make_workloads():
        wrap = w.wrap or (lambda f: f)
        yield ('workload', w.name, wrap(autograph.convert(w.plain, jit=False)), wrap(w.lax),
               w.args)
    rng = np.random.default_rng(0)
    for name, kernel, vectorised, make, sizes in KERNELS:
        args = make(sizes[0], rng)
        yield (f'kernel (n = {sizes[0]})', name, autograph.convert(kernel, jit=False),
               vectorised, args)


def table():
    lines = ['| program | kind | while loops | conditionals | instructions in loops '
             '| copies in loops |', '|---|---|---|---|---|---|']
    for kind, name, converted, hand, args in programs():
        print(f'{name} ...', flush=True)
        ours, theirs = census(converted, args), census(hand, args)
        cells = ' | '.join(f'{a} / {b}' for a, b in zip(ours, theirs))
        lines.append(f'| {name} | {kind} | {cells} |')
    return '\n'.join(lines)


def main():
    text = table()
    body = (f'`benchmarks/hlo_table.py` on {platform.machine()} / {jax.default_backend()}, '
            f'jax {jax.__version__} ({os.cpu_count()} cores): each cell is converted / '
            'hand-written, counted in the optimised HLO of `jax.jit` of each. '
            '"Instructions in loops": those of the computations while loops run '
            '(bodies, conditions and what they call), parameters and results left out. '
            'A kernel\'s hand-written version is vectorised JAX: where it has no loop, '
            'the converted one\'s loops are the gap the kernels table measures.\n\n' + text)
    print(body)
    report.write_section(SECTION, body)


if __name__ == '__main__':
    main()
