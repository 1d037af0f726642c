"""A `for` over a range whose iterations are independent, run as one vectorised
computation: `jax.vmap` of the loop body over the index range, then one write of the
results.

Python reference (what the loop means, and what runs when it is not vectorised):

    for i in range(start, stop, step):
        out = body(i, out)        # body writes and reads only out[i, ...]

The converter marks such loops (`independent_axis=k`, from autograph.analysis.
independence): iteration `i` reads and writes only the part `out[..., i, ...]` of each
array it carries (axis k: the loops around it that are vectorised too own the axes
before), and every other variable it assigns is a temporary of the iteration. The
iterations can then run in any order, all at once: the parts are cut out along axis k,
the body is traced once and vmapped over (index, part), and the new parts are written
back in one update.

A loop may also carry accumulators (`reductions`, marked by the converter from
autograph.analysis.accumulators: `s += e`, `s = max(s, e)`, ... where the body reads
`s` nowhere else). Each starts every iteration as its operator's identity; the vmapped
body gives each iteration's contribution, and one reduction over them, combined with
the value before the loop, is the accumulator after it (runtime.loops.reductions).

A loop may also carry arrays that it must give back unchanged (`unchanged`: the bases
of views that the converter writes back, where the view was a copy: `k = n[i]; k -= 1`
on a vector `n`): each iteration gets them whole; where the traced iteration gives one
back changed (a row of a matrix `n` written through the view), the loop is not
vectorised.

Inside the vmapped body an array the loop carries is a `Slot`: the iteration's part,
which item assignment and item reads (runtime.items, runtime.items.indexing) address with the
user's full key (`out[i, j]`), the leading loop indices dropped. A nested loop marked
with the next axis vectorises again over its Slots; any other inner loop or branch
carries them like any array (they are pytrees).

An array the body only reads at the loop index (`reads`, marked by the converter:
`xs[i]`, `pos[j, 0]`, nested `xs[i, j]`) is cut the same way, where the range is within
its first axis: the body takes the iteration's item as an input (runtime.items.parts),
and `xs[i]` reads it instead of gathering at the batched index; the array itself goes
to `jax.vmap` where the range is its whole first axis (a sharded array keeps its
sharding).

The loop is vectorised only when it is being staged by JAX with no framework embedded
(runtime.backends.dispatch), its range has Python bounds that index every carried array
in range (no negative index, which would wrap onto another iteration's item), and each
carried value is a JAX array (or, nested, a Slot at the loop's axis) or an
accumulator that runtime.loops.reductions can reduce. Anything else
returns None and the caller runs the ordinary loop: the same values, sequentially.
"""
import jax
from jax import lax
from jax.extend.core import Var
from jax._src.lax.lax import _convert_element_type  # the only way to make a weak type

from .. import context
from ..backends import dispatch
from . import iterables, reductions as reductions_, selects
from .loop_policy import log
from ..items import parts as parts_, slicing
from ..staging import loops
from ..staging.trace import State, trace
from ..values.slot import Slot
from ..values.split import is_traced
from ..values.types import aval, item_type, promoted, same_type, zeros
from ..values.varying import axes_of, typed


def wanted(unroll):
    """Whether a loop marked independent is vectorised: unless unrolling was asked for
    (`set_loop_options(unroll=True)`, `convert(..., unroll_loops=True)`). Unlike a staged
    loop, a short one too: its body is traced once, whatever the length."""
    if unroll is None:
        unroll = context.current().unroll_loops
    return not unroll


def loop(iterable, body, values, names, axis, require_traced, reductions=None,
         unchanged=(), reads=()):
    """The loop `for i in iterable: values = body(i, *values)` vectorised along `axis`
    of the carried arrays (see the module docstring), or None where it is not.
    `reductions` ({name: kind}) are its accumulators (runtime.loops.reductions);
    `unchanged` names arrays the loop carries that each iteration must give back as
    they came in (the bases of views that were copies): each iteration gets them whole;
    `reads` are the arrays its body reads at `i` (runtime.items.parts).

    `require_traced` raises loops.NothingTraced when the body computes nothing from
    traced values (as the staged loop does: such a loop stays Python)."""
    if dispatch.active() is not None or not isinstance(iterable, range):
        return None
    kinds = reductions_.kinds(names, values, reductions or {})
    if kinds is None:
        return None
    whole = [name in unchanged for name in names]
    parts = [None if kind or fixed else _part(value, axis)
             for value, kind, fixed in zip(values, kinds, whole)]
    if not values or any(part is None and not kind and not (
            fixed and isinstance(value, jax.Array))
            for part, kind, fixed, value in zip(parts, kinds, whole, values)) \
            or not _in_bounds(iterable, [part for part in parts if part is not None]):
        return None
    if len(iterable) == 0:
        return tuple(values)
    r = _increasing(iterable)
    read = _readable(reads, r)
    found = _traced(_reading(body, read), names, values, parts, kinds, whole, axis, r, read)
    if found is None:
        return None
    traced, inputs, types = found
    if require_traced and not _reads_traced(traced, read):
        loops._require_traced(traced)
    count = lax.iota(loops._index_type().dtype, len(r))
    index = _convert_element_type(count if r.step == 1 else count * r.step, weak_type=True)
    index = index if r.start == 0 else index + r.start
    rows = [x if part is None else _rows(part, r) for x, part in zip(inputs, parts)]
    batched = (True,) * (1 + len(read)) + tuple(part is not None for part in parts)
    new_rows = jax.vmap(lambda *args: selects.evaluate(traced.jaxpr, batched, *args),
                        in_axes=tuple(0 if b else None for b in batched))(
        index, *[_rows(a, r) for a in read], *rows)
    return tuple(
        v if fixed else reductions_.combine(kind, v, new, t) if kind
        else _write(part, r, new, v, axis)
        for v, part, kind, fixed, t, new in zip(values, parts, kinds, whole, types,
                                                 new_rows))


def _traced(body, names, values, parts, kinds, whole, axis, r, read):
    """(the body traced over one iteration, its inputs, the accumulators' types) or
    None. The body takes the index, the item of each array it reads (`read`), then its
    state. A Slot stands for each part; each accumulator starts as its kind's identity,
    of the type the sequential loop carries it as: the type before the loop, promoted
    (as runtime.staging.carry does) until one iteration gives it back. A value the loop
    must give back unchanged (`whole`) is itself: None where an iteration changes it."""
    slots = [None if part is None else Slot(zeros(item_type(part)), axis + 1)
             for part in parts]
    types = [kind and aval(value) for value, kind in zip(values, kinds)]
    body = _windowed(body, r)
    for _ in range(4):
        inputs = [value if fixed else slot if kind is None
                  else reductions_.identity(kind, t)
                  for value, slot, kind, fixed, t in zip(values, slots, kinds, whole, types)]
        if any(x is None for x in inputs):
            return None
        leaves, state = State.flatten(names, inputs)
        with context.setting(batch=context.current().batch * len(r)):
            traced = trace(body, state, [loops._index_type()] + [_item_type(a) for a in read]
                           + [aval(x) for x in leaves], names, n_extra=1 + len(read),
                           errors=None)
        if not _keeps_types(state, leaves, traced, kinds) \
                or not _gives_back(traced, whole, 1 + len(read)):
            return None
        settled = [kind and promoted(t, out)
                   for kind, t, out in zip(kinds, types, traced.out_avals())]
        if any(kind and t is None for kind, t in zip(kinds, settled)) or any(
                kind and reductions_.keeps_order(kind, t.dtype)
                for kind, t in zip(kinds, settled)):
            return None
        if all(not kind or same_type(a, b) for kind, a, b in zip(kinds, types, settled)):
            return traced, inputs, types
        types = settled
    return None


def _gives_back(traced, whole, n_extra):
    """Whether the traced iteration returns each `whole` value as it took it (one leaf
    per value, after the `n_extra` leading inputs: the same jaxpr variable in and out)."""
    jaxpr = traced.jaxpr.jaxpr
    return all(out is v for out, v, fixed in zip(jaxpr.outvars, jaxpr.invars[n_extra:], whole)
               if fixed)


def _windowed(body, r):
    """`body`, its index known as an item of the range `r` to the windows it slices
    (`x[i:i + 3]`, shorter at the end in Python: read exactly, as in the staged loop,
    see runtime.items.slicing)."""
    items = iterables.range_items(r)
    if items is None:
        return body

    def windowed(i, *state):
        with slicing.range_item(i, items):
            return body(i, *state)
    return windowed


def read_arrays(body, names):
    """The values of the variables `names` that the function `body` reads, from its
    closure or its globals (those unbound left out): the arrays a loop body reads at its
    index (the converter names them; see runtime.items.parts)."""
    if not names:
        return ()
    code, cells = getattr(body, '__code__', None), getattr(body, '__closure__', None) or ()
    closure = dict(zip(code.co_freevars, cells)) if code is not None else {}
    found = []
    for name in names:
        if name in closure:
            try:
                found.append(closure[name].cell_contents)
            except ValueError:   # (an empty cell: the variable is unbound)
                pass
        elif name in getattr(body, '__globals__', {}):
            found.append(body.__globals__[name])
    return tuple(found)


def _readable(arrays, r):
    """The arrays the body reads at the index of range `r` that the loop cuts: each of
    `arrays` (a JAX array with an item at every index of `r`) and the items of it that
    the vectorised loops around give their iterations (runtime.items.parts.derived)."""
    found = []
    for array in arrays:
        for a in parts_.derived(array):
            if isinstance(a, jax.Array) and a.ndim >= 1 and isinstance(a.shape[0], int) \
                    and _in_bounds(r, [a]) and not any(a is b for b in found):
                found.append(a)
    return found


def _reading(body, read):
    """`body(i, *state)` as a function of `(i, *items, *state)`: the items of the arrays
    `read` at `i` (see runtime.items.parts)."""
    if not read:
        return body

    def reading(i, *args):
        with parts_.reading(read, i, args[:len(read)]):
            return body(i, *args[len(read):])
    return reading


def _item_type(array):
    """The type of `array[i]`, weak when the array is (as its items read by indexing)."""
    t = aval(array)
    return typed(t.shape[1:], t.dtype, t.weak_type, axes_of(t))


def _reads_traced(traced, read):
    """Whether the body uses the item of a traced array it reads (then it computes from
    traced values, though it may close over none)."""
    jaxpr = traced.jaxpr.jaxpr
    used = {v for eqn in jaxpr.eqns for v in eqn.invars if isinstance(v, Var)} | {
        v for v in jaxpr.outvars if isinstance(v, Var)}
    return any(is_traced(a) and v in used for a, v in zip(read, jaxpr.invars[1:]))


def _rows(array, r):
    """The items of `array` at the indices of the increasing range `r` (the array itself
    where that is all of them)."""
    if r.start == 0 and r.step == 1 and len(r) == array.shape[0]:
        return array
    return lax.slice_in_dim(array, r.start, r[-1] + 1, r.step)


def _part(value, axis):
    """The array the loop cuts along its axis 0, or None when `value` cannot be cut."""
    if isinstance(value, Slot):
        array = value.value if value.depth == axis else None
    else:
        array = value if isinstance(value, jax.Array) and axis == 0 else None
    return array if array is not None and array.ndim >= 1 else None


def _in_bounds(r, parts):
    """Whether every index of range `r` is an item of every part (0 <= i < length): a
    negative index would wrap onto the item of another iteration."""
    if len(r) == 0:
        return True
    low, high = min(r[0], r[-1]), max(r[0], r[-1])
    return low >= 0 and all(high < part.shape[0] for part in parts)


def _increasing(r):
    """The range's indices in increasing order (the iterations are independent, so any
    order computes Python's result)."""
    if r.step > 0:
        return r
    return range(r[-1], r[0] + 1, -r.step)


def _keeps_types(state, leaves, traced, kinds):
    """Whether one iteration returns Slots like those it took (same depth, shapes and
    dtypes) and one array per accumulator: else the loop is left to the ordinary
    staged loop and its messages."""
    if len(leaves) != len(kinds) or not all(
            a.same_as(b) for a, b in zip(state.specs, traced.state.specs)):
        return False
    outs = traced.out_avals()
    return len(outs) == len(leaves) and all(
        kind or (o.shape == x.shape and o.dtype == x.dtype)
        for o, x, kind in zip(outs, leaves, kinds))


def _write(part, r, rows, value, axis):
    """`part` with its items at the indices of `r` replaced by `rows`, in one update
    (as a Slot at `axis` where `value` was one)."""
    if r.step == 1 and r.start == 0 and len(r) == part.shape[0]:
        written = rows
    elif r.step == 1:
        written = lax.dynamic_update_slice_in_dim(part, rows, r.start, axis=0)
    else:
        written = part.at[r.start:r.stop:r.step].set(rows)
    return Slot(written, axis) if isinstance(value, Slot) else written


def report(location, length, axis):
    log.info('the loop at %s (%d iterations) is vectorised: its iterations are '
                   'independent, so jax.vmap runs its body over the whole range at once '
                   '(along axis %d of the arrays it writes)', location, length, axis)

