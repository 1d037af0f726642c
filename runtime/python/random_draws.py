"""Python's and NumPy's random number generators drawn from in converted code:
`random.random()`, `np.random.normal()`, `rng.integers(n)` (of `np.random.default_rng`)
are called through `ag.call`, which checks each draw first (`check_draw`).

Python reference: each call draws new numbers from the generator's state. Converted code
computes them while it is traced, and only then: a staged branch or loop body is traced
once, whatever the path or the number of iterations (a loop of `n` traced iterations
would add the same number `n` times; both branches of a traced `if` would draw, moving
the state as Python does on one path only), and a compiled Function's program repeats
the numbers of its trace on every call, where Python draws new ones from the generators
of the `random` and `numpy.random` modules, whose state outlives the call. Those draws
are the named error random_drawn_when_traced; a generator made and seeded in the
function, drawn from in code that runs as Python, gives Python's numbers.
"""
import random

import numpy as np

from .. import context
from ..context import staged_depth
from ..errors import here
from ..messages import random_drawn_when_traced

GENERATORS = (random.Random, np.random.Generator, np.random.RandomState)
"""The generators whose draws are checked."""
_MODULES = (random._inst, np.random.mtrand._rand)   # (`random.random`, `np.random.normal`)
_NOT_DRAWS = frozenset({'seed', 'getstate', 'setstate', 'get_state', 'set_state', 'spawn'})


def check_draw(method):
    """The named error where `method`, a generator's bound method about to be called,
    draws numbers that converted code would fix (see the module docstring)."""
    owner = getattr(method, '__self__', None)
    if not isinstance(owner, GENERATORS) or getattr(method, '__name__', '') in _NOT_DRAWS:
        return
    if staged_depth() > 0 or (context.current().logs is not None and
                              any(owner is module for module in _MODULES)):
        raise random_drawn_when_traced(here(2))
