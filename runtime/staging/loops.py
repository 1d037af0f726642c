"""Staged loops over named state: while loops, `lax.scan` over items, loops over ranges.

Python reference: `while test(*state): state = body(*state)`, and `for item in items:
state = body(item, *state)`. The body is traced until the types it carries settle (see
carry.py).
"""
import dataclasses
import math

import jax
import jax.numpy as jnp
from jax import export, lax
from jax.extend.core import Var

from ..state import lists
from . import collectives, loop_autodiff, slices
from .carry import carried
from ..messages import condition_no_value, condition_shape, never_ends
from ..checks.raises import raise_if
from .trace import dependent_outputs, trace
from ..values.types import aval, cast, item_type
from ..values.varying import axes_of, typed, varying


def _test_function(test, state, leaves, location, what):
    """Trace a loop test over the state; returns a function of the leaves -> bool scalar."""
    traced = trace(test, state, [aval(x) for x in leaves], ('condition',), errors=None)
    (out,) = traced.out_avals() or [None]
    if out is None:
        raise condition_no_value(what, location)
    if out.shape != () and math.prod(out.shape) != 1:
        raise condition_shape(what, out.shape, location)

    def run(*leaves):
        (value,) = traced(*leaves)
        value = jnp.reshape(value, ())   # (a size-1 array is its only element)
        return value if value.dtype == jnp.bool_ else value != 0
    run.reads_state = traced.reads_inputs()
    run.axes = axes_of(out)   # (the manual axes it varies over, in jax.shard_map)
    run.jaxpr = traced.jaxpr
    return run


def _uniform(axes, carry, test_fn, location, what):
    """Raise when the loop's body or test calls a collective over manual `axes` over
    which whether the loop goes on varies (see staging.collectives)."""
    tests = [] if test_fn is None else [test_fn.jaxpr]
    collectives.check(axes, [carry.traced.jaxpr, *tests], location, what)


def _caster(traced, carry):
    """Run a traced body on a loop's carry (after the leading items the loop passes):
    (the carried outputs cast to their loop types, per-iteration outputs). The carried
    leaves are the state's, then the error state's, less those no iteration changes
    (see `Carry.compact`)."""
    targets = [aval(x) for x in carry.full(carry.initial)]
    width = len(carry.initial)

    def run(*args):
        cut = len(args) - width
        outs, errors = traced.split_errors(traced(*args[:cut], *carry.full(args[cut:])))
        n = len(targets) - len(errors)
        carried = outs[:n] + errors
        return carry.compact([cast(v, t) for v, t in zip(carried, targets)]), outs[n:]
    return run


def while_loop(test, body, values, names, location, maximum_iterations=None):
    """A while loop (see loop_autodiff: reverse-differentiable by default) of a user test
    and body over the named state.

    With `maximum_iterations`, a `lax.scan` of that length with a done flag instead, which
    can be differentiated in reverse mode.

    A test that reads nothing the loop changes is true in every iteration or in none:
    Python would loop forever (unless a check in the body stops it), and so would the
    compiled loop. The program then runs the body once and raises a ControlFlowError
    when the test is true, and otherwise runs no iteration (see `_entered_once`).
    """
    names = tuple(names)
    carry = carried(body, names, values, location)
    traced, leaves, state = carry
    test_fn = _test_function(test, state, leaves, location, '`while` loop')
    if maximum_iterations is None and not test_fn.reads_state:
        return _entered_once(carry, test_fn, location)
    _uniform(carry.axes(test_fn), carry, test_fn, location, '`while` loop')
    n = len(leaves)
    initial = carry.initial
    targets = [aval(x) for x in initial]
    step = _caster(traced, carry)

    def go(c):   # (a loop stops once a check failed: Python would have stopped there)
        c = carry.full(c)
        return jnp.logical_and(test_fn(*c[:n]), carry.running(c))
    if maximum_iterations is None and _true_after_every_iteration(go, step, traced, test_fn,
                                                                  targets):
        raise_if(test_fn(*leaves), never_ends, (location, True))
        return state.unflatten(leaves)
    if maximum_iterations is None:
        out = _retyped(loop_autodiff.while_loop(
            go, lambda c: step(*c)[0], initial), targets)
    else:
        out = _bounded(go, lambda *c: step(*c)[0], initial, maximum_iterations,
                       carry.flag(test_fn))
    return carry.finish(out)


def _entered_once(carry, test_fn, location):
    """A loop whose test reads nothing the loop changes: true in every iteration or in
    none. Python then runs no iteration, or runs the body until a check in it (a `raise`,
    an `assert`) stops it in the first iteration, or else loops forever. So where the
    test is true the body runs once, and the program raises a ControlFlowError where no
    check failed in it (a body that cannot fail: at once)."""
    leaves, entered = carry.leaves, test_fn(*carry.leaves)
    if carry.layout is None or not carry.layout.coded:
        raise_if(entered, never_ends, (location,))
        return carry.state.unflatten(leaves)
    step = _caster(carry.traced, carry)
    out = lax.cond(entered, lambda c: step(*c)[0], list, carry.initial)
    state = carry.finish(out)
    raise_if(jnp.logical_and(entered, carry.running(carry.full(out))), never_ends,
             (location,))
    return state


def _true_after_every_iteration(go, step, body, test_fn, avals):
    """Whether the loop's test, computed after an iteration, is true whatever state that
    iteration started from: the body sets all the test reads to values that keep it true
    (`c = True; while c: c = jnp.asarray(True)`), so once it is entered Python never stops.
    (XLA would drop such a loop when nothing reads its results, and return.) `avals`:
    those of the leaves the loop carries (see Carry.compact)."""
    test = test_fn.jaxpr.jaxpr
    read = {v for eqn in test.eqns for v in eqn.invars if isinstance(v, Var)}
    read.update(v for v in test.outvars if isinstance(v, Var))
    body_depends = dependent_outputs(body.jaxpr.jaxpr)
    if any(v in read and body_depends[i]
           for i, v in enumerate(test.invars)):
        return False
    closed = jax.make_jaxpr(lambda *c: go(step(*c)[0]))(*avals)
    if any(dependent_outputs(closed.jaxpr)):
        return False
    with jax.ensure_compile_time_eval():
        (value,) = jax.core.eval_jaxpr(closed.jaxpr, closed.consts,
                                       *[jnp.zeros(a.shape, a.dtype) for a in avals])
    return not isinstance(value, jax.core.Tracer) and bool(value)


def _retyped(leaves, targets):
    """A loop's results with the carried types (a checkpointed loop drops weak types)."""
    return [cast(leaf, t) for leaf, t in zip(leaves, targets)]


def _bounded(test_fn, step, leaves, length, done):
    """Up to `length` iterations as a scan; iterations after the test fails do nothing.
    `test_fn` takes the carried leaves as a list; `done` is the false flag it starts
    with (see Carry.flag)."""
    def scan_step(carry, _):
        done, leaves = carry
        go = jnp.logical_and(jnp.logical_not(done), test_fn(leaves))
        leaves = lax.cond(go, lambda c: list(step(*c)), lambda c: list(c), leaves)
        return (jnp.logical_not(go), leaves), None
    (_, out), _ = lax.scan(scan_step, (done, list(leaves)), None, length=length)
    return out


def _index_type(*bounds):
    """The type of a staged loop's index: a weak int, like the Python ints of a `range`
    (int64 under x64, so it is read when the loop is staged), varying over the manual
    axes its `bounds` (start and step) vary over, in `jax.shard_map`."""
    axes = frozenset().union(*(varying(b) for b in bounds))
    return typed((), aval(0).dtype, True, axes)


def scan_loop(length, sequences, make_item, body, values, names, location,
              extra_test=None, indexed=True, require_traced=False):
    """A `for` over `length` items as `lax.scan`; items are `make_item(k, *slices)`, where
    `k` counts iterations (carried only when `indexed`).

    Lists that the body appends to collect the appended items as the scan's outputs
    (see runtime.state.lists).
    With `extra_test` (a `break`), the iterations after it fails do nothing. With
    `require_traced`, raises NothingTraced when the body computes nothing from traced
    values (see NothingTraced).
    """
    names = tuple(names)
    n_seq = len(sequences)
    index = _index_type()
    item_avals = [index] + [item_type(s) for s in sequences]

    def body_of_item(k, *rest):
        return body(make_item(k, *rest[:n_seq]), *rest[n_seq:])

    runs = _runs_first(length, extra_test, values)
    carry = carried(body_of_item, names, values, location, item_avals,
                     allow_append=extra_test is None, runs=runs)
    traced, leaves, state = carry
    if require_traced:
        _require_traced(traced)
    if indexed:   # reads xs[k] become slices of the scan (see runtime.staging.slices)
        jaxpr, sources, indexed = slices.hoist(traced.jaxpr, length)
        traced = dataclasses.replace(traced, jaxpr=jaxpr)
        sequences = [*sources, *sequences]
    n = len(leaves)
    initial = carry.initial
    step = _caster(traced, carry)
    first = cast(jnp.asarray(0), index) if indexed else None
    n_xs, scan_length = len(sequences), length
    if export.is_symbolic_dim(length):   # symbolic (jax.export): lax.scan takes it from xs
        sequences, scan_length = [*sequences, lax.iota(jnp.int32, length)], None
    test = done = None
    if extra_test is not None:
        test_fn = _test_function(extra_test, state, leaves, location, '`for` loop')

        def until_break(leaves):
            leaves = carry.full(leaves)
            return jnp.logical_and(test_fn(*leaves[:n]), carry.running(leaves))
        test, done = until_break, carry.flag(test_fn)
        _uniform(carry.axes(test_fn), carry, test_fn, location, '`for` loop')
    out, ys = _scanned(step, first, list(initial), list(sequences), n_xs, scan_length,
                       test, done)
    out = list(out)
    result = list(carry.finish(out))
    return lists.extend(values, result, traced.appended, ys or [], length)


def _runs_first(length, extra_test, values):
    """Whether a `for` over `length` items surely runs its first iteration: a length
    known above zero, and its `break` test (the converter's test of its exit flags, which
    changes nothing) Python's True on the `values` the loop starts with (no flag set)."""
    if not (isinstance(length, int) and length > 0):
        return False
    return extra_test is None or extra_test(*values) is True


def _scanned(step, first, initial, sequences, n_xs, length, test, done):
    """(final carried leaves, stacked per-iteration outputs) of `lax.scan` over
    `sequences`, the index counted from `first` (None: not carried). With `test` (a
    `break`'s test of the leaves), the iterations after it fails leave them as they are
    (`done`, a false flag, says when it failed)."""
    if test is None:
        def scan_step(carry, xs):
            k, leaves = carry
            new, ys = step(0 if k is None else k, *xs[:n_xs], *leaves)
            return (None if k is None else k + 1, new), ys
        (_, out), ys = lax.scan(scan_step, (first, initial), sequences, length=length)
        return out, ys

    def scan_step(c, xs):
        k, done, leaves = c
        go = jnp.logical_and(jnp.logical_not(done), test(leaves))
        index = 0 if k is None else k
        new = lax.cond(go, lambda c: step(index, *xs[:n_xs], *c)[0],
                       lambda c: list(c), leaves)
        return (None if k is None else k + 1, jnp.logical_not(go), new), None
    (_, _, out), ys = lax.scan(scan_step, (first, done, initial), sequences, length=length)
    return out, ys


class NothingTraced(Exception):
    """A loop over Python values was offered for staging (its body can see traced values)
    but computes nothing from them, nor does its state hold any: it stays a Python loop,
    which gives Python results (a list of ints stays a list of ints)."""


def _require_traced(traced):
    if not any(isinstance(c, jax.core.Tracer) for c in traced.jaxpr.consts):
        raise NothingTraced()


def range_loop(start, stop, step, body, values, names, location, extra_test=None,
               require_traced=False):
    """A `for` over a range with traced bounds (or a `break`): a while loop over the index
    (see loop_autodiff: reverse-differentiable by default). Python bounds stay constants
    of the loop; only the index is carried. `require_traced` as for scan_loop.
    """
    names = tuple(names)
    index = _index_type(start, step)
    index_axes = axes_of(index)
    carry = carried(body, names, values, location, [index])
    traced, leaves, state = carry
    if require_traced:
        _require_traced(traced)
    n = len(leaves)
    initial = carry.initial
    targets = [aval(x) for x in initial]
    run = _caster(traced, carry)
    test_fn = (_test_function(extra_test, state, leaves, location, '`for` loop')
               if extra_test is not None else None)
    _uniform(carry.axes(test_fn) | varying(stop) | index_axes, carry, test_fn, location,
             '`for` loop')

    def cond_fun(c):
        i, leaves = c
        if isinstance(step, int):
            more = i < stop if step > 0 else i > stop
        else:
            more = jnp.where(step > 0, i < stop, i > stop)
        leaves = carry.full(leaves)
        if test_fn is not None:
            more = jnp.logical_and(more, test_fn(*leaves[:n]))
        return jnp.logical_and(more, carry.running(leaves))

    def body_fun(c):
        i, leaves = c
        return cast(i + step, index), run(i, *leaves)[0]

    bound = len(range(start, stop, step)) if _all_python(start, stop, step) else None
    _, out = loop_autodiff.while_loop(cond_fun, body_fun,
                                      (cast(jnp.asarray(start), index), list(initial)), bound)
    return carry.finish(_retyped(out, targets))


def _all_python(*values):
    return all(isinstance(v, int) for v in values)
