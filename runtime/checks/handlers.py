"""`ag.handlers(E1, E2)`: around a `try` whose `except` clauses catch E1, E2.

Python reference: the `try` statement itself (the `with` adds nothing to its meaning).

A `raise` that the program can only do when it runs (a traced condition, or a `raise` in a
staged branch or loop body) becomes a run-time check (see runtime.checks.raises). The user's
`except` cannot catch that: it ran, and finished, while tracing. So when such a `raise`
would be caught by an enclosing `try`, it is an error instead of a silent change of
meaning. The error is raised when the `try` is left (by `__exit__`), so the user's
`except` (`ControlFlowError` is a `ValueError`) cannot swallow it. A `raise` in an
`except`, `else` or `finally` clause is not caught by its own `try`: only the `try`
body is inside the handlers' scope.

A `raise` under a Python condition, with no staging between it and the `try` that
catches it, stays a Python `raise`: the `except` catches it while tracing, as in Python.
"""
import dataclasses

from .. import context
from ..context import staged_depth
from ..errors import here
from ..messages import caught_staged_raise



@dataclasses.dataclass
class _Scope:
    types: tuple                 # the exception types the `except` clauses name
    depth: int                   # the staging depth the `try` runs at
    location: object             # the user's `try` line
    problem: Exception = None    # set by `report` when a staged raise would be caught


def _scopes():
    return context.current().try_scopes


class handlers:
    """Records the `except` types of the `try` it encloses (a bare `except` is
    BaseException), and the staging depth the `try` runs at. `with` it gives the `try`
    body's own context: raises inside it are the ones the `except` clauses may catch.

        with ag.handlers(KeyError) as body:
            try:
                with body:
                    ...            # the `try` body
            except KeyError:
                ...
    """

    def __init__(self, *types):
        flat = []
        for t in types:
            flat.extend(t if isinstance(t, tuple) else (t,))
        self.scope = _Scope(tuple(flat), staged_depth(), here())

    def __enter__(self):
        return _Body(self.scope)

    def __exit__(self, kind, error, traceback):
        if self.scope.problem is not None:
            raise self.scope.problem from error
        return False


class _Body:
    """The `try` body: while it runs, its `except` clauses are the innermost handlers."""

    def __init__(self, scope):
        self.scope = scope

    def __enter__(self):
        _scopes().append(self.scope)
        return self

    def __exit__(self, kind, error, traceback):
        _scopes().remove(self.scope)
        return False


def catching(error):
    """The innermost enclosing `try` scope whose `except` catches `error`, or None."""
    for scope in reversed(_scopes()):
        if isinstance(error, scope.types):
            return scope
    return None


def report(scope, error, location, traced):
    """Record, in `scope`, that `error` raised at `location` would be caught by its
    `except` in Python but can only be raised when the program runs."""
    if scope.problem is not None:
        return
    scope.problem = caught_staged_raise(type(error), location, scope.location, traced)


def active():
    """True inside a converted `try` that has `except` clauses."""
    return bool(_scopes())
