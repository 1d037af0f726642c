"""Inside the body of a vectorised loop (runtime.loops.vectorized), the items of the
arrays the body only reads at the loop's index (`xs[i]`, `pos[j, 0]`, nested `xs[i, j]`):
the loop cuts each such array along the axis its index runs over, as it cuts the arrays
it writes (runtime.values.slot), and the body takes its iteration's item as an input.
A read at the batched index would gather the items instead (and XLA partitions a gather
of a sharded array as a replicated result plus an all-reduce).

Python reference: `xs[i, rest]` is `xs[i][rest]` for an integer `i` in range, where
`rest` holds integers, slices, `None` and `...` (after a slice, an index array puts its
axes first in `xs[i, :, idx]` but not in `xs[i][:, idx]`: such a key reads `xs` itself).

An item stands for `array[index]` only where the key's index is the loop's own traced
index (the same object) and the array the very one the loop cut, so any other read
(`xs[i + 1]`, an array rebound in the body) indexes the array as it is.
"""
import contextlib
import dataclasses

import jax
import numpy as np

from .. import context


@dataclasses.dataclass(frozen=True)
class Item:
    """`array[index]` is `value` in the body being traced: `index` is the loop's traced
    index, `value` an input of the body."""
    array: object
    index: object
    value: object


@contextlib.contextmanager
def reading(arrays, index, values):
    """While a vectorised body is traced with `index`: `array[index]` is the matching
    item of `values` for each of `arrays`."""
    items = tuple(Item(a, index, v) for a, v in zip(arrays, values))
    with context.setting(parts=context.current().parts + items):
        yield


def derived(array):
    """`array` and the items of it that the vectorised loops around take (`xs[i]` where
    a loop over `i` reads `xs[i, j]`), and theirs, outermost first."""
    found = [array]
    for item in context.current().parts:
        if any(item.array is a for a in found):
            found.append(item.value)
    return found


def lookup(array, key):
    """(the item `array[key[0]]`, or the item of that item at `key[1]`..., the rest of
    the key) where the key's leading indices are loops' own (see the module docstring),
    else None."""
    items = context.current().parts
    if not items:
        return None
    parts = list(key) if isinstance(key, tuple) else [key]
    found = False
    while parts:
        item = next((it for it in reversed(items)
                     if it.array is array and it.index is parts[0]), None)
        if item is None:
            break
        array, parts, found = item.value, parts[1:], True
    if not found or not all(_basic(p) for p in parts):
        return None
    return array, tuple(parts)


def _basic(index):
    """An index that selects as it would after an integer: an integer, a slice, None,
    `...`, an integer scalar array."""
    if index is None or index is Ellipsis or isinstance(index, slice):
        return True
    if isinstance(index, bool):
        return False
    if isinstance(index, (int, np.integer)):
        return True
    return isinstance(index, jax.Array) and index.ndim == 0 and \
        np.issubdtype(index.dtype, np.integer)
