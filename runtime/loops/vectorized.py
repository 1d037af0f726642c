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

Inside the vmapped body an array the loop carries is a `Slot`: the iteration's part,
which item assignment and item reads (runtime.items, runtime.items.indexing) address with the
user's full key (`out[i, j]`), the leading loop indices dropped. A nested loop marked
with the next axis vectorises again over its Slots; any other inner loop or branch
carries them like any array (they are pytrees).

The loop is vectorised only when it is being staged by JAX with no framework embedded
(runtime.backends.dispatch), its range has Python bounds that index every carried array
in range (no negative index, which would wrap onto another iteration's item), and each
carried value is a JAX array (or, nested, a Slot at the loop's axis). Anything else
returns None and the caller runs the ordinary loop: the same values, sequentially.
"""
import jax
from jax import lax
from jax._src.lax.lax import _convert_element_type  # the only way to make a weak type

from .. import context
from ..backends import dispatch
from .loop_policy import log
from ..staging import loops
from ..staging.trace import State, trace
from ..values.slot import Slot
from ..values.types import aval, item_type, zeros


def wanted(unroll):
    """Whether a loop marked independent is vectorised: unless unrolling was asked for
    (`set_loop_options(unroll=True)`, `convert(..., unroll_loops=True)`). Unlike a staged
    loop, a short one too: its body is traced once, whatever the length."""
    if unroll is None:
        unroll = context.current().unroll_loops
    return not unroll


def loop(iterable, body, values, names, axis, require_traced):
    """The loop `for i in iterable: values = body(i, *values)` vectorised along `axis`
    of the carried arrays (see the module docstring), or None where it is not.

    `require_traced` raises loops.NothingTraced when the body computes nothing from
    traced values (as the staged loop does: such a loop stays Python)."""
    if dispatch.active() is not None or not isinstance(iterable, range):
        return None
    parts = [_part(value, axis) for value in values]
    if not values or None in parts or not _in_bounds(iterable, parts):
        return None
    if len(iterable) == 0:
        return tuple(values)
    r = _increasing(iterable)
    index_aval = loops._index_type()
    rows = [lax.slice_in_dim(part, r.start, r.stop, r.step) for part in parts]
    slots = tuple(Slot(zeros(item_type(part)), axis + 1) for part in parts)
    leaves, state = State.flatten(names, slots)
    with context.setting(batch=context.current().batch * len(r)):
        traced = trace(body, state, [index_aval] + [aval(x) for x in leaves], names,
                       n_extra=1, errors=None)
    if require_traced:
        loops._require_traced(traced)
    if not _keeps_types(state, leaves, traced):
        return None
    count = lax.iota(index_aval.dtype, len(r))
    index = _convert_element_type(count if r.step == 1 else count * r.step, weak_type=True)
    index = index if r.start == 0 else index + r.start
    new_rows = jax.vmap(lambda i, *rows: traced(i, *rows))(index, *rows)
    written = [_write(part, r, new) for part, new in zip(parts, new_rows)]
    return tuple(Slot(w, axis) if isinstance(v, Slot) else w
                 for v, w in zip(values, written))


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


def _keeps_types(state, leaves, traced):
    """Whether one iteration returns Slots like those it took (same depth, shapes and
    dtypes): else the loop is left to the ordinary staged loop and its messages."""
    if not all(a.same_as(b) for a, b in zip(state.specs, traced.state.specs)):
        return False
    outs = traced.out_avals()
    return len(outs) == len(leaves) and all(
        o.shape == x.shape and o.dtype == x.dtype for o, x in zip(outs, leaves))


def _write(part, r, rows):
    """`part` with its items at the indices of `r` replaced by `rows`, in one update."""
    if r.step == 1 and r.start == 0 and len(r) == part.shape[0]:
        return rows
    if r.step == 1:
        return lax.dynamic_update_slice_in_dim(part, rows, r.start, axis=0)
    return part.at[r.start:r.stop:r.step].set(rows)


def report(location, length, axis):
    log.info('the loop at %s (%d iterations) is vectorised: its iterations are '
                   'independent, so jax.vmap runs its body over the whole range at once '
                   '(along axis %d of the arrays it writes)', location, length, axis)

