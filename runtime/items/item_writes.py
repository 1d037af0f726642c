"""`ag.setitems`: several items of one container written by one statement, as one write.

    x[i], x[j] = x[j], x[i]    ->   item, item_1 = (x[j], x[i])
                                    x = ag.setitems(x, (i, j), (item, item_1))

Python reference: `for key, value in zip(keys, values): target[key] = value`, then
`return target` (the converter emits it only where evaluating all keys first means the
same: no key reads the container or calls anything).

A JAX array whose keys are single items (one integer per axis, some traced) and whose
values are scalars gets them in one update of the array, so that a compiled loop keeps
updating its carried buffer in place (XLA copies the whole array when a loop body
writes it twice):

- with `window` (the converter's proof that the keys lie within a box of that shape and,
  along an axis where they differ, are never negative: `x[j], x[j + 1]` for a counter
  `j` of a `range` from 0), one `lax.dynamic_update_slice` of that box, its items
  selected from the values;
- else one scatter of all the items (an index written twice keeps the last value, as
  Python's sequence of stores does).

Indices mean what `setitem` makes them mean: a negative index counts from the end, an
index out of range writes nothing (JAX's update) where it is traced, and is NumPy's
IndexError where it is a Python integer. Anything else is stored item by item
by `setitem`.
"""
import jax
import jax.numpy as jnp
from jax import lax

from .indexing import check_bounds
from .items import numpy_kept, prepared, setitem
from .views import is_view, seen
from ..context import numpy_meaning
from ..values.split import any_traced
from ..values.slot import Slot


def setitems(target, keys, values, window=None, reads=None, numpy=None, own=False,
             held=False, held_items=None):
    """Python reference: `for k, v in zip(keys, values): target[k] = v; return target`.

    `reads`: for each value, the key of `target` the statement read it at, or None (see
    autograph.passes.item_assignments). Where such a read is a NumPy view, the value
    stored is what the view holds by then (`views.seen`): NumPy's `x[k], x[p] = x[p],
    x[k]` of rows leaves both rows equal to row `p`. `numpy`: whether `target` stands for
    a NumPy array, where the converter knows it (see `views.view`). `own`, `held`,
    `held_items`: as `items.setitem`'s."""
    target = prepared(target, keys, values, own, held, held_items)
    if reads is not None and any(is_view(target, read, numpy) for read in reads
                                 if read is not None):
        for key, value, read in zip(keys, values, reads):
            target = setitem(target, key, value if read is None else
                             seen(target, read, value, numpy))
        return target
    return numpy_kept(target, _setitems(target, keys, values, window))


def _setitems(target, keys, values, window=None):
    if isinstance(target, Slot) and all(target.key(key) for key in keys):
        # (an iteration's part in a vectorised loop: the same write within the part)
        window = None if window is None else tuple(window)[target.depth:]
        return target.with_value(setitems(target.value, [target.key(key) for key in keys],
                                          values, window))
    if not _items_of(target, keys, values):
        for key, value in zip(keys, values):
            target = setitem(target, key, value)
        return target
    for key in keys:
        check_bounds(target, key, scalars=numpy_meaning(target))   # (NumPy's IndexError)
    positions = [_positions(target.shape, key) for key in keys]
    values = [jnp.asarray(v).astype(target.dtype) for v in values]
    if window is not None and all(w <= n for w, n in zip(window, target.shape)):
        return _box_write(target, positions, values, tuple(window))
    return _scatter(target, positions, values)


def _items_of(target, keys, values):
    """Whether `keys` name single items of the JAX array `target` (one integer per axis),
    some traced, and `values` are scalars."""
    if not isinstance(target, jax.Array) or target.ndim == 0 or not any_traced(keys):
        return False
    for key in keys:
        parts = key if isinstance(key, tuple) else (key,)
        if len(parts) != target.ndim or not all(map(_is_integer, parts)):
            return False
    return all(jnp.ndim(v) == 0 for v in values)


def _is_integer(x):
    if isinstance(x, bool):
        return False
    if isinstance(x, int):
        return True
    return (isinstance(x, jax.Array) and x.ndim == 0
            and jnp.issubdtype(x.dtype, jnp.signedinteger))


def _positions(shape, key):
    """The item's position per axis (a negative index counted from the end)."""
    parts = key if isinstance(key, tuple) else (key,)
    out = []
    for part, n in zip(parts, shape):
        part = jnp.asarray(part)
        out.append(jnp.where(part < 0, part + n, part))
    return out


def _inside(position, shape):
    inside = jnp.bool_(True)
    for p, n in zip(position, shape):
        inside = inside & (p >= 0) & (p < n)
    return inside


def _box_write(target, positions, values, window):
    """The items written into one box of shape `window`, read and written back whole
    (the box starts at the lowest position written, moved back to fit in the array: the
    keys' proof makes every item written fall inside it)."""
    inside = [_inside(p, target.shape) for p in positions]
    starts = []
    for axis, (n, w) in enumerate(zip(target.shape, window)):
        lowest = jnp.int32(n)   # the box starts at the lowest position written
        for p, i in zip(positions, inside):
            lowest = jnp.where(i, jnp.minimum(lowest, p[axis]), lowest)
        starts.append(jnp.clip(lowest, 0, n - w))
    box = lax.dynamic_slice(target, starts, window)
    offsets = [lax.broadcasted_iota(jnp.int32, window, axis) for axis in range(len(window))]
    for p, i, value in zip(positions, inside, values):
        at = i
        for o, p_axis, s in zip(offsets, p, starts):
            at = at & (o == p_axis - s)
        box = jnp.where(at, value, box)
    return lax.dynamic_update_slice(target, box, starts)


def _scatter(target, positions, values):
    """One scatter of the items; of two writes to one position only the later is kept
    (a scatter applies duplicates in no given order)."""
    index = jnp.stack([jnp.stack(p) for p in positions])          # (items, axes)
    outside = jnp.asarray(target.shape, jnp.int32)                 # dropped by the scatter
    kept = []
    for t, p in enumerate(index):
        later = jnp.any(jnp.all(index[t + 1:] == p, axis=1)) if t + 1 < len(index) else False
        kept.append(jnp.where(later, outside, p))
    index = jnp.stack(kept)
    return target.at[tuple(index.T)].set(jnp.stack(values), mode='drop')

