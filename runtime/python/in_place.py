"""NumPy's methods and functions that change an array in place, called as statements
(`w.sort()`, `w.fill(0.5)`, `w.put(ind, v)`, `np.copyto(w, v)`, `np.fill_diagonal(w, v)`,
`np.put(w, ind, v)`, `np.putmask(w, mask, v)`, `np.place(w, mask, v)`, `np.add.at(w, ind,
v)` and the other ufuncs' `at`): generated code rebinds the name to what the call leaves
(`w = ag.in_place(w, 'sort', w_is_numpy)`, see autograph.passes.calls), since a traced
array that stands for a NumPy array is changed by making a new one."""
import jax.numpy as jnp
import numpy as np

from . import traced_numpy
from .. import origin
from .calls import call
from ..context import mark_numpy, numpy_meaning
from ..errors import here
from ..items.indexing import check_bounds
from ..messages import numpy_traced_write
from ..values.split import is_traced

METHODS = frozenset({'sort', 'fill', 'put'})
FUNCTIONS = frozenset({'copyto', 'fill_diagonal', 'put', 'putmask', 'place'})
"""NumPy's functions of that kind: `np.copyto(w, v)` is `w`'s `'np.copyto'`."""

UFUNCS_AT = {'add': 'add', 'subtract': 'add', 'multiply': 'multiply', 'divide': 'divide',
             'true_divide': 'divide', 'maximum': 'max', 'minimum': 'min', 'power': 'power'}
"""The ufuncs whose `at` (`np.add.at(w, ind, v)`: `w`'s `'np.add.at'`) a traced array
stands in for, by the JAX `.at[]` update of the same meaning (unbuffered: an index given
twice is updated twice, as NumPy's `at` does)."""


def in_place(obj, method, numpy, *args, own=False, **kwargs):
    """Python reference: `obj.method(*args, **kwargs); return obj`; for a `method` named
    'np.name', NumPy's function: `np.name(obj, *args, **kwargs); return obj` ('np.add.at':
    `np.add.at(obj, ...)`). `numpy`: whether
    `obj` stands for a NumPy array where the converter knows it (autograph.passes.
    kind_flags), else None (its mark decides). A traced array that stands for a NumPy
    array gets a new traced array (`jnp.sort`, `jnp.full_like`),
    which the caller's name is rebound to; anything else is called as Python calls it
    (a list or NumPy array changes in place; a JAX array's `sort` gives a sorted copy,
    which Python drops, and it has no `fill`; a user object's method is converted).
    `own`: `obj` is a NumPy array the function made and keeps to itself
    (autograph.analysis.own_arrays): given traced values, a traced array stands for it."""
    obj, numpy = _owned(obj, numpy, own, (*args, *kwargs.values()))
    if is_traced(obj) and (numpy_meaning(obj) if numpy is None else numpy):
        if method == 'sort':
            return mark_numpy(jnp.sort(obj, *args, **kwargs))
        if method == 'fill' and len(args) == 1 and not kwargs:
            return mark_numpy(jnp.full_like(obj, args[0]))
        if method == 'np.copyto' and len(args) == 1 and set(kwargs) <= {'casting'}:
            return mark_numpy(_copied_to(obj, args[0], kwargs.get('casting', 'same_kind')))
        if method == 'np.fill_diagonal' and len(args) == 1 and set(kwargs) <= {'wrap'}:
            return mark_numpy(jnp.fill_diagonal(obj, args[0], wrap=kwargs.get('wrap', False),
                                                inplace=False))
        changed = _traced_change(obj, method, args, kwargs)
        if changed is not None:
            return mark_numpy(changed.astype(obj.dtype))
    if isinstance(obj, np.ndarray) and any(is_traced(a) for a in (*args, *kwargs.values())):
        raise numpy_traced_write([], here())   # (NumPy's array cannot hold a traced value)
    if method.startswith('np.'):
        function = np
        for name in method[3:].split('.'):
            function = getattr(function, name)
        call(function, obj, *args, **kwargs)
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


def with_out(out, fn, numpy, *args, own=False, **kwargs):
    """Python reference: `fn(*args, out=out, **kwargs); return out` (`np.add(x, y,
    out=x)`, `np.exp(x, out=x)`, `x.clip(0, 1, out=x)`): NumPy writes the result into
    `out`. Where `out` is traced and stands for a NumPy array (`numpy`: as `in_place`'s),
    the result is computed by the twin that takes traced values (NumPy's function's in
    runtime.python.traced_numpy, a traced array's own method) and cast into `out`'s
    shape and dtype as NumPy's `same_kind` casting allows (else NumPy's TypeError); the
    caller's name is rebound to it. `own`: as `in_place`'s."""
    out, numpy = _owned(out, numpy, own, (*args, *kwargs.values()))
    if is_traced(out) and (numpy_meaning(out) if numpy is None else numpy):
        twin = _twin_of(fn)
        if twin is not None:
            return mark_numpy(_copied_to(out, twin(*args, **kwargs), 'same_kind'))
    if isinstance(out, np.ndarray) and any(is_traced(a) for a in (*args, *kwargs.values())):
        raise numpy_traced_write([], here())   # (NumPy's array cannot hold a traced value)
    call(fn, *args, out=out, **kwargs)
    return out


def _owned(target, numpy, own, values):
    """(target, numpy): a traced array standing for `target` where it is an `own` NumPy
    array given traced `values`."""
    if own and isinstance(target, np.ndarray) and any(is_traced(v) for v in values):
        return mark_numpy(jnp.asarray(target)), True
    return target, numpy


def _twin_of(fn):
    """The function that computes `fn`'s result of traced values: NumPy's function's
    twin, a traced array's own method; None where there is none."""
    name = getattr(fn, '__name__', None)
    if isinstance(fn, np.ufunc) or getattr(fn, '__module__', None) == 'numpy':
        return traced_numpy.twin(f'numpy.{name}') if name in traced_numpy.NAMES else None
    return fn if is_traced(getattr(fn, '__self__', None)) else None


def _traced_change(obj, method, args, kwargs):
    """What `method` (see `in_place`) leaves in traced `obj`, or None where it takes
    arguments this does not model (Python's call then raises as it does)."""
    if kwargs:
        return None
    ufunc = method[3:-3] if method.startswith('np.') and method.endswith('.at') else None
    if UFUNCS_AT.get(ufunc) and len(args) == 2:
        key, value = _index(args[0]), args[1]
        check_bounds(obj, key, scalars=True)   # (NumPy's IndexError)
        if ufunc == 'subtract':
            value = -jnp.asarray(value)
        return getattr(obj.at[key], UFUNCS_AT[ufunc])(value)
    if method in ('put', 'np.put') and len(args) == 2:   # (flat indices; `v` repeated)
        flat, key = obj.ravel(), jnp.ravel(jnp.asarray(args[0]))
        check_bounds(flat, key, scalars=True)
        return flat.at[key].set(jnp.resize(jnp.asarray(args[1]), key.shape)).reshape(obj.shape)
    if method == 'np.putmask' and len(args) == 2:   # (`v` repeated over the flat positions)
        values = jnp.resize(jnp.asarray(args[1]), obj.size).reshape(obj.shape)
        return jnp.where(jnp.asarray(args[0], bool), values, obj)
    if method == 'np.place' and len(args) == 2:   # (`v` taken in order by the true positions)
        mask, values = jnp.ravel(jnp.asarray(args[0], bool)), jnp.ravel(jnp.asarray(args[1]))
        taken = values[(jnp.cumsum(mask) - 1) % values.size]
        return jnp.where(mask, taken, obj.ravel()).reshape(obj.shape)
    return None


def _index(key):
    """An index of NumPy's (a list of integers: an index array) as JAX's `.at` takes it."""
    if isinstance(key, tuple):
        return tuple(_index(k) for k in key)
    return jnp.asarray(key) if isinstance(key, list) else key


origin.forwards(in_place, with_out)   # (NumPy's errors are the calling line's)
