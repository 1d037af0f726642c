"""Run-time checks as error values, carried by the compiled program.

Python reference: `if cond: raise make(*args)`, for a `cond` known only when the program
runs (`assert`, `raise` under a traced condition, a list index out of range).

As `jax.experimental.checkify` does, a check is computed inside the program: the program
carries one *error state*, `Errors`: a code (0 while no check failed, else the number of
the first check that failed, in the order the program ran them) and, per check, the
run-time values its exception is made from (the user's variables its message reads).
A check that fails when the code is already set changes nothing: Python would have
stopped at the first one. The staging code threads the state through staged branches
(`lax.cond` outputs: under `jax.vmap`, the select of the two branches selects it too, so
it stays per element) and loops (the loop carry; a `while` loop stops once it is set).

Where the state starts, and where it ends:

- a converted Function (`autograph.convert`) starts it when its trace begins and returns
  it with the results of its compiled program; after the call, the Function raises the
  user's exception from it (`raise_failed`). No callback is compiled in;
- where no such boundary exists (converted code traced under someone else's `jax.jit`,
  `jax.vmap`, or `autograph.transform`), the state a check cannot reach is reported by
  `report`: a `jax.debug.callback` that runs only on the failing path, after any
  `jax.vmap` has reduced the state to its first failing element (a custom batching rule),
  so no callback runs per element or per step.

Each check site is numbered in the `Table` of the trace that met it (checks with the same
site, static values and types share their number, so a loop body traced again meets the
same numbers); the table lives as long as the trace's results (it is their static data).
"""
import dataclasses
import itertools
import types

import jax
import jax.numpy as jnp
import numpy as np
from jax._src import core as _core

from .. import context
from ..values.split import is_traced
from ..values.varying import NONE, typed, vary, varying
from ..values.text import rendered

MARKER = 'autograph check failed'
"""Starts the text of a failed run-time check inside JAX's error (see `user_exception`)."""

_failed = {}                      # token -> the user's exception, until it is re-raised
_tokens = itertools.count()
_KEEP = 64                        # failures kept for re-raising (older ones are dropped)


def _current_trace():
    return _core.trace_ctx.trace


# --- check sites ------------------------------------------------------------------------

@dataclasses.dataclass(eq=False)
class Check:
    """One check site: how to make its exception from the run-time values."""
    make: object               # (*args) -> the exception (a closure, see `_closure`)
    statics: list              # the leaves of (args, closure values), None where traced
    tree: object               # their structure
    traced: tuple              # which leaves are traced
    location: object           # the user's line

    @classmethod
    def of(cls, make, args, location):
        """(the Check, its traced values)."""
        leaves, tree = jax.tree_util.tree_flatten((tuple(args), _closure(make)))
        traced = tuple(i for i, v in enumerate(leaves) if is_traced(v))
        statics = [None if i in traced else v for i, v in enumerate(leaves)]
        return cls(make, statics, tree, traced, location), [leaves[i] for i in traced]

    def exception(self, values):
        """The user's exception, made from the run-time `values` of its traced leaves."""
        leaves = list(self.statics)
        for i, v in zip(self.traced, values):
            leaves[i] = v if isinstance(v, jax.Array) else np.asarray(v)
        args, closure = rendered(jax.tree_util.tree_unflatten(self.tree, leaves))
        return instance(_rebound(self.make, closure)(*args))

    def same_site(self, other):
        return (self.location == other.location
                and self.make.__code__ is other.make.__code__
                and self.tree == other.tree and self.traced == other.traced
                and all(_same(a, b) for a, b in zip(self.statics, other.statics)))


def _same(a, b, depth=3):
    """Whether two static values of check sites are the same (functions made again by
    a trace made again: the same code, reading the same values)."""
    if a is b:
        return True
    if isinstance(a, types.FunctionType) and isinstance(b, types.FunctionType):
        cells_a, cells_b = _closure(a), _closure(b)
        return (depth > 0 and a.__code__ is b.__code__ and len(cells_a) == len(cells_b)
                and a.__defaults__ == b.__defaults__
                and all(_same(x, y, depth - 1) for x, y in zip(cells_a, cells_b)))
    if isinstance(a, _Empty) and isinstance(b, _Empty):
        return True
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False


class Table:
    """The check sites one trace met, numbered from 1."""

    def __init__(self):
        self.checks = {}
        self._by_site = {}

    def number(self, check, avals):
        key = (check.location, check.make.__code__, avals)
        for number in self._by_site.get(key, ()):
            if self.checks[number].same_site(check):
                return number
        number = len(self.checks) + 1
        self.checks[number] = check
        self._by_site.setdefault(key, []).append(number)
        return number


# --- the error state ---------------------------------------------------------------------

def _type(value):
    t = jax.typeof(value)
    return (t.shape, t.dtype, t.weak_type)


@dataclasses.dataclass(frozen=True)
class Layout:
    """What an error state holds: a code (once a check was met) and, per check number,
    the types of its values; inside `jax.shard_map`, the manual axes all its leaves vary
    over (those any of them varies over: runtime.values.varying). Layouts only grow:
    `union`."""
    coded: bool = False
    slots: tuple = ()          # ((number, (type, ...)), ...) by number
    axes: frozenset = NONE

    @property
    def count(self):
        return int(self.coded) + sum(len(kinds) for _, kinds in self.slots)

    def avals(self):
        out = [typed((), jnp.int32, axes=self.axes)] if self.coded else []
        for _, kinds in self.slots:
            out += [typed(s, d, w, self.axes) for s, d, w in kinds]
        return out

    def union(self, other):
        if other is None or other == self:
            return self
        slots = dict(self.slots)
        slots.update(other.slots)
        return Layout(self.coded or other.coded, tuple(sorted(slots.items())),
                      self.axes | other.axes)


class Errors:
    """The error state of the program being traced (see the module docstring)."""

    def __init__(self, table, layout=Layout(), leaves=()):
        self.table = table
        self.trace = _current_trace()
        self.code, self.slots = None, {}
        leaves = list(leaves)
        if layout.coded:
            self.code = leaves.pop(0)
        for number, kinds in layout.slots:
            self.slots[number] = [leaves.pop(0) for _ in kinds]

    @property
    def layout(self):
        values = [v for values in self.slots.values() for v in values]
        axes = NONE
        for v in values + ([] if self.code is None else [self.code]):
            axes = axes | varying(v)
        return Layout(self.code is not None, tuple(
            (n, tuple(_type(v) for v in values)) for n, values in sorted(self.slots.items())),
            axes)

    def leaves(self, layout=None):
        """The leaves, with zeros for what `layout` holds and this state does not."""
        layout = self.layout if layout is None else layout
        out = []
        if layout.coded:
            out.append(jnp.int32(0) if self.code is None else self.code)
        for number, kinds in layout.slots:
            mine = self.slots.get(number)
            out += mine if mine is not None else [
                jnp.zeros(s, d) if not w else _weak_zeros(s, d) for s, d, w in kinds]
        return [vary(leaf, layout.axes) for leaf in out]

    def record(self, flag, make, args, location):
        """The check `if flag: raise make(*args)` (flag None: always), on this path."""
        check, values = Check.of(make, args, location)
        number = self.table.number(check, tuple(_type(v) for v in values))
        code = jnp.int32(0) if self.code is None else self.code
        first = code == 0
        if flag is not None:
            first = jnp.logical_and(first, flag)
        self.code = jnp.where(first, jnp.int32(number), code)
        old = self.slots.get(number)
        if old is None:
            old = [jnp.zeros_like(v) for v in values]
        self.slots[number] = [jnp.where(first, v, o) for v, o in zip(values, old)]

    def failed(self):
        """A traced bool: a check failed (False when none was met)."""
        return False if self.code is None else self.code != 0


def _weak_zeros(shape, dtype):
    from ..values.types import zeros
    return zeros(jax.ShapeDtypeStruct(shape, dtype, weak_type=True))


def current():
    """The error state that checks on this path update, or None where checks report
    themselves (`report`): none was started, or the code runs under a JAX
    transformation that converted code entered (`jax.vmap(f)` in converted code)."""
    errors = context.current().errors
    if errors is None or errors.trace is not _current_trace():
        return None
    return errors


def replace(errors):
    """Set the error state of this path (after a staged statement)."""
    context.current().errors = errors


def snapshot():
    """The error state of this path as it is now, for `restore`: a run that is taken
    back (a statement staged again, see runtime.state.watches.Journal) must leave no
    check behind, as the checks it met belong to code the program will not run."""
    errors = context.current().errors
    return errors, (None if errors is None else (errors.code, dict(errors.slots)))


def restore(saved):
    """Put back the error state `snapshot` gave."""
    errors, parts = saved
    context.current().errors = errors
    if errors is not None:
        errors.code, errors.slots = parts[0], dict(parts[1])


class threaded:
    """Inside, checks update an error state of this trace made from `leaves` (laid out as
    `layout`) for `table`; `.errors` is the state after. With `table=None`, checks on
    this path report themselves."""

    def __init__(self, table, layout=None, leaves=()):
        self.table, self.layout, self.leaves = table, layout, leaves
        self.errors = None

    def __enter__(self):
        state = context.current()
        self._previous = state.errors
        state.errors = (None if self.table is None
                        else Errors(self.table, self.layout or Layout(), self.leaves))
        return self

    def __exit__(self, *exc):
        state = context.current()
        self.errors = state.errors
        state.errors = self._previous
        return False


def select(pred, if_true, if_false):
    """The state `if_true` where `pred` holds, else `if_false` (both of this trace)."""
    if if_true is if_false or if_true is None:
        return if_false
    layout = if_true.layout.union(if_false.layout)
    leaves = [jnp.where(pred, a, b) for a, b in
              zip(if_true.leaves(layout), if_false.leaves(layout))]
    return Errors(if_true.table, layout, leaves)


def guarded(fn, pred):
    """`fn()`, whose checks count only where `pred()` holds (inline staged code)."""
    before = current()
    if before is None:
        return fn()
    snapshot = Errors(before.table, before.layout, before.leaves())
    try:
        return fn()
    finally:
        after = current()
        if after is not None and (after.layout != snapshot.layout or any(
                a is not b for a, b in zip(after.leaves(), snapshot.leaves()))):
            replace(select(pred(), after, snapshot))


# --- making the exception ---------------------------------------------------------------

def _closure(make):
    """The values of the variables `make` reads from enclosing functions (an enclosing
    function's traced argument, a name bound by `except ... as`), as they are now: the
    exception is built from them when the program runs, after the trace has ended."""
    cells = make.__closure__ or ()
    return tuple(_Empty() if _is_empty(cell) else cell.cell_contents for cell in cells)


def _is_empty(cell):
    try:
        cell.cell_contents
    except ValueError:
        return True
    return False


class _Empty:
    """A variable not bound yet: reading it raises NameError, as it would have."""


def _rebound(make, values):
    """`make` reading `values` (run-time numbers for traced ones) from its closure."""
    if not values:
        return make
    cells = tuple(types.CellType() if isinstance(v, _Empty) else types.CellType(v)
                  for v in values)
    return types.FunctionType(make.__code__, make.__globals__, make.__name__,
                              make.__defaults__, cells)


def instance(made):
    """`raise E` raises `E()` when `E` is an exception class, as Python does."""
    if isinstance(made, type) and issubclass(made, BaseException):
        return made()
    if not isinstance(made, BaseException):
        return TypeError('exceptions must derive from BaseException')
    return made


def user_exception(error):
    """The user's exception behind a JAX error raised by a failed check, or None.
    It carries a note naming the user's line that raised it."""
    message = str(error)
    if MARKER not in message:
        return None
    text = message[message.index(MARKER):].split('\n')[0]
    token = text[len(MARKER) + 2:].split(' ')[0].rstrip(':')
    user = _failed.pop(int(token), None) if token.isdigit() else None
    if user is None:
        return RuntimeError(text)
    location = text.split(' at ', 1)[1].split(': ', 1)[0] if ' at ' in text else None
    if location:
        note = f'Raised by the compiled program at {location}.'
        if note not in getattr(user, '__notes__', ()):
            user.add_note(note)   # (once: a stored exception may be raised again)
    return user
