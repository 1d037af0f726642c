"""Staged branches that only write a few items of an array: the items selected, then
one write, instead of a `lax.cond` over the whole array.

Python reference: `branches[selector](*state)`. For

    if a[j] > a[j + 1]:
        a[j], a[j + 1] = a[j + 1], a[j]

a `lax.cond` returns the whole array from each branch, and inside a compiled loop XLA
copies the carried array for it on every iteration (O(n) per step where Python's step
is O(1)). When every branch is small, the branches are computed side by side instead:

- each large output is either the branch's input unchanged or that input with one write
  (`lax.dynamic_update_slice`, or a scatter that drops indices out of range, as
  `x.at[i].set(v)` and `ag.setitems` give) of a few items; all writing branches write
  the same kind and shape of block;
- everything else the branches compute has few items (`SMALL`) and is made of
  primitives that cannot fail, have effects or give infinite derivatives (`CHEAP`), so
  computing a branch Python does not take changes no value nor any derivative.

The written blocks and the small outputs are then chosen by `lax.select` from the
branch the selector picks, and each large output is written once: a branch that keeps
the array writes back the items it holds (or, for a scatter, indices out of range).
Where one branch writes several large arrays, or the branches also give small values
that differ, the writes and those values are given by one conditional after everything
else, so that XLA reads before it writes in place (`_in_a_conditional`). Anything else
stays a `lax.cond` (runtime.staging.branches).
"""
import math

import jax.numpy as jnp
import numpy as np
from jax import lax, make_jaxpr
from jax.extend.core import Literal

from .. import context

SMALL = 64
"""The most items a value computed in a branch side by side may have."""

CHEAP = frozenset({
    'add', 'sub', 'mul', 'neg', 'max', 'min', 'abs', 'sign', 'select_n', 'eq', 'ne', 'lt',
    'le', 'gt', 'ge', 'and', 'or', 'not', 'xor', 'convert_element_type', 'dynamic_slice',
    'dynamic_update_slice', 'slice', 'squeeze', 'broadcast_in_dim', 'reshape',
    'concatenate', 'iota', 'copy', 'copy_p', 'integer_pow', 'clamp', 'gather', 'scatter',
    'reduce_max', 'reduce_min', 'reduce_or', 'reduce_and', 'floor', 'ceil', 'round',
    'stop_gradient', 'square', 'pjit', 'jit', 'closed_call',
})
"""Primitives a branch computed side by side may use (on values of at most SMALL items)."""

_WRITES = ('dynamic_update_slice', 'scatter')
_READS = ('dynamic_slice', 'gather', 'slice', 'pjit', 'jit', 'closed_call')
"""Primitives that may take a large value: they read a few of its items (or, calling a
jaxpr, are checked equation by equation)."""


def selected(selector, two_way, runs, in_leaves, branch_jaxprs):
    """The leaves `lax.cond`/`lax.switch` of `runs` would give, computed as selected
    items and one write per large output; None when some branch is not of that form,
    or none writes items of a large output. `branch_jaxprs` are the branches' own
    ClosedJaxprs (`runs` wrap them)."""
    batch = context.current().batch
    if not any(eqn.primitive.name in _WRITES and _size(eqn.outvars[0]) * batch > SMALL
               for closed in branch_jaxprs for eqn in closed.jaxpr.eqns):
        return None   # (no branch writes items of a large value: not traced again)
    jaxprs = [make_jaxpr(run)(*in_leaves) for run in runs]
    plans = [_plan(closed.jaxpr, batch) for closed in jaxprs]
    if any(plan is None for plan in plans):
        return None
    large = set().union(*[plan.keys() for plan in plans])
    writers = {k: [b for b, plan in enumerate(plans) if plan.get(k, (None,))[0] == 'write']
               for k in large}
    if not any(writers.values()):
        return None   # (no item written: a conditional, as for any other branches)
    for k in large:
        if not _compatible([plans[b].get(k) for b in range(len(plans))], writers[k]):
            return None
    outs = [_evaluate(closed, plan, in_leaves) for closed, plan in zip(jaxprs, plans)]
    written = [k for k in sorted(large) if writers[k]]
    varying = [k for k in range(len(outs[0])) if k not in large
               and any(out[k] is not outs[0][k] for out in outs)]
    chosen = {}
    if (batch == 1 and (len(written) > 1 or varying)
            and len({b for k in written for b in writers[k]}) == 1):
        chosen = _in_a_conditional(selector, two_way, plans, outs, written,
                                   writers[written[0]][0], varying)
    leaves = []
    for k in range(len(outs[0])):
        if k in chosen:
            leaves.append(chosen[k])
        elif k in varying:
            leaves.append(_select(selector, two_way, [out[k] for out in outs]))
        elif k not in large or not writers[k]:
            leaves.append(outs[0][k])
        else:
            leaves.append(_one_write(selector, two_way, plans, outs, k, writers[k]))
    return leaves


def _plan(jaxpr, batch):
    """Per large output: ('keep', input position) or ('write', input position, eqn); None
    when the branch computes something else large, or something not CHEAP. In the body
    of vectorised loops running `batch` iterations side by side, an output is large when
    all of them together are (vmapped, a conditional would select every item of it)."""
    positions = {v: i for i, v in enumerate(jaxpr.invars)}
    uses = {}
    for eqn in jaxpr.eqns:
        for v in eqn.invars:
            if not _literal(v):
                uses[v] = uses.get(v, 0) + 1
    for v in jaxpr.outvars:
        if not _literal(v):
            uses[v] = uses.get(v, 0) + 1
    producer = {v: eqn for eqn in jaxpr.eqns for v in eqn.outvars}
    plan, writes = {}, set()
    for k, v in enumerate(jaxpr.outvars):
        if _literal(v) or _size(v) * batch <= SMALL:
            continue
        if v in positions:
            plan[k] = ('keep', positions[v])
            continue
        eqn = producer.get(v)
        if (eqn is None or eqn.primitive.name not in _WRITES or uses[v] != 1
                or _literal(eqn.invars[0]) or eqn.invars[0] not in positions
                or any(_size(x) > SMALL for x in eqn.invars[1:])
                or (eqn.primitive.name == 'scatter'
                    and 'FILL_OR_DROP' not in str(eqn.params['mode']))):
            return None
        plan[k] = ('write', positions[eqn.invars[0]], eqn)
        writes.add(id(eqn))
    if not all(_cheap(eqn) for eqn in jaxpr.eqns if id(eqn) not in writes):
        return None
    return plan


def _cheap(eqn):
    """Whether `eqn` is CHEAP, on values of at most SMALL items (reads of a few items of
    a large value excepted), and a power only to a positive exponent."""
    name = eqn.primitive.name
    if name not in CHEAP or eqn.effects or (name == 'integer_pow' and eqn.params['y'] <= 0):
        return False
    if any(_size(v) > SMALL for v in eqn.outvars):
        return False
    if name not in _READS and any(_size(v) > SMALL for v in eqn.invars):
        return False
    for param in eqn.params.values():
        inner = getattr(param, 'jaxpr', param)
        if hasattr(inner, 'eqns') and not all(map(_cheap, inner.eqns)):
            return False
    return True


def _compatible(entries, writers):
    """Whether the branches' entries for one large output keep or write the same input,
    the writers with the same primitive, parameters and shapes."""
    if any(e is None for e in entries) or len({e[1] for e in entries}) != 1:
        return False
    if not writers:
        return True
    first = entries[writers[0]][2]
    for b in writers[1:]:
        eqn = entries[b][2]
        if eqn.primitive is not first.primitive or eqn.params != first.params or [
                (v.aval.shape, v.aval.dtype) for v in eqn.invars] != [
                (v.aval.shape, v.aval.dtype) for v in first.invars]:
            return False
    return True


def _evaluate(closed, plan, leaves):
    """The branch's outputs, each large written one as the operands of its write."""
    env = dict(zip(closed.jaxpr.constvars, closed.consts))
    env.update(zip(closed.jaxpr.invars, leaves))

    def read(v):
        return v.val if _literal(v) else env[v]
    skipped = {id(entry[2]) for entry in plan.values() if entry[0] == 'write'}
    for eqn in closed.jaxpr.eqns:
        if id(eqn) in skipped:
            continue
        outs = _bind(eqn, *map(read, eqn.invars))
        env.update(zip(eqn.outvars, outs if eqn.primitive.multiple_results else [outs]))
    result = []
    for k, v in enumerate(closed.jaxpr.outvars):
        entry = plan.get(k)
        if entry is not None and entry[0] == 'write':
            result.append([read(x) for x in entry[2].invars])
        else:   # (a constant or a Python number passed through: an array of its type)
            value = read(v)
            result.append(value if hasattr(value, 'dtype')
                          else np.asarray(value, v.aval.dtype))
    return result


def _one_write(selector, two_way, plans, outs, k, writers):
    """Output k written once: the operands of the taken branch's write (a keeping branch
    writes back the items the first writer's block holds, or drops its scatter)."""
    eqn = plans[writers[0]][k][2]
    model = outs[writers[0]][k]
    operand = model[0]
    choices = []
    for b, out in enumerate(outs):
        if b in writers:
            choices.append(out[k][1:])
        elif eqn.primitive.name == 'dynamic_update_slice':
            update, starts = model[1], model[2:]
            choices.append([lax.dynamic_slice(operand, starts, update.shape), *starts])
        else:   # a scatter that drops out-of-range indices: one past the largest axis
            indices, updates = model[1], model[2]
            choices.append([jnp.full(indices.shape, max(operand.shape), indices.dtype),
                            jnp.zeros_like(updates)])
    operands = [_select(selector, two_way, [c[i] for c in choices])
                for i in range(len(choices[0]))]
    return _bind(eqn, operand, *operands)


def _in_a_conditional(selector, two_way, plans, outs, written, writer, varying):
    """Outputs `written` (arrays only branch `writer` writes) and `varying` (small values
    that differ between the branches) given by one conditional: `if selector picks
    writer: <its writes and small values> else: <the arrays, the selected values>`,
    everything else computed side by side before it.

    Selected items written once are enough for one array and nothing else, but the items
    that choose the branch are usually read from the array (`if cost < D[i, j]: D[i, j]
    = cost; steps[i, j] = k`). XLA fuses such a read into every value that needs it, the
    other array's write or a selected small value included, cannot order it before the
    array's own write, and copies the array on every step. A conditional's operands are
    computed before it runs, so every read comes first. (Where several branches write,
    XLA copies the arrays of conditionals that write different arrays: those stay
    selected, `_one_write`.) Returns {output position: leaf}."""
    smalls = [_uniform([out[k] for out in outs]) for k in varying]
    others = [_select(selector, two_way, values) for values in smalls]
    if two_way:
        taken = selector if writer == 0 else ~selector
    else:
        taken = lax.clamp(0, selector, len(outs) - 1) == writer

    def write(arrays, operands, _):
        return ([_bind(plans[writer][k][2], array, *ops)
                 for k, array, ops in zip(written, arrays, operands)],
                [values[writer] for values in smalls])
    arrays, values = lax.cond(
        taken, write, lambda arrays, _, others: (arrays, others),
        [outs[writer][k][0] for k in written], [outs[writer][k][1:] for k in written],
        others)
    return dict(zip(written + varying, arrays + values))


def _bind(eqn, *args):
    """`eqn`'s primitive applied to `args` (JAX 0.7 gives its bind parameters with the
    functions to pass before the arguments)."""
    bound = eqn.primitive.get_bind_params(eqn.params)
    subfuns, params = bound if isinstance(bound, tuple) else ((), bound)
    return eqn.primitive.bind(*subfuns, *args, **params)


def _select(selector, two_way, values):
    values = _uniform(values)
    return lax.select(selector, *values) if two_way else lax.select_n(selector, *values)


def _uniform(values):
    """`values` of one dtype and shape (the first's dtype, their broadcast shape)."""
    values = [jnp.asarray(v, values[0].dtype) for v in values]
    shape = np.broadcast_shapes(*[jnp.shape(v) for v in values])
    return [jnp.broadcast_to(v, shape) for v in values]


def _literal(v):
    return isinstance(v, Literal)


def _size(v):
    return math.prod(getattr(v.aval, 'shape', ()))
