"""`make bench`: the time to convert functions of about 30 lines, median of many fresh
conversions per shape: the reference function (`CONVERSION_EXAMPLE` in benchmarks/run.py,
nested ifs and loops) and other shapes typical of real code (SHAPES below).

Each round compiles the shape into a new file name, so the conversion cache (one entry
per code object, see autograph/conversion.py) never answers: every round parses, runs the
passes and generates code. Garbage left by earlier rounds is collected before each one,
as timeit does. The shapes take turns round by round, so a burst of load on the machine
slows all of them alike. Prints one line per shape, the median and the quartiles in
milliseconds; BENCHMARKS.md quotes the medians (target: at most 5 ms each).

    python benchmarks/conversion_time.py [--rounds 200] [--shape NAME ...]
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

LOOPS_AND_CONDITIONS = '''
def model(x, n, m, a, b):
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
        while j < m:
            if total[0] > 100:
                total = total / 2
            else:
                total = total + 1
            j += 1
        for k in range(3):
            if total[k] > 0:
                count += 1
    if a and b:
        result = total / count
    else:
        result = total
    scale = jnp.sum(result)
    if scale > 10:
        result = result / scale
    result = result * 2
    count = count + 1
    total = total - 1
    return result, count
'''

BREAK_CONTINUE = '''
def model(grid, n, limit):
    best = 0.0
    found = 0
    for i in range(n):
        row = grid[i]
        if row[0] < 0:
            continue
        for j in range(n):
            value = row[j]
            if value > limit:
                found += 1
                break
            if value < 0:
                continue
            best = jnp.maximum(best, value)
        else:
            best = best + 1
        k = 0
        while k < n:
            k += 1
            if grid[k, i] == 0:
                continue
            if grid[k, i] > limit:
                break
            best = best + grid[k, i]
        if found > 3:
            break
    total = best * found
    return total, found
'''

EARLY_RETURNS = '''
def model(xs, target, n):
    if n == 0:
        return -1, xs[0]
    low = 0
    high = n - 1
    while low <= high:
        middle = (low + high) // 2
        value = xs[middle]
        if value == target:
            return middle, value
        if value < target:
            low = middle + 1
        else:
            high = middle - 1
    for i in range(n):
        if xs[i] > target:
            return i, xs[i]
        if xs[i] < -target:
            break
    acc = 0.0
    for i in range(n):
        acc = acc + xs[i]
        if acc > target:
            return i, acc
    total = acc * 2
    if total > target:
        return n, total
    return -1, acc
'''

LISTS_AND_ITEMS = '''
def model(x, n):
    out = jnp.zeros(n)
    history = []
    peaks = []
    i = 0
    while i < n:
        v = x[i] * 2
        out[i] = v
        if v > 0:
            out[i] = v + 1
            peaks.append(i)
        else:
            out[i] = -v
        history.append(out[i])
        i += 1
    grid = jnp.zeros((n, n))
    for r in range(n):
        for c in range(n):
            grid[r, c] = out[r] * out[c]
        grid[r, r] = 1.0
    j = 0
    while j < n:
        x[j] += out[j]
        j += 1
    counts = {}
    counts['peaks'] = len(peaks)
    counts['total'] = jnp.sum(out)
    result = jnp.stack(history)
    return result, grid, counts
'''

COMPREHENSIONS_AND_TRY = '''
def model(xs, weights, names, n):
    try:
        scale = float(weights['scale'])
    except KeyError:
        scale = 1.0
    values = [x * scale for x in xs]
    squares = [v * v for v in values if v is not None]
    pairs = {name: i for i, name in enumerate(names)}
    total = sum(squares)
    for i in range(n):
        try:
            w = weights[names[i]]
        except (KeyError, IndexError):
            w = 0.0
        total = total + w * values[i]
        if total > 100:
            total = total / 2
    parts = [jnp.sum(v) for v in values]
    biggest = max(parts) if parts else 0.0
    lookup = {k: v for k, v in pairs.items() if v < n}
    while total > 10:
        total = total - biggest
    labels = [f'{k}={v}' for k, v in lookup.items()]
    try:
        first = values[0]
    except IndexError:
        first = None
    finally:
        count = len(labels)
    return total, first, count
'''

METHODS_ON_SELF = '''
class Model:
    def step(self, x, n):
        state = self.initial(x)
        for i in range(n):
            h = self.cell(state, x[i])
            if self.training:
                h = self.dropout(h, self.rate)
            state = self.norm(h) + state
            self.steps += 1
        while self.error(state) > self.tolerance:
            state = self.refine(state)
            self.iterations += 1
        if self.use_bias:
            state = state + self.bias
        else:
            state = state - self.offset
        logits = self.head(state)
        self.history.append(logits)
        self.last = logits
        if self.clip > 0:
            logits = jnp.clip(logits, -self.clip, self.clip)
        loss = self.loss(logits, x)
        for layer in self.layers:
            if layer.frozen:
                continue
            loss = loss + layer.penalty(self.scale)
        self.total_loss = self.total_loss + loss
        return logits, loss
'''

SOLVER_WHILE_BREAK = '''
def model(f0, df0, x0, tol, max_steps):
    x = x0
    fx = f0 * x * x - df0
    step = 0
    converged = False
    while step < max_steps:
        slope = 2.0 * f0 * x
        if jnp.abs(slope) < 1e-12:
            break
        dx = fx / slope
        x_new = x - dx
        if x_new < 0:
            x_new = x / 2
        fx_new = f0 * x_new * x_new - df0
        if jnp.abs(fx_new) > jnp.abs(fx):
            damping = 0.5
            while damping > 1e-3 and jnp.abs(fx_new) > jnp.abs(fx):
                x_new = x - damping * dx
                fx_new = f0 * x_new * x_new - df0
                damping = damping / 2
        x, fx = x_new, fx_new
        step += 1
        if jnp.abs(dx) < tol:
            converged = True
            break
    residual = jnp.abs(fx)
    if not converged and residual > tol:
        x = jnp.nan * x
    return x, step, residual
'''

NESTED_HELPERS = '''
def model(xs, weights, n, scale):
    offset = jnp.mean(xs)

    def centred(v):
        return (v - offset) * scale

    def clipped(v, bound):
        if v > bound:
            return bound
        return v

    def weighted(i):
        total = 0.0
        for k in range(3):
            total = total + weights[k] * centred(xs[i + k])
        return total

    values = [weighted(i) for i in range(n)]
    bounded = [clipped(v, 10.0) for v in values if v is not None]
    peaks = {i: v for i, v in enumerate(bounded) if v > offset}
    smooth = lambda a, b: (a + b) / 2
    result = 0.0
    for i in range(n - 1):
        result = result + smooth(bounded[i], bounded[i + 1])
    if peaks:
        result = result + max(peaks.values())
    return result, len(peaks)
'''

SHAPES = {
    'reference (CONVERSION_EXAMPLE)': (CONVERSION_EXAMPLE, 'model'),
    'for/if-elif + while/if + for/if, if a and b': (LOOPS_AND_CONDITIONS, 'model'),
    'nested loops, break/continue': (BREAK_CONTINUE, 'model'),
    'early returns in loops': (EARLY_RETURNS, 'model'),
    'while + list appends + item writes': (LISTS_AND_ITEMS, 'model'),
    'comprehensions + try/except': (COMPREHENSIONS_AND_TRY, 'model'),
    'method calls on self': (METHODS_ON_SELF, 'Model.step'),
    'solver: while + break, nested while': (SOLVER_WHILE_BREAK, 'model'),
    'nested helpers, closures, comprehensions': (NESTED_HELPERS, 'model'),
}
"""shape name -> (source, the dotted name of the function to convert in it)."""


def fresh_function(source, name, k):
    """The function `name` of `source`, from a new file (no cache entry applies)."""
    file = f'<conversion time {k}>'
    linecache.cache[file] = (len(source), None, source.splitlines(True), file)
    namespace = {'jnp': jax.numpy}
    exec(compile(source, file, 'exec'), namespace)
    found = namespace
    for part in name.split('.'):
        found = found[part] if isinstance(found, dict) else getattr(found, part)
    return found, file


def conversion_times(shapes, rounds):
    """shape name -> the milliseconds of `rounds` fresh conversions, shapes in turn."""
    times = {shape: [] for shape in shapes}
    k = 0
    for _ in range(rounds):
        for shape in shapes:
            fn, file = fresh_function(*SHAPES[shape], k)
            k += 1
            gc.collect()
            start = time.perf_counter()
            conversion.convert_function(fn)
            times[shape].append((time.perf_counter() - start) * 1000)
            linecache.cache.pop(file, None)
    return times


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=200)
    parser.add_argument('--shape', action='append', choices=list(SHAPES),
                        help='measure only this shape (repeatable; default: all)')
    args = parser.parse_args(argv)
    shapes = args.shape or list(SHAPES)
    conversion_times(shapes, 5)   # warm up: imports, template and resolver caches
    times = conversion_times(shapes, args.rounds)
    width = max(len(shape) for shape in shapes)
    for shape in shapes:
        q1, median, q3 = statistics.quantiles(times[shape], n=4)
        print(f'conversion of {shape:<{width}}: median {median:5.2f} ms (quartiles '
              f'{q1:.2f}-{q3:.2f} ms, best {min(times[shape]):.2f} ms, {args.rounds} '
              f'fresh conversions)')


if __name__ == '__main__':
    main()
