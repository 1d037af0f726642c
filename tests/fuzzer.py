"""A differential fuzzer: random valid, terminating programs run plain and converted.

Each program takes `x` (float32), `n` (int32, 0..6) and `v` (float32[4]), mixes
if/elif/else (some tests tick an object, alone or in either operand of `and`/`or`: a
side effect Python has only where it evaluates the test), a Python bool flag tested in
conditions (some programs flip it or make it traced), NumPy views of an array written
through and seeing its writes (`rv1 = w[1:3]; rv1 *= 0.5`, also after `w` is rebound),
bounded `while`, `for` over static and traced ranges and arrays, break/continue/early
return, and/or/not, ternaries and helper calls, nested at least
three deep, and state in objects (see StateGenerators). It runs unconverted on concrete
arrays (the ground truth; `v` as a NumPy array, whose items Python can assign) and
converted under `jax.jit` with traced inputs; results must match. Half of the programs
also use Python's scopes (see ScopeFeatures; `--no-scopes` leaves them out): closures and
lambdas reading variables that the control flow rebinds, closures over loop variables
called in and after the loop, over variables a loop creates, and `nonlocal`/`global`
writes. Values exist on some paths only (a variable one branch assigns, or that a loop
which may run zero times creates; a helper's result that is None on some paths), read
only where Python has them, with and without closures. Half call helpers that write a
global, an object's attribute (of an object given, or of a module-level object), a list
given, or items of an array given (some return early after writing, or call another
helper that writes); some write a list of numbers at an index that may be traced, or
append to a global list they never read (a log); each program is called twice, plain and
converted, and the state the two calls leave must match too. About four programs in ten
also write items of a module global or closure variable with no `global` statement, or
read globals and an object argument that the harness changes between three calls (see
tests/fuzz_state.py; `--outer-state-only` runs only those). About six in ten tick a counter
object argument where Python may not evaluate the tick (branches of conditional
expressions, `and`/`or` operands inside larger expressions, `elif` and `while` tests,
items and filters of reduced comprehensions), define nested helpers that write the
caller's array and return early (one through a sibling), or read and set attributes of
an object argument by computed names (see tests/fuzz_order.py). About one in four makes
an object whose attribute helpers, a method or an `__init__` create on some paths and
reads it guarded or not (see tests/fuzz_created.py: where Python raises AttributeError,
the converted program must raise it too). About one in four writes `w` at index arrays
(out of range on some paths: IndexError), reduces selections of run-time length, calls
`sys.exit` under a traced test, gives an optional result to jnp functions (TypeError
where it is None) or views arrays it makes with NumPy and JAX (see tests/fuzz_arrays.py:
where Python raises, the converted program must raise the same type). A failing seed is
shrunk by `python -m tests.fuzz_minimise --seed S`.

Every program is valid Python, so the converted run must give Python's values. Three
kinds of failure are counted: a *mismatch* (a different value) and a *raw error* (a crash
that is not one of autograph's own errors) are bugs; a *named error* (ControlFlowError or
ConversionError on a valid program) is a limitation of staging that must be rare and
explained.

    python -m tests.fuzzer --programs 2000 [--seed 0] [--jobs 2] [--x64] [--no-scopes]
                           [--outer-state-only] [--order-only] [--arrays-only]

With --x64 the programs run with jax_enable_x64: the inputs stay 32-bit, the Python
numbers in the programs become weakly typed 64-bit values, as in JAX. The command's
workers compile with XLA's cheap settings and collect garbage rarely (tests/fuzz_speed.py:
the same programs and checks, a quarter less CPU time; most of what is left is tracing).
"""
import argparse
import functools
import linecache
import multiprocessing
import os
import random
import sys
import traceback

import jax.numpy as jnp
import numpy as np

from tests.fuzz_arrays import PYTHON_ERRORS, ArrayShapes, arrays_module_text, same_error
from tests.fuzz_created import CreatedShapes, created_module_text
from tests.fuzz_order import OrderHarness, OrderShapes, order_module_text
from tests.fuzz_speed import fast_compiles, rare_collections
from tests.fuzz_state import Harness, OuterShapes, in_factory, module_text

HELPERS = '''
def helper(p, q):
    if p > q:
        return p - q
    return q * 0.5


def maybe_half(p, q):
    if p > q:
        return p * 0.5
    return None


def int_helper(m):
    r = 0
    for j in range(3):
        if (m + j) % 2 == 0:
            r += j
    return r


class Cell:
    def __init__(self, f, c):
        self.f = f
        self.c = c


def push(pair, value):
    if value > 0:
        pair[0] = pair[0] + value
    else:
        pair[0], pair[1] = pair[1], pair[0] - value


TOTAL = 0.0
OBJ = Cell(0.0, 0)


def tick(amount):
    global TOTAL
    TOTAL = TOTAL + amount


def add_item(items, value):
    items[1] = items[1] + value


def set_field(cell, value):
    cell.f = cell.f * 0.5 + value


def swap_items(arr, i, j):
    arr[i], arr[j] = arr[j], arr[i]


def ticked(cell, p):
    cell.c = (cell.c + 1) % 7
    return p > 0.0


def scale_items(arr, f):
    for i in range(arr.shape[0]):
        if arr[i] > 0:
            arr[i] = arr[i] * f


def scale_early(arr, f):
    arr[0] = arr[0] * 0.5 + f
    if f > 0:
        return 1.0
    arr[1] = arr[1] - f
    return 0.0


def scale_nested(arr, f):
    scale_items(arr, f)
    arr[3] = arr[3] + f


LOG = []
'''

VIEW_FORMS = [   # NumPy's views of `w`: written through, passed on, seeing `w`'s writes
    ['{r} = w[1:3]', '{r} *= 0.5'],
    ['{r} = w[1:]', '{r}[2] = a * 0.5'],
    ['{r} = w[...]', '{r} -= 0.125'],   # (`{r} += b`, b a JAX value: NumPy adds out of place)
    ['{r} = w[:3]', 'scale_items({r}, 0.5)'],
    ['{r} = w[0:2]', 'w[0] = a', 'a = a + {r}[0] * 0.1'],
    ['{r} = w[1:]', '{r}_part = {r}[:2]', '{r}_part -= 0.25'],
    ['{r} = w[:]', '{r}[k % 4] = b'],
    ['{r} = w', '{r}[k % 4] = a * 0.5', 'a = a + w[0] * 0.1'],   # (all of `w`: `{r} is w`)
    ['{r} = w', 'w[1] = b', 'b = b + {r}[1] * 0.1'],
    # (`w` rebound while its views live on: they write the array it held, on every
    # path or on some paths only, which the other view sees)
    ['{r} = w[1:3]', '{r}_w = w[2:]', 'w = w - 0.25', '{r}[1] = a * 0.5',
     'a = a + {r}_w[0] * 0.1'],
    ['{r} = w[0:2]', '{r}_w = w[1:]', 'if a > b: w = w - 0.25', '{r} *= 0.5',
     'a = a + {r}_w[0] * 0.1 + w[1] * 0.1'],
]
"""Each with a view name of its own (`r` -> rv1, rv2, ...: one name bound to views of
two shapes would be loop state of two shapes)."""

FLOAT_VARS = ('a', 'b')
INT_VARS = ('k',)


class StateGenerators:
    """Statements on state that lives in objects: attributes of a small object (`s`),
    items and slices of an array (`w`), a list changed in place by a called function
    (`pair`), and variables that a staged loop creates (`t1`, ...)."""

    def state_prologue(self):
        self.emit(1, 's = Cell(x, 0)')
        self.emit(1, 'w = v * 1.0')
        self.emit(1, 'pair = [x * 0.0, x * 0.0]')
        self.emit(1, 'hist = [0.0, 0.0, 0.0]')
        self.emit(1, 'dk = {}')

    def key_in_loop(self, depth, key):
        """A dict key that a loop (which may run zero times) sets, on some iterations
        only or on each; read after the loop only as Python may (`state_epilogue`)."""
        r = self.keys
        if r.random() < 0.6:
            return
        if r.random() < 0.4:
            self.emit(depth, f'if a > {r.choice(["0.0", "b"])}:')
            depth += 1
        self.emit(depth, r.choice([f"dk['{key}'] = a * 0.5 + k",
                                   f"dk['{key}'] = dk.get('{key}', 0.0) + a * 0.1"]))
        self.key_names.append(key)

    def keys_epilogue(self):
        for key in self.key_names:
            self.emit(1, self.keys.choice([
                f"if '{key}' in dk:", f"a = a + dk.get('{key}', 0.25) * 0.1",
                f"k = k + ('{key}' in dk)"]))
            if self.lines[-1].endswith(':'):
                self.emit(2, f"a = a + dk['{key}'] * 0.1")

    def state_epilogue(self):
        self.keys_epilogue()
        self.emit(1, 'a = a + s.f * 0.01 + jnp.sum(w) * 0.01 + pair[0] * 0.1 - pair[1] * 0.2')
        if self.calls:   # what the last call left behind
            self.emit(1, 'a = a + TOTAL * 0.01 + OBJ.f * 0.01')
        self.emit(1, 'k = k + s.c')
        self.emit(1, 'a = a + hist[0] * 0.1 + hist[1] * 0.2 + hist[2] * 0.3')

    def state_statement(self, depth):
        r = self.rng
        i, j = r.randrange(4), r.randrange(4)
        options = [
            f's.f = s.f * 0.5 + {self.float_expr()}',
            's.f += a * 0.1',
            's.c = (s.c + k) % 7',
            f'w[{i}] = {self.float_expr()}',
            f'w[{i}] += a * 0.5',
            'w[1:3] *= 0.5',
            'w[k % 4] = b',
            'w[0:4:2] -= 0.25',
            f'w[{i}], w[{j}] = w[{j}], w[{i}]',
            f'a = a + w[{i}] * 0.1',
        ]
        if depth == 1:   # a call that changes `pair` in place (under its own staged if)
            options.append(f'push(pair, {r.choice(["a", "b", "x", "w[0]"])})')
        if self.more.random() < 0.3:   # (its own stream: the rest stays as it was)
            options = self.more_state(depth)
        elif self.calls:   # calls that change a global, an object, a list or array items
            options += [f'tick({r.choice(["a", "b", "x"])} * 0.1)',
                        f'add_item(pair, {r.choice(["a", "b"])} * 0.1)',
                        f'set_field({r.choice(["s", "OBJ"])}, {r.choice(["a", "b"])} * 0.1)',
                        f'swap_items(w, {i}, {j})', 'scale_items(w, 0.5)']
        chosen = r.choice(options)
        if self.views.random() < 0.2:   # (its own stream: the rest stays as it was)
            self.view_count += 1
            for line in self.views.choice(VIEW_FORMS):
                self.emit(depth, line.format(r=f'rv{self.view_count}'))
        else:
            self.emit(depth, chosen)

    def more_state(self, depth):
        """Items of a list of numbers at an index that may be traced; helpers that write
        items of the array they are given and return early, or call another that does;
        a global list only appended to (a log: not in loops, where a staged loop cannot
        collect a run-time number of items)."""
        a = self.more.choice(FLOAT_VARS)
        options = [f'hist[k % 3] += {a} * 0.1', f'hist[(k + n) % 3] = {a}',
                   f'c{self.counter} = scale_early(w, {a} * 0.1)',
                   f'scale_nested(w, {a} * 0.1)']
        if not self.loop_depth:
            options.append(f'LOG.append({a} * 1.0)')
        return [self.more.choice(options)]

    def bound_on_some_paths(self, depth):
        """Values that exist on some paths only, read only where Python has them: a
        variable one branch assigns, read under the same (saved) condition; a result or
        a variable that is None on some paths, read after `is None` / `is not None` or
        by its truth (`and`, `or`, `not`: `optional_read`), or refined under
        `if y is None or y > v: y = ...` and read after it."""
        self.counter += 1
        flag, name, r = f'f{self.counter}', f'u{self.counter}', self.rng
        if self.none_or_value.random() < 0.25:   # (its own stream: the rest stays as it was)
            self.emit(depth, f'{name} = None')
            self.emit(depth, f'if {self.cond()}:')
            self.emit(depth + 1, f'{name} = {self.float_expr()}')
            self.assign(depth)
            self.optional_read(depth, name, r.choice(FLOAT_VARS))
        elif r.random() < 0.5:
            self.emit(depth, f'{flag} = {self.cond()}')
            self.emit(depth, f'if {flag}:')
            self.emit(depth + 1, f'{name} = {self.float_expr()}')
            if r.random() < 0.5:
                self.assign(depth)
            self.emit(depth, f'if {flag}:')
            self.emit(depth + 1, f'{r.choice(FLOAT_VARS)} += {name} * 0.1')
        else:
            self.emit(depth, f'{name} = maybe_half({r.choice(FLOAT_VARS)}, '
                             f'{r.choice(FLOAT_VARS + ("x",))})')
            kind = r.random()
            if kind < 0.35:
                self.emit(depth, f'if {name} is not None:')
                self.emit(depth + 1, f'{r.choice(FLOAT_VARS)} += {name}')
            elif kind < 0.7:
                self.emit(depth, f'a = a + (0.0 if {name} is None else {name} * 0.5)')
            else:   # refined under a compound test: a plain value after the `if`
                self.emit(depth, f'if {name} is None or {name} > {r.choice(FLOAT_VARS)}:')
                self.emit(depth + 1, f'{name} = {self.float_expr()}')
                self.emit(depth, f'{r.choice(FLOAT_VARS)} += {name} * 0.1')

    def optional_read(self, depth, name, target):
        """`target` changed by a read of `name`, None on some paths: after `is not None`,
        or by its truth (`and`, `or`, `not`: a value that is 0.0 is false too); the form
        drawn from the stream of optional values."""
        own = self.none_or_value
        bound = own.choice((-1.0, 0.0, 0.5))
        kind = own.random()
        if kind < 0.4:
            self.emit(depth, f'if {name} is not None:')
            self.emit(depth + 1, f'{target} += {name} * 0.1')
        elif kind < 0.6:
            self.emit(depth, f'if {name} and x > {bound}:')
            self.emit(depth + 1, f'{target} += {name} * 0.1')
            self.emit(depth, f'elif not {name}:')
            self.emit(depth + 1, f'{target} -= 0.1')
        elif kind < 0.8:
            self.emit(depth, f'{target} = {target} + ({name} or {bound}) * 0.1')
        else:
            self.emit(depth, f'{target} = {target} + (({name} and {name} * 0.5) or 0.0)')

    def created_in_loop(self, depth, header):
        """A variable assigned first in a loop, read after it (where the loop ran),
        directly or through a closure made before the loop; returns how to read it.
        (Only at the top level: inside a staged `if` whose other branch has no such loop
        the variable would be undefined on one path, an error by design.)"""
        self.counter += 1
        name = f't{self.counter}'
        read = self.scopes.created(depth, name, header)
        self.emit(depth + 1, f'{name} = {self.float_expr()}')
        return read


class ScopeFeatures:
    """Python scope rules for the generated programs (closures see current values)."""

    def __init__(self, generator, enabled):
        self.gen = generator
        self.enabled = enabled and generator.rng.random() < 0.5

    def created(self, depth, name, header):
        """How to read `name`, which the loop whose header is line `header` creates:
        sometimes through a closure made before the loop."""
        if self.enabled and self.gen.rng.random() < 0.5:
            self.gen.lines.insert(header, '    ' * depth + f'peek_{name} = lambda: {name} * 0.5')
            return f'peek_{name}()'
        return name

    def prelude(self):
        """Closures over the state, a nonlocal writer and a global, defined up front."""
        emit = self.gen.emit
        for line in ('global G', 'G = 0.0', 'acc = 0.0', 'def peek():', '    return a * 0.5 + k',
                     'scaled = lambda: b * 0.1 + acc', 'def bump(w):', '    nonlocal acc',
                     '    acc = acc + w * 0.1'):
            emit(1, line)

    def float_options(self):
        return ['peek()', 'scaled() + a', f'acc * 0.5 + {self.gen.rng.choice(FLOAT_VARS)}',
                'G + b * 0.5'] if self.enabled else []

    def statement(self, depth):
        """A write through a closure or to the global; False when disabled."""
        if not self.enabled or self.gen.rng.random() < 0.7:
            return False
        a = self.gen.rng.choice(FLOAT_VARS)
        self.gen.emit(depth, self.gen.rng.choice([f'bump({a})', f'G = G + {a} * 0.1']))
        return True

    def before_loop(self, depth, target):
        """A closure over the loop variable, made before the loop."""
        if self.enabled:
            self.gen.emit(depth, f'{target} = 0')
            self.gen.emit(depth, f'peek_{target} = lambda: {target} * 0.25')

    def in_loop(self, depth, target):
        """Uses of closures over the loop variable inside the body."""
        if not self.enabled:
            return
        if self.gen.rng.random() < 0.5:
            self.gen.emit(depth, f'def term_{target}():')
            self.gen.emit(depth + 1, f'return {target} * 0.5 + b')
            self.gen.emit(depth, f'a = a + term_{target}() * 0.1')
        else:
            self.gen.emit(depth, f'b = b + peek_{target}()')

    def after_loop(self, depth, target):
        if self.enabled:
            self.gen.emit(depth, f'a = a + peek_{target}()')


class ProgramGenerator(StateGenerators, OuterShapes, OrderShapes, CreatedShapes, ArrayShapes):
    def __init__(self, seed, scopes=False):
        self.rng = random.Random(seed)
        self.lines = []
        self.counter = 0
        self.loop_depth = 0
        self.scopes = ScopeFeatures(self, scopes)
        # Half of the programs call helpers that change state outliving the call (a
        # separate stream: the other programs stay as they were).
        self.calls = random.Random(seed * 7919 + 1).random() < 0.5
        self.none_or_value = random.Random(seed * 7919 + 2)
        self.more = random.Random(seed * 7919 + 3)
        self.views = random.Random(seed * 7919 + 4)
        self.view_count = 0
        self.keys = random.Random(seed * 7919 + 5)   # dict keys set in loops (own stream)
        self.key_names = []
        self.init_outer_shapes(seed)   # (see tests/fuzz_state.py: streams of their own)
        self.init_order_shapes(seed)   # (see tests/fuzz_order.py: likewise)
        self.init_created_shapes(seed)   # (see tests/fuzz_created.py: likewise)
        self.init_array_shapes(seed)   # (see tests/fuzz_arrays.py: likewise)

    def emit(self, depth, text):
        self.lines.append('    ' * depth + text)

    # expressions --------------------------------------------------------------------
    def float_expr(self):
        r = self.rng
        a, b = r.choice(FLOAT_VARS), r.choice(FLOAT_VARS + ('x',))
        options = [
            f'{a} * 0.5 + {b} * 0.25',
            f'jnp.tanh({a} + {b})',
            f'{a} - {r.choice(["1.0", "0.5", "x"])}',
            f'jnp.sin({a}) + v[{r.randrange(4)}]',
            f'({a} if {self.cond()} else {b} * 0.5)',
            f'helper({a}, {b})',
            f'{a} + jnp.sum(v) * 0.1',
            f'{a} * 0.9 + k * 0.01',
        ] + self.scopes.float_options()
        return r.choice(options)

    def int_expr(self):
        r = self.rng
        options = ['(k * 3 + 1) % 17', 'k + 1', 'k - 2', '(k + n) % 11',
                   f'(k + {r.randrange(5)} if {self.cond()} else k)', 'int_helper(k) + k',
                   'k * 2 % 13']
        return r.choice(options)

    def comparison(self):
        r = self.rng
        options = [f'{r.choice(FLOAT_VARS + ("x",))} > {r.choice(["0.0", "0.5", "-0.5", "b"])}',
                   f'k % {r.randrange(2, 4)} == 0', f'k < {r.randrange(0, 8)}', 'n > 2',
                   f'v[{r.randrange(4)}] < a', 'jnp.sum(v) > x', 'k >= n', 'flag', 'not flag']
        return r.choice(options)

    def cond(self, depth=0):
        r = self.rng
        choice = r.random()
        if choice < 0.6 or depth > 1:
            return self.comparison()
        if choice < 0.75:
            return f'not ({self.cond(depth + 1)})'
        op = r.choice(['and', 'or'])
        return f'({self.cond(depth + 1)} {op} {self.cond(depth + 1)})'

    # statements ---------------------------------------------------------------------
    def assign(self, depth):
        r = self.rng.random()
        if r < 0.06:   # a Python flag flipped, or made traced (else it stays a Python bool)
            self.emit(depth, self.rng.choice(['flag = not flag', 'flag = a > b']))
        elif r < 0.65:
            self.emit(depth, f'{self.rng.choice(FLOAT_VARS)} = {self.float_expr()}')
        elif r < 0.75:   # steps of `k` (a loop's counter where they are its only bindings)
            self.emit(depth, ['k += 1', 'k -= 1', 'k *= -1', 'k //= 2',
                              'k += a > b'][int((r - 0.65) * 50)])
        else:
            self.emit(depth, f'k = {self.int_expr()}')

    def block(self, depth, nesting, size=None):
        size = size or self.rng.randint(1, 3)
        for _ in range(size):
            self.statement(depth, nesting)

    def statement(self, depth, nesting):
        r = self.rng.random()
        if nesting <= 0 or r < 0.35:
            return self.simple(depth)
        if r < 0.6:
            return self.if_statement(depth, nesting)
        if r < 0.75:
            return self.while_loop(depth, nesting)
        return self.for_loop(depth, nesting)

    def simple(self, depth):
        r = self.rng.random()
        if self.loop_depth and r < 0.12:
            self.emit(depth, f'if {self.cond()}:')
            self.emit(depth + 1, self.rng.choice(['break', 'continue']))
        elif r < 0.18:
            self.emit(depth, f'if {self.cond()}:')
            self.emit(depth + 1, self.return_statement())
        elif r < 0.33:
            self.state_statement(depth)
        elif r < 0.40:
            self.bound_on_some_paths(depth)
        elif self.scopes.statement(depth):
            pass
        else:
            self.assign(depth)
        self.outer_shapes(depth)
        self.order_shapes(depth)
        self.created_statement(depth)
        self.arrays_statement(depth)

    def return_statement(self):
        return self.rng.choice(['return a, b, k', 'return a + 1.0, b, k - 1',
                                'return b, a, k'])

    def if_statement(self, depth, nesting):
        test = self.cond() if self.rng.random() < 0.85 else self.ticking_operands()
        self.emit(depth, f'if {test}:')
        self.block(depth + 1, nesting - 1)
        for _ in range(self.rng.choice([0, 0, 1, 2])):
            self.emit(depth, f'elif {self.order_elif(self.elif_test())}:')
            self.block(depth + 1, nesting - 1)
        if self.rng.random() < 0.6:
            self.emit(depth, 'else:')
            self.block(depth + 1, nesting - 1)

    def elif_test(self):
        """An `elif` test; some tick the object `s` (a side effect Python has only where
        the tests before are false), alone or as an operand of `and`/`or`."""
        r = self.rng.random()
        if r < 0.7:
            return self.cond()
        if r < 0.85:
            return self.tick()
        return self.ticking_operands()

    def tick(self):
        return f'ticked(s, {self.rng.choice(FLOAT_VARS + ("x",))})'

    def ticking_operands(self):
        """`and`/`or` with a tick as either operand (Python runs the second only where the
        first does not decide)."""
        operands = [self.tick(), self.comparison()]
        self.rng.shuffle(operands)
        return f'({operands[0]} {self.rng.choice(["and", "or"])} {operands[1]})'

    def while_loop(self, depth, nesting):
        self.counter += 1
        i = f'i{self.counter}'
        bound = self.rng.choice(['3', 'n', '4'])
        extra = f' and {self.cond()}' if self.rng.random() < 0.3 else ''
        created = depth == 1 and not extra and self.rng.random() < 0.4
        self.emit(depth, f'{i} = n * 0' if created else f'{i} = 0')   # n * 0: staged
        header = len(self.lines)
        self.emit(depth, f'while {i} < {bound}{self.order_while(extra, created)}:')
        self.emit(depth + 1, f'{i} += 1')
        self.key_in_loop(depth + 1, i)
        created = self.created_in_loop(depth, header) if created else None
        self.loop_depth += 1
        self.block(depth + 1, nesting - 1)
        self.loop_depth -= 1
        if self.rng.random() < 0.2:
            self.emit(depth, 'else:')
            self.emit(depth + 1, 'a = a + 1.0')
        if created and bound == 'n':   # may run zero times: read where it ran
            self.emit(depth, 'if n > 0:')
            self.emit(depth + 1, f'a = a + {created} * 0.1')
        elif created:
            self.emit(depth, f'a = a + {created} * 0.1')

    def for_loop(self, depth, nesting):
        self.counter += 1
        target = f'j{self.counter}'
        iterable = self.rng.choice(['range(3)', 'range(n)', 'v', 'range(1, n, 2)'])
        self.scopes.before_loop(depth, target)
        header = len(self.lines)
        self.emit(depth, f'for {target} in {iterable}:')
        if iterable == 'v':
            self.emit(depth + 1, f'a = a + {target} * 0.1')
        else:
            self.emit(depth + 1, f'k = (k + {target}) % 19')
        self.scopes.in_loop(depth + 1, target)
        created = depth == 1 and iterable == 'v' and self.rng.random() < 0.4
        created = self.created_in_loop(depth, header) if created else None
        self.loop_depth += 1
        self.block(depth + 1, nesting - 1)
        self.loop_depth -= 1
        if self.rng.random() < 0.2:
            self.emit(depth, 'else:')
            self.emit(depth + 1, 'b = b - 0.5')
        if created:
            self.emit(depth, f'a = a + {created} * 0.1')
        self.scopes.after_loop(depth, target)

    def program(self, name):
        self.emit(0, f'def {name}({self.parameters()}{self.order_parameters()}):')
        self.emit(1, 'a = x')
        self.emit(1, 'b = jnp.sum(v) * 0.5')
        self.emit(1, 'k = 1')
        self.emit(1, f'flag = {self.rng.choice(["True", "False"])}')
        self.state_prologue()
        self.outer_prologue()
        if self.scopes.enabled:
            self.scopes.prelude()
        self.order_prologue()
        self.created_prologue()
        self.arrays_prologue()
        self.block(1, nesting=3, size=self.rng.randint(2, 4))
        self.state_epilogue()
        self.outer_epilogue()
        self.order_epilogue()
        self.created_epilogue()
        self.arrays_epilogue()
        self.emit(1, 'return a, b, k')
        return '\n'.join(self.lines) + '\n'


def make_program(seed, scopes=True, source=None):
    """(source, function) of the program for `seed` (or of `source`, a program's module
    changed by tests/fuzz_minimise.py)."""
    name = f'program_{seed}'
    if source is None:
        gen = ProgramGenerator(seed, scopes)
        program = gen.program(name)
        if gen.outer_closure:   # the outer containers as closure variables of a factory
            program = in_factory(name, program)
        source = ('import jax.numpy as jnp\n' + HELPERS + module_text(
            gen.outer_on, gen.outer_closure, gen.between_on)
                  + order_module_text(gen.ticks_on, gen.named_on)
                  + created_module_text(gen.created_on) + arrays_module_text(gen.arrays_on)
                  + '\n\n' + program)
    file = f'<autograph fuzz {seed}>'
    linecache.cache[file] = (len(source), None, source.splitlines(True), file)
    namespace = {'__name__': f'fuzz_{seed}'}
    exec(compile(source, file, 'exec'), namespace)
    return source, namespace[name]


def has_outer_state(seed):
    """Whether the program for `seed` has one of the shapes of tests/fuzz_state.py."""
    gen = ProgramGenerator(seed)
    return gen.outer_on or gen.between_on


def has_order_shapes(seed):
    """Whether the program for `seed` has one of the shapes of tests/fuzz_order.py."""
    gen = ProgramGenerator(seed)
    return gen.ticks_on or gen.nested_on or gen.named_on


def has_array_shapes(seed):
    """Whether the program for `seed` has the shape of tests/fuzz_arrays.py."""
    return ProgramGenerator(seed).arrays_on


def inputs_for(seed):
    rng = np.random.default_rng(seed)
    return (jnp.float32(rng.normal()), jnp.int32(rng.integers(0, 7)),
            jnp.asarray(rng.normal(size=4), dtype=jnp.float32))


MISMATCH, NAMED_ERROR, RAW_ERROR = 'mismatch', 'named error', 'raw error'


def run_one(seed, scopes=True, source=None):
    """None when plain and converted agree, else (MISMATCH, NAMED_ERROR or RAW_ERROR: a
    crash that is not one of autograph's own errors, a description)."""
    import autograph
    source, fn = make_program(seed, scopes, source)
    args = inputs_for(seed)
    x, n, v = args
    namespace = fn.__globals__
    shapes = Harness(seed, namespace, fn.__name__)   # (see tests/fuzz_state.py)
    order = OrderHarness(namespace)   # (see tests/fuzz_order.py)

    def reset():   # the state that outlives a call (see HELPERS)
        namespace['TOTAL'] = 0.0
        namespace['OBJ'] = namespace['Cell'](0.0, 0)
        namespace['LOG'].clear()
        order.reset()
        return shapes.reset()

    def state(fn):
        log = namespace['LOG']
        return (namespace['TOTAL'], namespace['OBJ'].f, len(log), float(sum(log))
                ) + shapes.state(fn) + order.state()

    def calls(fn, args):   # the second sees what the first left (a global, an object)
        results = []
        for i in range(shapes.calls):
            if i:   # (some programs: state changed between the calls)
                shapes.change(i - 1)
            results.append(fn(*order.arguments(shapes.arguments(args))))
        return results

    fn = reset()
    try:
        expected = calls(fn, (x, n, np.array(v)))   # items assigned as on NumPy
    except PYTHON_ERRORS as error:   # (fuzz_created.py, fuzz_arrays.py)
        expected = error
    else:
        expected.append(state(fn))
    fn = reset()
    try:   # (the same NumPy array: a JAX array's `w[:3]` is a copy, whose items a helper
        # writes where plain Python cannot write a JAX array's, see runtime.items.views)
        actual = calls(autograph.convert(fn), (x, n, np.array(v)))
    except (autograph.ControlFlowError, autograph.ConversionError):
        return NAMED_ERROR, (f'seed {seed}: a named error on a valid program\n{source}\n'
                             f'{traceback.format_exc()}')
    except PYTHON_ERRORS as error:
        if same_error(expected, error):
            return None
        return RAW_ERROR, f'seed {seed}: converted run raised\n{source}\n{traceback.format_exc()}'
    except Exception:
        return RAW_ERROR, f'seed {seed}: converted run raised\n{source}\n{traceback.format_exc()}'
    if isinstance(expected, PYTHON_ERRORS):
        return MISMATCH, f'seed {seed}: expected {expected!r}, got {actual}\n{source}'
    actual.append(state(fn))
    if not all(np.shape(e) == np.shape(a) and np.allclose(np.asarray(e), np.asarray(a),
                                                          rtol=1e-4, atol=1e-5)
               for e, a in zip(_leaves(expected), _leaves(actual))):
        return MISMATCH, f'seed {seed}: expected {expected}, got {actual}\n{source}'
    return None


def _leaves(results):
    return [leaf for result in results for leaf in result]


def _start_worker():
    import autograph   # noqa: F401 (imported before the collector's freeze)
    rare_collections()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--programs', type=int, default=2000)
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    parser.add_argument('--x64', action='store_true', help='run with jax_enable_x64')
    parser.add_argument('--no-scopes', dest='scopes', action='store_false',
                        help='leave out closures and global/nonlocal writes')
    parser.add_argument('--outer-state-only', action='store_true',
                        help='of the seeds, run only the programs with outer items or state '
                             'changed between calls (tests/fuzz_state.py)')
    parser.add_argument('--order-only', action='store_true',
                        help='of the seeds, run only the programs with ticks, nested helpers '
                             'or attributes by computed names (tests/fuzz_order.py)')
    parser.add_argument('--arrays-only', action='store_true',
                        help='of the seeds, run only the programs with index arrays, '
                             'selections, exits or made arrays (tests/fuzz_arrays.py)')
    options = parser.parse_args(argv)
    if options.x64:
        os.environ['JAX_ENABLE_X64'] = '1'   # read by the worker processes as they start
    fast_compiles()   # (likewise: see tests/fuzz_speed.py)
    counts = {MISMATCH: 0, NAMED_ERROR: 0, RAW_ERROR: 0}
    seeds = range(options.seed, options.seed + options.programs)
    if options.outer_state_only:
        seeds = [seed for seed in seeds if has_outer_state(seed)]
    if options.order_only:
        seeds = [seed for seed in seeds if has_order_shapes(seed)]
    if options.arrays_only:
        seeds = [seed for seed in seeds if has_array_shapes(seed)]
    options.programs = len(seeds)
    run = functools.partial(run_one, scopes=options.scopes)
    with multiprocessing.get_context('spawn').Pool(options.jobs, _start_worker) as pool:
        for i, problem in enumerate(pool.imap(run, seeds)):
            if problem:
                kind, text = problem
                counts[kind] += 1
                print(f'{kind.upper()}: {text}', flush=True)
            if (i + 1) % 100 == 0:
                print(f'{i + 1} programs, {counts[MISMATCH]} mismatches, '
                      f'{counts[NAMED_ERROR]} named errors, {counts[RAW_ERROR]} raw errors',
                      flush=True)
    passed = options.programs - sum(counts.values())
    print(f'fuzz: {options.programs} programs, {passed} passed, {counts[MISMATCH]} mismatches, '
          f'{counts[RAW_ERROR]} raw errors, {counts[NAMED_ERROR]} named errors on valid '
          f'programs')
    return 1 if counts[MISMATCH] or counts[RAW_ERROR] else 0


if __name__ == '__main__':
    sys.exit(main())
