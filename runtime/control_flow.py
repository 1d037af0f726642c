"""The functional forms of `if`, `while` and `for` that converted code calls.

Each operator decides at run time, per statement: a concrete (Python/NumPy) condition or
iterable runs the plain Python statement; a traced one is staged into `lax`. Branches and
loop bodies are functions of the variables they change; `names` are those variables'
names in the user's code, used in error messages.
"""
import builtins
import contextlib
import warnings

import jax
import jax.numpy as jnp

from . import lowering
from .errors import ControlFlowError, here, where
from .iterables import StagedRange, TracedIterable
from .mutation import Mutations
from .state import any_traced, is_traced, pack, unpack

UNROLL_WARNING_ITERATIONS = 500
_warned_unrolls = set()


def if_stmt(cond, if_true, if_false, args=(), names=(), watch=None, fields=None):
    """Python reference: `return if_true(*args) if cond else if_false(*args)`.

    A traced `cond` becomes `lax.cond`: both branches are traced once. `if_false=None`
    stands for an absent `else`: the state passes through unchanged. `fields` gives the
    attributes the branches assign (see mutation.py).
    """
    if if_false is None:
        def if_false(*state):
            return unpack(names, state)
    if is_traced(cond):
        location = here()
        pred = lowering.predicate(cond, location, '`if`')
        objects = Mutations(args, names, fields)
        with _unchanged(watch, location, '`if`'):
            return objects.finish(lowering.cond(
                pred, objects.wrap(if_true), objects.wrap(if_false), objects.state,
                objects.all_names, location))
    if cond:
        return if_true(*args)
    return if_false(*args)


def while_stmt(test, body, state=(), names=(), maximum_iterations=None, watch=None,
               fields=None):
    """Python reference:

        while test(*state):
            state = body(*state)
        return state

    The loop is staged into `lax.while_loop` from the first time `test` gives a traced
    value (so a loop whose flag becomes traced midway switches over then).
    """
    objects = Mutations(state, names, fields)
    test, body = objects.wrap(test, returns_state=False), objects.wrap(body)
    values, names = objects.state, objects.all_names
    iterations = 0
    while True:
        if maximum_iterations is not None and iterations >= maximum_iterations:
            break
        # Inside a trace, the first test is tried in a sandbox: if it is traced, its
        # equations are not left behind (the staged loop evaluates it again).
        if iterations == 0 and any_traced(values):
            cond = lowering.probe(test, values)
        else:
            cond = test(*values)
        if is_traced(cond) or cond is lowering.TRACED:
            remaining = (None if maximum_iterations is None
                         else maximum_iterations - iterations)
            location = here()
            with _unchanged(watch, location, '`while` loop'):
                values = lowering.while_loop(test, body, values, names, location, remaining)
            break
        if not cond:
            break
        values = pack(names, body(*values))
        iterations += 1
    return objects.finish(values)


def for_stmt(iterable, body, state=(), names=(), extra_test=None, watch=None, fields=None):
    """Python reference:

        for item in iterable:
            if extra_test is not None and not extra_test(*state):
                break
            state = body(item, *state)
        return state

    A traced iterable (an array, or a range with traced bounds) is staged: `lax.scan`
    over an array's leading axis, `lax.while_loop` over a traced range.
    """
    objects = Mutations(state, names, fields)
    body = objects.wrap(body, leading=1)
    extra_test = objects.wrap(extra_test, returns_state=False)
    values, names = objects.state, objects.all_names
    if isinstance(iterable, (TracedIterable, StagedRange)) or is_traced(iterable):
        staged = iterable if isinstance(iterable, (TracedIterable, StagedRange)) \
            else TracedIterable.over(iterable)
        location = here()
        with _unchanged(watch, location, '`for` loop'):
            values = staged.loop(body, values, names, location, extra_test)
    else:
        values = _python_for(iterable, body, values, names, extra_test, watch)
    return objects.finish(values)


def _python_for(iterable, body, values, names, extra_test, watch):
    """The plain Python loop, which turns staged if a `break` flag becomes traced."""
    if (extra_test is not None and isinstance(iterable, builtins.range)
            and len(iterable) > 1 and any_traced(values)):
        # A loop that may break on a traced value: try it as one staged loop at once.
        staged = _try_staged_range(iterable, body, values, names, extra_test, here(2), watch)
        if staged is not None:
            return staged
    count = 0
    items = builtins.iter(iterable)
    for item in items:
        if extra_test is not None:
            go = extra_test(*values)
            if is_traced(go):
                return _finish_staged(iterable, item, items, count, body, values, names,
                                      extra_test, watch)
            if not go:
                break
        values = pack(names, body(item, *values))
        count += 1
        if count == UNROLL_WARNING_ITERATIONS:
            _warn_unroll(values)
    return values


_NEEDS_PYTHON = (TypeError, IndexError, ControlFlowError)
"""What staging a Python range loop raises when its body needs the index as a Python
int (`layers[i]`) or collects a list: such a loop runs as Python instead."""


def _try_staged_range(r, body, values, names, extra_test, location, watch):
    with _unchanged(watch, location, '`for` loop'):
        try:
            return lowering.range_loop(r.start, r.stop, r.step, body, values, names,
                                       location, extra_test)
        except _NEEDS_PYTHON:
            return None


def _finish_staged(iterable, item, items, done, body, values, names, extra_test, watch):
    """Run the rest of a Python loop after its exit flag became traced.

    Over a `range` the rest becomes one staged loop if it can; otherwise each remaining
    iteration becomes a `lax.cond` on the flag.
    """
    location = here(2)
    if isinstance(iterable, builtins.range):
        staged = _try_staged_range(iterable[done:], body, values, names, extra_test,
                                   location, watch)
        if staged is not None:
            return staged
    for item in _chain(item, items):
        go = extra_test(*values)

        def run(*state, item=item):
            return body(item, *state)

        def skip(*state):
            return unpack(names, state)
        if is_traced(go):
            pred = lowering.predicate(go, location, '`for` loop')
            with _unchanged(watch, location, '`for` loop'):
                values = lowering.cond(pred, run, skip, values, names, location)
        elif go:
            values = pack(names, body(item, *values))
        else:
            break
    return values


@contextlib.contextmanager
def _unchanged(watch, location, what):
    """Staged code runs a nested function's `nonlocal v = ...` once, while tracing: the
    new value cannot reach later iterations or the other branch. Report it."""
    before = _read(watch)
    yield
    after = _read(watch)
    for name, value in (before or {}).items():
        if after is not None and after.get(name) is not value:
            raise ControlFlowError(
                f"'{name}' is assigned by a nested function (nonlocal) called inside the "
                f"staged {what}{where(location)}. Staged code runs that assignment once, "
                f"while tracing, so its value cannot be carried through the {what}: return "
                f"the new value from the function and assign '{name}' where it is called.")


def _read(watch):
    if watch is None:
        return None
    try:
        return watch()
    except NameError:   # not assigned yet
        return None


def _chain(first, rest):
    yield first
    yield from rest


def _warn_unroll(values):
    if not any(is_traced(leaf) for leaf in jax.tree_util.tree_leaves(values)):
        return
    location = here(3)
    if location in _warned_unrolls:
        return
    _warned_unrolls.add(location)
    warnings.warn(
        f'the Python loop at {location} has run {UNROLL_WARNING_ITERATIONS} iterations while '
        f'tracing; each one is unrolled into the compiled program. Iterate over '
        f'autograph.range(n) (or an array) to stage it as one loop instead.',
        stacklevel=4)


def if_exp(cond, if_true, if_false):
    """Python reference: `if_true() if cond else if_false()` (a conditional expression)."""
    if is_traced(cond):
        location = here()
        pred = lowering.predicate(cond, location, 'conditional expression')
        (value,) = lowering.cond(pred, if_true, if_false, (), ('value',), location,
                                 'conditional expression')
        return value
    return if_true() if cond else if_false()


def and_(left, right):
    """Python reference: `left and right()`. A traced `left` selects as Python would,
    `jnp.where(left, right, left)` (`jnp.logical_and` for booleans)."""
    if is_traced(left):
        return jnp.where(left, right(), left)
    return left and right()


def or_(left, right):
    """Python reference: `left or right()`. A traced `left` selects as Python would,
    `jnp.where(left, left, right)` (`jnp.logical_or` for booleans)."""
    if is_traced(left):
        return jnp.where(left, left, right())
    return left or right()


def not_(value):
    """Python reference: `not value`; a traced value gives `jnp.logical_not`."""
    if is_traced(value):
        return jnp.logical_not(value)
    return not value
