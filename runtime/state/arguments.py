"""The arguments a call may change in place, as places (see `places`).

Python reference: `f(xs)` where `f` does `xs.append(v)`, `xs.sort()` or `a[i] = v`
changes the caller's list `xs` or NumPy array `a` (a JAX array cannot change: converted
code rebinds it instead).
"""
import numpy as np

from ..messages import numpy_traced_write
from ..values.split import is_traced
from .kinds import LISTS_AND_DICTS
from .places import Place, container


def argument_places(args, kwargs):
    """The lists, dicts and writable NumPy arrays given as arguments, as places the call
    may change (their contents are keyed as arguments, not as state)."""
    given = [(f'<argument {i}>', arg) for i, arg in enumerate(args)]
    given += [(f'<argument {name}>', arg) for name, arg in kwargs.items()]
    return [container(label, arg, argument=True) if type(arg) in LISTS_AND_DICTS
            else _numpy_argument(label, arg) for label, arg in given
            if type(arg) in LISTS_AND_DICTS or type(arg) is np.ndarray]


def _numpy_argument(label, array):
    """A NumPy array as a place: its items (written in place, as NumPy's `a[i] = v`;
    a read-only array raises NumPy's ValueError, after the call; items traced by a
    transformation of the caller's, `jax.vmap` of the call, the named error: NumPy
    needs numbers now)."""
    def set(value):
        if is_traced(value):
            raise numpy_traced_write([label.strip('<>')], None)
        if not array.flags.writeable:
            raise ValueError(f'{label}: assignment destination is read-only (the function '
                             f'writes items of a read-only NumPy array)')
        np.copyto(array, np.asarray(value), casting='unsafe')
    return Place(label, lambda: array, set, None, ('array', id(array)), argument=True)
