"""NumPy's views made by more than one step: `u = a[1:][::-1]`, `A = a.reshape(2, 2)`,
`u = a.ravel()`, `u = a.view()`, `u = np.swapaxes(a, 0, 1)` (see runtime.items.views and
autograph.passes.views):

    u = a[1:][::-1]       ->  u, u_key = ag.view(a, ag.chain(slice(1, None),
                                                             slice(None, None, -1)))
    A = a.reshape(2, 2)   ->  A, A_key = ag.view(a, ag.chain(ag.reshaped(2, 2)))

A view is its base and the chain of steps that made it (`Chain`, the view's key): a
basic index, a permutation of the axes (`.T`, `transpose(axes)`, `swapaxes`,
`np.moveaxis`: always a view), or a reshape (`reshape`, `ravel`, in the order given:
`'C'`, `'F'`, or `'A'`/`'K'`, which the array's memory layout decides; NumPy's view where
that layout allows one without a copy, else a copy, see `resolve_chain`; `view()`,
`np.asarray`: no step, all of the base). It is read by taking the steps in order, and
written back by undoing them in reverse: the view's value is stored into the array of
the step before it (reshaped back to that array's shape, in the step's order, for a
reshape; its axes put back for a permutation), and so on to the base.

The layout of a traced base is the layout of the NumPy array it stands for: C order,
as NumPy's arithmetic makes arrays, unless the converted Function was given an array of
another layout (`m.T`, `x[::2]`), which its key tells apart and the trace notes
(runtime.context's `layouts`).
"""
import jax
import jax.numpy as jnp
import numpy as np

from ..values.split import is_traced
from .slicing import span

_ARRAYS = (jax.Array, np.ndarray)


class Step:
    """A step of a chain that is no key (see `reshaped`, `transposed`)."""
    __slots__ = ()


class transposed(Step):
    """A step of a chain: Python's `x.T`, `x.transpose(*axes)` (`np.transpose(x,
    axes)`), a view with its axes in the order `axes` gives (reversed where none)."""
    __slots__ = ('axes',)

    def __init__(self, *axes):
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
            axes = () if axes[0] is None else tuple(axes[0])
        self.axes = tuple(int(a) for a in axes)

    def order(self, ndim):
        """The axes of the array before, in the order this step puts them."""
        if not self.axes:
            return tuple(range(ndim))[::-1]
        if sorted(a % ndim if -ndim <= a < ndim else a for a in self.axes) != list(
                range(ndim)):
            raise ValueError("axes don't match array")
        return tuple(a % ndim for a in self.axes)

    def __repr__(self):
        return f'{type(self).__name__}{self.axes}'


class swapped(transposed):
    """A step of a chain: Python's `x.swapaxes(a1, a2)` (`np.swapaxes`), a view."""
    __slots__ = ()

    def __init__(self, axis1, axis2):
        super().__init__(axis1, axis2)

    def order(self, ndim):
        axes = list(range(ndim))
        one, two = (_axis(a, ndim) for a in self.axes)
        axes[one], axes[two] = axes[two], axes[one]
        return tuple(axes)


class moved(transposed):
    """A step of a chain: Python's `np.moveaxis(x, source, destination)`, a view."""
    __slots__ = ('source', 'destination')

    def __init__(self, source, destination):
        super().__init__()
        self.source, self.destination = _axes(source), _axes(destination)

    def order(self, ndim):   # (NumPy's own rule: the others in order, then inserted)
        source = [_axis(a, ndim) for a in self.source]
        destination = [_axis(a, ndim) for a in self.destination]
        if len(source) != len(destination) or len(set(source)) != len(source) or \
                len(set(destination)) != len(destination):
            raise ValueError('`source` and `destination` arguments must have the same '
                             'number of elements')
        axes = [n for n in range(ndim) if n not in source]
        for where, axis in sorted(zip(destination, source)):
            axes.insert(where, axis)
        return tuple(axes)

    def __repr__(self):
        return f'moved({self.source}, {self.destination})'


def _axes(axes):
    return tuple(int(a) for a in axes) if isinstance(axes, (tuple, list)) else (int(axes),)


def _axis(axis, ndim):
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim)
    return axis % ndim


class as_array(Step):
    """A step of a chain: Python's `np.asarray(x)` (`np.asanyarray(x)`): `x` itself
    where it is an array (all of it, a view), else a new NumPy array of it."""
    __slots__ = ()

    def __repr__(self):
        return 'as_array()'


class reshaped(Step):
    """A step of a chain: Python's `x.reshape(*shape, order=order)` (`np.reshape(x,
    shape, order)`)."""
    __slots__ = ('shape', 'order')

    def __init__(self, *shape, order='C'):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        self.shape = tuple(shape)
        self.order = 'C' if order is None else order

    def __repr__(self):
        order = [] if self.order == 'C' else [f'order={self.order!r}']
        return f"{type(self).__name__}({', '.join(list(map(repr, self.shape)) + order)})"

    def resolved(self, order):
        """This step in order `order` (`'C'` or `'F'`)."""
        step = object.__new__(type(self))
        step.shape, step.order = self.shape, order
        return step


class raveled(reshaped):
    """A step of a chain: Python's `x.ravel(order)` (`np.ravel(x, order)`; NumPy's view
    only where `x` is laid out in that order: a contiguous result, else a copy)."""
    __slots__ = ()

    def __init__(self, order='C'):
        super().__init__(-1, order=order)


class Chain(tuple):
    """The steps (basic keys and `Step`s) that make a view of a base, in order."""


def chain(*steps):
    """Python reference: the key of the view `base` followed by `steps` makes (each a
    basic key, `base[k1][k2]`, or a `Step`): `k1` itself for one key, `...` (all of
    `base`, `base.view()`) for none."""
    if not steps:
        return Ellipsis
    if len(steps) == 1 and not isinstance(steps[0], Step):
        return steps[0]
    return Chain(steps)


def read_step(value, step, read):
    """`value` after one step (`read(value, key)`: the basic index); a reshape's order
    `'C'` or `'F'` (see `resolve_chain`)."""
    if isinstance(step, Step) and not isinstance(value, _ARRAYS):
        value = np.asarray(value)   # (NumPy's functions of a list: a new array)
    if isinstance(step, as_array):
        return value
    if isinstance(step, transposed):
        return value.transpose(step.order(np.ndim(value)))
    if isinstance(step, raveled) and isinstance(value, np.ndarray):
        return value.ravel(order=_order(step))   # (a copy where reshape's is a view)
    if isinstance(step, reshaped):
        return value.reshape(step.shape, order=_order(step))
    return read(value, step)


def _order(step):
    if step.order not in ('C', 'F'):
        raise ValueError(f'order {step.order!r} of a reshape not resolved')
    return step.order


def read_chain(base, steps, read):
    """Python reference: the view `steps` make of `base`."""
    for step in steps:
        base = read_step(base, step, read)
    return base


def write_chain(base, steps, value, write, read):
    """Python reference: `base`, after the view `steps` made of it was changed in place to
    `value`: `value` stored back through each step, the last one first (`write(x, key,
    v)`: `x` with `v` at `key`, for the base; the arrays between are new ones)."""
    step, rest = steps[0], steps[1:]
    if rest:
        part = read_step(base, step, read)
        if isinstance(part, np.ndarray) and not isinstance(value, np.ndarray):
            part = jnp.asarray(part)   # (a traced value: stored into a new array)
        value = write_chain(part, rest, value, _functional(write), read)
    if isinstance(step, as_array):
        return write(base, Ellipsis, value)
    if isinstance(step, transposed):
        return write(base, Ellipsis, _transpose(value, np.argsort(
            step.order(np.ndim(base)))))
    if isinstance(step, reshaped):
        shape = np.shape(base)
        return write(base, Ellipsis, jnp.reshape(value, shape, order=_order(step))
                     if not isinstance(value, np.ndarray) else
                     value.reshape(shape, order=_order(step)))
    return write(base, step, value)


def _transpose(value, axes):
    axes = tuple(int(a) for a in axes)
    return value.transpose(axes) if isinstance(value, np.ndarray) else \
        jnp.transpose(value, axes)


def _functional(write):
    """`write` for the arrays between the base and the view (own=False)."""
    return lambda target, key, value, own=False: write(target, key, value, own=False)


def resolve_chain(base, steps, single_item, strides=None):
    """(whether `steps` make a NumPy view of NumPy array `base`, the steps with each
    reshape's order `'C'` or `'F'`), on a model of `base`'s memory layout (a concrete
    array's own, a traced one's `strides` in items where the caller's array had another
    than C order, else C order, as NumPy's arithmetic and functions make arrays): no step
    selects a single item (`single_item(x, key)`: a scalar, a copy), and no reshape
    copies (NumPy copies where the memory allows no view). A reshape's `'A'` is `'F'`
    where the array before it is laid out in Fortran order only, else `'C'`; a ravel's
    `'K'` reads the items in the order of memory (a permutation of the axes, then `'C'`;
    a LayoutUnknown where no permutation gives it)."""
    model, memory = _model(base, strides)
    view, resolved = True, []
    for step in steps:
        if isinstance(step, (transposed, as_array)):
            if isinstance(step, transposed):
                model = model.transpose(step.order(model.ndim))
            resolved.append(step)
            continue
        if not isinstance(step, reshaped):
            if single_item(model, step):
                view, model = False, np.zeros(np.shape(model[_concrete(step)]), np.int8)
            else:
                model = model[_concrete(step)]
            resolved.append(step)
            continue
        steps_here, order = _resolved(model, step)
        resolved += steps_here
        model = model.reshape(step.shape, order=step.order) if type(step) is reshaped \
            else model.ravel(order=step.order)
        view = view and np.may_share_memory(model, memory)
    return view, Chain(resolved)


def _model(base, strides):
    """(an int8 array with the shape and strides in items of `base`, its memory)."""
    if isinstance(base, np.ndarray):
        itemsize = np.dtype(base.dtype).itemsize
        strides = tuple(s // itemsize for s in base.strides)
    elif strides is None:
        strides = _c_strides(np.shape(base))
    shape = np.shape(base)
    extent = sum((n - 1) * abs(s) for n, s in zip(shape, strides)) + 1 if all(shape) else 1
    lowest = sum((n - 1) * s for n, s in zip(shape, strides) if s < 0) if all(shape) else 0
    memory = np.zeros(max(extent, 1), np.int8)
    return np.lib.stride_tricks.as_strided(memory[-lowest:], shape, strides), memory


def _resolved(model, step):
    """([the steps], order) that read as reshape `step` does on an array laid out as
    `model`: its order `'C'` or `'F'`."""
    order = step.order
    if order == 'A':
        fortran = model.flags.f_contiguous and not model.flags.c_contiguous
        return [step.resolved('F' if fortran else 'C')], order
    if order == 'K' and type(step) is raveled:
        if model.flags.c_contiguous or not model.flags.f_contiguous:
            axes = _memory_order(model)
            return ([transposed(*axes)] if axes != tuple(range(model.ndim)) else []) + [
                step.resolved('C')], order
        return [step.resolved('F')], order
    if order not in ('C', 'F'):
        model.reshape(step.shape, order=order)   # (NumPy's error)
        raise ValueError(f'order must be one of "C", "F", "A", or "K" (got {order!r})')
    return [step], order


def _memory_order(model):
    """The axes of `model` in the order `ravel('K')` reads them (the largest stride
    first), checked against NumPy's own on a copy of the layout that holds each item's
    index: a LayoutUnknown where they differ."""
    axes = tuple(sorted(range(model.ndim), key=lambda n: -abs(model.strides[n])))
    size = model.size
    if size <= 1:
        return tuple(range(model.ndim))
    index = np.arange(size).reshape(model.shape)
    memory = np.zeros(_extent(model), np.int64)
    lowest = sum((n - 1) * s for n, s in zip(model.shape, model.strides) if s < 0)
    laid = np.lib.stride_tricks.as_strided(memory[-lowest:], model.shape,
                                           tuple(8 * s for s in model.strides))
    laid[...] = index
    if not np.array_equal(laid.ravel(order='K'), index.transpose(axes).ravel()):
        from ..errors import here
        from ..messages import view_layout_unknown
        raise view_layout_unknown(here())
    return axes


def _extent(model):
    return sum((n - 1) * abs(s) for n, s in zip(model.shape, model.strides)) + 1


def _c_strides(shape):
    strides, size = [], 1
    for n in reversed(shape):
        strides.append(size)
        size *= max(int(n), 1)
    return tuple(reversed(strides))


def _concrete(key):
    """`key` with its traced integers 0 and its windows slices of their width: the same
    shape and layout (for `resolve_chain`)."""
    parts = key if isinstance(key, tuple) and not isinstance(key, span) else (key,)
    out = []
    for part in parts:
        if isinstance(part, span):
            width = part.width if isinstance(part.width, int) else 1
            out.append(slice(0, width))
        elif isinstance(part, _ARRAYS):
            out.append(0 if is_traced(part) else int(part))
        else:
            out.append(part)
    return tuple(out)
