"""NumPy's array methods whose `jax.Array` namesakes take other arguments, for converted
code: `x.argsort(kind='stable')` and `x.take([0, 2])` of a traced `x` are
`ag.array_method(x, 'argsort')(kind='stable')` and `ag.array_method(x, 'take')([0,
2])` (the receiver evaluated first, as Python evaluates it before looking the method
up).

Python reference: NumPy's method, which is NumPy's function of the array
(`x.argsort(kind=k)` is `np.argsort(x, kind=k)`, `x.take(i)` is `np.take(x, i)`). JAX's
Array takes no `kind` (JAX's TypeError) and no list of indices (nor of values to find,
`searchsorted`, or of counts, `repeat`), and fills where an index is out of range where
NumPy raises: for a traced receiver that stands for a NumPy array
(runtime.context's `numpy_meaning`), the NumPy function's twin (runtime.python.
traced_numpy) of it; any other receiver's own method is called (a JAX array's, as
Python calls it; an object's; a NumPy array's).
"""
import functools

from ..context import numpy_meaning
from ..values.split import is_traced
from . import traced_numpy

NAMES = frozenset({'argsort', 'take', 'searchsorted', 'repeat'})
"""The methods converted code calls through `array_method`."""


def array_method(receiver, name):
    """Python reference: `receiver.name` (a bound method): for a traced array standing for
    a NumPy array, NumPy's function `name` of it (its twin); else the receiver's own."""
    if is_traced(receiver) and numpy_meaning(receiver):
        return functools.partial(traced_numpy.twin(f'numpy.{name}'), receiver)
    return getattr(receiver, name)
