"""`ag.window(seq, start, width, shift, low, high)`: a slice of at most `width` items from
`start + shift` (`x[i - 2:i + 3]`, `x[max(0, i - 2):i + 3]`, see `span`), `ag.getslice(seq,
lower, upper, step)`: `seq[lower:upper:step]`, and `ag.windows(seq, index)`: `seq[index]`
for an index tuple with such slices (`x[:, i:i + 3]`), where the bounds may be traced.

A slice's length must be known while tracing (it is the shape of the result). So:

    bounds known while tracing           ->  Python's slice, as is
    `x[i + a:i + b]`, x an array, a and b Python ints, i traced
                                         ->  lax.dynamic_slice_in_dim(x, i + a, b - a)
    `x[max(0, i - a):i + b]` (or min(n, ...) as the upper bound), read by a reduction
                                         ->  a masked slice of b + a items (runtime.items.masked)
    `x[i:j]`, `x[:j]`, `x[i:]` read by a reduction
                                         ->  a masked slice of the whole axis
    anything else with a traced bound (a step, another use of a slice whose length varies)
                                         ->  ControlFlowError naming the slice and the line

`x[i:i + k]` is what `lax.dynamic_slice` computes only where Python's slice has `k` items:
Python truncates a slice at the end of the array (and counts a negative start from the
end), while `dynamic_slice` moves the start back so that `k` items fit. The two differ
when the window runs past either end; there the compiled program stops with a
ControlFlowError when it runs (a run-time check, see runtime.checks.raises), rather than return
other items than Python would. A negative start whose window ends before the end of the
array (`x[-3:-1]`) counts from the end, as in Python. A slice whose bounds are clamped
(`max(low, ...)`, `min(high, ...)`) has a length that varies: it is a Masked slice of the
most items it can have, which a reduction (`.sum()`, `.max()`, ...) reads exactly; any
other use is a ControlFlowError. Its mask is exact while Python's slice has at most that
many items, checked when the program runs (a bound below 0 counts from the end and can
make it longer).

In a loop over a range with Python bounds (which can run as Python instead, see
runtime.loops.loop_policy) there is no run-time check: a slice is staged only when its start is
the loop's item (plus a Python int shift) and the bounds are Python values, so that its
length on every iteration is known while tracing: a fixed-width slice where it has
`width` items on every iteration, a Masked one where it is shorter on some; otherwise the
loop runs as Python.

Assignment to such a slice of a JAX array (`x[i:i + 2] = v`, through runtime.items) is
`lax.dynamic_update_slice` when `v` gives the slice's length: see `set_slice`.
"""
import contextlib
import typing

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .. import context
from ..errors import here
from .masked import Masked, axis_mask
from ..messages import (slice_longer, slice_may_shorten, slice_width, slice_write_count,
                        traced_slice)
from ..checks.raises import raise_if
from ..values.split import is_traced


def getslice(seq, lower=None, upper=None, step=None):
    """Python reference: `seq[lower:upper:step]`."""
    if not any(is_traced(b) for b in (lower, upper, step)):
        return seq[lower:upper:step]
    if step is not None or not isinstance(seq, (jax.Array, np.ndarray)) or jnp.ndim(seq) == 0:
        raise _traced_length(seq)
    return windows(seq, (slice(lower, upper),))


def window(seq, start, width, shift=0, low=None, high=None):
    """Python reference: `seq[lower:upper]` for the bounds of `span(start, width, shift,
    low, high)` (see `span`, and the module docstring)."""
    item = span(start, width, shift, low, high)
    if not item.traced():
        return seq[item.python()]
    if not isinstance(seq, (jax.Array, np.ndarray)):
        raise _error(seq, f'a Python {type(seq).__name__} cannot be sliced at a position known '
                          f'only when the program runs',
                     'make the sequence an array (jnp.asarray / jnp.stack) or the start a '
                     'Python int')
    if jnp.ndim(seq) == 0:
        raise _error(seq, 'a scalar has no axis to slice', 'index an array')
    out, part = _along(seq, 0, seq.shape[0], item)
    return out if part is None else _masked(out, [(0, *part, (seq.shape[0], item))])


class span(typing.NamedTuple):
    """A slice of at most `width` items from `start + shift`, as one item of an index tuple
    (`x[i:i + 3, :]`): Python's `lower:upper` with

        lower = start + shift               or  max(low, start + shift)     with `low`
        upper = start + shift + width       or  min(high, start + shift + width)   `high`

    (`x[i - 2:i + 3]` is `span(i, 5, -2)`, `x[max(0, i - 2):i + 3]` `span(i, 5, -2, 0)`).
    Without `low` and `high` the slice has `width` items where it fits in the axis."""
    start: object
    width: object
    shift: object = 0
    low: object = None
    high: object = None

    def python(self, maximum=max, minimum=min):
        """The slice, from Python values (from arrays, with `maximum` and `minimum`
        computing `max` and `min` item by item)."""
        lower = self.start if _is_zero(self.shift) else self.start + self.shift
        upper = lower + self.width
        if self.low is not None:
            lower = maximum(self.low, lower)
        if self.high is not None:
            upper = minimum(self.high, upper)
        return slice(lower, upper)

    def traced(self):
        return any(is_traced(b) for b in self)

    def clamped(self):
        return self.low is not None or self.high is not None


def windows(seq, index):
    """Python reference: `seq[index]`, each `span` of the tuple `index` being its slice
    (see `span`); spans along several axes, with slices, integers and None between."""
    if not any(s.traced() if isinstance(s, span) else
               isinstance(s, slice) and any(is_traced(b) for b in (s.start, s.stop, s.step))
               for s in index):
        return seq[tuple(s.python() if isinstance(s, span) else s for s in index)]
    if not isinstance(seq, (jax.Array, np.ndarray)) or any(
            not isinstance(s, (span, slice)) and s is not None and jnp.ndim(s) != 0
            for s in index):
        raise _error(seq, 'only an array indexed by slices, integers and None can be sliced '
                          'at a position known only when the program runs',
                     'make the sequence an array, and index it with integer scalars')
    if any(isinstance(s, slice) and s.step is not None
           and any(is_traced(b) for b in (s.start, s.stop, s.step)) for s in index):
        raise _traced_length(seq)
    moving = [isinstance(s, span) or isinstance(s, slice) and (
        is_traced(s.start) or is_traced(s.stop)) for s in index]
    out = seq[tuple(slice(None) if m else s for s, m in zip(index, moving))]
    axis, at, parts = 0, 0, []  # the output axis of each item: integers drop one, None adds one
    for s, m in zip(index, moving):
        if isinstance(s, span):
            out, part = _along(out, at, seq.shape[axis], s)
        elif m:
            part = _anywhere(seq.shape[axis], s)
        if m and part is not None:
            parts.append((at, *part, (seq.shape[axis], s)))
        axis += s is not None
        at += s is None or isinstance(s, (span, slice))
    return _masked(out, parts) if parts else out


def _along(seq, axis, length, s):
    """`seq[lower:upper]` along `axis` (of `length`) for the span `s` with a traced bound:
    (a fixed-width dynamic slice, None) where Python's slice has `s.width` items (checked
    when the program runs), or (a slice of the most items Python's can have, (mask, empty))
    for a slice whose length varies (runtime.items.masked)."""
    width = s.width
    if is_traced(width) or not isinstance(width, (int, np.integer)) or width < 0:
        raise _error(seq, 'the width of the slice must be a non-negative Python int',
                     'make the width a Python int (a static argument or a shape)')
    if any(b is not None and (jnp.ndim(b) or not jnp.issubdtype(jnp.result_type(b), jnp.integer))
           for b in (s.start, s.shift, s.low, s.high)):
        raise _error(seq, 'the start must be an integer scalar',
                     'index with an integer (jnp.int32)')
    if width > length and not s.clamped():
        raise _error(seq, f'the slice takes {width} items of an axis of {length}, so Python '
                          f'would return fewer', 'make the width at most the length')
    location = here()
    text = _sliced(location)
    size = min(width, length)
    bounds = s.python(jnp.maximum, jnp.minimum)
    lo, hi = _bound(bounds.start, length), _bound(bounds.stop, length)
    position = jnp.clip(lo, 0, length - size)
    sliced = lax.dynamic_slice_in_dim(seq, position, size, axis=axis)
    if _unrollable():
        known = _known_counts(s, length)
        if known is not None and (known == width).all():
            return sliced, None                                 # (equal: proven)
        if known is not None and (known <= size).all():
            return sliced, (axis_mask(lo, hi, position, size), bool((known == 0).any()))
        raise slice_may_shorten(text, location)
    count = jnp.maximum(hi - lo, 0)
    if s.clamped():
        raise_if(count > size, lambda count: slice_longer(
            text, location, count, size, length, 'reads'), (count,))
        return sliced, (axis_mask(lo, hi, position, size), count == 0)
    start = bounds.start
    raise_if(count != width, lambda start: slice_width(
        text, location, start, len(range(length)[start:start + width]), width, length),
        (start,))
    return sliced, None


def _anywhere(length, s):
    """(mask, empty) of the items of an axis of `length` that the slice `s` (a traced
    bound, no step) holds: `x[i:]`, `x[:j]`, `x[i:j]` are Masked slices of the whole
    axis, which reductions read exactly."""
    lo = _bound(jnp.asarray(0 if s.start is None else s.start), length)
    hi = _bound(jnp.asarray(length if s.stop is None else s.stop), length)
    return axis_mask(lo, hi, 0, length), hi <= lo


def _masked(data, parts):
    """A Masked slice (runtime.items.masked) of `data` from its varying axes' (axis, mask,
    empty, (axis length, span or slice)); its errors name the slice and its line."""
    mask, empty = True, False
    for axis, along, none, _ in parts:
        shape = [1] * data.ndim
        shape[axis] = -1
        mask = mask & along.reshape(shape)
        empty = empty | none
    location = here()
    text = _sliced(location)

    def describe():
        return text, location
    bounds = (data.shape, tuple((axis, *where) for axis, _, _, where in parts))
    return Masked(data, jnp.broadcast_to(mask, data.shape), [a for a, *_ in parts], empty,
                  describe, bounds)


def assigns_traced_slice(target, key):
    """True when `target[key] = value` (autograph.runtime.items) is an assignment to a
    slice of a JAX array with a traced bound: see `set_slice`."""
    return isinstance(target, jax.Array) and isinstance(key, slice) and any(
        is_traced(b) for b in (key.start, key.stop, key.step))


def set_slice(target, key, value, op=None):
    """Python (NumPy) reference: `target[key] = value` (or `target[key] op= value`, `op`
    the operator function), `key` a slice with traced bounds; returns the new array.

    The slice's length must be the length of `value` along the sliced axis (NumPy's
    assignment needs it too): `lax.dynamic_update_slice` writes `value` at the slice's
    start. When the program runs, a slice of another length (past the end, a step) stops
    it with a ControlFlowError rather than write other items than NumPy would."""
    value = jnp.asarray(value)
    if key.step is not None or value.ndim != target.ndim or target.ndim == 0:
        raise _error(target, 'the value written must be an array with the slice as its '
                             'first axis (a scalar or a broadcast value gives no length), '
                             'and the slice must have no step',
                     'write `x = lax.dynamic_update_slice(x, v, (i,))` with an array `v`')
    width, length = value.shape[0], target.shape[0]
    start = jnp.asarray(0 if key.start is None else key.start)
    stop = jnp.asarray(length if key.stop is None else key.stop)
    first, last = _bound(start, length), _bound(stop, length)
    location, text = here(), _sliced(here())
    raise_if(last - first != width, lambda first, last: slice_write_count(
        text, location, max(0, last - first), width), (first, last))
    if op is not None:
        value = op(lax.dynamic_slice_in_dim(target, first, width), value)
    return lax.dynamic_update_slice_in_dim(target, value.astype(target.dtype), first, 0)


def as_key(target, key):
    """The key `target[key] = v` assigns at: a span (`x[i:i + 3] = v`, see
    passes.sequences) stays one when a bound is traced and `target` a JAX array (see
    `set_window`); else it is Python's slice."""
    if not isinstance(key, span):
        return key
    if key.traced() and isinstance(target, jax.Array):
        return key
    if key.traced():
        return key.python(jnp.maximum, jnp.minimum)
    return key.python()


def set_window(target, key, value, op=None):
    """NumPy reference: `target[lower:upper] = value` (or `op=`), the bounds those of the
    span `key` (traced); returns the new array.

    The program reads the most items the slice can have (`lax.dynamic_slice`), updates
    those of Python's slice (a mask: a window shortened at an end updates fewer), and
    writes them back (`lax.dynamic_update_slice`). A value with the sliced axis must have
    as many items as the slice when the program runs, as NumPy requires (else the
    program stops with a ControlFlowError, a ValueError as NumPy's); so must a clamped
    slice (`max(0, i - 1):i + 2`) have at most its width.""" 
    length = target.shape[0] if target.ndim else 0
    if target.ndim == 0 or is_traced(key.width) or key.width < 0:
        return set_slice(target, key.python(jnp.maximum, jnp.minimum), value, op)
    size = min(key.width, length)
    bounds = key.python(jnp.maximum, jnp.minimum)
    lo, hi = _bound(bounds.start, length), _bound(bounds.stop, length)
    position = jnp.clip(lo, 0, length - size)
    value = jnp.asarray(value).astype(target.dtype)
    old = lax.dynamic_slice_in_dim(target, position, size)
    count = jnp.maximum(hi - lo, 0)
    location, text = here(), _sliced(here())
    if key.clamped():
        raise_if(count > size, lambda count: slice_longer(
            text, location, count, size, length, 'writes'), (count,))
    if value.ndim == target.ndim:   # its items go to Python's slice, from `lo`
        items = value.shape[0]
        raise_if(count != items, lambda count: slice_write_count(
            text, location, count, items), (count,))
        if items > size:     # (then the check above fails)
            return target
        value = lax.dynamic_update_slice_in_dim(
            jnp.zeros_like(old), jnp.broadcast_to(value, (items, *old.shape[1:])),
            lo - position, 0)
    new = op(old, value) if op is not None else jnp.broadcast_to(value, old.shape)
    mask = axis_mask(lo, hi, position, size).reshape((size,) + (1,) * (target.ndim - 1))
    new = jnp.where(mask, jnp.asarray(new).astype(target.dtype), old)
    return lax.dynamic_update_slice_in_dim(target, new, position, 0)


def _unrollable():
    """The traced items of the range loops with Python bounds being staged now, innermost
last: {id(traced leaf): (RangeItems, leaf position)}. Such a loop runs as Python when its
body raises ControlFlowError (see runtime.control_flow), so a window there is staged only
when its start is such an item and the slice fits on every iteration (the same values as
Python's); else it asks for the Python loop."""
    return context.current().range_items


_MAX_KNOWN = 100_000


@contextlib.contextmanager
def range_item(item, items):
    """While a range loop with Python bounds (`items`, a RangeItems) traces its body with
    the traced `item`."""
    leaves = jax.tree_util.tree_leaves(item)
    _unrollable().append({id(v): (items, p) for p, v in enumerate(leaves) if is_traced(v)})
    try:
        yield
    finally:
        _unrollable().pop()


def _known_counts(s, length):
    """The number of items Python's slice of the span `s` has on each iteration of its
    loop, when its start is a loop item and its other bounds are Python values; else
    None."""
    if any(is_traced(b) for b in (s.shift, s.low, s.high)):
        return None
    for frame in reversed(_unrollable()):
        if id(s.start) in frame:
            items, position = frame[id(s.start)]
            if len(items) > _MAX_KNOWN:
                return None
            starts = np.array([jax.tree_util.tree_leaves(items.item(j))[position]
                               for j in range(len(items))], dtype=np.int64)
            bounds = s._replace(start=starts).python(np.maximum, np.minimum)
            lo, hi = (np.clip(np.where(b < 0, b + length, b), 0, length)
                      for b in (bounds.start, bounds.stop))
            return np.maximum(hi - lo, 0)
    return None


def _is_zero(value):
    return isinstance(value, (int, np.integer)) and value == 0


def _bound(index, length):
    """Where Python's slice bound `index` falls in an axis of `length` (0..length)."""
    return jnp.clip(jnp.where(index < 0, index + length, index), 0, length)


def _traced_length(seq):
    return _error(seq, 'its length would depend on values known only when the program runs',
                  'write the slice as x[i:i + k] with a Python int k, or use '
                  'lax.dynamic_slice(x, (i,), (k,)) with a static size k')


def _error(seq, reason, fix):
    location = here()
    return traced_slice(_sliced(location), seq, location, reason, fix)


def _sliced(location):
    """'`xs[i:i + 3]`' for the line `y = xs[i:i + 3].sum()`: the slices of the line with
    computed bounds (the converter records them, see autograph.site_facts), or 'a
    slice'."""
    found = location.fact('sliced') if location else ()
    return ' or '.join(f'`{s}`' for s in found) if found else 'a slice'
