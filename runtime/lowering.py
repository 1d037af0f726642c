"""Staging converted branches and loop bodies into `lax.cond`, `lax.while_loop`, `lax.scan`.

Each user function (branch, loop body, loop test) is traced exactly once into a jaxpr with
`jax.make_jaxpr`, so a `print` in it runs once per trace, as with `tf.function`. The
jaxprs are then compared with the user's variable names at hand (for errors that name
them), their types unified the way JAX promotes weak types, and finally evaluated inside
the `lax` primitive, which re-traces the jaxpr and never the user's code.
"""
import contextlib
import dataclasses
import sys
import threading

import jax
import jax.numpy as jnp
from jax import export, lax
from jax._src.lax.lax import _convert_element_type   # lax.convert_element_type, keeping weak
from jax.extend.core import Var

from . import lists, loop_autodiff, slices
from .errors import ControlFlowError, here, where
from .raises import on_path, raise_if
from .raises import raised as raised_now
from .state import (RETURN_VALUE, Unbound, Undefined, describe, grow, merge, pack, split,
                    unpack)

_local = threading.local()


def staged_depth():
    """How many staged branches/bodies are being traced on this thread right now."""
    return getattr(_local, 'depth', 0)


STAGED_HEADROOM = 1000
"""Python frames kept free for tracing one more staged branch or loop body: each staged
level takes about 15 frames of JAX tracing, so 98 nested `if`s on traced values (as deep
as Python nests them) need more than the default recursion limit of 1,000 allows."""

MAX_STAGED_DEPTH = 500
"""The deepest staged branches/bodies nest (the recursion limit grows with them)."""


@contextlib.contextmanager
def _staging():
    depth = staged_depth()
    if depth >= MAX_STAGED_DEPTH:
        raise ControlFlowError(
            f'staged branches and loop bodies are nested more than {MAX_STAGED_DEPTH} deep'
            f'{where(here(3))}: split the function, or make some conditions Python values.')
    _local.depth = depth + 1
    previous = _make_room()
    try:
        yield
    finally:
        _local.depth -= 1
        if previous is not None:
            sys.setrecursionlimit(previous)


def _make_room():
    """Raise the recursion limit to keep STAGED_HEADROOM frames free; the old limit, or
    None when there was room."""
    limit, used = sys.getrecursionlimit(), 0
    frame = sys._getframe()
    while frame is not None and used < limit:
        used += 1
        frame = frame.f_back
    if limit - used >= STAGED_HEADROOM:
        return None
    sys.setrecursionlimit(used + STAGED_HEADROOM)
    return limit


TRACED = object()
"""What `probe` returns for a function whose result is traced."""


def probe(fn, args):
    """`fn(*args)` if its result is a Python value; else TRACED, leaving no equations
    behind (the staged loop evaluates the test again, in its own trace)."""
    record = []

    def sandboxed():
        result = fn(*args)
        record.append(TRACED if isinstance(result, jax.core.Tracer) else result)
        return []
    jax.make_jaxpr(sandboxed)()
    return record[0]


def aval(value):
    t = jax.typeof(value)
    return jax.ShapeDtypeStruct(t.shape, t.dtype, weak_type=t.weak_type)


def _same_type(a, b):
    return a.shape == b.shape and a.dtype == b.dtype and a.weak_type == b.weak_type


def _promoted(a, b):
    """The type JAX gives a value that is `a` on one path and `b` on another, or None.

    A weakly typed value (a Python number) takes the other's dtype as JAX promotes it
    (`jnp.where(c, 0.0, x)` is float32 for a float32 `x`, with or without x64); two
    different strong dtypes do not mix.
    """
    if a.shape != b.shape:
        return None
    if a.dtype == b.dtype:
        return jax.ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type and b.weak_type)
    if not (a.weak_type or b.weak_type):
        return None
    dtype, weak = jax.dtypes.result_type(_operand(a), _operand(b), return_weak_type_flag=True)
    return jax.ShapeDtypeStruct(a.shape, dtype, weak_type=weak)


_PYTHON_SCALARS = {'b': False, 'i': 0, 'u': 0, 'f': 0.0, 'c': 0j}


def _operand(t):
    """What `result_type` promotes like a value of type `t`: a weak type promotes like
    the Python number of its kind (`result_type` ignores ShapeDtypeStruct.weak_type)."""
    return _PYTHON_SCALARS[t.dtype.kind] if t.weak_type else t.dtype


def _cast(value, target):
    """`value` as the type `target` (weak types stay weak, as JAX keeps them)."""
    t = jax.typeof(value)
    if t.dtype == target.dtype and t.weak_type == target.weak_type:
        return value
    return _convert_element_type(value, target.dtype, weak_type=target.weak_type)


def _zeros(target):
    return _cast(jnp.zeros(target.shape, target.dtype), target)


# --- state: a tuple of per-variable values, flattened to leaves -------------------------

@dataclasses.dataclass
class State:
    """Per-variable specs of a flattened state, to map leaves back to variable names."""
    names: tuple
    specs: list

    @classmethod
    def flatten(cls, names, values):
        leaves, specs = [], []
        for value in values:
            dynamic, spec = split(value)
            leaves += dynamic
            specs.append(spec)
        return leaves, cls(tuple(names), specs)

    def unflatten(self, leaves):
        values, start = [], 0
        for spec in self.specs:
            count = spec.dynamic_count
            values.append(merge(spec, leaves[start:start + count]))
            start += count
        return tuple(values)

    def leaf_owner(self, index):
        """The variable name that owns flattened leaf number `index`."""
        for name, spec in zip(self.names, self.specs):
            count = spec.dynamic_count
            if index < count:
                return name
            index -= count
        raise IndexError(index)


@dataclasses.dataclass
class Traced:
    jaxpr: object          # ClosedJaxpr
    state: State           # specs of the outputs, per name
    values: tuple          # descriptions of the outputs, per name (for messages)
    appended: dict         # path -> number of items appended to that list per call

    def out_avals(self):
        return [jax.ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type)
                for a in self.jaxpr.out_avals]

    def __call__(self, *leaves):
        return jax.core.eval_jaxpr(self.jaxpr.jaxpr, self.jaxpr.consts, *leaves)

    def reads_inputs(self):
        """Whether any output depends on the inputs (not only on values closed over)."""
        jaxpr = self.jaxpr.jaxpr
        dependent = set(jaxpr.invars)
        for eqn in jaxpr.eqns:
            if any(isinstance(v, Var) and v in dependent for v in eqn.invars):
                dependent.update(eqn.outvars)
        return any(isinstance(v, Var) and v in dependent for v in jaxpr.outvars)


def trace(fn, in_state, in_avals, out_names, n_extra=0, appending=None):
    """Trace `fn(*extra, *state values)` once; it returns one value per name in `out_names`.

    `in_avals` are the avals of the `n_extra` leading arguments (loop items) followed by
    the state leaves. With `appending` (the state's values as they came into the loop),
    lists in the state may grow by `append`: the appended items are returned after the
    carried leaves, as per-iteration outputs (see runtime.lists).
    """
    record = {}

    def flat(*leaves):
        args = in_state.unflatten(list(leaves[n_extra:]))
        if appending is not None:
            args = lists.mark(out_names, args, appending)
        out = pack(out_names, fn(*leaves[:n_extra], *args))
        appended, extra = {}, []
        if appending is not None:
            out, appended, extra = lists.split(out_names, args, out)
        out_leaves, out_state = State.flatten(out_names, out)
        record['traced'] = (out_state, tuple(describe(v) for v in out), appended)
        return out_leaves + extra

    with _staging():
        jaxpr = jax.make_jaxpr(flat)(*in_avals)
    return Traced(jaxpr, *record['traced'])


# --- errors -----------------------------------------------------------------------------

TWO_WAY = ('true', 'false')
"""How errors name the two branches of an `if`."""


def _branch_mismatch(name, true_value, false_value, location, what, labels=TWO_WAY):
    """The error for variable `name` differing between two branches, called by `labels`
    ('true'/'false', or '2nd'/'`else`' in a chain)."""
    a, b = labels
    every = 'both branches' if labels == TWO_WAY else 'every branch'
    statement = location.source_line() if location else ''
    if what == 'conditional expression' and statement.startswith(_COMPOUND):
        name = RETURN_VALUE  # `if c: return a` + `return b` (see passes.returns)
    if name == RETURN_VALUE:
        label, true_value, false_value = _where_differs('the return value', true_value,
                                                        false_value)
        ends = (' (`return None`, or the end of the function)'
                if 'None' in (true_value, false_value) else '')
        return ControlFlowError(
            f'{label} is {true_value} on one path but {false_value} on another{ends}: the '
            f'paths part{where(location)} (`{statement}`), where a condition is traced, so '
            f'every path must return a value of the same shape, dtype and structure.')
    if what == 'conditional expression':
        name, true_value, false_value = _where_differs('the value', true_value, false_value)
        when = (f'when its condition is true but {false_value} when it is false'
                if labels == TWO_WAY else f'in its {a} branch but {false_value} in its {b}')
        return ControlFlowError(
            f'the conditional expression{where(location)} (`{statement}`) gives {name} '
            f'{true_value} {when}. The condition is traced, so '
            f'{"both" if labels == TWO_WAY else "every branch"} must have the same shape, '
            f'dtype and structure.')
    if 'undefined' in (true_value, false_value):
        assigned, other = (a, b) if false_value == 'undefined' else (b, a)
        return ControlFlowError(
            f"'{name}' is assigned in the {assigned} branch of the {what}{where(location)} "
            f"but not in the {other} branch, and it is used after the {what}. The condition "
            f"is traced (its value is known only when the program runs), so {every} "
            f"must give '{name}' a value: assign it before the {what} or in {every}.")
    label, true_value, false_value = _where_differs(f"'{name}'", true_value, false_value)
    static = (' (its non-array parts differ: attributes or metadata that JAX keeps static, '
              'such as Python numbers stored in a pytree)' if true_value == false_value else '')
    return ControlFlowError(
        f"{label} is {true_value} in the {a} branch but {false_value} in the {b} branch "
        f"of the {what}{where(location)}{static}. With a traced condition {every} must "
        f"give '{name}' the same shape, dtype and structure.")


def _unset_on_a_path(name, location, what):
    return (f"'{name}' is assigned on only some paths of the {what}{where(location)}, whose "
            f"condition is traced, and it is read after it (by a closure or a later "
            f"statement). Python would raise NameError on the paths that leave it unset; "
            f"here the path is known only when the program runs: assign '{name}' before the "
            f"{what} or on every path.")


_COMPOUND = ('if ', 'elif ', 'else', 'case ', 'while ', 'for ', 'with ', 'try', 'async ')
"""How the line of a lowered `if ...: return` starts (not a conditional expression)."""


def _where_differs(label, a, b):
    """(label, a, b) narrowed to the first part of two described values that differs:
    `'y['b']'`, or a key that one of them has and the other has not."""
    a_leaves, b_leaves = getattr(a, 'leaves', {}), getattr(b, 'leaves', {})
    if not (a_leaves or b_leaves) or a.partition(' of ')[0] != b.partition(' of ')[0]:
        return label, a, b
    if a != b and not a.startswith('dict'):
        return label, a, b  # sequences of different lengths: 'list of 1' says it
    for path in list(a_leaves) + list(b_leaves):
        if path not in b_leaves:
            return _with_path(label, path), a_leaves[path], 'missing'
        if path not in a_leaves:
            return _with_path(label, path), 'missing', b_leaves[path]
    for path, text in a_leaves.items():
        if b_leaves[path] != text:
            return _with_path(label, path), text, b_leaves[path]
    return label, a, b


def _with_path(label, path):
    """`'d'` and `['a']['b']` -> `'d['a']['b']'`: the part named as the user writes it."""
    if len(label) > 1 and label[0] == label[-1] == "'":
        return f"'{label[1:-1]}{path}'"
    return f'{label}{path}'


def _carry_mismatch(name, before, after, location, hint=''):
    if before == 'undefined':
        return ControlFlowError(
            f"'{name}' has no value before the staged loop{where(location)} but is assigned "
            f"in it and used after it or by the next iteration. The loop is staged (its "
            f"condition or iterable is traced), so '{name}' needs a value of its final shape "
            f"and dtype before the loop starts: initialise it before the loop.")
    quoted = 'the return value' if name == RETURN_VALUE else f"'{name}'"
    label, before, after = _where_differs(quoted, before, after)
    return ControlFlowError(
        f"{label} is {before} before the staged loop{where(location)} but {after} after one "
        f"iteration. A staged loop carries each variable with a fixed shape, dtype and "
        f"structure; {hint or _carry_fix(name, before, after)}.")


def _carry_fix(name, before, after):
    shape_before, shape_after = before.partition('[')[2], after.partition('[')[2]
    if '[' in before and '[' in after and shape_before != shape_after:
        return (f"'{name}' cannot change shape: preallocate it with its final shape and "
                f"fill it with {name}.at[...].set(...)")
    if '[' in after and '[' in before:
        dtype = after.split('[')[0]
        return (f"initialise '{name}' before the loop as {dtype} "
                f"(for example jnp.{dtype}(0) or jnp.zeros(shape, jnp.{dtype}))")
    return (f"give '{name}' before the loop the same kind of value it has after an "
            f"iteration ({after})")


# --- cond -------------------------------------------------------------------------------

def predicate(cond, location, what):
    """A traced condition as a boolean scalar, or a clear error for arrays."""
    shape = jnp.shape(cond)
    if shape != ():
        raise ControlFlowError(
            f'the condition of the {what}{where(location)} is an array of shape {shape}; '
            f'a condition must be a scalar. Reduce it with jnp.any(...) or jnp.all(...).')
    cond = jnp.asarray(cond)
    return cond if cond.dtype == jnp.bool_ else cond != 0


def cond(pred, if_true, if_false, args, names, location, what='`if`', returned=None):
    """`lax.cond` of two user branches that take `args` and return one value per name
    (see `switch`; `returned` is 'true' or 'false', see `if_stmt`)."""
    returned = {'true': (0,), 'false': (1,)}.get(returned, ())
    return switch(pred, (if_true, if_false), args, names, location, what, returned)


def switch(selector, branches, args, names, location, what='`if`', returned=(),
           labels=TWO_WAY):
    """One `lax.cond` over user branches that take `args` and return one value per name.

    `selector` is a boolean for two branches (true, false), as `lax.cond` takes them,
    or an int32 index into `branches`, as `lax.switch` takes it. Each branch is traced
    once, on the path where it is taken (see runtime.raises). A branch that always
    raises, or one of the `returned` ones (taken only after the function returned), may
    leave values undefined: they are filled with zeros of another branch's types.
    `labels` name the branches in errors.
    """
    names = tuple(names)
    in_leaves, in_state = State.flatten(range(len(args)), args)
    in_avals = [aval(x) for x in in_leaves]
    if len(branches) == 2 and jnp.result_type(selector) == jnp.bool_:
        taken = [lambda: selector, lambda: jnp.logical_not(selector)]
    else:
        taken = [lambda i=i: selector == i for i in range(len(branches))]
    paths = [on_path(branch, lambda *a, taken=t: taken(), _undefined_outputs(names))
             for branch, t in zip(branches, taken)]
    traced = [trace(path, in_state, in_avals, names) for path in paths]
    raised = [path.raised for path in paths]
    out_state, fills, source = _merge_branches(names, traced, raised, set(returned),
                                               location, what, labels)

    avals = [_with_fills(t, out_state, f, source, traced) for t, f in zip(traced, fills)]
    targets = []
    for index, candidates in enumerate(zip(*avals)):
        target = candidates[0]
        for b, candidate in enumerate(candidates[1:], 1):
            target = _promoted(target, candidate)
            if target is None:
                i = names.index(out_state.leaf_owner(index))
                first = source[i] if source[i] != b else 0
                raise _branch_mismatch(names[i], traced[first].values[i],
                                       traced[b].values[i], location, what,
                                       _pair(labels, first, b))
        targets.append(target)

    def run(branch, branch_fills):
        def staged(*leaves):
            outs = _fill_outputs(branch, out_state, branch_fills, list(branch(*leaves)),
                                 targets)
            return [_cast(v, t) for v, t in zip(outs, targets)]
        return staged

    runs = [run(t, f) for t, f in zip(traced, fills)]
    two_way = len(runs) == 2 and jnp.result_type(selector) == jnp.bool_
    if any(t.jaxpr.eqns for t in traced):
        leaves = (lax.cond(selector, *runs, *in_leaves) if two_way
                  else lax.switch(selector, runs, *in_leaves))
    else:
        # Every branch only picks existing values or constants (`if c: flag = True`,
        # `elif x == 3: y = 30`): a select computes the same values and derivatives
        # without a conditional (and XLA compiles it in time linear in the branches).
        columns = zip(*[r(*in_leaves) for r in runs])
        leaves = [_select(selector, two_way, [jnp.broadcast_to(v, t.shape) for v in values])
                  if any(v is not values[0] for v in values) else values[0]
                  for values, t in zip(columns, targets)]
    if all(raised):
        raised_now()  # every branch raises (their checks are staged above): so does the `if`
    return out_state.unflatten(leaves)


def _select(selector, two_way, values):
    """`values[selector]`, or `values[0] if selector else values[1]` when `two_way`."""
    return lax.select(selector, *values) if two_way else lax.select_n(selector, *values)


def guarded(fn, predicate):
    """`fn()` run as staged code on the path where `predicate()` holds (a test after a
    traced one in an `elif` chain): a `raise` in it becomes a run-time check on that
    path (see runtime.raises); one that always raises makes the test False."""
    with _staging():
        return on_path(fn, predicate, lambda: False)()


def _pair(labels, a, b):
    """The labels of branches `a` and `b` (two-way labels when there are two)."""
    return labels if labels == TWO_WAY else (labels[a], labels[b])


def _merge_branches(names, traced, raised, returned, location, what, labels):
    """(output State, per branch the output indices it leaves to be filled, per output
    the branch whose types a filled one takes). A branch that always raises fills every
    output; one that leaves the return value undefined (or a variable Python never reads
    unassigned, see analysis.definite), or a `returned` branch that leaves a variable
    undefined, fills that one. A closure-visible variable that some branches leave unset
    becomes an `Unbound` marker. The rest must agree."""
    specs, fills, source = [], [set() for _ in traced], []
    live = [b for b, r in enumerate(raised) if not r] or [len(traced) - 1]
    for i, name in enumerate(names):
        spec = [t.state.specs[i] for t in traced]
        defined = [b for b in live if not (_is_unread(spec[b]) or (
            b in returned and _is_undefined(spec[b])))]
        keep = defined or live[-1:]
        first = keep[0]
        if any(_is_unbound(spec[b]) for b in keep) and any(
                not spec[b].same_as(spec[first]) for b in keep[1:]):
            # A closure-visible variable set on some paths only: bound to a marker after.
            for b in range(len(traced)):
                fills[b].add(i)
            specs.append(split(Unbound(name, _unset_on_a_path(name, location, what)))[1])
            source.append(first)
            continue
        for b in keep[1:]:
            if not spec[b].same_as(spec[first]):
                raise _branch_mismatch(name, traced[first].values[i], traced[b].values[i],
                                       location, what, _pair(labels, first, b))
        for b in range(len(traced)):
            if b not in keep:
                fills[b].add(i)
        specs.append(spec[first])
        source.append(first)
    return State(names, specs), fills, source


def _undefined_outputs(names):
    """What a branch that always raises returns (see runtime.raises.on_path)."""
    return lambda *args: unpack(names, tuple(Undefined(RETURN_VALUE) for _ in names))


def _is_undefined(spec):
    return len(spec.statics) == 1 and isinstance(spec.statics[0], Undefined)


def _is_unread(spec):
    """An undefined return value, or a variable Python never reads unassigned."""
    return _is_undefined(spec) and spec.statics[0].unread


def _is_unbound(spec):
    return len(spec.statics) == 1 and isinstance(spec.statics[0], Unbound)


def _with_fills(traced, out_state, fills, source, branches):
    """Output avals of `traced`, taking those of output i's `source` branch for the
    filled outputs."""
    avals, position = [], 0
    mine = traced.out_avals()
    for i, spec in enumerate(out_state.specs):
        if i in fills:   # (none when the output is static: an Unbound marker)
            avals += _output_avals(branches[source[i]], i)[:spec.dynamic_count]
        else:
            count = traced.state.specs[i].dynamic_count
            avals += mine[position:position + count]
        position += traced.state.specs[i].dynamic_count
    return avals


def _output_avals(traced, i):
    """The avals of output `i` of `traced`."""
    start = sum(spec.dynamic_count for spec in traced.state.specs[:i])
    return traced.out_avals()[start:start + traced.state.specs[i].dynamic_count]


def _fill_outputs(traced, out_state, fills, outs, targets):
    """The outputs of `traced`, with zeros for filled variables in place of its own."""
    result, position, start = [], 0, 0
    for i, spec in enumerate(out_state.specs):
        count = spec.dynamic_count
        mine = traced.state.specs[i].dynamic_count
        if i in fills:
            result += [_zeros(t) for t in targets[start:start + count]]
        else:
            result += outs[position:position + mine]
        position += mine
        start += count
    return result


# --- loops ------------------------------------------------------------------------------

def _carried(body, names, values, location, item_avals=(), allow_append=False):
    """Trace a loop body until the types it carries settle (weak types promote as in JAX).

    Returns (traced body, initial leaves, state). A variable that starts undefined (the
    loop creates it; a return value) takes zeros of the type the body gives it, as in
    TensorFlow: after a loop that ran it has the body's value (after a staged loop that
    ran zero times, zeros). Reading it in the body before assigning it is an error.
    """
    sources, values = tuple(values), lists.plain(values)
    for _ in range(4):
        leaves, state = State.flatten(names, values)
        try:
            traced = trace(body, state, list(item_avals) + [aval(x) for x in leaves],
                           names, n_extra=len(item_avals),
                           appending=sources if allow_append else None)
        except UnboundLocalError as error:   # the body reads a variable it creates
            if Undefined(error.name) not in values:
                raise
            raise _carry_mismatch(error.name, 'undefined', None, location) from None
        values, changed = _reconcile(names, values, state, traced, location)
        if not changed:
            return traced, leaves, state
    raise ControlFlowError(f'the types carried by the loop{where(location)} do not settle')


def _reconcile(names, values, state, traced, location):
    """Initial values adjusted to what one iteration produces, or a named error."""
    new_values, changed = [], False
    outs = iter(traced.out_avals())
    for name, value, spec, out_spec, after in zip(
            names, values, state.specs, traced.state.specs, traced.values):
        out_avals = [next(outs) for _ in range(out_spec.dynamic_count)]
        if not spec.same_as(out_spec):
            # A variable (or dict key) the loop creates takes its type from the body.
            grown = grow(value, merge(out_spec, [_zeros(a) for a in out_avals]))
            if grown is not None and split(grown)[1].same_as(out_spec):
                new_values.append(grown)
                changed = True
                continue
            raise _carry_mismatch(name, describe(value), after, location,
                                  _list_hint(name, value))
        leaves, _ = split(value)
        cast_leaves = []
        for leaf, out in zip(leaves, out_avals):
            before = aval(leaf)
            target = _promoted(before, out)
            if target is None:
                raise _carry_mismatch(name, describe(value), after, location)
            if not _same_type(target, before):
                leaf, changed = _cast(jnp.asarray(leaf), target), True
            cast_leaves.append(leaf)
        new_values.append(merge(spec, cast_leaves))
    return tuple(new_values), changed


def _list_hint(name, value):
    if isinstance(value, list):
        return (f"a staged loop without a fixed trip count (a while loop, a loop with break, "
                f"or a range with a traced bound) cannot collect values in a list: use a for "
                f"loop over an array or a static range, or write into a preallocated array "
                f"with {name} = {name}.at[i].set(value)")
    return ''


def _test_function(test, state, leaves, location, what):
    """Trace a loop test over the state; returns a function of the leaves -> bool scalar."""
    traced = trace(test, state, [aval(x) for x in leaves], ('condition',))
    (out,) = traced.out_avals() or [None]
    if out is None:
        raise ControlFlowError(f'the condition of the {what}{where(location)} is not a value')
    if out.shape != ():
        raise ControlFlowError(
            f'the condition of the {what}{where(location)} is an array of shape {out.shape}; '
            f'a condition must be a scalar. Reduce it with jnp.any(...) or jnp.all(...).')

    def run(*leaves):
        (value,) = traced(*leaves)
        return value if value.dtype == jnp.bool_ else value != 0
    run.reads_state = traced.reads_inputs()
    return run


def _caster(traced, targets):
    """Run a traced body: (carried outputs cast to their loop types, per-iteration outputs)."""
    def run(*leaves):
        outs = traced(*leaves)
        return [_cast(v, t) for v, t in zip(outs, targets)], outs[len(targets):]
    return run


def while_loop(test, body, values, names, location, maximum_iterations=None):
    """A while loop (see loop_autodiff: reverse-differentiable by default) of a user test
    and body over the named state.

    With `maximum_iterations`, a `lax.scan` of that length with a done flag instead, which
    can be differentiated in reverse mode.

    A test that reads nothing the loop changes is true in every iteration or in none:
    Python would loop forever, and so would the compiled loop. The program then raises a
    ControlFlowError when the test is true, and otherwise runs no iteration.
    """
    names = tuple(names)
    traced, leaves, state = _carried(body, names, values, location)
    test_fn = _test_function(test, state, leaves, location, '`while` loop')
    if maximum_iterations is None and not test_fn.reads_state:
        raise_if(test_fn(*leaves), _never_ends, (location,))
        return state.unflatten(leaves)
    targets = [aval(x) for x in leaves]
    step = _caster(traced, targets)
    if maximum_iterations is None:
        out = _retyped(loop_autodiff.while_loop(
            lambda c: test_fn(*c), lambda c: step(*c)[0], leaves), targets)
    else:
        out = _bounded(test_fn, lambda *c: step(*c)[0], leaves, maximum_iterations)
    return state.unflatten(out)


def _never_ends(location):
    return ControlFlowError(
        f'the `while` loop{where(location)} never ends: its condition is true, and it reads '
        f'no variable that the loop changes, so it stays true and the compiled loop could '
        f'never stop. Make the body change what the condition reads, or `break` out of it.')


def _retyped(leaves, targets):
    """A loop's results with the carried types (a checkpointed loop drops weak types)."""
    return [_cast(leaf, t) for leaf, t in zip(leaves, targets)]


def _bounded(test_fn, step, leaves, length):
    """Up to `length` iterations as a scan; iterations after the test fails do nothing."""
    def scan_step(carry, _):
        done, leaves = carry
        go = jnp.logical_and(jnp.logical_not(done), test_fn(*leaves))
        leaves = lax.cond(go, lambda c: list(step(*c)), lambda c: list(c), leaves)
        return (jnp.logical_not(go), leaves), None
    (_, out), _ = lax.scan(scan_step, (jnp.asarray(False), list(leaves)), None, length=length)
    return out


def _index_type():
    """The type of a staged loop's index: a weak int, like the Python ints of a `range`
    (int64 under x64, so it is read when the loop is staged)."""
    return aval(0)


def scan_loop(length, sequences, make_item, body, values, names, location,
              extra_test=None, indexed=True, require_traced=False):
    """A `for` over `length` items as `lax.scan`; items are `make_item(k, *slices)`, where
    `k` counts iterations (carried only when `indexed`).

    Lists that the body appends to collect the appended items as the scan's outputs
    (see runtime.lists).
    With `extra_test` (a `break`), the iterations after it fails do nothing. With
    `require_traced`, raises NothingTraced when the body computes nothing from traced
    values (see NothingTraced).
    """
    names = tuple(names)
    n_seq = len(sequences)
    index = _index_type()
    item_avals = [index] + [
        jax.ShapeDtypeStruct(jnp.shape(s)[1:], jnp.result_type(s)) for s in sequences]

    def body_of_item(k, *rest):
        return body(make_item(k, *rest[:n_seq]), *rest[n_seq:])

    traced, leaves, state = _carried(body_of_item, names, values, location, item_avals,
                                     allow_append=extra_test is None)
    if require_traced:
        _require_traced(traced)
    if indexed:   # reads xs[k] become slices of the scan (see runtime.slices)
        jaxpr, sources, indexed = slices.hoist(traced.jaxpr, length)
        traced = dataclasses.replace(traced, jaxpr=jaxpr)
        sequences = [*sources, *sequences]
    targets = [aval(x) for x in leaves]
    step = _caster(traced, targets)
    first = _cast(jnp.asarray(0), index) if indexed else None
    n_xs, scan_length = len(sequences), length
    if export.is_symbolic_dim(length):   # symbolic (jax.export): lax.scan takes it from xs
        sequences, scan_length = [*sequences, lax.iota(jnp.int32, length)], None
    if extra_test is None:
        def scan_step(carry, xs):
            k, leaves = carry
            new, ys = step(0 if k is None else k, *xs[:n_xs], *leaves)
            return (None if k is None else k + 1, new), ys
        (_, out), ys = lax.scan(scan_step, (first, list(leaves)), list(sequences),
                                length=scan_length)
    else:
        test_fn = _test_function(extra_test, state, leaves, location, '`for` loop')

        def scan_step(carry, xs):
            k, done, leaves = carry
            go = jnp.logical_and(jnp.logical_not(done), test_fn(*leaves))
            index = 0 if k is None else k
            new = lax.cond(go, lambda c: step(index, *xs[:n_xs], *c)[0],
                           lambda c: list(c), leaves)
            return (None if k is None else k + 1, jnp.logical_not(go), new), None
        (_, _, out), ys = lax.scan(
            scan_step, (first, jnp.asarray(False), list(leaves)), list(sequences),
            length=scan_length)
    result = list(state.unflatten(out))
    return lists.extend(values, result, traced.appended, ys or [], length)


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
    index = _index_type()
    traced, leaves, state = _carried(body, names, values, location, [index])
    if require_traced:
        _require_traced(traced)
    targets = [aval(x) for x in leaves]
    run = _caster(traced, targets)
    test_fn = (_test_function(extra_test, state, leaves, location, '`for` loop')
               if extra_test is not None else None)

    def cond_fun(carry):
        i, leaves = carry
        if isinstance(step, int):
            more = i < stop if step > 0 else i > stop
        else:
            more = jnp.where(step > 0, i < stop, i > stop)
        return more if test_fn is None else jnp.logical_and(more, test_fn(*leaves))

    def body_fun(carry):
        i, leaves = carry
        return _cast(i + step, index), run(i, *leaves)[0]

    bound = len(range(start, stop, step)) if _all_python(start, stop, step) else None
    _, out = loop_autodiff.while_loop(cond_fun, body_fun,
                                      (_cast(jnp.asarray(start), index), list(leaves)), bound)
    return state.unflatten(_retyped(out, targets))


def _all_python(*values):
    return all(isinstance(v, int) for v in values)
