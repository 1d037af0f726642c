"""Which backend runs a statement: the one place that asks "framework? tracer? Python?".

Every operator asks here first, with the value that decides its statement: the condition
of an `if`/`while`/conditional expression/`and`/`or`/`not`, the iterable of a `for`,
and for a `for` over a Python range (which has no traced value of its own) the values
the loop carries and those its body sees. A framework lowering (runtime.backends.
framework) that claims such a value stages the statement with the framework's
primitives; otherwise a JAX tracer stages it with `lax` (runtime.staging) and a Python
value runs it as Python.

Lowerings are asked in order: the active embedding's (innermost first), then the ones
registered for the whole process, in registration order.
"""
import collections.abc
import contextlib
import types

import jax

from .. import context
from ..staging.trace import TRACED
from ..values.split import is_traced
from . import framework


class _Backend:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


JAX = _Backend('JAX')
"""The default backend for JAX tracers: `lax` (runtime.staging)."""

PYTHON = _Backend('PYTHON')
"""A concrete value: the statement runs as Python."""


active = context.innermost_embedding
"""The embedding whose converted code is running, or None."""


@contextlib.contextmanager
def suspended():
    """No embedding is active inside (for work whose result all embeddings share)."""
    embeddings = context.current().embeddings
    embeddings.append(None)
    try:
        yield
    finally:
        embeddings.pop()


def _lowerings():
    embedding = active()
    if embedding is None:
        return framework._registered
    return embedding.lowerings + framework._registered


def backend_for(value):
    """Who runs the statement that `value` (a condition) decides: the framework
    `Lowering` that claims it, else JAX for a JAX tracer (or the marker of a traced
    `while` test, see staging.trace.probe), else PYTHON."""
    lowering = lowering_for(value)
    if lowering is not None:
        return lowering
    if is_traced(value) or value is TRACED:
        return JAX
    return PYTHON


def lowering_for(value):
    """The lowering that claims `value` (a condition); None for the default (Python or
    `lax`)."""
    for lowering in _lowerings():
        if lowering.claims(value):
            return lowering
    return None


def loop_lowering_for(iterable):
    """Like `lowering_for`, for the iterable of a `for` loop."""
    for lowering in _lowerings():
        if lowering.claims_loop(iterable):
            return lowering
    return None


def range_lowering_for(values, body):
    """The lowering that claims a value a loop over a Python range carries (`values`) or
    its `body` sees (through its closure), or None: such a loop is the framework's to
    stage or unroll, never `lax`'s behind its back."""
    lowerings = _lowerings()
    if not lowerings:
        return None
    for lowering in lowerings:
        def claimed(value):
            return any(lowering.claims(leaf) for leaf in jax.tree_util.tree_leaves(value))
        if claimed(values) or sees(body, claimed):
            return lowering
    return None


def unroll_option():
    """The active embedding's `unroll_loops` option (None: none, or no embedding)."""
    embedding = active()
    return None if embedding is None else embedding.unroll_loops


def sees(fn, test, depth=3):
    """Whether `fn` closes over a value `test` accepts (directly, or through the
    functions and plain objects it closes over, up to `depth` levels)."""
    fn = getattr(fn, '__wrapped__', fn)   # a body wrapped by runtime.checks.raises.on_path
    for cell in fn.__closure__ or ():
        try:
            value = cell.cell_contents
        except ValueError:   # an empty cell: a variable not assigned yet
            continue
        if isinstance(value, types.FunctionType):
            if depth > 0 and sees(value, test, depth - 1):
                return True
        elif isinstance(value, collections.abc.Iterator):
            continue   # a generator or iterator: not looked into (that would consume it)
        elif test(value) or test(_attributes(value)):
            return True
    return False


def _attributes(value):
    if isinstance(value, (types.ModuleType, type)) or not hasattr(value, '__dict__'):
        return []
    return list(vars(value).values())
