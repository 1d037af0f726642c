"""`ag.raise_if` and `ag.raise_`: a `raise` that may happen only when the program runs.

Python reference:

    raise_if(cond, make, args)   ==   if cond: raise make(*args)
    raise_(make, args)           ==   raise make(*args)

A Python condition outside staged code raises right away, as Python does. A traced
condition, or a `raise` inside a staged branch or loop body, becomes a run-time check
(runtime.checks): the compiled program computes whether it fails and carries the error
with its results, and the user's exception is raised when, and only when, the condition
holds at run time on a path that the program really takes.

The path matters under `jax.vmap`, which runs both branches of a `lax.cond` (and loop
bodies of finished elements). A check that updates the program's error state is on its
path by construction: staged branches and loop bodies return the state, and `lax`
selects it per element. A check that reports itself (runtime.checks.check_outcomes.report_now:
no error state reaches it) needs the predicates of the staged branches it is in: those are traced
inside `on_path`, which records their predicate, and such a check fires only when every
enclosing predicate holds.

`make(*args)` builds the exception when the check fails, from the run-time values of
`args` (the user's variables its message reads) and of the variables `make` reads from
enclosing functions, so a message shows numbers, not tracers. `caused(error, cause)` is
the exception of `raise error from cause`; its `__cause__` reaches the user.

Inside a converted `try` whose `except` would catch the exception, a `raise` the program
can only do when it runs is an error instead (see runtime.checks.handlers); a Python one with no
staging in between raises right away, and the `except` catches it while tracing.
"""
import dataclasses
import sys

import jax

from . import check_outcomes, checks, handlers
from .. import context, origin
from .checks import instance as _instance
from ..values.types import predicate
from ..context import staged_depth
from ..errors import here
from ..values.split import is_traced
from ..values.text import Placeholder

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
        except (*_LOOKUP_ERRORS, TypeError) as error:
            location = _user_location(error)
            if location is None or (isinstance(error, TypeError) and not _operand_error(error)) \
                    or _traced_slice(error):
                raise
            try:   # Python raises it only where this path runs: a run-time check
                raise_if(True, _remade, (type(error), error.args), location=location)
            except _Raised:
                return self.fallback(*args)
            raise
        finally:
            frames.pop()
            self.raised = frame.raised


_LOOKUP_ERRORS = (AttributeError, KeyError, IndexError, ZeroDivisionError)
"""Python's errors that the user's code raises while a staged branch or loop body is
traced (`o.missing`, `d['absent']`, `xs[9]` of a Python list, `1 / 0` of Python numbers):
Python raises them only where that path runs, so they become checks on the path; so does
a TypeError of an operation on the user's line (`None * 0.1`, see `_operand_error`)."""


def _operand_error(error):
    """Whether TypeError `error` is Python's own, raised by an operation of the user's
    line itself (`best * 0.1` with `best` None on a path that does not run; `(k, 'p') <
    (0, 3)`, which `ag.lt` computes: see origin.operates): raised in a generated-code
    frame or a runtime operator's, not inside a function it called, and not JAX's (a
    traced value where Python needs one stays the error it is, wherever it is)."""
    if type(error).__module__.split('.')[0] == 'jax':
        return False
    tb = error.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    return origin.is_operating(code) or origin.lookup(code.co_filename, tb.tb_lineno) \
        is not None


def _traced_slice(error):
    """Whether `error` is JAX's IndexError for a slice with a traced bound (`w[i:]` as a
    view): no run-time check, a limit of tracing (autograph.errors names it)."""
    return type(error) is IndexError and str(error).startswith(
        'Slice entries must be static integers')


def _remade(kind, args):
    """The exception `kind(*args)` (a check keeps its type and arguments, the same each
    time a loop body is traced again, not the exception object)."""
    return kind(*args)


def _user_location(error):
    """The user's line (of the innermost generated-code frame) that `error` came
    through, or None where it came from no user code."""
    found = origin.user_frames(error.__traceback__)
    return found[-1] if found else None


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


def path_conditions():
    """The predicates of the staged branches and loop bodies being traced (see `on_path`)."""
    return _path_conditions(_frames())


def raise_(make, args=()):
    """Python reference: `raise make(*args)`."""
    raise_if(True, make, args)


def raise_if(cond, make, args=(), location=None):
    """Python reference: `if cond: raise make(*args)` (see the module docstring).
    `location`: the user's line, where the caller is not the generated statement."""
    traced = is_traced(cond)
    if not traced and not cond:
        return
    scope = handlers.catching(_made_now(make, args)) if handlers.active() else None
    if scope is not None:
        if traced or staged_depth() > scope.depth:
            handlers.report(scope, _made_now(make, args), location or here(), traced)
            return
        # caught by the user's `except` while tracing: its handler reads the real values
        raise _instance(make(*args))
    if not traced:
        if staged_depth() == 0:
            raise _made_now(make, args)
        cond = True
    location = location or here()
    flag = None if cond is True else predicate(cond, location, '`raise` condition')
    errors = checks.current()
    if errors is not None:
        errors.record(flag, make, args, location)
    else:
        conditions = [] if flag is None else [flag]
        conditions += _path_conditions(_frames())
        if any(c is False for c in conditions):
            return  # a path that the program never takes
        check_outcomes.report_now([c for c in conditions if c is not True], make, args,
                                  location)
    if cond is True:
        raised()


def raised():
    """An unconditional `raise` in staged code: the branch being traced ends here."""
    frames = _frames()
    if frames and frames[-1].depth == staged_depth():
        frames[-1].raised = True
        raise _Raised()


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


def _made_now(make, args):
    """The exception, made while tracing: traced values in its message read as
    `<traced float32[]>` (when the message only formats them)."""
    readable = tuple(jax.tree_util.tree_map(
        lambda v: Placeholder(v) if is_traced(v) else v, a) for a in args)
    try:
        return _instance(make(*readable))
    except Exception:
        return _instance(make(*args))
