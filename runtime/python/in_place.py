"""NumPy's methods and functions that change an array in place, called as statements
(`w.sort()`, `w.fill(0.5)`, `np.copyto(w, v)`, `np.fill_diagonal(w, v)`): generated code
rebinds the name to what the call leaves (`w = ag.in_place(w, 'sort', w_is_numpy)`, see
autograph.passes.calls), since a traced array that stands for a NumPy array is changed
by making a new one."""
import jax.numpy as jnp
import numpy as np

from .calls import call
from ..context import mark_numpy, numpy_meaning
from ..errors import here
from ..messages import numpy_traced_write
from ..values.split import is_traced

METHODS = frozenset({'sort', 'fill'})
FUNCTIONS = frozenset({'copyto', 'fill_diagonal'})
"""NumPy's functions of that kind: `np.copyto(w, v)` is `w`'s `'copyto'`."""


def in_place(obj, method, numpy, *args, **kwargs):
    """Python reference: `obj.method(*args, **kwargs); return obj`. `numpy`: whether
    `obj` stands for a NumPy array where the converter knows it (autograph.passes.
    kind_flags), else None (its mark decides). A traced array that stands for a NumPy
    array gets a new traced array (`jnp.sort`, `jnp.full_like`),
    which the caller's name is rebound to; anything else is called as Python calls it
    (a list or NumPy array changes in place; a JAX array's `sort` gives a sorted copy,
    which Python drops, and it has no `fill`; a user object's method is converted)."""
    if is_traced(obj) and (numpy_meaning(obj) if numpy is None else numpy):
        if method == 'sort':
            return mark_numpy(jnp.sort(obj, *args, **kwargs))
        if method == 'fill' and len(args) == 1 and not kwargs:
            return mark_numpy(jnp.full_like(obj, args[0]))
        if method == 'copyto' and len(args) == 1 and set(kwargs) <= {'casting'}:
            return mark_numpy(_copied_to(obj, args[0], kwargs.get('casting', 'same_kind')))
        if method == 'fill_diagonal' and len(args) == 1 and set(kwargs) <= {'wrap'}:
            return mark_numpy(jnp.fill_diagonal(obj, args[0], wrap=kwargs.get('wrap', False),
                                                inplace=False))
    if isinstance(obj, np.ndarray) and any(is_traced(a) for a in (*args, *kwargs.values())):
        raise numpy_traced_write([], here())   # (NumPy's array cannot hold a traced value)
    if method in FUNCTIONS:
        call(getattr(np, method), obj, *args, **kwargs)
    else:
        call(getattr(obj, method), *args, **kwargs)
    return obj


def _copied_to(obj, src, casting):
    """`np.copyto(obj, src, casting)`'s array, for traced `obj`: `src` broadcast to its
    shape and cast to its dtype, where NumPy's `casting` rule allows that cast (else
    NumPy's TypeError, from NumPy itself given a stand-in of `src`'s dtype)."""
    probe = src if isinstance(src, (bool, int, float, complex)) else \
        np.zeros((), getattr(src, 'dtype', None) or np.asarray(src).dtype)
    np.copyto(np.zeros((), obj.dtype), probe, casting=casting)
    return jnp.broadcast_to(jnp.asarray(src), obj.shape).astype(obj.dtype)
