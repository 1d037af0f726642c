"""A slice whose length is known only when the program runs, read by a reduction.

    for i in range(n):
        out[i] = x[max(0, i - 2):i + 3].sum()     # 3, 4, 5, ..., 5, 4, 3 items

The same for the items a traced boolean mask selects (`x[labels == k].mean(axis=0)`,
see `selected`). A compiled program has fixed shapes, so such a slice cannot be an array. It can still be
summed: the program slices a fixed number of items (the most Python's slice can have)
and a mask says which of them Python's slice holds. A reduction that ignores the items
outside the mask computes Python's value exactly:

    sum, prod, any, all      jnp.sum(window, where=mask), ...   (0, 1, False, True outside)
    max, min                 jnp.max(window, where=mask, initial=lowest), ...; an empty
                             slice raises Python's ValueError when the program runs
    mean                     jnp.mean(window, where=mask)       (divides by the count)

as methods (`s.sum()`, also through `np.sum(s)`, which calls the method, and `jnp.sum(s)`,
which converted code asks the slice for: see `__ag_reduce__`), also after
arithmetic and comparisons item by item with scalars (`((s - m) ** 2).mean()`,
`(s > 0).any()`: a masked slice again). Every other use (`s @ w`, `.shape`, `jnp.cumsum(s)`,
returning it) would need the items as an array of that length: it is a
ControlFlowError naming the slice and saying its length depends on a traced value (and in
a loop over a Python range or an array's rows, the loop then runs as Python: see
runtime.loops.loop_policy).
"""
import jax
import jax.numpy as jnp
import numpy as np

from ..messages import varying_slice_used
from ..checks.raises import raise_if

class Masked:
    """`data` (a fixed-size slice) of which Python's slice holds the items where `mask`
    (broadcast to data's shape) is true; `axes` are the axes of `data` whose length
    varies, `empty` a traced flag: Python's slice has no items. `describe()` gives the
    slice as the user wrote it and its location, for errors. `bounds` says where the mask
    comes from (the shape, and per varying axis its position, length and slice): two
    slices with the same bounds have the same mask (`x[:i] * y[:i]`)."""

    def __init__(self, data, mask, axes, empty, describe, bounds):
        self._data, self._mask, self._axes = data, mask, tuple(axes)
        self._empty, self._describe, self._bounds = empty, describe, bounds

    def _same_mask(self, other):
        return self._mask is other._mask or _same(self._bounds, other._bounds)

    def _reduce(self, name, axis=None, dtype=None, out=None, keepdims=False, **options):
        if out is not None or options:
            raise self._refused(f'`.{name}()` with {sorted(options) or ["out"]}')
        ndim = self._data.ndim
        reduced = set(range(ndim)) if axis is None else {
            a % ndim for a in (axis if isinstance(axis, tuple) else (axis,))}
        if not set(self._axes) <= reduced:
            raise self._refused(f'`.{name}(axis={axis})` keeps an axis whose length varies')
        kwargs = {'axis': axis, 'keepdims': keepdims, 'where': self._mask}
        if dtype is not None:
            kwargs['dtype'] = dtype
        if name in ('max', 'min'):
            raise_if(self._empty, lambda: ValueError(
                f'zero-size array to reduction operation {name}imum which has no identity'))
            kwargs['initial'] = _extreme(self._data.dtype, lowest=name == 'max')
        return getattr(jnp, name)(self._data, **kwargs)

    def sum(self, *args, **kwargs):
        return self._reduce('sum', *args, **kwargs)

    def prod(self, *args, **kwargs):
        return self._reduce('prod', *args, **kwargs)

    def max(self, *args, **kwargs):
        return self._reduce('max', *args, **kwargs)

    def min(self, *args, **kwargs):
        return self._reduce('min', *args, **kwargs)

    def mean(self, *args, **kwargs):
        return self._reduce('mean', *args, **kwargs)

    def any(self, *args, **kwargs):
        return self._reduce('any', *args, **kwargs)

    def all(self, *args, **kwargs):
        return self._reduce('all', *args, **kwargs)

    def __ag_len__(self):
        """`len(s)`: its items along the first axis, counted when the program runs where
        that axis's length varies (an int32 traced value)."""
        if 0 not in self._axes:
            return self._data.shape[0]
        kept = self._kept()
        return jnp.sum(jnp.any(kept, axis=tuple(range(1, kept.ndim)))).astype(jnp.int32)

    @property
    def size(self):
        """`s.size`: its items, counted when the program runs (an int32 traced value)."""
        return jnp.sum(self._kept()).astype(jnp.int32)

    def _kept(self):
        return jnp.broadcast_to(self._mask, self._data.shape)

    def __ag_reduce__(self, method, *args, **kwargs):
        """`jnp.sum(s, ...)`, `jnp.mean(s, ...)`, ...: the method `s.sum(...)`, ... (see
        runtime.python.calls.REDUCTIONS)."""
        return getattr(self, method)(*args, **kwargs)

    def __getattr__(self, name):
        if name.startswith('_'):
            raise AttributeError(name)
        raise self._refused(f'`.{name}`')

    def _refused(self, use):
        return _refused(self._describe, use)


def _refused(describe, use):
    return varying_slice_used(*describe(), use)


def _refuse(name):
    def refused(self, *args, **kwargs):
        raise self._refused(f'`{name}`')
    refused.__name__ = name
    return refused


def _elementwise(name):
    """`s op other` item by item: a Masked slice again (the same items are Python's),
    for `other` a scalar or a Masked slice with the same mask (`w * w`, `x[:i] * y[:i]`)."""
    def apply(self, *other):
        if other and isinstance(other[0], Masked):
            if not self._same_mask(other[0]):
                raise self._refused(f'`{name}` with a slice of other bounds')
            other = (other[0]._data,)
        elif other and jnp.ndim(other[0]) != 0:
            raise self._refused(f'`{name}` with an array')
        return Masked(getattr(self._data, name)(*other), self._mask, self._axes,
                      self._empty, self._describe, self._bounds)
    apply.__name__ = name
    return apply


for _name in ('__add__', '__radd__', '__sub__', '__rsub__', '__mul__', '__rmul__',
              '__truediv__', '__rtruediv__', '__floordiv__', '__rfloordiv__', '__mod__',
              '__rmod__', '__pow__', '__rpow__', '__neg__', '__pos__', '__abs__',
              '__invert__', '__and__', '__rand__', '__or__', '__ror__', '__xor__',
              '__rxor__', '__lt__', '__le__', '__gt__', '__ge__', '__eq__', '__ne__'):
    setattr(Masked, _name, _elementwise(_name))
for _name in ('__matmul__', '__rmatmul__', '__getitem__', '__setitem__', '__iter__',
              '__len__', '__bool__', '__array__', '__jax_array__', '__float__', '__int__',
              '__index__'):
    setattr(Masked, _name, _refuse(_name))
Masked.__hash__ = None


def _flatten(masked):
    """Its leaves are its items (so a function closing over it is seen to close over
    traced values), but nothing can be rebuilt from them (see `_unflatten`)."""
    return (masked._data,), masked._describe


def _unflatten(describe, children):
    """A Masked slice returned, carried by a staged loop or branch, or passed through a
    JAX transformation would be rebuilt here: the named error."""
    raise _refused(describe, 'a value returned, carried or passed through JAX')


jax.tree_util.register_pytree_node(Masked, _flatten, _unflatten)


def _same(a, b):
    """Whether two bounds are the same: the same objects where traced, equal Python
    values elsewhere."""
    if isinstance(a, tuple) and isinstance(b, tuple):   # (spans and shapes are tuples)
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, slice) and isinstance(b, slice):
        return _same((a.start, a.stop, a.step), (b.start, b.stop, b.step))
    if isinstance(a, jax.core.Tracer) or isinstance(b, jax.core.Tracer):
        return a is b
    return type(a) is type(b) and a == b


def _extreme(dtype, lowest):
    """The identity of max (`lowest`) or min over `dtype`."""
    if jnp.issubdtype(dtype, jnp.floating):
        return -jnp.inf if lowest else jnp.inf
    if jnp.issubdtype(dtype, jnp.bool_):
        return not lowest
    info = jnp.iinfo(dtype)
    return info.min if lowest else info.max


def selected(data, mask, location):
    """`data[mask]` for a traced boolean `mask` over `data`'s first axis or over all its
    axes, as a Masked value (its reductions read Python's items exactly: `x[labels ==
    k].mean(axis=0)`, `x[x > 0].sum()`); None for other masks (the caller's error).
    (The items a mask over all axes selects make one axis: only whole reductions of them
    keep NumPy's axis numbering, so only those are allowed.)"""
    if not (mask.ndim == 1 and data.ndim >= 1 and mask.shape[0] == data.shape[0]) \
            and mask.shape != data.shape:
        return None
    grid = jnp.broadcast_to(mask.reshape(mask.shape + (1,) * (data.ndim - mask.ndim)),
                            data.shape)

    def describe():
        return 'the items a traced boolean mask selects', location
    return Masked(data, grid, range(mask.ndim), jnp.logical_not(jnp.any(mask)), describe,
                  ('mask', mask))


def axis_mask(lo, hi, position, width):
    """Which of the `width` items from `position` lie in Python's `lo:hi` (normalised
    bounds, 0 <= lo, hi <= length)."""
    at = position + np.arange(width)
    return (at >= lo) & (at < hi)
