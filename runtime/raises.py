"""`ag.raise_if` and `ag.raise_`: a `raise` that may happen only when the program runs.

Python reference:

    raise_if(cond, make, args)   ==   if cond: raise make(*args)
    raise_(make, args)           ==   raise make(*args)

A Python condition outside staged code raises right away, as Python does. A traced
condition, or a `raise` inside a staged branch or loop body, becomes a run-time check (a
`jax.debug.callback`): the compiled program raises the user's exception when, and only
when, the condition holds at run time on a path that the program really takes.

The path matters under `jax.vmap`, which runs both branches of a `lax.cond` (and loop
bodies of finished elements): staged branches and loop bodies are traced inside `on_path`,
which records their predicate, and a check fires only when every enclosing predicate holds.

`make(*args)` builds the exception when the check fails, from the run-time values of
`args` (the user's variables its message reads) and of the variables `make` reads from
enclosing functions, so a message shows numbers, not tracers. `caused(error, cause)` is
the exception of `raise error from cause`; its `__cause__` reaches the user.

Inside a converted `try` whose `except` would catch the exception, a `raise` the program
can only do when it runs is an error instead (see runtime.handlers); a Python one with no
staging in between raises right away, and the `except` catches it while tracing.
"""
import dataclasses
import itertools
import sys
import types

import jax
import numpy as np

from . import context, handlers
from .staging.types import predicate
from .context import staged_depth
from .errors import here, where
from .state import is_traced, merge, split

MARKER = 'autograph check failed'
"""Starts the text of a failed run-time check inside JAX's error (see `user_exception`)."""

_failed = {}                      # token -> the user's exception, until it is re-raised
_tokens = itertools.count()
_KEEP = 64                        # failures kept for re-raising (older ones are dropped)


@dataclasses.dataclass
class _Frame:
    predicate: object            # () -> the predicate of this branch/body
    depth: int                   # the staging depth the branch/body is traced at
    raised: bool = False         # an unconditional `raise` ended the trace


class _Raised(Exception):
    """Ends the trace of a staged branch at an unconditional `raise` (as Python stops)."""


def _frames():
    return context.current().paths


class on_path:
    """`fn` traced as a staged branch or loop body taken when `predicate(*args)` holds.

    After a call, `raised` tells whether the branch always raises; it then returns
    `fallback(*args)` (its outputs never reach the user: the program stops first).
    """

    def __init__(self, fn, predicate, fallback):
        self.fn, self.predicate, self.fallback = fn, predicate, fallback
        self.__wrapped__ = fn
        self.raised = False

    def __call__(self, *args):
        frame = _Frame(lambda: self.predicate(*args), staged_depth())
        frames = _frames()
        frames.append(frame)
        try:
            return self.fn(*args)
        except _Raised:
            return self.fallback(*args)
        finally:
            frames.pop()
            self.raised = frame.raised


def _path_conditions(frames):
    """The predicates of the staged paths being traced. Each is computed with only the
    paths outside it in force: a check inside a predicate (a loop test reading a list at
    a traced index) must not compute that predicate again."""
    saved, out = list(frames), []
    try:
        for i, frame in enumerate(saved):
            frames[:] = saved[:i]
            out.append(frame.predicate())
    finally:
        frames[:] = saved
    return out


def raise_(make, args=()):
    """Python reference: `raise make(*args)`."""
    raise_if(True, make, args)


def raise_if(cond, make, args=()):
    """Python reference: `if cond: raise make(*args)` (see the module docstring)."""
    traced = is_traced(cond)
    if not traced and not cond:
        return
    scope = handlers.catching(_made_now(make, args)) if handlers.active() else None
    if scope is not None:
        if traced or staged_depth() > scope.depth:
            handlers.report(scope, _made_now(make, args), here(), traced)
            return
        raise _made_now(make, args)  # caught by the user's `except` while tracing
    if not traced:
        if staged_depth() == 0:
            raise _made_now(make, args)
        cond = True
    location = here()
    conditions = [] if cond is True else [predicate(cond, location, '`raise` condition')]
    frames = _frames()
    conditions += _path_conditions(frames)
    if any(c is False for c in conditions):
        return  # a path that the program never takes
    check([c for c in conditions if c is not True], make, args, location)
    if cond is True:
        raised()


def raised():
    """An unconditional `raise` in staged code: the branch being traced ends here."""
    frames = _frames()
    if frames and frames[-1].depth == staged_depth():
        frames[-1].raised = True
        raise _Raised()


def check(conditions, make, args, location):
    """Emit a run-time check: raise `make(*args)` when every condition holds."""
    leaves, spec = split(args)
    cells, cells_tree = jax.tree_util.tree_flatten(_closure(make))
    traced = [i for i, v in enumerate(cells) if is_traced(v)]   # (the rest stays Python)

    def fire(conditions, leaves, traced_cells):
        if all(np.all(c) for c in conditions):
            values = list(cells)
            for i, v in zip(traced, traced_cells):
                values[i] = np.asarray(v)
            closure = jax.tree_util.tree_unflatten(cells_tree, values)
            args = merge(spec, [np.asarray(v) for v in leaves])
            error = _instance(_rebound(make, closure)(*args))
            token = next(_tokens)
            _failed[token] = error
            while len(_failed) > _KEEP:
                _failed.pop(next(iter(_failed)))
            raise RuntimeError(f'{MARKER} #{token}{where(location)}: '
                               f'{type(error).__name__}: {error}')
    jax.debug.callback(fire, conditions, leaves, [cells[i] for i in traced])


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
    note = f'Raised by the compiled program at {location}.'
    if location and note not in getattr(user, '__notes__', ()):
        user.add_note(note)   # (once: a stored exception may be raised again)
    return user


def reraise():
    """`make` for a bare `raise`: it raises the exception being handled now (while
    tracing, in the user's `except`), as Python's bare `raise` does."""
    error = sys.exc_info()[1]
    if error is None:
        return lambda: RuntimeError('No active exception to reraise')
    return lambda: error


def caused(error, cause):
    """Python reference: the exception `raise error from cause` raises."""
    error = _instance(error)
    if isinstance(cause, type) and issubclass(cause, BaseException):
        cause = cause()
    if cause is not None and not isinstance(cause, BaseException):
        return TypeError('exception causes must derive from BaseException')
    error.__cause__ = cause
    error.__suppress_context__ = True
    return error


def _instance(made):
    """`raise E` raises `E()` when `E` is an exception class, as Python does."""
    if isinstance(made, type) and issubclass(made, BaseException):
        return made()
    if not isinstance(made, BaseException):
        return TypeError('exceptions must derive from BaseException')
    return made


class _TracedValue:
    """Stands for a traced value in the message of an exception raised while tracing."""

    def __init__(self, value):
        self.text = f'<traced {jax.typeof(value).str_short(short_dtypes=False)}>'

    def __repr__(self):
        return self.text

    def __format__(self, spec):
        return self.text


def _made_now(make, args):
    """The exception, made while tracing: traced values in its message read as
    `<traced float32[]>` (when the message only formats them)."""
    readable = tuple(jax.tree_util.tree_map(
        lambda v: _TracedValue(v) if is_traced(v) else v, a) for a in args)
    try:
        return _instance(make(*readable))
    except Exception:
        return _instance(make(*args))
