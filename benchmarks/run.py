"""`make bench`: converted Python vs hand-written lax (under jax.jit) vs eager Python.

Every figure is measured side by side in this one process, variants interleaved, and
reported as a ratio to the hand-written lax version (the limit). Writes the head of
BENCHMARKS.md (benchmarks/report.py: the other sections stay) and benchmarks/ratios.png.
"""
import gc
import linecache
import os
import platform
import statistics
import sys
import textwrap
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import jax  # noqa: E402
import numpy as np  # noqa: E402

import autograph  # noqa: E402
from autograph import conversion  # noqa: E402
from benchmarks import report  # noqa: E402
from benchmarks.workloads import make_workloads  # noqa: E402

ROUNDS = 15
TARGET_SECONDS = 0.05   # per variant per round


def block(value):
    return jax.tree_util.tree_map(lambda x: x.block_until_ready()
                                  if hasattr(x, 'block_until_ready') else x, value)


def equations(jaxpr):
    """Equations in a jaxpr, counting those of nested jaxprs (cond branches, loop bodies)."""
    total = 0
    for eqn in jaxpr.eqns:
        total += 1
        for value in eqn.params.values():
            for item in value if isinstance(value, (tuple, list)) else [value]:
                inner = getattr(item, 'jaxpr', item)
                if hasattr(inner, 'eqns'):
                    total += equations(inner)
    return total


def steady_state(variants, args):
    """Median and spread (IQR / median) of seconds per call, variants interleaved."""
    counts = {}
    for name, fn in variants.items():
        block(fn(*args))   # compile first
        start = time.perf_counter()
        block(fn(*args))
        elapsed = time.perf_counter() - start
        counts[name] = max(1, int(TARGET_SECONDS / max(elapsed, 1e-7)))
    samples = {name: [] for name in variants}
    for _ in range(ROUNDS):
        for name, fn in variants.items():
            start = time.perf_counter()
            for _ in range(counts[name]):
                out = fn(*args)
            block(out)
            samples[name].append((time.perf_counter() - start) / counts[name])
    result = {}
    for name, values in samples.items():
        q1, median, q3 = np.percentile(values, [25, 50, 75])
        result[name] = (median, (q3 - q1) / median)
    return result


def first_call(make, args, repeats=3):
    """Median time of a first call (trace + compile + run) of fresh copies."""
    times = []
    for _ in range(repeats):
        fn = make()
        start = time.perf_counter()
        block(fn(*args))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def fresh_copy(fn):
    """A new function object with the same source in a new file: no cache applies."""
    import inspect
    source = textwrap.dedent(inspect.getsource(fn))
    fresh_copy.count = getattr(fresh_copy, 'count', 0) + 1
    file = f'<bench copy {fresh_copy.count}>'
    linecache.cache[file] = (len(source), None, source.splitlines(True), file)
    namespace = dict(fn.__globals__)
    exec(compile(source, file, 'exec'), namespace)
    return namespace[fn.__name__]


def conversion_ms(fn, repeats=15):
    times = []
    for _ in range(repeats):
        copy = fresh_copy(fn)
        gc.collect()   # as timeit does: no collection of earlier workloads' garbage
        start = time.perf_counter()
        conversion.convert_function(copy)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


CONVERSION_EXAMPLE = '''
def model(x, n):
    total = jnp.zeros_like(x)
    count = 0
    for i in range(n):
        if x[0] > i:
            total = total + x * i
        elif x[1] < 0:
            total = total - x
        else:
            total = total * 0.5
        j = 0
        while j < 3:
            if total[0] > 100:
                break
            total = total + 1
            j += 1
        count += 1
    if count > 5:
        result = total / count
    else:
        result = total
    for v in x:
        if v > 0:
            result = result + v
        else:
            continue
    while jnp.sum(result) > 1000:
        result = result / 2
    return result, count
'''


def conversion_of_example():
    """First conversion of a fresh ~30-line function with nested ifs and loops."""
    times = []
    for k in range(40):
        file = f'<conversion example {k}>'
        linecache.cache[file] = (len(CONVERSION_EXAMPLE), None,
                                 CONVERSION_EXAMPLE.splitlines(True), file)
        namespace = {'jnp': jax.numpy}
        exec(compile(CONVERSION_EXAMPLE, file, 'exec'), namespace)
        gc.collect()
        start = time.perf_counter()
        conversion.convert_function(namespace['model'])
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times)


def trivial_call_overhead():
    def trivial(x):
        return x + 1
    ours, plain = autograph.convert(trivial), jax.jit(trivial)
    x = jax.numpy.ones(3)
    result = steady_state({'ours': ours, 'jit': plain}, (x,))
    return result['ours'][0] / result['jit'][0], result['ours'][0], result['jit'][0]


def main():
    # The first conversion is measured first, as in a program that has just imported jax
    # (after the workloads, their compiled programs and caches make every allocation
    # dearer for reasons that have nothing to do with conversion).
    print('conversion of a fresh 30-line function ...', flush=True)
    conv_median, conv_min = conversion_of_example()
    workloads = make_workloads()
    rows = []
    for w in workloads:
        print(f'[{len(rows) + 1}/{len(workloads)}] {w.name} ...', flush=True)
        wrap = w.wrap or (lambda f: f)
        converted_fn = autograph.convert(wrap(autograph.convert(w.plain, jit=False)))
        program_fn = jax.jit(wrap(autograph.convert(w.plain, jit=False)))
        limit_fn = jax.jit(wrap(w.lax))
        variants = {'program': program_fn, 'converted': converted_fn, 'lax': limit_fn}
        expected = block(limit_fn(*w.args))
        got = block(converted_fn(*w.args))
        for a, b in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(expected)):
            np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-4, atol=1e-5)
        if w.eager:
            variants['eager'] = w.plain
        times = steady_state(variants, w.args)
        eq_converted = equations(jax.make_jaxpr(wrap(autograph.convert(w.plain, jit=False)))(
            *w.args).jaxpr)
        eq_lax = equations(jax.make_jaxpr(wrap(w.lax))(*w.args).jaxpr)
        gc.collect()
        first_converted = first_call(
            lambda: autograph.convert(wrap(autograph.convert(fresh_copy(w.plain), jit=False))),
            w.args)
        first_lax = first_call(lambda: jax.jit(wrap(fresh_copy(w.lax))), w.args)
        rows.append({
            'name': w.name,
            'spread': times['program'][1],
            'lax_ms': times['lax'][0] * 1e3,
            'ratio': times['program'][0] / times['lax'][0],
            'call_ratio': times['converted'][0] / times['lax'][0],
            'eager_ratio': times['eager'][0] / times['converted'][0] if w.eager else None,
            'eq_converted': eq_converted, 'eq_lax': eq_lax,
            'first_ratio': first_converted / first_lax, 'first_s': first_converted,
            'conversion_ms': conversion_ms(w.plain),
        })
        r = rows[-1]
        print(f'    program/lax {r["ratio"]:.3f}  Function/lax {r["call_ratio"]:.3f}  '
              f'equations {eq_converted}/{eq_lax}  '
              f'first call {r["first_ratio"]:.2f}x  conversion {r["conversion_ms"]:.2f} ms',
              flush=True)
    print('trivial call overhead ...', flush=True)
    overhead, ours, plain = trivial_call_overhead()
    write_report(rows, conv_median, conv_min, overhead, ours, plain)
    write_chart(rows, overhead)


def write_report(rows, conv_median, conv_min, overhead, ours, plain):
    lines = [
        '# Benchmarks', '',
        f'Run by `make bench` on {platform.machine()} / {platform.processor() or "cpu"}, '
        f'{os.cpu_count()} cores, Python {platform.python_version()}, jax {jax.__version__}, '
        f'backend {jax.default_backend()}. Every ratio is measured side by side in one process '
        f'(variants interleaved, median of {ROUNDS} rounds).', '',
        '| workload | program: converted / lax | spread | Function call / lax | lax ms/call '
        '| eager / converted | jaxpr eqns converted / lax | first call converted / lax '
        '| conversion ms |',
        '|---|---|---|---|---|---|---|---|---|',
    ]
    for r in rows:
        eager = f'{r["eager_ratio"]:.1f}x' if r['eager_ratio'] else 'n/a'
        lines.append(
            f'| {r["name"]} | {r["ratio"]:.3f} | {r["spread"]:.1%} | {r["call_ratio"]:.3f} | '
            f'{r["lax_ms"]:.4f} | '
            f'{eager} | {r["eq_converted"]} / {r["eq_lax"]} '
            f'({r["eq_converted"] / r["eq_lax"]:.2f}) | {r["first_ratio"]:.2f} | '
            f'{r["conversion_ms"]:.2f} |')
    lines += [
        '',
        f'- First conversion of a fresh 30-line function with nested ifs and loops '
        f'(`CONVERSION_EXAMPLE` in benchmarks/run.py): median {conv_median:.2f} ms, '
        f'best {conv_min:.2f} ms.',
        f'- Cached call of a trivial converted function: {ours * 1e6:.1f} us vs '
        f'{plain * 1e6:.1f} us for `jax.jit` ({overhead:.2f}x).',
        '- "program": `jax.jit` of the converted function vs `jax.jit` of the hand-written lax '
        '(the compiled programs); "Function call": calling `autograph.convert(f)` itself, which '
        'adds its cache-key check (see the trivial call above).',
        '- "eager / converted": how much faster the compiled converted function is than the '
        'same Python run op by op (n/a where that would take minutes).',
        '- "spread" is the interquartile range over the median; on this shared 2-core VM, '
        'workloads under 50 us per call vary by 10-20% from run to run.',
        '', '![ratios](benchmarks/ratios.png)', '']
    report.write_head('\n'.join(lines))   # (the other sections stay as they are)
    scaling = os.path.join(ROOT, 'benchmarks', 'loop_scaling.md')   # by loop_scaling.py
    if os.path.exists(scaling):
        with open(scaling) as f:
            title, _, body = f.read().partition('\n')
        report.write_section(title, body)
    print('\n'.join(lines))


def write_chart(rows, overhead):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    names = [r['name'] for r in rows] + ['trivial call']
    steady = [r['ratio'] for r in rows] + [overhead]   # the trivial call: Function / jit
    eqns = [r['eq_converted'] / r['eq_lax'] for r in rows] + [np.nan]
    first = [r['first_ratio'] for r in rows] + [np.nan]
    y = np.arange(len(names))
    fig, ax = plt.subplots(figsize=(9, 5.5))
    ax.barh(y - 0.25, steady, 0.25, label='steady-state time')
    ax.barh(y, eqns, 0.25, label='jaxpr equations')
    ax.barh(y + 0.25, first, 0.25, label='first call')
    ax.axvline(1.0, color='black', linewidth=0.8)
    ax.set_yticks(y, names)
    ax.invert_yaxis()
    ax.set_xlabel('converted / hand-written lax (1.0 = as fast as the limit)')
    ax.legend(loc='upper center', bbox_to_anchor=(0.5, -0.12), ncol=3)
    fig.tight_layout()
    fig.savefig(os.path.join(ROOT, 'benchmarks', 'ratios.png'), dpi=110)


if __name__ == '__main__':
    main()
