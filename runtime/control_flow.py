"""The functional forms of `if`, `while` and `for` that converted code calls.

Each operator decides at run time, per statement: a concrete (Python/NumPy) condition or
iterable runs the plain Python statement; a traced one is staged into `lax`. Branches and
loop bodies are functions of the variables they change; `names` are those variables'
names in the user's code, used in error messages.
"""
import builtins
import warnings

import jax
import jax.numpy as jnp

from . import lowering
from .errors import ControlFlowError, here, where
from .iterables import StagedRange, TracedIterable
from .nonlocals import Nonlocals
from .state import any_traced, is_traced, pack, unpack

UNROLL_WARNING_ITERATIONS = 500
_warned_unrolls = set()


def if_stmt(cond, if_true, if_false, args=(), names=(), nonlocals=()):
    """Python reference: `return if_true(*args) if cond else if_false(*args)`.

    A traced `cond` becomes `lax.cond`: both branches are traced once. `if_false=None`
    stands for an absent `else`: the state passes through unchanged. `nonlocals` are
    variables the branches assign in place (see runtime.nonlocals).
    """
    if if_false is None:
        def if_false(*state):
            return unpack(names, state)
    if nonlocals:
        shared = Nonlocals(nonlocals, (if_true, if_false))
        return shared.finish(names, if_stmt(
            cond, shared.wrap(if_true, names), shared.wrap(if_false, names),
            tuple(args) + shared.get(), tuple(names) + shared.names))
    if is_traced(cond):
        location = here()
        pred = lowering.predicate(cond, location, '`if`')
        return unpack(names, lowering.cond(pred, if_true, if_false, args, names, location))
    if cond:
        return if_true(*args)
    return if_false(*args)


def while_stmt(test, body, state=(), names=(), maximum_iterations=None, nonlocals=()):
    """Python reference:

        while test(*state):
            state = body(*state)
        return state

    The loop is staged into `lax.while_loop` from the first time `test` gives a traced
    value (so a loop whose flag becomes traced midway switches over then).
    """
    if nonlocals:
        shared = Nonlocals(nonlocals, (body, test), loop=True)
        return shared.finish(names, while_stmt(
            shared.wrap_test(test), shared.wrap(body, names), tuple(state) + shared.get(),
            tuple(names) + shared.names, maximum_iterations))
    values = tuple(state)
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
            values = lowering.while_loop(test, body, values, names, here(), remaining)
            break
        if not cond:
            break
        values = pack(names, body(*values))
        iterations += 1
    return unpack(names, values)


def for_stmt(iterable, body, state=(), names=(), extra_test=None, nonlocals=()):
    """Python reference:

        for item in iterable:
            if extra_test is not None and not extra_test(*state):
                break
            state = body(item, *state)
        return state

    A traced iterable (an array, or a range with traced bounds) is staged: `lax.scan`
    over an array's leading axis, `lax.while_loop` over a traced range.
    """
    if nonlocals:
        shared = Nonlocals(nonlocals, (body, extra_test), loop=True)
        return shared.finish(names, for_stmt(
            iterable, shared.wrap(body, names), tuple(state) + shared.get(),
            tuple(names) + shared.names, shared.wrap_test(extra_test)))
    values = tuple(state)
    if isinstance(iterable, (TracedIterable, StagedRange)) or is_traced(iterable):
        staged = iterable if isinstance(iterable, (TracedIterable, StagedRange)) \
            else TracedIterable.over(iterable)
        values = staged.loop(body, values, names, here(), extra_test)
    else:
        values = _python_for(iterable, body, values, names, extra_test)
    return unpack(names, values)


def _python_for(iterable, body, values, names, extra_test):
    """The plain Python loop, which turns staged if a `break` flag becomes traced."""
    if (extra_test is not None and isinstance(iterable, builtins.range)
            and len(iterable) > 1 and any_traced(values)):
        # A loop that may break on a traced value: try it as one staged loop at once.
        staged = _try_staged_range(iterable, body, values, names, extra_test, here(2))
        if staged is not None:
            return staged
    count = 0
    items = builtins.iter(iterable)
    for item in items:
        if extra_test is not None:
            go = extra_test(*values)
            if is_traced(go):
                return _finish_staged(iterable, item, items, count, body, values, names,
                                      extra_test)
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


def _try_staged_range(r, body, values, names, extra_test, location):
    try:
        return lowering.range_loop(r.start, r.stop, r.step, body, values, names,
                                   location, extra_test)
    except _NEEDS_PYTHON:
        return None


def _finish_staged(iterable, item, items, done, body, values, names, extra_test):
    """Run the rest of a Python loop after its exit flag became traced.

    Over a `range` the rest becomes one staged loop if it can; otherwise each remaining
    iteration becomes a `lax.cond` on the flag.
    """
    location = here(2)
    if isinstance(iterable, builtins.range):
        staged = _try_staged_range(iterable[done:], body, values, names, extra_test,
                                   location)
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
            values = lowering.cond(pred, run, skip, values, names, location)
        elif go:
            values = pack(names, body(item, *values))
        else:
            break
    return values


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
