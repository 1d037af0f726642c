"""The iterable of a converted `for` whose body changes in place the array it iterates a
part of (see autograph.passes.live_iteration): `reversed(v)`, or a NumPy view `v[key]` (a
slice `v[1:]`, `v[::-1]`, a row `m[i]`, a column `m[:, j]`, the rows of `m[1:]`).

Python's iterator reads its item k when step k begins: `reversed(v)` reads `v[len(v) - 1 -
k]` (its length taken when it is made), and the iterator of a view reads the view's item
k, which is an item of `v`, so the steps see what earlier steps wrote to `v`:

    for e in v[1:]:          # step k reads v[1 + k] as it is now
        v[3] = v[3] + 1.0

Outside a trace these give Python's own objects (NumPy's view, `reversed`'s iterator),
which Python's loop reads live. On a traced array they give a TracedIterable over the
part's items that knows, for each item, its index in `v`: a loop that carries `v` with
NumPy's meaning reads that index of the carried value (runtime.loops.live); with JAX's
meaning (`v[k] = e` rebinds `v`) the loop reads the part as it was made, as Python does.
"""
import builtins
import collections.abc
import operator

import jax.numpy as jnp
import numpy as np

from ..context import kind_unknown, numpy_meaning
from ..errors import here
from ..items.indexing import getitem
from ..messages import array_kind_unknown, live_iterable_unfollowed
from ..values.split import is_traced
from .iterables import TracedIterable


def items_of(value, key):
    """`value[key]`, where a converted loop iterates it and changes `value` in place."""
    part = getitem(value, key)
    if not (is_traced(value) and _array(value) and is_traced(part) and jnp.ndim(part)):
        return part   # (a list's slice is a copy; Python's loop reads an array's view)
    found = _leading_index(key, jnp.shape(value))
    if found is None:   # (NumPy's `v[index_array]` or `v[mask]`: a copy)
        return part
    length, at = found
    return TracedIterable([part], lambda k, x: x, length, indexed=False, origins=[value],
                          keys=[at])


def reversed_(value):
    """`reversed(value)`, where a converted loop iterates it and changes `value` (or the
    array `value` is a part of, see `items_of`) in place."""
    if isinstance(value, TracedIterable):
        return _reversed_items(value)
    if not (is_traced(value) and _array(value) and jnp.ndim(value)):
        return builtins.reversed(value)
    length = jnp.shape(value)[0]
    return TracedIterable([value[::-1]], lambda k, x: x, length, indexed=False,
                          origins=[value], keys=[lambda k: length - 1 - k])


def unfollowed_items(iterable, what, /, **arrays):
    """`iterable` (`what` it is: an iterator `iter(v)`, a view a call made `np.flip(v)`),
    which a converted loop iterates where its body (or the code before it) changes `v`
    in place. Python's loop reads `v` live; the converted code cannot follow it there,
    so this is a ControlFlowError where `v` is a traced array with NumPy's meaning
    (`arrays`: {name: (its value, whether it is NumPy's, None where the converter does
    not know)})."""
    for name, (value, numpy) in arrays.items():
        if not (is_traced(value) and _array(value)):
            continue
        if numpy is None and kind_unknown(value):
            raise array_kind_unknown(here())
        if numpy if numpy is not None else numpy_meaning(value):
            raise live_iterable_unfollowed(
                f"{what} of the NumPy array '{name}'", here(),
                'or the code before it changes in place')
    return iterable


def called_items(iterable, /, **arrays):
    """The items of `iterable`, which a call made of arrays the loop's body changes in
    place (`for y, z in pairs(w):` with `pairs` a generator of the user's, `map(f, w)`,
    `itertools.pairwise(w)`). A list, tuple or array the call made holds its items
    already, as Python's does; an iterator reads `w` as Python runs it, step by step,
    which the converted code cannot follow: a named error where `w` is a traced NumPy
    array (see `unfollowed_items`)."""
    if not isinstance(iterable, collections.abc.Iterator):
        return iterable
    return unfollowed_items(iterable, 'an iterator (made by a call)', **arrays)


def _reversed_items(items):
    """`reversed(v[key])`: the items of `items` (of `items_of`), last first."""
    length, make_item = items.length, items.make_item
    keys = [(lambda k, key=key: length - 1 - k if key is None else key(length - 1 - k))
            for key in items.keys]
    return TracedIterable([s[::-1] for s in items.sequences],
                          lambda k, *rows: make_item(length - 1 - k, *rows), length,
                          items.indexed, items.origins, keys)


def _leading_index(key, shape):
    """(the length of the leading axis of `v[key]`, k -> the index in `v` of its item k)
    for NumPy's basic index `key` (integers, slices, `...`) of an array of `shape`; None
    where `v[key]` is a copy (an index array, a mask, a bool). Raises a ControlFlowError
    where it cannot say (`np.newaxis`, a slice with traced bounds)."""
    entries = list(key) if isinstance(key, tuple) else [key]
    basic = [_basic(e) for e in entries]
    if None in basic:   # (`ag.span(i, 2)` of `v[i:i + 2]`, an object of its own)
        raise live_iterable_unfollowed('a view by a key it cannot follow', here(2))
    if not all(basic):
        return None
    if any(e is None for e in entries) or sum(e is Ellipsis for e in entries) > 1:
        raise live_iterable_unfollowed('a view of an array with a new axis', here(2))
    if any(e is Ellipsis for e in entries):
        at = next(i for i, e in enumerate(entries) if e is Ellipsis)
        entries[at:at + 1] = [slice(None)] * (len(shape) - len(entries) + 1)
    entries += [slice(None)] * (len(shape) - len(entries))
    axis = next(i for i, e in enumerate(entries) if isinstance(e, slice))
    try:
        start, stop, step = entries[axis].indices(operator.index(shape[axis]))
    except TypeError:   # (traced bounds, a symbolic dimension)
        raise live_iterable_unfollowed('a slice with bounds known only when it runs',
                                       here(2)) from None
    before, after = tuple(entries[:axis]), tuple(entries[axis + 1:])
    return len(builtins.range(start, stop, step)), \
        lambda k: before + (start + k * step,) + after


def _basic(entry):
    """Whether `entry` is an item of NumPy's basic index (no copy): True for an integer,
    a slice, `...`, None; False for a bool, a list, an array (an index array or a mask);
    None for anything else."""
    if entry is None or entry is Ellipsis or isinstance(entry, slice):
        return True
    if isinstance(entry, (bool, np.bool_, list)):
        return False
    if isinstance(entry, (int, np.integer)):
        return True
    if not _array(entry):
        return None
    return jnp.ndim(entry) == 0 and jnp.issubdtype(entry.dtype, jnp.integer)


def _array(value):
    return hasattr(value, 'shape') and hasattr(value, 'dtype')
