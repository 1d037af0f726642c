"""Loops whose body changes in place an array they iterate (see autograph.passes.
live_iteration): Python's iterator reads the array's item k when step k begins, so it sees
what earlier steps wrote to later items.

    for i, e in enumerate(v):        # v a NumPy array
        v[i + 1] = e * 2             # the next step reads this item

is, in Python's terms,

    k = 0
    while k < len(v):
        i, e = k, v[k]               # (read from the array as it is now)
        v[i + 1] = e * 2
        k += 1

A converted loop carries `v` (`v = ag.setitem(v, i + 1, ...)`), so it reads the items of
the carried value at step k instead of those of the array before the loop (of a part of
`v`, `reversed(v)`, `v[1:]`, a column `m[:, j]`: the item of `v` at the part's index of
step k, see runtime.loops.live_views). Only arrays with NumPy's meaning are read so: a
JAX array's `v[k] = e` rebinds `v` to a new array, and Python's iterator keeps the one
it started with (the items before the loop).
"""
import builtins

import jax.numpy as jnp

from ..context import kind_unknown, numpy_meaning
from ..errors import here
from ..messages import array_kind_unknown, live_iterable_rebound, live_iterable_unfollowed
from ..values.split import is_traced
from .iterables import StagedRange, TracedIterable


class LiveItems:
    """The items of a TracedIterable some of whose sequences (`positions`: {sequence
    index: variable name}) the loop carries and changes in place: item k is made of those
    variables' rows k as they are when step k begins."""

    def __init__(self, inner, positions):
        self.inner, self.positions = inner, positions

    def indices(self):
        """The range of the step counts k (a staged range for a symbolic length)."""
        length = self.inner.length
        return builtins.range(length) if isinstance(length, int) else StagedRange(0, length)

    def body(self, body, names):
        """`body(item, *state)` -> `body(k, *state)` that reads item k from `state` (laid
        out as `names`) where the loop changes the sequence, else from the sequence."""
        inner, keys = self.inner, self.inner.keys
        places = {j: names.index(name) for j, name in self.positions.items()}
        lists = {j for j in places if isinstance(inner.origins[j], list)
                 and len(inner.origins[j]) == inner.length}   # (`zip` stops at its end)

        def live_body(k, *state):
            for j in lists:   # (a list that grows or shrinks: Python's zip follows it)
                if len(state[places[j]]) != inner.length:
                    raise live_iterable_unfollowed(
                        f"the list '{self.positions[j]}'", here(2),
                        'makes longer or shorter')
            rows = [state[places[j]][_index(keys[j], k)] if j in places else sequence[k]
                    for j, sequence in enumerate(inner.sequences)]
            return body(inner.make_item(k, *rows), *state)
        return live_body


def live_items(iterable, state, names, live, rebound=()):
    """`iterable` as LiveItems where it iterates (by identity) a variable of `live`
    ({name: whether it is a NumPy array, None where the converter does not know}) that
    has NumPy's meaning; else `iterable` itself. `state` and `names`: the loop's
    variables before it. A Python iterable (a list, a NumPy array outside a trace) is
    left as it is: Python's loop reads it live. Raises a ControlFlowError for a variable
    of `rebound` (its body also rebinds it) or an iterated object it cannot follow."""
    if is_traced(iterable) and _array(iterable) and jnp.ndim(iterable):
        iterable = TracedIterable.over(iterable)   # (`for e in v`: the array itself)
    if not isinstance(iterable, TracedIterable):
        return iterable
    positions = {}
    for name, numpy in live.items():
        if name not in names:
            continue
        value = state[names.index(name)]
        found = [j for j, origin in enumerate(iterable.origins) if origin is value]
        if not found or not _numpy(value, numpy):
            continue
        if name in rebound:
            raise live_iterable_rebound(name, here(2))
        if not (_array(value) or isinstance(value, list)):
            raise live_iterable_unfollowed(f"'{name}'", here(2))
        positions.update((j, name) for j in found)
    return LiveItems(iterable, positions) if positions else iterable


def _index(key, k):
    """The index in the iterated object of item k (`key`: of a part of it, see
    runtime.loops.live_views)."""
    return k if key is None else key(k)


def _numpy(value, numpy):
    """Whether `value` has NumPy's meaning (`numpy`: the converter's word, if it has one);
    a list is read live as Python reads it."""
    if isinstance(value, list):
        return True
    if numpy is not None:
        return bool(numpy)
    if kind_unknown(value):
        raise array_kind_unknown(here(3))
    return numpy_meaning(value)


def _array(value):
    return hasattr(value, 'shape') and hasattr(value, 'dtype')
