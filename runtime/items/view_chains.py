"""NumPy's views made by more than one step: `u = a[1:][::-1]`, `A = a.reshape(2, 2)`,
`u = a.ravel()`, `u = a.view()` (see runtime.items.views and autograph.passes.views):

    u = a[1:][::-1]       ->  u, u_key = ag.view(a, ag.chain(slice(1, None),
                                                             slice(None, None, -1)))
    A = a.reshape(2, 2)   ->  A, A_key = ag.view(a, ag.chain(ag.reshaped(2, 2)))

A view is its base and the chain of steps that made it (`Chain`, the view's key): a
basic index, a transpose (`.T`), or a reshape (`reshape`, `ravel`: NumPy's view where
the array's memory allows one without a copy, see `chain_is_view`; `view()`: no step,
all of the base). It is read by taking the steps in order, and written back by undoing
them in reverse: the view's value is stored into the array of the step before it
(reshaped back to that array's shape for a reshape, transposed back for a transpose),
and so on to the base.
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
    """A step of a chain: Python's `x.T` (`x.transpose()`), a view."""
    __slots__ = ()

    def __repr__(self):
        return 'transposed()'


class reshaped(Step):
    """A step of a chain: Python's `x.reshape(*shape)` (`x.ravel()`: `reshaped(-1)`)."""
    __slots__ = ('shape',)

    def __init__(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        self.shape = tuple(shape)

    def __repr__(self):
        return f'{type(self).__name__}{self.shape}'


class raveled(reshaped):
    """A step of a chain: Python's `x.ravel()` (NumPy's view only where `x` is laid out
    in C order: a contiguous result, else a copy)."""
    __slots__ = ()

    def __init__(self):
        super().__init__(-1)


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
    """`value` after one step (`read(value, key)`: the basic index)."""
    if isinstance(step, transposed):
        return value.T
    if isinstance(step, raveled):
        return value.ravel()   # (NumPy's copy where `value` is not in C order)
    if isinstance(step, reshaped):
        return value.reshape(step.shape)
    return read(value, step)


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
    if isinstance(step, transposed):
        return write(base, Ellipsis, value.T)
    if isinstance(step, reshaped):
        return write(base, Ellipsis, jnp.reshape(value, jnp.shape(base))
                     if not isinstance(value, np.ndarray) else value.reshape(np.shape(base)))
    return write(base, step, value)


def _functional(write):
    """`write` for the arrays between the base and the view (own=False)."""
    return lambda target, key, value, own=False: write(target, key, value, own=False)


def chain_is_view(base, steps, single_item):
    """Whether `steps` make a NumPy view of NumPy array `base` (a concrete one, with its
    memory layout; a traced one stands for an array laid out in C order, as NumPy's
    arithmetic and functions make them and as a converted Function is given): no step
    selects a single item (`single_item(x, key)`: a scalar, a copy), and each reshape
    needs no copy of the array before it (NumPy copies otherwise)."""
    itemsize = np.dtype(base.dtype).itemsize if isinstance(base, np.ndarray) else 1
    strides = (tuple(s // itemsize for s in base.strides) if isinstance(base, np.ndarray)
               else _c_strides(np.shape(base)))
    shape = np.shape(base)
    extent = sum((n - 1) * abs(s) for n, s in zip(shape, strides)) + 1 if all(shape) else 1
    lowest = sum((n - 1) * s for n, s in zip(shape, strides) if s < 0) if all(shape) else 0
    memory = np.zeros(max(extent, 1), np.int8)
    model = np.lib.stride_tricks.as_strided(memory[-lowest:], shape, strides)
    for step in steps:
        if isinstance(step, transposed):
            model = model.T
        elif isinstance(step, reshaped):
            if isinstance(step, raveled) and not model.flags.c_contiguous:
                return False   # (NumPy copies)
            model = model.reshape(step.shape)
            if not np.may_share_memory(model, memory):
                return False   # (NumPy copied)
        elif single_item(model, step):
            return False
        else:
            model = model[_concrete(step)]
    return True


def _c_strides(shape):
    strides, size = [], 1
    for n in reversed(shape):
        strides.append(size)
        size *= max(int(n), 1)
    return tuple(reversed(strides))


def _concrete(key):
    """`key` with its traced integers 0 and its windows slices of their width: the same
    shape and layout (for `chain_is_view`)."""
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
