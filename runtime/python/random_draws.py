"""Python's and NumPy's random number generators drawn from in converted code:
`random.random()`, `np.random.normal()`, `rng.integers(n)` (of `np.random.default_rng`)
are called through `ag.call`, which checks each draw first (`check_draw`).

Python reference: each call draws new numbers from the generator's state. Converted code
computes them while it is traced, and only then: a staged branch or loop body is traced
once, whatever the path or the number of iterations (a loop of `n` traced iterations
would add the same number `n` times; both branches of a traced `if` would draw, moving
the state as Python does on one path only), and a compiled Function's program repeats
the numbers of its trace on every call, where Python draws new ones from a generator
whose state outlives the call (the `random` and `numpy.random` modules' own, one given
as an argument or held by an object or a global). Those draws are the named error
random_drawn_when_traced; a generator made (or seeded) by the call itself, drawn from
in code that runs as Python, or by the staged body that draws from it, gives Python's
numbers (`note_made` notes those).
"""
import random
import weakref

import numpy as np

from .. import context
from ..context import staged_depth
from ..errors import here
from ..messages import random_drawn_when_traced

GENERATORS = (random.Random, np.random.Generator, np.random.RandomState)
"""The generators whose draws are checked."""
_MADE = weakref.WeakKeyDictionary()
"""A compiled Function's trace (its runtime.state.logs.Logs) -> {id of a generator made
while it runs (alive while it runs: no other object has its id then): the depth of the
staged bodies being traced where it was made (runtime.context's `staged_depth`)}."""
_SEEDING = frozenset({'seed', 'setstate', 'set_state'})
_NOT_DRAWS = _SEEDING | {'getstate', 'get_state', 'spawn'}
_MODULE_SEEDING = (np.random.seed, np.random.set_state)


def check_draw(method):
    """The named error where `method`, a generator's bound method about to be called,
    draws numbers that converted code would fix (see the module docstring). A generator
    the call seeds (`np.random.seed(1)`) counts as made by it: its numbers are the same
    on every call, in Python too."""
    if any(method is seeding for seeding in _MODULE_SEEDING):   # (functions of NumPy's
        note_made(np.random.mtrand._rand)                       # module, not methods)
        return
    owner = getattr(method, '__self__', None)
    name = getattr(method, '__name__', '')
    if not isinstance(owner, GENERATORS) or name in _NOT_DRAWS:
        if name in _SEEDING and isinstance(owner, GENERATORS):
            note_made(owner)
        return
    now = context.current()
    made = _MADE.get(now.logs, {}) if now.logs is not None else {}
    if made.get(id(owner)) == staged_depth():
        return   # (made by this run of the innermost staged body, or by the call itself)
    if staged_depth() > 0 or now.logs is not None:
        raise random_drawn_when_traced(here(2))


def note_made(value):
    """Note `value`, what a library call gave, where it is a generator made while a
    compiled Function is traced (its draws repeat on every call as Python's do)."""
    now = context.current()
    if now.logs is not None and isinstance(value, GENERATORS):
        _MADE.setdefault(now.logs, {})[id(value)] = staged_depth()
