"""`lax.cond` and `lax.switch` of user branches over named state, with branch merging.

Python reference: `branches[i](*args)` for the branch the selector picks. Each branch is
traced once (runtime.staging.trace); their outputs must agree per variable, except where
Python never reads the value (a branch that raises, or leaves a variable Python does not
read); those are filled with zeros of another branch's types.
"""
import jax
import jax.numpy as jnp
from jax import lax
from jax.extend.core import Literal

from ..checks import checks
from ..checks.absent import Maybe
from ..messages import TWO_WAY, branch_mismatch, unset_on_a_path
from ..checks.raises import on_path
from ..checks.raises import raised as raised_now
from ..protocol import RETURN_VALUE
from ..values.split import Unbound, Undefined, merge, split, unpack
from ..values.varying import varying
from .. import context
from . import cheap, collectives, item_branches, joins
from .joins import Conform, is_absent_spec as _is_absent, is_maybe as _is_maybe, \
    is_none as _is_none
from .trace import State, staging, trace
from ..values.types import aval, cast, promoted, zeros

def cond(pred, if_true, if_false, args, names, location, what='`if`', returned=None,
         unread_if_false=()):
    """`lax.cond` of two user branches that take `args` and return one value per name
    (see `switch`; for `returned` and `unread_if_false`, see `if_stmt`)."""
    returned = {'true': (0,), 'false': (1,)}.get(returned, ())
    return switch(pred, (if_true, if_false), args, names, location, what, returned,
                  unread={1: frozenset(unread_if_false)})


def switch(selector, branches, args, names, location, what='`if`', returned=(),
           labels=TWO_WAY, unread=None):
    """One `lax.cond` over user branches that take `args` and return one value per name.

    `selector` is a boolean for two branches (true, false), as `lax.cond` takes them,
    or an int32 index into `branches`, as `lax.switch` takes it. Each branch is traced
    once, on the path where it is taken (see runtime.checks.raises). A branch that always
    raises, or one of the `returned` ones (taken only after the function returned), may
    leave values undefined: they are filled with zeros of another branch's types (as are
    those Python never reads after branch b, `unread[b]`). `labels` name the branches."""
    names = tuple(names)
    # (Python bools come in as they are: a flag the branches only read decides in Python)
    in_leaves, in_state = State.flatten(range(len(args)), args,
                                        {i for i, a in enumerate(args) if type(a) is bool})
    in_avals = [aval(x) for x in in_leaves]
    errors = checks.current()
    traced, raised = _traced_paths(selector, branches, in_state, in_avals, names)
    layout = None
    if errors is not None:   # the error state: an input, and an output of every branch
        layout = errors.layout
        for t in traced:
            layout = layout.union(t.errors_out)
        in_leaves = in_leaves + errors.leaves()
    out_state, fills, source = _merge_branches(names, traced, raised, set(returned),
                                               (location, what, labels), unread or {})

    avals = [_with_fills(t, out_state, f, source, traced, fills)
             for t, f in zip(traced, fills)]
    targets = _common_types(avals, names, out_state, source, traced,
                            (location, what, labels))

    def run(branch, branch_fills):
        def staged(*leaves):
            outs, error_leaves = branch.split_errors(branch(*leaves))
            outs = _fill_outputs(branch, out_state, branch_fills, outs, targets)
            outs = [cast(v, t) for v, t in zip(outs, targets)]
            if layout is None:
                return outs
            mine = checks.Errors(errors.table, branch.errors_out, error_leaves)
            return outs + mine.leaves(layout)
        return staged

    runs = [run(t, f) for t, f in zip(traced, fills)]
    leaves = _lowered(selector, runs, in_leaves, [t.jaxpr for t in traced], targets,
                      (location, what), any(map(_checks, traced)))
    if layout is not None:
        leaves, error_leaves = leaves[:len(targets)], leaves[len(targets):]
        checks.replace(checks.Errors(errors.table, layout, error_leaves))
    if all(raised):
        raised_now()  # every branch raises (their checks are staged above): so does the `if`
    return out_state.unflatten(_same_flags(leaves, traced))


def _same_flags(leaves, traced):
    """`leaves`, each that every branch gives as the same Python bool that Python bool
    (a flag no branch changes stays a Python value after the statement, as it is on
    every path)."""
    outvars = [t.jaxpr.jaxpr.outvars for t in traced]
    if any(len(out) < len(leaves) for out in outvars):
        return leaves
    leaves = list(leaves)
    for k in range(len(leaves)):
        values = [out[k].val if isinstance(out[k], Literal) else None for out in outvars]
        if all(type(v) is bool for v in values) and len(set(values)) == 1:
            leaves[k] = values[0]
    return leaves


def _traced_paths(selector, branches, in_state, in_avals, names):
    """Each branch traced on the path where it is taken (see runtime.checks.raises), and
    whether it always raises."""
    if len(branches) == 2 and jnp.result_type(selector) == jnp.bool_:
        taken = [lambda: selector, lambda: jnp.logical_not(selector)]
    else:
        taken = [lambda i=i: selector == i for i in range(len(branches))]
    paths = [on_path(branch, lambda *a, taken=t: taken(), _undefined_outputs(names))
             for branch, t in zip(branches, taken)]
    traced = [trace(path, in_state, in_avals, names) for path in paths]
    return traced, [path.raised for path in paths]


def _common_types(avals, names, out_state, source, traced, site):
    """The type of each output leaf that every branch's value promotes to, or the
    error naming the user's variable whose branches disagree. `site`: (location, what,
    labels) of the statement."""
    location, what, labels = site
    targets = []
    for index, candidates in enumerate(zip(*avals)):
        target = candidates[0]
        for b, candidate in enumerate(candidates[1:], 1):
            target = promoted(target, candidate)
            if target is None:
                i = names.index(out_state.leaf_owner(index))
                first = source[i] if source[i] != b else 0
                raise branch_mismatch(names[i], traced[first].values[i],
                                       traced[b].values[i], location, what,
                                       _pair(labels, first, b))
        targets.append(target)
    return targets


def _lowered(selector, runs, in_leaves, jaxprs, targets, site, checked=False):
    """The output leaves of the staged branches `runs`: a select, one item write, or a
    conditional. `site`: (location, what) of the statement; `checked`: whether a branch
    has a check (a `raise`: those stay in a conditional)."""
    two_way = len(runs) == 2 and jnp.result_type(selector) == jnp.bool_
    if any(jaxpr.eqns for jaxpr in jaxprs) and (
            checked or not cheap.selectable(jaxprs, context.current().batch)):
        # Branches that only write a few items: the items selected, one write (see
        # item_branches); else a conditional.
        leaves = item_branches.selected(selector, two_way, runs, in_leaves, jaxprs)
        if leaves is None:
            collectives.check(varying(selector), jaxprs, *site)
            leaves = (lax.cond(selector, *runs, *in_leaves) if two_way
                      else lax.switch(selector, runs, *in_leaves))
        return leaves
    # Every branch only picks existing values or constants (`if c: flag = True`,
    # `elif x == 3: y = 30`), or computes a few element-wise values whose derivatives
    # stay finite on the side not taken (runtime.staging.cheap: `if not did_break:
    # x = x + 1`): a select computes the same values and derivatives without a
    # conditional (and XLA compiles it in time linear in the branches).
    columns = list(zip(*[r(*in_leaves) for r in runs]))
    shapes = [t.shape for t in targets] + [None] * (len(columns) - len(targets))
    return [_select(selector, two_way, [v if shape is None else
                                        jnp.broadcast_to(v, shape) for v in values])
            if any(v is not values[0] for v in values) else values[0]
            for values, shape in zip(columns, shapes)]


def _checks(traced):
    """Whether the branch `traced` changes the error state (has a check)."""
    outvars = traced.jaxpr.jaxpr.outvars
    errors = outvars[len(outvars) - traced.error_count:] if traced.error_count else []
    return any(isinstance(v, Literal) or v not in traced.jaxpr.jaxpr.invars
               for v in errors)


def _optional(i, name, spec, present, absent, traced, fills, site):
    """The spec of output `i`, bound on the `present` branches only: carried as a Maybe,
    checked where it is read (a value that is None on some paths, a result or state: an
    optional value, see runtime.checks.absent). Records the branches' fills."""
    maybes = [spec[b].treedef.node_data()[1] for b in present if _is_maybe(spec[b])]
    marker = (maybes[0] if maybes else None if _is_none(spec[absent[0]])
              else Undefined(name))
    lifted = {b: spec[b] if _is_maybe(spec[b]) else _lifted_spec(spec[b], marker)
              for b in present}
    _agreeing(name, i, lifted, present, traced, site)
    for b in range(len(traced)):
        if b not in present:
            fills[b][i] = FILL
        elif lifted[b] is not spec[b]:
            fills[b][i] = LIFT
    return lifted[present[0]]


def _agreeing(name, i, specs, branches, traced, site):
    """The named error when output `i` (variable `name`) of one of `branches` has another
    spec (`specs[b]`) than the first's. `site`: (location, what, labels)."""
    first = branches[0]
    location, what, labels = site
    for b in branches[1:]:
        if not specs[b].same_as(specs[first]):
            raise branch_mismatch(name, traced[first].values[i], traced[b].values[i],
                                   location, what, _pair(labels, first, b))


def _select(selector, two_way, values):
    """`values[selector]`, or `values[0] if selector else values[1]` when `two_way`."""
    return lax.select(selector, *values) if two_way else lax.select_n(selector, *values)


def guarded(fn, predicate):
    """`fn()` run as staged code on the path where `predicate()` holds (a test after a
    traced one in an `elif` chain): a `raise` in it becomes a run-time check on that
    path (see runtime.checks.raises); one that always raises makes the test False."""
    with staging():
        return checks.guarded(on_path(fn, predicate, lambda: False), predicate)


def _pair(labels, a, b):
    """The labels of branches `a` and `b` (two-way labels when there are two)."""
    return labels if labels == TWO_WAY else (labels[a], labels[b])


def _merge_branches(names, traced, raised, returned, site, unread):
    """(output State, per branch {output index: FILL or LIFT}, per output the branch
    whose types a filled one takes). A branch that always raises fills every output; one
    that leaves the return value undefined (or a variable Python never reads unassigned,
    see analysis.definite), a `returned` branch that leaves a variable undefined, or
    one after which Python never reads it (`unread`) and that gives another type, fills
    that one. A variable that some branches leave without a value and others assign
    becomes a Maybe (runtime.checks.absent): the assigning branches LIFT their value,
    the others FILL it with zeros and a false flag. A closure-visible variable that some
    branches leave unset becomes an `Unbound` marker. The rest must agree."""
    specs, fills, source = [], [{} for _ in traced], []
    live = [b for b, r in enumerate(raised) if not r] or [len(traced) - 1]
    for i, name in enumerate(names):
        spec = [t.state.specs[i] for t in traced]
        defined = [b for b in live if not (_is_unread(spec[b]) or (
            b in returned and _is_undefined(spec[b])))]
        keep = _read_or_alike(i, name, defined, traced, unread) or live[-1:]
        first = keep[0]
        if any(_is_unbound(spec[b]) for b in keep) and any(
                not spec[b].same_as(spec[first]) for b in keep[1:]):
            # A closure-visible variable set on some paths only: bound to a marker after.
            for b in range(len(traced)):
                fills[b][i] = FILL
            specs.append(split(Unbound(name, unset_on_a_path(name, *site[:2])))[1])
            source.append(first)
            continue
        joint = joins.template([spec[b] for b in keep], [_zeros(traced[b], i) for b in keep])
        if joint is not None:   # None in place of a part on some paths (`(None, phi)`), ...
            for b in range(len(traced)):
                fills[b][i] = joint if b in keep else FILL
            specs.append(split(joint.template)[1])
            source.append(first)
            continue
        absent = [b for b in keep if _is_absent(spec[b]) or _is_none(spec[b])]
        if len(absent) < len(keep) and (absent or any(_is_maybe(spec[b]) for b in keep)):
            present = [b for b in keep if b not in absent]
            specs.append(_optional(i, name, spec, present, absent, traced, fills, site))
            source.append(present[0])
            continue
        _agreeing(name, i, spec, keep, traced, site)
        for b in range(len(traced)):
            if b not in keep:
                fills[b][i] = FILL
        specs.append(spec[first])
        source.append(first)
    numpy = frozenset.intersection(*[traced[b].state.numpy for b in live])
    given = frozenset.intersection(*[traced[b].state.arguments for b in live])
    return State(names, specs, numpy=numpy, arguments=given), fills, source


def _read_or_alike(i, name, branches, traced, unread):
    """`branches` less those after which Python never reads `name` (`unread[b]`) whose
    output `i` differs in structure or type from that of one after which it does."""
    read = [b for b in branches if name not in unread.get(b, ())]
    if not read:
        return branches
    first = traced[read[0]]
    return [b for b in branches if b in read or (
        traced[b].state.specs[i].same_as(first.state.specs[i]) and all(
            promoted(a, c) is not None
            for a, c in zip(_output_avals(traced[b], i), _output_avals(first, i))))]


FILL, LIFT = 'fill', 'lift'
"""How a branch gives an output: zeros of the output's types (FILL), or its own value
with a true flag, as a Maybe (LIFT); or in the structure of a `joins.Conform`."""


FLAG = jax.ShapeDtypeStruct((), jnp.bool_)


def _zeros(traced, i):
    """Zeros of the type of output `i` of branch `traced`."""
    return merge(traced.state.specs[i], [zeros(a) for a in _output_avals(traced, i)])


def _lifted_spec(spec, absent):
    """The Spec of a Maybe holding a value of Spec `spec` (see runtime.checks.absent)."""
    value = merge(spec, [0] * spec.dynamic_count)
    return split(Maybe(value, True, absent))[1]


def _undefined_outputs(names):
    """What a branch that always raises returns (see runtime.checks.raises.on_path)."""
    return lambda *args: unpack(names, tuple(Undefined(RETURN_VALUE) for _ in names))


def _is_undefined(spec):
    return len(spec.statics) == 1 and isinstance(spec.statics[0], Undefined)


def _is_unread(spec):
    """An undefined return value, or a variable Python never reads unassigned."""
    return _is_undefined(spec) and spec.statics[0].unread


def _is_unbound(spec):
    return len(spec.statics) == 1 and isinstance(spec.statics[0], Unbound)


def _with_fills(traced, out_state, fills, source, branches, all_fills):
    """Output avals of `traced`, taking those of output i's `source` branch for the
    filled outputs (a lifted one adds its flag)."""
    avals = []
    for i, spec in enumerate(out_state.specs):
        if fills.get(i) == FILL:   # (none when the output is static: an Unbound marker)
            b = source[i]
            avals += _output_avals(branches[b], i, all_fills[b].get(i))[:spec.dynamic_count]
        else:
            avals += _output_avals(traced, i, fills.get(i))
    return avals


def _output_avals(traced, i, fill=None):
    """The avals of output `i` of `traced`, as its `fill` (LIFT or a Conform) gives it."""
    start = sum(spec.dynamic_count for spec in traced.state.specs[:i])
    mine = traced.out_avals()[start:start + traced.state.specs[i].dynamic_count]
    if fill == LIFT:
        return mine + [FLAG]
    if isinstance(fill, Conform):
        return jax.eval_shape(lambda *leaves: fill.leaves(traced.state.specs[i], leaves),
                              *mine)
    return mine


def _fill_outputs(traced, out_state, fills, outs, targets):
    """The outputs of `traced`, with zeros for filled variables in place of its own, and
    a true flag after lifted ones."""
    result, position, start = [], 0, 0
    for i, spec in enumerate(out_state.specs):
        count = spec.dynamic_count
        mine = traced.state.specs[i].dynamic_count
        if fills.get(i) == FILL:
            result += [zeros(t) for t in targets[start:start + count]]
        elif fills.get(i) == LIFT:
            result += outs[position:position + mine] + [jnp.asarray(True)]
        elif isinstance(fills.get(i), Conform):
            result += fills[i].leaves(traced.state.specs[i], outs[position:position + mine])
        else:
            result += outs[position:position + mine]
        position += mine
        start += count
    return result
