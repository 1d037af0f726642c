"""`make bench`: the time to convert the reference function (`CONVERSION_EXAMPLE` in
benchmarks/run.py, 30 lines of nested ifs and loops), median of many fresh conversions.

Each round compiles the example into a new file name, so the conversion cache (one entry
per code object, see autograph/conversion.py) never answers: every round parses, runs the
passes and generates code. Garbage left by earlier rounds is collected before each one,
as timeit does. Prints the median and the quartiles in milliseconds; BENCHMARKS.md quotes
the median (target: at most 5 ms).

    python benchmarks/conversion_time.py [--rounds 200]
"""
import argparse
import gc
import linecache
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import jax  # noqa: E402

from autograph import conversion  # noqa: E402
from benchmarks.run import CONVERSION_EXAMPLE  # noqa: E402


def fresh_example(k):
    """The example as a new function from a new file (no cache entry applies)."""
    file = f'<conversion time {k}>'
    linecache.cache[file] = (len(CONVERSION_EXAMPLE), None,
                             CONVERSION_EXAMPLE.splitlines(True), file)
    namespace = {'jnp': jax.numpy}
    exec(compile(CONVERSION_EXAMPLE, file, 'exec'), namespace)
    return namespace['model']


def conversion_times(rounds):
    times = []
    for k in range(rounds):
        fn = fresh_example(k)
        gc.collect()
        start = time.perf_counter()
        conversion.convert_function(fn)
        times.append((time.perf_counter() - start) * 1000)
        linecache.cache.pop(f'<conversion time {k}>', None)
    return times


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=200)
    args = parser.parse_args(argv)
    conversion_times(5)   # warm up: imports, template and resolver caches
    times = conversion_times(args.rounds)
    q1, median, q3 = statistics.quantiles(times, n=4)
    print(f'conversion of the reference function (CONVERSION_EXAMPLE): median {median:.2f} ms (quartiles {q1:.2f}-{q3:.2f} ms, best '
          f'{min(times):.2f} ms, {args.rounds} fresh conversions)')


if __name__ == '__main__':
    main()
