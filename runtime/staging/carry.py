"""Loop carry reconciliation: a loop body traced until the types it carries settle.

Python reference: the variables a loop carries have, after each iteration, whatever the
body assigned them. A staged loop carries one type per variable, fixed before it runs:
the body is traced from the values before the loop, and again from what it gives back
until they agree (weak types promote as in JAX; a variable the loop creates, or makes
optional, is carried as a Maybe; one each iteration overwrites takes the body's type).
"""
import contextlib
import contextvars
import dataclasses

import jax.numpy as jnp
from jax.extend.core import Literal

from .. import context
from ..checks import carried_keys, checks
from ..checks.absent import Maybe, is_absent, lifted, placeholder
from ..messages import carry_mismatch, carry_unsettled, list_hint
from ..state import lists
from ..values.split import Undefined, describe, grow, merge, pack, split, unpack
from ..values.types import aval, cast, promoted, same_type, zeros
from ..values.varying import NONE, vary
from .trace import State, trace


def carried(body, names, values, location, item_avals=(), allow_append=False,
             runs=False):
    """Trace a loop body until the types it carries settle (weak types promote as in JAX).

    Returns (traced body, initial leaves, state). A variable that starts undefined (the
    loop creates it) is carried as a Maybe (runtime.checks.absent): zeros of the type the body
    gives it and a flag, false until an iteration assigns it, so that reading it after a
    loop that ran zero times raises Python's UnboundLocalError when the program runs. A
    return value, or a variable Python never reads unassigned, takes zeros with no flag.

    A Python bool that the body gives back unchanged, traced with it as a Python value
    (see `_flags`), stays a Python value: no iteration can change it.

    With `runs` (the loop surely runs at least once), a variable each iteration assigns
    before reading it (no output depends on its value coming in: `x` in `for x in xs`)
    takes the type the body gives it, as Python's last value has (not its value before
    the loop, which is never seen). So does an attribute that the code after the loop
    assigns before reading it (`overwritten_after`), whether the loop runs or not.

    The path's error state (runtime.checks) is carried too: `Carry.errors` are its
    leaves as the loop starts, laid out as the body returns it (the checks the body
    adds, from no failure).

    A leaf that the body gives back as it came in (the very same value: a view's
    write-back into its base where the view was a copy, `ag.write_view` with no key)
    keeps its value through every iteration: the loop does not carry it
    (`Carry.unchanged`), and gives back the very value it came in with, so that the
    loops around it see it unchanged too.
    """
    sources, values = tuple(values), lists.plain(values)
    body = _lifting(body, names, len(item_avals))
    errors = checks.current()
    layout = None if errors is None else errors.layout
    pinned, after, lost = _flags(names, values), _AFTER.get(), frozenset()
    for _ in range(7):
        leaves, state = State.flatten(names, values, pinned, lost)
        try:
            traced = trace(body, state, list(item_avals) + [aval(x) for x in leaves],
                           names, n_extra=len(item_avals),
                           appending=sources if allow_append else None, errors=layout)
        except UnboundLocalError as error:   # the body reads a variable it creates
            if Undefined(error.name) not in values:
                raise
            raise carry_mismatch(error.name, 'undefined', None, location) from None
        changing, unmarked = _unsettled(names, pinned, state, traced)
        if changing or unmarked:   # (carried as arrays, or not as NumPy's, from now on)
            pinned, lost = pinned - changing, lost | unmarked
            continue
        fresh = _overwritten(names, values, state, traced, len(item_avals)) \
            if runs or after else ()
        fresh = fresh if runs else set(fresh) & after
        values, changed = _reconcile(names, values, state, traced, location, fresh)
        if layout is not None and traced.errors_out != layout:
            layout, changed = layout.union(traced.errors_out), True
        if not changed:
            return Carry(traced, leaves, _kept_arguments(state, traced), errors, layout,
                         _unchanged(traced, len(leaves), len(item_avals)),
                         _given_bools(traced, len(leaves)) if runs else {})
    raise carry_unsettled(location)


def _kept_arguments(state, traced):
    """`state`, whose leaves that are the Function's arguments' arrays stay so after the
    loop only where the body gives them back as they came (see runtime.context's
    `arguments`)."""
    return dataclasses.replace(state, arguments=state.arguments & traced.state.arguments)


def _unsettled(names, pinned, state, traced):
    """(the pinned Python bools the body changes, the leaves that stand for NumPy arrays
    as the loop starts and not as the body gives them back: see runtime.context's
    `numpy`). Both are carried otherwise from the next trace on: as arrays, and as
    values an iteration may have made other than NumPy's (the record is kept only where
    every iteration keeps it)."""
    changing = {name for name, spec, out in zip(names, state.specs, traced.state.specs)
                if name in pinned and not spec.same_as(out)}
    followed = context.current().numpy is not None   # (a converted Function runs)
    return changing, (state.numpy - traced.state.numpy if followed else frozenset())


@dataclasses.dataclass
class Carry:
    """A loop body traced until its carried types settled (see `_carried`)."""
    traced: object         # the body (Traced)
    leaves: list           # the state's leaves as the loop starts
    state: object          # their State
    errors: object         # the path's error state (None: its checks report themselves)
    layout: object         # the layout the loop carries it with
    unchanged: frozenset = frozenset()   # state leaves no iteration changes (positions)
    given: dict = dataclasses.field(default_factory=dict)   # {position: the Python bool
    #   every iteration gives that state leaf}: its value after a loop that surely runs

    def __iter__(self):    # (traced, leaves, state)
        return iter((self.traced, self.leaves, self.state))

    @property
    def initial(self):
        """The leaves the loop carries as it starts: the state's that an iteration may
        change, then the error state's."""
        return self.compact(list(self.leaves) + self.error_leaves)

    def compact(self, full):
        """The carried leaves among `full` (the state's leaves, then the error state's):
        those at the `unchanged` positions left out."""
        if not self.unchanged:
            return list(full)
        return [x for k, x in enumerate(full) if k not in self.unchanged]

    def full(self, compact):
        """The state's leaves and the error state's from the carried ones: the leaves
        no iteration changes are those the loop started with."""
        if not self.unchanged:
            return list(compact)
        rest = iter(compact)
        return [self.leaves[k] if k in self.unchanged else next(rest)
                for k in range(len(self.leaves))] + list(rest)

    @property
    def error_leaves(self):
        return [] if self.errors is None else self.errors.leaves(self.layout)

    def axes(self, test=None):
        """The manual axes (in jax.shard_map) over which whether the loop goes on may
        vary: those of `test` (a loop test, see staging.loops) and of the error state
        (a check that fails on some devices only stops the loop there)."""
        return (NONE if test is None else test.axes) | (
            NONE if self.layout is None else self.layout.axes)

    def flag(self, test):
        """A false flag for a loop that stops once `test` fails or a check fails: it
        varies as they do."""
        return vary(jnp.asarray(False), self.axes(test))

    def running(self, carry):
        """Whether no check failed, for a loop's full carry (see `full`; True when none
        can)."""
        if self.layout is None or not self.layout.coded:
            return True
        return carry[len(self.leaves)] == 0

    def finish(self, out):
        """The user's state from a loop's final carry (the error state is set aside)."""
        out, n = self.full(out), len(self.leaves)
        if self.errors is not None:
            checks.replace(checks.Errors(self.errors.table, self.layout, out[n:]))
        return self.state.unflatten([self.given.get(k, x) for k, x in enumerate(out[:n])])


_AFTER = contextvars.ContextVar('overwritten_after', default=frozenset())


@contextlib.contextmanager
def overwritten_after(names):
    """Within it, the loop staged next (its `carried`) takes the names of the attributes
    that the code after it assigns before reading them (passes.loops)."""
    token = _AFTER.set(frozenset(names))
    try:
        yield
    finally:
        _AFTER.reset(token)


def _flags(names, values):
    """The variables holding a Python bool, which the body is first traced with as Python
    values: a flag the loop never changes (`log=False` guarding `if log:
    log['err'].append(err)`) stays one, so that its branches stay Python ones, as they
    are in every iteration Python runs. (Not the converter's break, continue and return
    flags, which a loop that has them sets.)"""
    return {name for name, value in zip(names, values)
            if type(value) is bool and not name.startswith('did_')}


def _unchanged(traced, count, n_extra):
    """The positions of the `count` state leaves that the body returns as it took them
    (after `n_extra` leading inputs): the same jaxpr variable in and out."""
    jaxpr = traced.jaxpr.jaxpr
    ins, outs = jaxpr.invars[n_extra:n_extra + count], jaxpr.outvars[:count]
    return frozenset(k for k, (v, out) in enumerate(zip(ins, outs)) if out is v)


def _given_bools(traced, count):
    """{position: value} of the `count` state leaves that the body gives as a Python bool
    whatever came in (a presence flag of a variable or dict key that every iteration
    sets): after a loop that surely runs, that bool is the leaf's value, known while
    tracing (as after a staged `if` whose branches all give it, runtime.staging.branches)."""
    outs = traced.jaxpr.jaxpr.outvars[:count]
    return {k: v.val for k, v in enumerate(outs)
            if isinstance(v, Literal) and type(v.val) is bool}


def _overwritten(names, values, state, traced, n_extra):
    """The names (of plain values) whose incoming leaves no output of the body reads."""
    unread, start, found = traced.unread_leaves(n_extra), 0, set()
    for name, value, spec in zip(names, values, state.specs):
        count = spec.dynamic_count
        if count and all(start + i in unread for i in range(count)) \
                and not isinstance(value, (Maybe, Undefined)):
            found.add(name)
        start += count
    return found


def _reconcile(names, values, state, traced, location, fresh=()):
    """Initial values adjusted to what one iteration produces, or a named error. A name
    in `fresh` (see `_overwritten`) takes the body's type and structure. A dict key the
    loop creates is absent as it starts and present from the iteration that sets it on
    (runtime.checks.keys: a flag, known after a loop that surely runs and sets it in
    every iteration, see `_given_bools`)."""
    new_values, changed = [], False
    outs = iter(traced.out_avals())
    for name, value, spec, out_spec, after in zip(
            names, values, state.specs, traced.state.specs, traced.values):
        out_avals = [next(outs) for _ in range(out_spec.dynamic_count)]
        if name in fresh and not _is_maybe(out_spec) and not (
                spec.same_as(out_spec) and all(
                    same_type(aval(v), a) for v, a in zip(split(value)[0], out_avals))):
            new_values.append(merge(out_spec, [zeros(a) for a in out_avals]))
            changed = True
            continue
        if value is None and out_spec.dynamic_count:
            # None before the loop, a value after an iteration: an optional value.
            new_values.append(placeholder(merge(out_spec, [zeros(a) for a in out_avals]), None))
            changed = True
            continue
        if not spec.same_as(out_spec) and _is_maybe(out_spec) \
                and not isinstance(value, (Maybe, Undefined)):
            # Bound before the loop, unbound by a `del` in it (or made None on some
            # paths, an optional value): carried as a Maybe too.
            absent = out_spec.treedef.node_data()[1]
            new_values.append(lifted(value, None if absent is None else Undefined(name)))
            changed = True
            continue
        if not spec.same_as(out_spec):
            # A variable (or dict key) the loop creates takes its type from the body.
            out = merge(out_spec, [zeros(a) for a in out_avals])
            if type(value) is Undefined and not is_absent(value) and out is None:
                # (the return value, read only where its flag is set: `return None`)
                new_values.append(out)
                changed = True
                continue
            grown = grow(carried_keys.unflagged(value), carried_keys.unflagged(out))
            if grown is not None and split(grown)[1].same_as(split(carried_keys.unflagged(out))[1]):
                new_values.append(carried_keys.reflagged(grown, value, out))
                changed = True
                continue
            raise carry_mismatch(name, describe(value), after, location,
                                  list_hint(name, value))
        leaves, _ = split(value)
        cast_leaves = []
        for leaf, out in zip(leaves, out_avals):
            before = aval(leaf)
            target = promoted(before, out)
            if target is None:
                raise carry_mismatch(name, describe(value), after, location)
            if not same_type(target, before):
                leaf, changed = cast(jnp.asarray(leaf), target), True
            cast_leaves.append(leaf)
        new_values.append(merge(spec, cast_leaves))
    return tuple(new_values), changed




def _lifting(body, names, n_extra):
    """`body`, giving a Maybe (runtime.checks.absent) for each variable that came in as one or
    as absent: its value where the iteration assigns it (a true flag), else what came in;
    and a placeholder for a variable it unbinds (`del`), or sets to None where it came
    in as an optional value."""
    def lifting(*args):
        values = args[n_extra:]
        flagged = [carried_keys.snapshot(value) for value in values]   # (before writes in place)
        outs = pack(names, body(*args))
        new = []
        for name, before, after, was in zip(names, values, outs, flagged):
            after = carried_keys.kept_flags(after, was)
            absent = before.absent if isinstance(before, Maybe) else Undefined(name)
            if (is_absent(after) and not is_absent(before)) or (
                    after is None and isinstance(before, Maybe) and absent is None):
                after = placeholder(before, absent)
            elif (isinstance(before, Maybe) or is_absent(before)) \
                    and not isinstance(after, (Maybe, Undefined)):
                after = lifted(after, absent)
            new.append(after)
        return unpack(names, tuple(new))
    return lifting


def _is_maybe(spec):
    data = spec.treedef.node_data()
    return data is not None and data[0] is Maybe
