"""A second differential fuzzer: programs composed of idioms from real code.

tests/fuzzer.py draws random expressions and statements; this one composes a small
library of idiom templates (tests/fuzz_idiom_library.py: a Welford aggregate passed
through a helper, a state dict updated under a traced `if`, a list appended to and
stacked, an early-stopping object whose `best` starts as None, `while` with a compound
test, `enumerate`/`zip`, for/else, try/except IndexError, Jacobi sweeps and `x1 = x0`
aliasing, views of rows written in place, row swaps, helpers that write their array
argument and return early, counters in methods, globals and closures, `match` on a Python
int, f-strings of Python counters, ...). A program is a sequence of 2-5 idioms; an idiom
with a BODY hole holds a nested sequence of 1-2 idioms, up to 3 levels deep.

Every program is valid Python and terminates: loops are bounded (a `while` counts before
any `continue` can skip the count or the exit test); the Python counter `m` is written
only where the control flow is Python's (the top level and bodies of Python `if`, `match`
and short loops), so f-strings and `match` see Python ints in both runs (not after a
`return` under a traced test either: the rest of the function is then a staged branch,
whose changed variables are traced); `break`/`continue` only in loops. Where the plain
program raises one of tests/fuzz_arrays.py's PYTHON_ERRORS, the converted one must raise
the same type.

Each program `f(x, n, v)` is called twice, plain (ground truth: `v` a NumPy array, whose
items Python can assign) and converted (under its `jax.jit`), with the same inputs as
tests/fuzzer.py's; the results, the array `v` after the calls (some programs write it)
and the globals `CALLS` and `LOG` must match. Failures are classified as in
tests/fuzzer.py: a MISMATCH (a wrong value) or a RAW_ERROR (a crash that is not
autograph's own) is a bug; a NAMED_ERROR (ControlFlowError/ConversionError on a valid
program) is a limitation. Templates that hit bugs open when this was written are left
out unless `--known` (see KNOWN); a program over `--limit` seconds is reported as too
slow, not as a failure.

    python -m tests.fuzz_idioms --programs N [--seed S] [--jobs 1] [--known]
                                [--limit SECONDS] [--show SEED]
"""
import argparse
import functools
import linecache
import multiprocessing
import random
import re
import signal
import sys
import traceback

import numpy as np

from tests.fuzz_arrays import PYTHON_ERRORS, same_error
from tests.fuzz_idiom_tables import T   # (the library's templates and more)
from tests.fuzz_idiom_library import HELPERS, LEAVES
from tests.fuzzer import MISMATCH, NAMED_ERROR, RAW_ERROR, _start_worker, inputs_for
from tests.fuzz_speed import fast_compiles

HOLE = re.compile(r'\{(c|f|t|pt|i|j|r|pr|b|exit)\}')
INVALID = 'invalid program'   # the plain run raised an error no valid program raises
SLOW = 'too slow'   # a program that ran past the limit (`--limit`): not counted as a bug

KNOWN = {
    'stack_list_traced': 'a named error by design: a list appended to in a loop over '
                         '`range(n)`, n traced',
    'best_none': 'a named error: `best = y` (an item of a 1-D array, a NumPy scalar) is '
                 'taken for a view of the array on some paths',
    'best_none_range': 'likewise, `best = w[i]`',
    'slice_traced': 'a named error by design: a view `w[i % 2 * 2:]` written, i traced '
                    '(its size is known only when the program runs)',
    'dict_alias': "`d = {'w': w}; d['w'][i] = e`: a named error (numpy_held_write; silent "
                  "before)",
    'list_alias': '`l = [w, a]; l[0][i] = e`: a named error (numpy_held_write; silent before)',
    'attr_alias': '`o.arr = w; o.arr[i] = e`: a named error (numpy_held_write; silent '
                  'before)',
    'list_alias_loop': 'a named error by design (held_list_staged): `l2 = l`, then '
                       '`l[0] = l2[0] * 0.5 + 1.0` in a staged loop (silent before)',
    'repeated_rows': 'a named error by design (held_list_staged): `[[0.0] * 2] * 2` (one '
                     'row twice) written in a staged loop (silent before)',
    'history_alias': '`hist.append(w)` then `w` written with traced values: a named error '
                     '(numpy_held_write; silent before)',
}
"""Templates that hit a bug (silent, raw, or a named error) open when this was written
(minimised in the report of the session that wrote this file); left out unless `--known`,
so that a run finds new bugs, not the same ones again. Remove a name when its bug is
fixed."""


class IdiomGenerator:
    """Composes the templates (tests/fuzz_idiom_library.py, tests/fuzz_idiom_extra.py)
    into one function."""

    def __init__(self, seed, known=False):
        self.rng = random.Random(seed)
        self.known = known
        self.lines = []
        self.counter = 0
        self.returned = False   # after a return under a traced test: staged code

    def emit(self, depth, text):
        self.lines.append('    ' * depth + text)

    # holes ---------------------------------------------------------------------------
    def float_expr(self):
        r = self.rng
        return r.choice(['a * 0.5', 'x - a', f'w[{r.randrange(4)}]', 'jnp.tanh(a)',
                         f'v[{r.randrange(4)}] * a', 'jnp.sum(w) * 0.25', 'x', '0.25'])

    def traced_test(self):
        r = self.rng
        return r.choice([f'a > {r.choice(["0.0", "0.5", "-0.5"])}', f'w[{r.randrange(4)}] < a',
                         'x > 0.0', f'n > {r.randrange(5)}', 'jnp.sum(w) > a', 'k < 3',
                         f'a < x and n > {r.randrange(4)}', 'not (a > x)'])

    def python_test(self):
        r = self.rng
        return r.choice([f'm > {r.randrange(4)}', f'm % 2 == {r.randrange(2)}',
                         f'len(v) > {r.randrange(6)}'])

    def fill(self, text, in_loop):
        r, c = self.rng, self.counter
        fills = {
            'c': lambda: str(c), 'f': self.float_expr, 't': self.traced_test,
            'pt': self.python_test, 'i': lambda: str(r.randrange(4)),
            'j': lambda: str(r.randrange(6)), 'b': lambda: str(r.randrange(2)),
            'r': lambda: r.choice(['n', 'n', '4', '3', 'm + 1', 'len(v)']),
            'pr': lambda: r.choice(['4', '3', 'm + 1', 'len(v)']),
            'exit': lambda: r.choice(['break', 'continue'] if in_loop else ['pass'])}
        return HOLE.sub(lambda match: fills[match.group(1)](), text)

    # composition ---------------------------------------------------------------------
    def allowed(self, name, python, in_loop):
        """Whether the template `name` may go here: `python` where the control flow up to
        here is Python's (the counter `m` may be written), `in_loop` inside a loop."""
        flags = T[name][0]
        if name in KNOWN and not self.known:
            return False
        if 'w' in flags and (not python or self.returned):
            return False
        if name == 'loop_exit' and not in_loop:
            return False
        return True

    def sequence(self, depth, nesting, python, in_loop, size):
        """`size` idioms drawn from those allowed here, one after another."""
        for _ in range(size):
            names = [name for name in T if self.allowed(name, python, in_loop)]
            self.idiom(self.rng.choice(names), depth, nesting, python, in_loop)

    def idiom(self, name, depth, nesting, python, in_loop):
        """Emits the template `name` at `depth`, its BODY filled with a nested sequence
        (or a single statement where `nesting` is spent)."""
        self.counter += 1
        flags, text = T[name]
        self.returned = self.returned or name == 'early_return'
        body_python = python and 'P' in flags and not self.returned
        body_loop = in_loop or 'L' in flags
        for line in self.fill(text.strip('\n'), in_loop).split('\n'):
            indent = (len(line) - len(line.lstrip())) // 4
            if line.strip() != 'BODY':
                self.emit(depth + indent, line.strip() and line[indent * 4:])
            elif nesting > 0 and self.rng.random() < 0.8:
                self.sequence(depth + indent, nesting - 1, body_python, body_loop,
                              self.rng.randint(1, 2))
            else:
                self.emit(depth + indent, self.fill(self.rng.choice(LEAVES), body_loop))

    def program(self, name):
        """The source of the function `name(x, n, v)`: a prologue, 2-5 idioms, a return."""
        r = self.rng
        self.emit(0, f'def {name}(x, n, v):')
        for line in ('global CALLS', 'a = x * 1.0', 'k = 0', f'm = {r.randrange(3)}',
                     'w = v' if r.random() < 0.3 else 'w = v * 1.0'):
            self.emit(1, line)
        self.sequence(1, r.randint(1, 3), True, False, r.randint(2, 5))
        self.emit(1, 'return a, k, m, w')
        return '\n'.join(self.lines) + '\n'


def make_program(seed, source=None, known=False):
    """(source, function) of the program for `seed` (or of the module text `source`);
    `known`: with the templates of KNOWN."""
    name = f'idioms_{seed}'
    if source is None:
        source = HELPERS + '\n\n' + IdiomGenerator(seed, known).program(name)
    file = f'<autograph idioms {seed}>'
    linecache.cache[file] = (len(source), None, source.splitlines(True), file)
    namespace = {'__name__': f'idioms_{seed}'}
    exec(compile(source, file, 'exec'), namespace)
    return source, namespace[name]


def calls(fn, args, namespace):
    """Two calls on the same array `v` (the second sees what the first wrote), then the
    state they leave: the array, the global `CALLS` and the global list `LOG` (of
    `namespace`)."""
    namespace['CALLS'] = 0
    namespace['LOG'].clear()
    x, n, v = args
    results = [snapshot(fn(x, n, v)), snapshot(fn(x, n, v))]
    log = namespace['LOG']
    return results + [(v, namespace['CALLS'], len(log), float(sum(log)))]


def snapshot(result):
    """`result` with its NumPy arrays copied (a program may return `v` itself, which the
    next call writes)."""
    import jax
    return jax.tree_util.tree_map(
        lambda leaf: leaf.copy() if isinstance(leaf, np.ndarray) else leaf, result)


def leaves(results):
    import jax
    return jax.tree_util.tree_leaves(results)


def close(expected, actual):
    e, a = leaves(expected), leaves(actual)
    return len(e) == len(a) and all(
        np.shape(p) == np.shape(q) and np.allclose(np.asarray(p, dtype=np.float64),
                                                   np.asarray(q, dtype=np.float64),
                                                   rtol=1e-4, atol=1e-5, equal_nan=True)
        for p, q in zip(e, a))


def run_one(seed, source=None, known=False):
    """None when plain and converted agree, else (kind, description): MISMATCH,
    NAMED_ERROR, RAW_ERROR, or INVALID (a bug of this generator)."""
    import autograph
    x, n, v = inputs_for(seed)
    source, fn = make_program(seed, source, known)
    try:
        expected = calls(fn, (x, n, np.array(v)), fn.__globals__)
    except PYTHON_ERRORS as error:
        expected = error
    except Exception:
        return INVALID, f'seed {seed}: the plain run raised\n{source}\n{traceback.format_exc()}'
    try:
        actual = calls(autograph.convert(fn), (x, n, np.array(v)), fn.__globals__)
    except (autograph.ControlFlowError, autograph.ConversionError):
        return NAMED_ERROR, f'seed {seed}: named error\n{source}\n{traceback.format_exc()}'
    except PYTHON_ERRORS as error:
        if same_error(expected, error):
            return None
        return RAW_ERROR, f'seed {seed}: converted run raised\n{source}\n{traceback.format_exc()}'
    except Exception:
        return RAW_ERROR, f'seed {seed}: converted run raised\n{source}\n{traceback.format_exc()}'
    if isinstance(expected, PYTHON_ERRORS):
        return MISMATCH, f'seed {seed}: expected {expected!r}, got {actual}\n{source}'
    if not close(expected, actual):
        return MISMATCH, f'seed {seed}: expected {expected}\ngot {actual}\n{source}'
    return None


class TooSlow(BaseException):
    """Raised by the alarm in `run_limited` (a BaseException: no `except Exception` of a
    program's run takes it for the program's error)."""


def run_limited(seed, limit, known=False):
    """`run_one`, or (SLOW, ...) where the two runs take more than `limit` seconds
    (a Python-unrolled loop around staged ones can trace for minutes on a busy machine)."""
    def alarm(signum, frame):
        raise TooSlow

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(limit)
    try:
        return run_one(seed, known=known)
    except TooSlow:
        return SLOW, f'seed {seed}: over {limit} s'
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--programs', type=int, default=200)
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--jobs', type=int, default=1)
    parser.add_argument('--show', type=int, help='print the program for this seed and exit')
    parser.add_argument('--limit', type=int, default=120,
                        help='seconds a program may take (plain and converted runs)')
    parser.add_argument('--known', action='store_true',
                        help='also draw the templates of KNOWN (open bugs when written)')
    options = parser.parse_args(argv)
    if options.show is not None:
        print(make_program(options.show, known=options.known)[0])
        return 0
    fast_compiles()
    counts = {MISMATCH: 0, NAMED_ERROR: 0, RAW_ERROR: 0, INVALID: 0, SLOW: 0}
    seeds = range(options.seed, options.seed + options.programs)
    with multiprocessing.get_context('spawn').Pool(options.jobs, _start_worker) as pool:
        run = functools.partial(run_limited, limit=options.limit, known=options.known)
        for i, problem in enumerate(pool.imap(run, seeds)):
            if problem:
                kind, text = problem
                counts[kind] += 1
                print(f'{kind.upper()}: {text}', flush=True)
            if (i + 1) % 25 == 0:
                print(f'{i + 1} programs: ' + ', '.join(f'{v} {k}' for k, v in counts.items()),
                      flush=True)
    passed = options.programs - sum(counts.values())
    print(f'idioms: {options.programs} programs, {passed} passed, '
          + ', '.join(f'{v} {k}' for k, v in counts.items()))
    return 1 if counts[MISMATCH] or counts[RAW_ERROR] or counts[INVALID] else 0


if __name__ == '__main__':
    sys.exit(main())
