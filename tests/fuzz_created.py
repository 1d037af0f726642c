"""A shape of the differential fuzzer (tests/fuzzer.py): attributes that helpers create on
some paths only (issue 32), drawn from a random stream of its own (the programs without
it stay as they were).

The program makes a `Slot` whose `__init__` may set `slot.got`, then calls, at any
depth (in staged branches and loops too), helpers that create `slot.got` where a test on
traced values holds: a function (`fill_some`), one that returns early before creating it
(`fill_early`), one that reaches another (`fill_through`), one that creates it in a loop
that may run zero times (`fill_loop`), and a method (`slot.set_if`). It reads
`slot.got` guarded (`hasattr`, `getattr` with a default) and, in some programs,
unguarded: Python then raises AttributeError on the paths that left it unset, and so
must the converted program (the harness compares the exception's type).
"""
import random

CREATED_TEXT = '''

class Slot:
    def __init__(self, t=-1.0, val=0.0):
        if t > 1.0:
            self.got = val

    def set_if(self, t, val):
        if t > 0.5:
            self.got = val + 1.0


def fill_some(slot, t, val):
    if t > 0.0:
        slot.got = val


def fill_early(slot, t, val):
    if t < 0.0:
        return 0.0
    slot.got = val * 2.0
    return 1.0


def fill_through(slot, t, val):
    fill_some(slot, t * 2.0, val)


def fill_loop(slot, n, val):
    j = 0
    while j < n:
        slot.got = val + j
        j += 1
'''

_FLOATS = ('a', 'b')


def created_module_text(on):
    return CREATED_TEXT if on else ''


class CreatedShapes:
    """Statements of the shape; hooks the generator calls where they may go."""

    def init_created_shapes(self, seed):
        self.created = random.Random(seed * 7919 + 12)
        self.created_on = self.created.random() < 0.25
        self.unguarded = self.created_on and self.created.random() < 0.4

    def created_prologue(self):
        if not self.created_on:
            return
        r = self.created
        self.emit(1, f'slot = Slot({r.choice(["x", "a", "-2.0", "x + 1.0"])}, '
                     f'{r.choice(["a", "b", "x * 0.5"])})')

    def created_statement(self, depth):
        """A statement creating `slot.got` on some paths, or reading it."""
        if not self.created_on or self.created.random() < 0.6:
            return
        r = self.created
        a, b = r.choice(_FLOATS), r.choice(_FLOATS + ('x',))
        line = r.choice([
            f'fill_some(slot, {b} - 0.25, {a})',
            f'slot.set_if({b}, {a} * 0.5)',
            f'{a} = {a} + fill_early(slot, {b}, x) * 0.1',
            f'fill_through(slot, {b} - 0.5, {a})',
            f'fill_loop(slot, n - {r.randrange(4)}, {a})',
            f'{a} = {a} + getattr(slot, "got", 0.5) * 0.1',
            f'{a} = {a} + hasattr(slot, "got") * 0.25',
            f'{a} = {a} + slot.got * 0.1' if self.unguarded else f'{a} = {a} * 0.5',
        ])
        self.emit(depth, line)

    def created_epilogue(self):
        if not self.created_on:
            return
        self.emit(1, 'if hasattr(slot, "got"):')
        self.emit(2, 'b = b + slot.got * 0.01')
        if self.unguarded:
            self.emit(1, 'a = a + slot.got * 0.001')
