"""NumPy's array methods whose `jax.Array` namesakes take other arguments, for converted
code: `x.argsort(kind='stable')` and `x.take([0, 2])` are `ag.call(x.argsort,
kind='stable')` and `ag.call(x.take, [0, 2])` (autograph.passes.calls routes them so),
which calls `numpy_version`'s function where it gives one.

Python reference: NumPy's method, which is NumPy's function of the array
(`x.argsort(kind=k)` is `np.argsort(x, kind=k)`, `x.take(i)` is `np.take(x, i)`). JAX's
Array takes no `kind` (JAX's TypeError) and no list of indices (nor of values to find,
`searchsorted`, or of counts, `repeat`), and fills where an index is out of range where
NumPy raises: for a traced array that stands for a NumPy array (runtime.context's
`numpy_meaning`), the NumPy function's twin (runtime.python.traced_numpy) of it; any
other receiver's own method is called (a JAX array's, as Python calls it; an object's,
converted; a NumPy array's).
"""
import functools

import jax

from ..context import numpy_meaning
from ..values.split import is_traced
from . import traced_numpy

NAMES = frozenset({'argsort', 'take', 'searchsorted', 'repeat'})
"""The methods converted code calls through `ag.call` for this module."""


def numpy_version(method):
    """NumPy's function of the array for `method`, a bound method of NAMES of a traced
    array standing for a NumPy array (its twin, given the array first); else None."""
    owner = getattr(method, '__self__', None)
    if not (isinstance(owner, jax.Array) and is_traced(owner) and numpy_meaning(owner)):
        return None
    function = getattr(method, '__func__', None)   # (JAX names its methods otherwise)
    name = next((n for n in NAMES if getattr(type(owner), n, None) is function), None)
    return functools.partial(traced_numpy.twin(f'numpy.{name}'), owner) if name else None
