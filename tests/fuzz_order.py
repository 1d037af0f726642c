"""Three shapes of the differential fuzzer (tests/fuzzer.py) on Python's evaluation order
and on state reached by name (issue 32), each drawn from a random stream of its own (the
programs without them stay as they were).

Ticks: a counter object given as an argument (`ctr.tick(d)` adds one to `ctr.n` and
returns a number that depends on it) ticked where Python may or may not evaluate it: a
branch of a conditional expression (`a if t else ctr.tick(b)`), the second operand of
`and`/`or` inside a larger expression (`helper(a, t and ctr.tick())`, `k + (t or
ctr.tick() > 2.0)`), an `elif` test, a `while` test (alone, or before or after a bound on
the iterations), and the item or the filter of a reduced comprehension
(`sum(ctr.tick(e) for e in v if e > a)`). `ctr.n` is read at the end of each call and
compared after the calls.

Nested helpers: functions defined in the program's body that write items of the array
they are given (the caller's `w`) and return early from under an `if` or from a loop, or
return nothing after a bare `return`, and one that reaches another through the sibling's
name (defined before or after it).

Attributes by computed names: `getattr(p, NAMES[i])`, `setattr(p, nm, value)` with `nm`
a Python str from the tuple `NAMES`, on an object argument `p`, in straight code, under
traced `if`s and in staged loops; one attribute is created by a computed name. `p`'s
attributes are compared after the calls.
"""
import random

import numpy as np

FLOAT_VARS = ('a', 'b')

COUNTER_TEXT = '''

class Counter:
    def __init__(self):
        self.n = 0

    def tick(self, d=1.0):
        self.n += 1
        return d * 0.5 + self.n % 4
'''

PARAMS_TEXT = '''

class Params:
    def __init__(self, u, z):
        self.u = u
        self.z = z


NAMES = ('u', 'z')
'''


def order_module_text(ticks, named):
    return (COUNTER_TEXT if ticks else '') + (PARAMS_TEXT if named else '')


class OrderShapes:
    """Statements of the three shapes; hooks the generator calls where they may go."""

    def init_order_shapes(self, seed):
        self.order = random.Random(seed * 7919 + 9)
        self.ticks_on = self.order.random() < 0.3
        self.nested = random.Random(seed * 7919 + 10)
        self.nested_on = self.nested.random() < 0.25
        self.nested_names = []
        self.named = random.Random(seed * 7919 + 11)
        self.named_on = self.named.random() < 0.25
        self.order_count = 0

    def drawn(self, stream, make):
        """`make()` (one of the generator's expressions) drawn from `stream`."""
        saved, self.rng = self.rng, stream
        try:
            return make()
        finally:
            self.rng = saved

    def order_parameters(self):
        return (', ctr' if self.ticks_on else '') + (', p' if self.named_on else '')

    def order_shapes(self, depth):
        if self.ticks_on and self.order.random() < 0.25:
            for offset, line in self.tick_statement():
                self.emit(depth + offset, line)
        if self.nested_on and self.nested.random() < 0.3:
            self.emit(depth, self.nested_call())
        if self.named_on and self.named.random() < 0.3:
            for offset, line in self.named_statement():
                self.emit(depth + offset, line)

    # ticks ------------------------------------------------------------------------------
    def tick_statement(self):
        """(indent offset, line) pairs ticking `ctr` where Python may not evaluate it."""
        r = self.order
        cond = self.drawn(r, self.cond)
        a, b = r.choice(FLOAT_VARS), r.choice(FLOAT_VARS + ('x',))
        self.order_count += 1
        e = f'e{self.order_count}'
        return r.choice([
            [(0, f'{a} = ({a} if {cond} else ctr.tick({b}))')],
            [(0, f'{a} = {a} + (ctr.tick() * 0.5 if {cond} else 0.25)')],
            [(0, f'{a} = helper({b}, {cond} and ctr.tick() > 1.5)')],
            [(0, f'{a} = helper({b}, {cond} and ctr.tick())')],
            [(0, f'k = k + ({cond} or ctr.tick() > 2.0) + 1')],
            [(0, f'{a} = {a} * 0.5 + ({cond} or ctr.tick({b}) > 1.0) * 0.25')],
            [(0, f'{a} = {a} + sum(ctr.tick(el) for el in v if el > {b}) * 0.1')],
            [(0, f'{a} = {a} + sum([ctr.tick() * el for el in v if el < {b}]) * 0.1')],
            [(0, f'{a} = {a} + max((ctr.tick(el) for el in v if el > {b}), default=0.0) * 0.1')],
            [(0, f'{a} = {a} + sum(el for el in v if el > 0.0 and ctr.tick() > 2.0) * 0.1')],
            [(0, 'while ctr.tick() < 3.0:'), (1, f'{a} = {a} * 0.9 + 0.1')],
            [(0, 'while 1.0 < ctr.tick():'), (1, 'k = (k + 1) % 19')],
            [(0, f'{e} = 0'), (0, f'while {e} < 3 and {a} < ctr.tick({b}):'), (1, f'{e} += 1'),
             (1, f'{a} = {a} + 0.5')],
        ])

    def order_elif(self, test):
        """An `elif` test that ticks `ctr` (Python runs it only where the tests before are
        false), or `test` as drawn."""
        r = self.order
        if not self.ticks_on or r.random() < 0.7:
            return test
        cond = self.drawn(r, self.comparison)
        a = r.choice(FLOAT_VARS)
        return r.choice(['ctr.tick() > 2.0', f'({cond} and ctr.tick({a}) > 1.5)',
                         f'(ctr.tick() > 1.0 or {cond})', f'{a} < ctr.tick()'])

    def order_while(self, extra, created):
        """A `while` loop's added test (after its bound on the iterations): one that ticks
        `ctr`, or `extra` as drawn. (A loop that creates a variable read after it where
        it ran keeps its test.)"""
        r = self.order
        if not self.ticks_on or created or r.random() < 0.75:
            return extra
        return r.choice([f' and {r.choice(FLOAT_VARS)} < ctr.tick()',
                         ' and ctr.tick() < 3.0', ' and (x > 0.0 or ctr.tick() > 2.0)'])

    # nested helpers ---------------------------------------------------------------------
    def nested_prologue(self):
        """Helpers defined in the program's body, writing items of the array given."""
        if not self.nested_on:
            return
        r = self.nested
        i, j = r.randrange(4), r.randrange(4)
        early = r.choice([
            [f'if b[{j}] > f:', '    return f * 0.5'], ['if f > 0.0:', '    return 1.0'],
            ['for m in range(4):', '    if b[m] < f:', '        b[m] = f',
             '        return m * 1.0']])
        writer = ['def hw(b, f):', f'    b[{i}] = b[{i}] * 0.5 + f'] + [
            '    ' + line for line in early] + [f'    b[{j}] = b[{j}] - f', '    return f']
        quiet = ['def hq(b, f):', f'    b[{j}] += f + x * 0.1', '    if f > 0.0:',
                 '        return', f'    b[{i}] = f * 0.5']
        via = ['def hv(b, f):', '    r = hw(b, f * 0.5)', f'    b[{(i + 1) % 4}] += r * 0.1',
               '    return r']
        defs = [writer, quiet, via]
        r.shuffle(defs)   # (`hv` before or after the `hw` it calls)
        for lines in defs:
            for line in lines:
                self.emit(1, line)

    def nested_call(self):
        r = self.nested
        a, b = r.choice(FLOAT_VARS), r.choice(FLOAT_VARS + ('x',))
        return r.choice([f'{a} = {a} + hw(w, {b} * 0.1) * 0.1', f'hq(w, {b} * 0.1)',
                         f'{a} = {a} + hv(w, {b}) * 0.1', f'hw(w, {b} - 0.5)'])

    # attributes by computed names --------------------------------------------------------
    def named_prologue(self):
        if self.named_on and self.named.random() < 0.4:   # (created by a computed name)
            self.emit(1, "setattr(p, NAMES[0] + '2', a * 0.5)")
            self.emit(1, "b = b + getattr(p, 'u' + '2') * 0.1")

    def named_statement(self):
        r = self.named
        a = r.choice(FLOAT_VARS)
        i, j = r.randrange(2), r.randrange(2)
        self.order_count += 1
        nm = f'nm{self.order_count}'
        return r.choice([
            [(0, f'for {nm} in NAMES:'),
             (1, f'setattr(p, {nm}, getattr(p, {nm}) * 0.5 + {a} * 0.1)')],
            [(0, f'{a} = {a} + getattr(p, NAMES[{i}]) * 0.1')],
            [(0, f'setattr(p, NAMES[{i}], getattr(p, NAMES[{j}]) * 0.5 + {a} * 0.1)')],
            [(0, f'{nm} = NAMES[{i}]'), (0, f'setattr(p, {nm}, {a} * 0.25 + p.z * 0.5)')],
            [(0, f"setattr(p, '{'uz'[i]}', {a} * 0.1)")],
        ])

    def order_prologue(self):
        self.nested_prologue()
        self.named_prologue()

    def order_epilogue(self):
        if self.ticks_on:
            self.emit(1, 'k = k + ctr.n')
        if self.named_on:
            self.emit(1, 'a = a + getattr(p, NAMES[0]) * 0.01 + p.z * 0.01')


class OrderHarness:
    """The counter and the object of one program: fresh before the plain and the
    converted runs, given as the last arguments, read after the calls."""

    def __init__(self, namespace):
        self.namespace = namespace
        self.ticks, self.named = 'Counter' in namespace, 'Params' in namespace

    def reset(self):
        if self.ticks:
            self.ctr = self.namespace['Counter']()
        if self.named:
            self.p = self.namespace['Params'](0.5, -0.25)

    def arguments(self, args):
        return (args + ((self.ctr,) if self.ticks else ())
                + ((self.p,) if self.named else ()))

    def state(self):
        """`ctr.n` and `p`'s attributes (their names too), as arrays."""
        out = []
        if self.ticks:
            out.append(np.asarray(self.ctr.n, dtype=np.float64))
        if self.named:
            names = sorted(vars(self.p))
            out.append(np.asarray([sum(map(ord, n)) for n in names], dtype=np.float64))
            out += [np.asarray(getattr(self.p, n), dtype=np.float64) for n in names]
        return tuple(out)
