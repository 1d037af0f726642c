"""Iterables that a `for` stages: arrays, ranges with traced bounds, `autograph.range`.

Iterated in plain Python (outside a converted `for`) they behave like the builtins. Each
tells a framework backend what it would stage (runtime.backends.framework):
`loop_values()` are the values that decide who stages it (bounds, or the arrays iterated)
and `indexing()` gives `(start, stop, item)`: the loop runs `item(i)` for i in
range(start, stop).
"""
import builtins
import operator

import jax
import jax.numpy as jnp
import numpy as np
from jax import export
from jax._src.core import InconclusiveDimensionOperation   # (of symbolic dimensions)
from jax._src.lax.lax import _convert_element_type  # the only way to make a weak type

from ..items import slicing
from ..backends import dispatch
from ..staging import loops
from ..messages import range_step, scalar_iteration, traced_range
from ..values.types import aval
from ..values.split import is_traced


class TracedIterable:
    """Items along the leading axis of arrays: `x`, `enumerate(x)`, `zip(x, y)`."""

    def __init__(self, sequences, make_item, length, indexed=True, origins=None, keys=None):
        self.sequences = tuple(sequences)
        self.make_item = make_item
        self.length = length
        self.indexed = indexed   # whether items need the iteration count
        # (the objects iterated, one per sequence: a loop whose body changes one in place
        # reads its items live, see runtime.loops.live; `keys`: for a sequence that is a
        # part of its object, k -> the index in the object of its item k, else None)
        self.origins = self.sequences if origins is None else tuple(origins)
        self.keys = (None,) * len(self.sequences) if keys is None else tuple(keys)

    @classmethod
    def over(cls, array, origin=None):
        return cls([array], lambda k, x: x, _leading_length(array), indexed=False,
                   origins=None if origin is None else [origin])

    def loop(self, body, values, names, location, extra_test, require_traced=False):
        return loops.scan_loop(self.length, self.sequences, self.make_item, body, values,
                               names, location, extra_test, self.indexed,
                               require_traced=require_traced)

    def static(self):
        """Whether its length is a Python int (known while tracing, not symbolic): a
        converted `for` over it then runs as Python where its body cannot be staged,
        as a loop over a range does (see runtime.loops.loop_policy)."""
        return isinstance(self.length, int)

    def after(self, done):
        """The items left after the first `done` (of a static length)."""
        make_item = self.make_item
        return TracedIterable([s[done:] for s in self.sequences],
                              lambda k, *slices: make_item(k + done, *slices),
                              max(self.length - done, 0), self.indexed)

    def loop_values(self):
        return self.sequences

    def indexing(self):
        return 0, self.length, lambda k: self.make_item(k, *(s[k] for s in self.sequences))

    def __iter__(self):
        """The items as a Python loop takes them: a Python list's or tuple's own items
        (`for v, w in zip(KEYS, ws)` run as Python: `v` a Python int, as Python gives it,
        not an item of the array staging made of `KEYS`)."""
        own = [origin if type(origin) in (list, tuple) and key is None else None
               for origin, key in builtins.zip(self.origins, self.keys)]
        for k in builtins.range(self.length):
            yield self.make_item(k, *(s[k] if items is None else items[k]
                                      for s, items in builtins.zip(self.sequences, own)))

    def __len__(self):
        return self.length


def _leading_length(array):
    shape = jnp.shape(array)
    if not shape:
        raise scalar_iteration()
    return shape[0]


class StagedRange:
    """`autograph.range(...)`: a range that a converted `for` always stages as one loop
    (instead of unrolling it while tracing), so long loops compile fast. `item` maps each
    index to the loop's item (`enumerate` over a range gives `(count, index)`)."""

    asks_staging = True   # a framework that claims every JAX tracer stages it too

    def __init__(self, *args, item=None):
        self.start, self.stop, self.step = _range_args(args)
        self.item = item

    def loop(self, body, values, names, location, extra_test):
        if self.item is not None:
            inner, item = body, self.item

            def body(i, *state):
                return inner(item(i), *state)
        bounds = (self.start, self.stop, self.step)
        if any(is_traced(b) for b in bounds) or extra_test is not None:
            return loops.range_loop(*bounds, body, values, names, location, extra_test)
        if any(map(export.is_symbolic_dim, bounds)):   # a symbolic length (jax.export)
            start, stop, step = bounds
            length = _symbolic_length(start, stop, step)
            if not _at_least_one(length):   # a scan that may be empty does not lower
                return loops.range_loop(*bounds, body, values, names, location)
            return loops.scan_loop(length, (), lambda k: start + k * step, body, values,
                                   names, location)
        r = builtins.range(*bounds)
        return loops.scan_loop(len(r), (), lambda k: r.start + k * r.step, body, values,
                               names, location)

    def loop_values(self):
        return self.start, self.stop, self.step

    def indexing(self):
        item = self.item or (lambda i: i)
        start, stop, step = self.start, self.stop, self.step
        if isinstance(step, int) and step == 1:
            return start, stop, item
        if not isinstance(step, int) or step == 0:
            raise range_step('a staged range')
        span = stop - start if step > 0 else start - stop
        count = (span + abs(step) - 1) // abs(step)
        return 0, count, lambda k: item(start + k * step)

    def __iter__(self):
        indices = builtins.range(self.start, self.stop, self.step)
        return iter(indices) if self.item is None else map(self.item, indices)

    def __len__(self):
        return len(builtins.range(self.start, self.stop, self.step))

    def __reversed__(self):
        """`reversed(range(start, stop, step))`: the range from its last item down to
        `start`, by `-step`."""
        if self.item is not None:
            raise TypeError("'enumerate' object is not reversible")
        start, stop, step = self.start, self.stop, self.step
        if any(map(export.is_symbolic_dim, (start, stop, step))):
            length = _symbolic_length(start, stop, step)   # (if negative: still empty)
        elif not any(is_traced(b) for b in (start, stop, step)):
            length = len(builtins.range(start, stop, step))
        else:   # Python's length of a range, in traced arithmetic
            length = jnp.maximum((stop - start + step - jnp.sign(step)) // step, 0)
        return type(self)(start + (length - 1) * step, start - step, -step)


class TracedRange(StagedRange):
    """`range(...)` with a traced bound (a JAX tracer, or a framework's value): only a
    converted `for` can iterate it."""

    asks_staging = False

    def __iter__(self):
        raise traced_range('iter')

    def __len__(self):
        raise traced_range('len')


def _range_args(args):
    if len(args) == 1:
        return 0, _index(args[0]), 1
    if len(args) == 2:
        return _index(args[0]), _index(args[1]), 1
    if len(args) == 3:
        return tuple(_index(a) for a in args)
    raise TypeError(f'range expected 1 to 3 arguments, got {len(args)}')


def _index(value):
    if is_traced(value) or export.is_symbolic_dim(value) \
            or dispatch.lowering_for(value) is not None:
        return value
    return operator.index(value)


def _symbolic_length(start, stop, step):
    """`len(range(start, stop, step))` with a symbolic bound (`jax.export`), for a
    Python int `step`, where it is not negative (see `_at_least_one`)."""
    if not isinstance(step, int) or step == 0:
        raise range_step('a range over a symbolic dimension')
    span = stop - start if step > 0 else start - stop
    return (span + abs(step) - 1) // abs(step)


def _at_least_one(length):
    """Whether a symbolic length is at least 1 for every size (else the loop may be
    empty, or the length formula negative)."""
    try:
        return bool(length >= 1)
    except InconclusiveDimensionOperation:
        return False


def range_(*args):
    """`range` in converted code: the builtin, unless a bound is traced, a symbolic
    dimension (`jax.export`) or a framework's value: then the loop over it is staged."""
    if any(is_traced(a) or export.is_symbolic_dim(a) or dispatch.lowering_for(a) is not None
           for a in args):
        return TracedRange(*args)
    return builtins.range(*args)


def enumerate_(iterable, start=0):
    """`enumerate` in converted code: staged over a traced array or range."""
    if isinstance(iterable, StagedRange) and iterable.item is None:
        r = iterable
        return type(r)(r.start, r.stop, r.step,
                       item=lambda i: (start + (i - r.start) // r.step, i))
    if is_traced(iterable):
        iterable = TracedIterable.over(iterable)
    if isinstance(iterable, TracedIterable):
        inner = iterable

        def make_item(k, *slices):
            return start + k, inner.make_item(k, *slices)
        return TracedIterable(inner.sequences, make_item, inner.length,
                              origins=inner.origins, keys=inner.keys)
    return builtins.enumerate(iterable, start)


def zip_(*iterables, strict=False):
    """`zip` in converted code: staged when any argument is a traced array. With
    `strict`, arguments of different lengths are iterated as Python's `zip` iterates
    them (step by step, its ValueError where the shortest ends)."""
    if not any(is_traced(i) or isinstance(i, TracedIterable) for i in iterables):
        return builtins.zip(*iterables, strict=strict)
    parts = [i if isinstance(i, TracedIterable) else TracedIterable.over(jnp.asarray(i), i)
             for i in iterables]
    length = min(p.length for p in parts)
    if strict and any(p.length != length for p in parts):
        return builtins.zip(*iterables, strict=True)
    sequences = [s[:length] if jnp.shape(s)[0] != length else s
                 for p in parts for s in p.sequences]
    counts = [len(p.sequences) for p in parts]

    def make_item(k, *slices):
        items, start = [], 0
        for part, count in builtins.zip(parts, counts):
            items.append(part.make_item(k, *slices[start:start + count]))
            start += count
        return tuple(items)
    return TracedIterable(sequences, make_item, length, any(p.indexed for p in parts),
                          origins=[o for p in parts for o in p.origins],
                          keys=[key for p in parts for key in p.keys])


class RangeItems:
    """The items of a range with Python bounds, as a function of the iteration count `k`:
    `range(...)` (item `start + k * step`), and `enumerate`, `zip` and `reversed`/`iter`
    over ranges (items built from those). A converted `for` over them may stage the loop
    with a traced `k` instead of unrolling it (see runtime.loops.loop_policy)."""

    def __init__(self, length, item):
        self.length = length
        self.item = item

    def __len__(self):
        return self.length

    def after(self, done):
        """The items left after the first `done`."""
        return RangeItems(max(self.length - done, 0), lambda k: self.item(k + done))

    def loop(self, body, values, names, location, extra_test, require_traced):
        def body_at(k, *state):
            item = self.item(_weak(k))
            with slicing.range_item(item, self):   # (slices that fit on every iteration)
                return body(item, *state)
        if extra_test is not None:
            return loops.range_loop(0, self.length, 1, body_at, values, names, location,
                                    extra_test, require_traced)
        return loops.scan_loop(self.length, (), lambda k: k, body_at, values, names,
                               location, require_traced=require_traced)

    def indexing(self):
        return 0, self.length, self.item


_INT32_MAX = 2 ** 31 - 1


def _weak(k):
    """A traced count typed like a Python int (weakly typed), so that the body computes
    the dtypes it computes with the Python index (`x_f16 * i` stays float16)."""
    return _convert_element_type(k, weak_type=True)


def _affine(start, step):
    """k -> start + k * step, without the operations that do nothing (on a traced k)."""
    if step == 1:
        return (lambda k: k) if start == 0 else (lambda k: start + k)
    return (lambda k: k * step) if start == 0 else (lambda k: start + k * step)


def range_items(iterable):
    """`iterable` as RangeItems when it is a range (or Python's lazy `enumerate`, `zip`,
    `reversed`/`iter` over ranges, read through their `__reduce__`), else None."""
    if isinstance(iterable, builtins.range):
        r = iterable
        if max(abs(r.start), abs(r.stop)) > _INT32_MAX:
            return None
        return RangeItems(len(r), _affine(r.start, r.step))
    kind = type(iterable)
    if kind is type(iter(builtins.range(0))):
        # (Python 3.12 and later reduce it to the range of the items left, with no count.)
        _, (r,), done = iterable.__reduce__()
        inner = range_items(r)
        return inner.after(done) if inner is not None and done else inner
    if kind is builtins.enumerate:
        _, (inner, start) = iterable.__reduce__()
        inner = range_items(inner)
        if inner is None:
            return None
        return RangeItems(inner.length, lambda k: (start + k, inner.item(k)))
    if kind is builtins.zip:
        reduced = iterable.__reduce__()
        parts = [range_items(i) for i in reduced[1]]
        if not parts or None in parts:
            return None
        lengths = {p.length for p in parts}
        if len(reduced) > 2 and reduced[2] and len(lengths) > 1:
            return None   # zip(strict=True) raises: let Python do it
        return RangeItems(min(lengths), lambda k: tuple(p.item(k) for p in parts))
    return None


class StackedItems:
    """The items of a Python list or tuple of like arrays (pytrees of them: `for w, b in
    layers`), stacked leaf by leaf on a new axis: a converted `for` may scan over them
    instead of unrolling the loop (see runtime.loops.loop_policy). The body then sees each item
    as slices of the stacks: the same values, as traced arrays."""

    def __init__(self, leaves, treedef, length):
        self.leaves, self.treedef, self.length = leaves, treedef, length

    def __len__(self):
        return self.length

    def _item(self, k, *slices):
        return jax.tree_util.tree_unflatten(self.treedef, slices)

    def after(self, done):
        """The items left after the first `done`."""
        return StackedItems([leaf[done:] for leaf in self.leaves], self.treedef,
                            max(self.length - done, 0))

    def loop(self, body, values, names, location, extra_test, require_traced):
        return loops.scan_loop(self.length, self.leaves, self._item, body, values, names,
                               location, extra_test, indexed=False,
                               require_traced=require_traced)

    def indexing(self):
        return 0, self.length, lambda k: self._item(k, *(leaf[k] for leaf in self.leaves))


def stacked_items(iterable, state):
    """`iterable` as StackedItems when it is a list or tuple whose items are pytrees of
    the same structure, each leaf a JAX or NumPy array of one shape and dtype (weak type
    included) across the items, and the loop's `state` does not hold it; else None."""
    if type(iterable) not in (list, tuple) or not iterable or any(
            value is iterable for value in jax.tree_util.tree_leaves(
                state, is_leaf=lambda v: v is iterable)):
        return None
    flat = [jax.tree_util.tree_flatten(item) for item in iterable]
    leaves, treedef = flat[0]
    if not leaves or any(t != treedef for _, t in flat) or not all(
            isinstance(leaf, (jax.Array, np.ndarray)) for items, _ in flat for leaf in items):
        return None
    types = [aval(leaf) for leaf in leaves]
    if any([aval(leaf) for leaf in items] != types for items, _ in flat):
        return None
    stacks = [jnp.stack(column) for column in zip(*(items for items, _ in flat))]
    if [aval(stack[0]) for stack in stacks] != types:
        return None
    return StackedItems(stacks, treedef, len(iterable))


def unstacked_reason(iterable):
    """Why a converted `for` over the Python `iterable` runs as Python."""
    kind = type(iterable).__name__
    why = ('its items are not arrays of one shape and dtype (which it would stack and scan '
           'over)' if isinstance(iterable, (list, tuple)) else
           'its items are known only as Python produces them')
    return (f'it iterates over a Python {kind}: {why}. Iterate over an array or a range to '
            f'stage it as one loop')
