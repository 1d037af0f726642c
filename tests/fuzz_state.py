"""Two shapes of the differential fuzzer (tests/fuzzer.py) on state outside the function,
each drawn from a random stream of its own (the programs without them stay as they were).

Outer items: items of a module global or of a closure variable written with no `global`
statement (Python's `__setitem__` changes the object the name holds): `OA[i] = v`,
`OA[k % 4] += v` on a NumPy array, `OL[i] = v` and `OL.append(v)` on a list of floats,
`OD['s'] = v` on a dict, in straight code, under traced `if`s and in staged loops,
directly and from helpers (one returns early, one calls the other). The containers are
module globals, or (in some programs) closure variables of a factory that defines the
program and its helpers. Their contents after each call are compared with Python's.

Between calls: a program reads a global tuple (`SIZES`, also as a loop bound), list
(`COEF`, iterated) and dict (`CFG`, a Python flag and a number) of Python numbers, a
global function (`STEP`), a global scalar (`SCALE`) and attributes of an object argument
(`opts`, one of which it also writes); it is called three times, and between the calls
the harness rebinds or changes them in place, the same changes plain and converted."""
import random

import numpy as np

FLOAT_VARS = ('a', 'b')

OUTER_INIT = {'OA': 'np.zeros(4)', 'OL': '[0.0, 0.0, 0.0]', 'OD': "{'s': 0.0}",
              'OLOG': '[]'}

OUTER_HELPERS = '''
def put_outer(i, val):
    OA[i % 4] = val
    OD['s'] = OD['s'] + val * 0.5


def bump_outer(i, val):
    OL[i % 3] += val
    if val > 0:
        return 1.0
    put_outer(i + 1, val)
    return 0.0
'''

BETWEEN_INIT = {'SIZES': (2, 1), 'COEF': (0.5, 1.0), 'CFG': (True, 1.5), 'SCALE': 1.0}

BETWEEN_HELPERS = '''
SIZES = (2, 1)
COEF = [0.5, 1.0]
CFG = {'on': True, 'scale': 1.5}
SCALE = 1.0


def damp(p):
    return p * 0.5 + 0.1


def wave(p):   # (|slope| < 1: iterated, float32 rounding does not grow; at 1.5 the
    # compiled and the plain run, whose roundings differ, drifted apart: seed 1)
    return jnp.sin(p) * 0.75


def clipped(p):
    if p < 1.0:
        return p
    return p - 1.0


STEP = damp


class Opts:
    def __init__(self, gain, mode):
        self.gain = gain
        self.mode = mode
        self.total = 0.0
'''


def module_text(outer, closure, between):
    """What the module holds before the program: the outer containers and their helpers
    (unless they live in the program's factory), the state changed between calls."""
    text = 'import numpy as np\n' if outer else ''
    if outer and not closure:
        text += ''.join(f'{k} = {v}\n' for k, v in OUTER_INIT.items()) + OUTER_HELPERS
    return text + (BETWEEN_HELPERS if between else '')


def in_factory(name, program):
    """`program` (the source of function `name`) defined in a factory, with the outer
    containers and helpers as its closure variables."""
    body = [f'{k} = {v}' for k, v in OUTER_INIT.items()] + OUTER_HELPERS.splitlines()
    body += [''] + program.splitlines() + [f'return {name}']
    lines = [f'def make_{name}():'] + ['    ' + line if line else '' for line in body]
    return '\n'.join(lines) + f'\n\n\n{name} = make_{name}()\n'


class OuterShapes:
    """Statements of the two shapes, added after the generator's own statements."""

    def init_outer_shapes(self, seed):
        self.outer = random.Random(seed * 7919 + 6)
        self.outer_on = self.outer.random() < 0.25
        self.outer_closure = self.outer_on and self.outer.random() < 0.4
        self.between = random.Random(seed * 7919 + 7)
        self.between_on = self.between.random() < 0.25
        self.between_count = 0

    def outer_shapes(self, depth):
        if self.outer_on and self.outer.random() < 0.3:
            self.emit(depth, self.outer_statement(depth))
        if self.between_on and self.between.random() < 0.25:
            for offset, line in self.between_statement():
                self.emit(depth + offset, line)

    def outer_statement(self, depth):
        r = self.outer
        a, i = r.choice(FLOAT_VARS), r.randrange(4)
        options = [f'OA[{i}] = {a} * 0.5', f'OA[k % 4] += {a} * 0.1',
                   f'OL[{i % 3}] = {a} + 0.25', f'OL[k % 3] += {a} * 0.1',
                   f"OD['s'] = OD['s'] * 0.5 + {a}", f"OD['t'] = {a} * 0.5",
                   f'put_outer(k, {a} * 0.1)', f'o{r.randrange(99)} = bump_outer(k, {a} - 0.5)',
                   f'a = a + OA[{i}] * 0.1 + OL[{i % 3}] * 0.1',
                   "b = b + OD.get('t', 0.25) * 0.1"]
        if not self.loop_depth:   # (a staged loop cannot append a run-time number of items)
            options.append(f'OLOG.append({a} * 1.0)')
        # (a list that is also read grows in straight code only: not where an earlier
        # `return` under a traced test makes the rest of the function a staged branch)
        if depth == 1 and not any('return ' in line for line in self.lines) and (
                r.random() < 0.4):
            return f'OL.append({a} * 1.0)'
        return r.choice(options)

    def between_statement(self):
        """(indent offset, line) pairs reading the state changed between calls."""
        r = self.between
        self.between_count += 1
        c = self.between_count
        return r.choice([
            [(0, 'a = a + SIZES[0] * 0.1 - SIZES[1] * 0.05')],
            [(0, f'for q{c} in range(SIZES[0]):'), (1, f'a = a * 0.9 + q{c} * 0.01')],
            [(0, f'for c{c} in COEF:'), (1, f'b = b * 0.5 + c{c}')],
            [(0, "if CFG['on']:"), (1, "b = b + CFG['scale'] * a * 0.1")],
            [(0, 'a = STEP(a)')], [(0, 'b = b * SCALE')],
            [(0, 'a = a + opts.gain * 0.1')], [(0, 'k = k + opts.mode')],
            [(0, 'if opts.mode > 1:'), (1, 'a = a - opts.gain * 0.1')],
            [(0, 'opts.total = opts.total + a * 0.1')],
        ])

    def outer_prologue(self):
        if self.outer_on and self.outer.random() < 0.3:   # (a list read later grows)
            self.emit(1, f'OL.append({self.outer.choice(FLOAT_VARS)} * 0.5)')

    def outer_epilogue(self):
        if self.outer_on:
            self.emit(1, "a = a + jnp.sum(OA) * 0.01 + OL[0] * 0.1 + OD['s'] * 0.01")
        if self.between_on:
            self.emit(1, 'a = a + opts.total * 0.01')

    def parameters(self):
        return 'x, n, v, opts' if self.between_on else 'x, n, v'


CHANGES = [('sizes', (0, 2)), ('sizes', (3, 0)), ('sizes', (1, 4)), ('coef_add', 0.5),
           ('coef_append', -0.25), ('coef_pop', None), ('cfg_flip', None),
           ('cfg_scale', 0.5), ('step', 'wave'), ('step', 'clipped'), ('step', 'damp'),
           ('scale', 0.5), ('scale', 1), ('gain', 2.0), ('gain', -1), ('mode', 2),
           ('mode', 0)]


class Harness:
    """The state of one program's new shapes: reset before the plain and the converted
    runs, changed between calls, and read after them."""

    def __init__(self, seed, namespace, name):
        self.namespace, self.name = namespace, name
        self.between = 'Opts' in namespace
        self.calls = 3 if self.between else 2
        r = random.Random(seed * 7919 + 8)
        self.changes = [r.sample(CHANGES, r.randint(1, 3)) if self.between else []
                        for _ in range(self.calls - 1)]

    def reset(self):
        """A fresh program function (a new closure where it has one) and fresh state."""
        ns = self.namespace
        if f'make_{self.name}' in ns:
            fn = ns[f'make_{self.name}']()
        else:
            fn = ns[self.name]
            if 'OA' in ns:
                ns.update({k: eval(v, {'np': np}) for k, v in OUTER_INIT.items()})
        if self.between:
            sizes, coef, (on, scale), factor = BETWEEN_INIT.values()
            ns.update(SIZES=sizes, COEF=list(coef), CFG={'on': on, 'scale': scale},
                      SCALE=factor, STEP=ns['damp'])
            self.opts = ns['Opts'](0.5, 1)
        return fn

    def arguments(self, args):
        return args + (self.opts,) if self.between else args

    def change(self, call):
        """Applies the changes drawn for the gap after call number `call`."""
        ns, opts = self.namespace, getattr(self, 'opts', None)
        for kind, value in self.changes[call]:
            if kind == 'sizes':
                ns['SIZES'] = value
            elif kind == 'coef_add':
                ns['COEF'][0] += value
            elif kind == 'coef_append':
                ns['COEF'].append(value)
            elif kind == 'coef_pop' and len(ns['COEF']) > 1:
                ns['COEF'].pop()
            elif kind == 'cfg_flip':
                ns['CFG']['on'] = not ns['CFG']['on']
            elif kind == 'cfg_scale':
                ns['CFG']['scale'] = value
            elif kind == 'step':
                ns['STEP'] = ns[value]
            elif kind == 'scale':
                ns['SCALE'] = value
            elif kind in ('gain', 'mode'):
                setattr(opts, kind, value)

    def state(self, fn):
        """The outer containers' contents (closure cells, else globals) and `opts.total`,
        as arrays whose shapes are compared too."""
        cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
        values = {k: cells[k].cell_contents if k in cells else self.namespace.get(k)
                  for k in OUTER_INIT}   # (a closure has only the containers it reads)
        values['OLOG'] = [] if values['OLOG'] is None else values['OLOG']
        out = []
        if values['OA'] is not None:   # (the epilogue reads OA, OL and OD)
            od = values['OD']
            out += [np.asarray(values['OA'], dtype=np.float64),
                    np.asarray(values['OL'], dtype=np.float64),
                    np.asarray([od['s'], 't' in od, od.get('t', -99.0)], dtype=np.float64),
                    np.asarray(values['OLOG'], dtype=np.float64)]
        if self.between:
            out.append(np.asarray(self.opts.total, dtype=np.float64))
        return tuple(out)
