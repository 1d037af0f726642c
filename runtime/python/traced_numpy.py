"""NumPy's functions, for converted code: `np.exp(-M / reg)` of a traced array (a Sinkhorn
kernel, a Gibbs sampler's acceptance probability), `np.linalg.norm(b)` (a power
iteration's test), `np.array(path)` of a list of traced items (a decoder's result) are
`ag.numpy.exp(...)`, `ag.numpy.linalg.norm(...)`, `ag.numpy.array(...)`.

Python reference: NumPy's function of the arguments. NumPy computes from the values of
its arguments, which it asks a JAX array for (`__array__`); a traced value has none while
tracing, so NumPy itself refuses one (JAX's TracerArrayConversionError).

Where no argument holds a traced value (Python numbers, NumPy arrays, lists of those)
the call is NumPy's own. Where one does, it is the `jax.numpy` function of the same name,
which computes what NumPy computes for arrays of the arguments' dtypes (in JAX's float32
where 64-bit values are not enabled, as for the arguments themselves). Only functions
whose `jax.numpy` twin takes NumPy's arguments and means the same are here: elementwise
functions, products, norms and sums of values, the makers of arrays from values, padding,
selections, gradients, FFTs (complex64 where 64-bit values are not enabled), the
`reduce`, `accumulate` and `outer` of the binary ufuncs (`np.maximum.accumulate`), scalar
types; `np.take` (NumPy's IndexError for an index out of range, checked when the program
runs, where JAX's fills). Not here, a traced argument stays the named error
(autograph.errors.TracedValueNeeded): a call with `out=` (NumPy writes into it; as a
statement of its own it is `ag.with_out`, see runtime.python.in_place) or another
keyword the twin does not take; functions of a size only the values decide
(`np.unique`, `np.nonzero`, `np.where(c)`); `np.linalg.inv` and `solve`
(NumPy raises LinAlgError for a singular matrix where JAX gives infinities or NaN);
`np.floor_divide`, `np.mod`, `np.power` and their kin of integers (NumPy's zeros and
errors for a zero divisor or a negative integer power: of floats they are here);
`np.random`. `np.asarray` is here only where its result is bound to a variable that
nothing changes in place, or returned (passes.numpy_calls decides: of a JAX array,
NumPy's is a read-only view, which refuses writes; of a NumPy array, the array itself,
whose writes the caller sees). The functions NumPy computes by
asking the array itself (`np.sum(x)` is `x.sum()`, JAX's for a traced `x`; so are `np.mean`,
`np.max`, `np.argmax`, `np.cumsum`, `np.round`, `np.reshape`, ...) work as written; of a
list or tuple holding a traced value (`np.min([D[i - 1, j], D[i, j - 1]])`, which NumPy
makes an array of), the reductions among them are `jax.numpy`'s of its items as one
array, as the elementwise functions are.

The twin's result of an argument that stands for a NumPy array (a Function given NumPy
arrays, see runtime.context's `numpy`) stands for one too, as NumPy's function gives a
NumPy array (`Y = np.zeros_like(X)`: its row views write through).

Lists given where NumPy makes arrays of them (`np.concatenate([[0.0], x])`, `np.convolve(x,
[0.25, 0.5, 0.25])`) are made arrays for the twin, which takes arrays only.

`np.argsort(x)` of a traced `x` is JAX's stable argsort, which is NumPy's order wherever
no two items are equal; NumPy's default sort is not stable, so where the program meets
equal items it raises a named error when it runs (a check, runtime.checks.raises), and
`kind='stable'` is NumPy's stable order exactly.
"""
import functools
import inspect
import types

import jax
import jax.numpy as jnp
import numpy as np

from .. import origin
from ..context import mark_numpy, stands_for_numpy
from ..checks.raises import raise_if
from ..errors import here
from ..messages import argsort_ties
from ..values.split import is_traced
from ..values.stacked import Stacked

_ELEMENTWISE = (
    'abs', 'absolute', 'fabs', 'sign', 'sqrt', 'cbrt', 'square', 'exp', 'exp2', 'expm1',
    'log', 'log2', 'log10', 'log1p', 'sin', 'cos', 'tan', 'arcsin', 'arccos', 'arctan',
    'arctan2', 'sinh', 'cosh', 'tanh', 'arcsinh', 'arccosh', 'arctanh', 'hypot', 'floor',
    'ceil', 'trunc', 'rint', 'maximum', 'minimum', 'fmax', 'fmin', 'add', 'subtract',
    'multiply', 'divide', 'true_divide', 'negative', 'positive', 'logaddexp', 'sinc',
    'deg2rad', 'rad2deg', 'degrees', 'radians', 'copysign', 'signbit', 'heaviside', 'isnan',
    'isinf', 'isfinite', 'isclose', 'allclose', 'array_equal', 'logical_and', 'logical_or',
    'logical_not', 'logical_xor', 'greater', 'greater_equal', 'less', 'less_equal', 'equal',
    'not_equal', 'nan_to_num', 'real', 'imag', 'clip', 'conj', 'conjugate', 'angle')
_VALUES = (
    'dot', 'vdot', 'matmul', 'outer', 'inner', 'cross', 'kron', 'einsum', 'tensordot',
    'diag', 'diagflat', 'tril', 'triu', 'sort', 'ptp', 'trace', 'polyval', 'trapezoid',
    'linspace', 'digitize', 'histogram', 'searchsorted',
    'median', 'percentile', 'quantile', 'nanmean', 'nansum', 'nanmax', 'nanmin', 'average',
    'cov', 'corrcoef', 'interp', 'convolve', 'correlate', 'diff', 'ediff1d', 'flip',
    'fliplr', 'flipud', 'roll', 'rot90', 'tile', 'stack', 'vstack', 'hstack', 'dstack',
    'column_stack', 'concatenate', 'append', 'copy', 'zeros_like', 'ones_like', 'full_like',
    'empty_like', 'meshgrid', 'broadcast_to', 'expand_dims', 'atleast_1d', 'atleast_2d',
    'count_nonzero', 'full', 'ravel', 'pad', 'select', 'unwrap', 'repeat', 'isin',
    'polyfit', 'broadcast_arrays', 'float16', 'float32', 'float64', 'int8', 'int16',
    'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'bool_', 'complex64',
    'complex128')
_OF_ARRAYS = frozenset(_ELEMENTWISE)
_REDUCTIONS = ('sum', 'prod', 'mean', 'std', 'var', 'max', 'min', 'amax', 'amin', 'all',
               'any', 'argmax', 'argmin', 'cumsum', 'cumprod')
_FFT = ('fft', 'ifft', 'rfft', 'irfft', 'fft2', 'ifft2', 'fftn', 'ifftn', 'rfftn', 'irfftn',
        'fftshift', 'ifftshift')
_LINALG = ('norm', 'det', 'slogdet', 'eigvalsh', 'matrix_power', 'multi_dot')
# (not `eigh`, `svd`, `qr`: the signs of their vectors are the LAPACK's choice; nor
# `cholesky`, `inv`, `solve`: NumPy raises LinAlgError where JAX gives NaN)


def _holds_traced(values):
    return any(is_traced(leaf) for leaf in jax.tree_util.tree_leaves(values))


def _keywords(function):
    """The keyword arguments `function` takes (all, for `**kwargs`; None where its
    signature cannot be read)."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return all
    return frozenset(p.name for p in parameters)


def _twin(numpy_function, jax_function, name):
    """NumPy's `numpy_function`, or `jax_function` where an argument holds a traced
    value and every keyword is one it takes (see the module docstring)."""
    @functools.cache
    def taken():
        return _keywords(jax_function)

    def twin_takes(kwargs):
        accepted = taken()
        return 'out' not in kwargs and (
            accepted is all or (accepted is not None and accepted.issuperset(kwargs)))

    renamed = _RENAMED.get(name, {})

    def function(*args, **kwargs):
        if (kwargs and not twin_takes({renamed.get(k, k) for k in kwargs})) or \
                not _holds_traced((args, kwargs)):
            return numpy_function(*args, **kwargs)
        if renamed:
            kwargs = {renamed.get(k, k): v for k, v in kwargs.items()}
        if name in _OF_ARRAYS:   # (`np.exp([a, b])`: NumPy makes an array of a list)
            args = tuple(_array_of_items(a) for a in args)
        elif name in _OF_LISTS:   # (`np.convolve(x, [0.25, 0.5, 0.25])`: so do these)
            args = tuple(_as_array(a) for a in args)
        elif name in _JOINING and args and isinstance(args[0], (list, tuple)):
            args = (type(args[0])(_as_array(a) for a in args[0]), *args[1:])
        result = jax_function(*args, **kwargs)
        if any(stands_for_numpy(leaf) for leaf in jax.tree_util.tree_leaves((args, kwargs))):
            for leaf in jax.tree_util.tree_leaves(result):   # (NumPy's function of the
                mark_numpy(leaf)                  # NumPy arrays a Function was given)
        return result
    function.__name__ = name
    function.__doc__ = (f'Python reference: `numpy.{name}`: NumPy\'s; of a traced value '
                        f'`jax.numpy.{name}` (see runtime.python.traced_numpy).')
    return function


_RENAMED = {'clip': {'a_min': 'min', 'a_max': 'max'}}
"""NumPy's keywords that `jax.numpy` names otherwise (`np.clip(x, a_min=0, a_max=1)`)."""

_JOINING = frozenset({'concatenate', 'stack', 'vstack', 'hstack', 'dstack', 'column_stack'})
_OF_LISTS = frozenset({'dot', 'vdot', 'matmul', 'outer', 'inner', 'cross', 'kron',
                       'convolve', 'correlate', 'interp', 'polyval', 'append',
                       'searchsorted', 'digitize', 'repeat', 'isin', 'polyfit'})
"""Functions of several arrays (`_JOINING`: of a sequence of arrays) that NumPy makes of
the lists given, where `jax.numpy` takes arrays only (`np.concatenate([[0.0], x])`)."""


def _as_array(value):
    """A list or tuple as the array NumPy makes of it (NumPy's own where it holds no
    traced value: a constant, as `np.repeat`'s counts must be); anything else as it is."""
    if not isinstance(value, (list, tuple)):
        return value
    return jnp.asarray(value) if _holds_traced(value) else np.asarray(value)


def _array_of_items(value):
    """A list or tuple that holds a traced value as one array (`jax.numpy`'s functions
    refuse lists), a list a staged loop collected (runtime.values.stacked) as its stacked
    array; anything else as it is."""
    if isinstance(value, Stacked):
        value = value.stacked() if value.stacked() is not None else list(value)
    return jnp.asarray(value) if isinstance(value, (list, tuple)) and _holds_traced(value) \
        else value


def _reduction(name):
    """NumPy's reduction `name` (`np.min`, `np.sum`, ...), which asks an array for its own
    method (`x.min()`: JAX's for a traced `x`, a reducing value's own, see
    runtime.python.calls) and makes an array of a list: of a list or tuple holding a
    traced value (`np.min([D[0], D[1], D[2]])`), `jax.numpy`'s of the stacked items."""
    numpy_function, jax_function = getattr(np, name), getattr(jnp, name)

    def function(a, *args, **kwargs):
        items = _array_of_items(a)
        if items is not a and 'out' not in kwargs and not _holds_traced((args, kwargs)):
            return jax_function(items, *args, **kwargs)
        return numpy_function(a, *args, **kwargs)
    function.__name__ = name
    function.__doc__ = (f'Python reference: `numpy.{name}`: NumPy\'s; of a list holding a '
                        f'traced value, `jax.numpy.{name}` of its items as one array.')
    return function


def _twins(numpy_module, jax_module, names, prefix=''):
    return {name: _twin(getattr(numpy_module, name), getattr(jax_module, name),
                        prefix + name)
            for name in names
            if hasattr(numpy_module, name) and hasattr(jax_module, name)}


globals().update(_twins(np, jnp, _ELEMENTWISE + _VALUES))


def _histogram(a, bins=10, range=None, density=None, weights=None):
    """`jax.numpy.histogram`, its counts integers where NumPy's are (not weighted, not a
    density)."""
    counts, edges = jnp.histogram(a, bins, range, weights, density)
    return (counts.astype(jnp.result_type(int)) if weights is None and not density
            else counts), edges


histogram = _twin(np.histogram, _histogram, 'histogram')   # (replaces the plain twin)


def _of_floats(name):
    """NumPy's `name` (`np.mod`, `np.power`, ...): the twin's where its result is a float
    or complex (JAX's and NumPy's values agree there, infinities and NaN included);
    NumPy's for integers (NumPy's zero, or its error, for a zero divisor or a negative
    integer power, where JAX's differ)."""
    plain = _twin(getattr(np, name), getattr(jnp, name), name)

    def function(*args, **kwargs):
        if _holds_traced(args) and not jnp.issubdtype(
                jnp.result_type(*[_as_array(a) for a in args]), jnp.inexact):
            return getattr(np, name)(*args, **kwargs)
        return plain(*args, **kwargs)
    function.__name__ = name
    function.__doc__ = f'Python reference: `numpy.{name}` (see `_of_floats`).'
    return function


_FLOATS = {name: _of_floats(name) for name in (
    'mod', 'remainder', 'fmod', 'floor_divide', 'divmod', 'power', 'float_power')}
UFUNC_METHODS = ('reduce', 'accumulate', 'outer')
"""The methods of NumPy's binary ufuncs whose twins are the twin's attributes:
`np.maximum.accumulate(x)` is `ag.numpy.maximum.accumulate(x)`."""
_UFUNCS = tuple(name for name in _ELEMENTWISE
                if isinstance(getattr(np, name, None), np.ufunc)
                and getattr(np, name).nin == 2 and getattr(np, name).nout == 1
                and isinstance(getattr(jnp, name), jnp.ufunc))
for _name in _UFUNCS:
    for _method in UFUNC_METHODS:
        setattr(globals()[_name], _method, _twin(
            getattr(getattr(np, _name), _method), getattr(getattr(jnp, _name), _method),
            f'{_name}.{_method}'))
del _name, _method
UFUNC_METHOD_NAMES = frozenset(f'{name}.{method}' for name in _UFUNCS
                               for method in UFUNC_METHODS)
_REDUCING = {name: _reduction(name) for name in _REDUCTIONS}
"""(Not module globals, nor `_FLOATS`: `sum`, `min`, `any`, `divmod` ... would hide the
builtins here; read as attributes through `__getattr__`.)"""


def __getattr__(name):
    """`ag.numpy.min`, `ag.numpy.divmod`, ...: the twins of `_REDUCING` and `_FLOATS`."""
    try:
        return _REDUCING[name] if name in _REDUCING else _FLOATS[name]
    except KeyError:
        raise AttributeError(f'module {__name__!r} has no attribute {name!r}') from None


def argsort(a, axis=-1, kind=None, order=None, **kwargs):
    """Python reference: `numpy.argsort(a, axis, kind)`; of a traced `a`, JAX's stable
    argsort, checked for equal items where `kind` is not stable (see the module doc)."""
    if order is not None or kwargs or not _holds_traced(a):
        return np.argsort(a, axis=axis, kind=kind, order=order, **kwargs)
    a = jnp.asarray(a)
    if kind not in ('stable', 'mergesort') and a.size > 1:
        location = here()
        ordered = jnp.sort(a, axis=axis)
        after = jnp.moveaxis(ordered, -1 if axis is None else axis, -1)
        ties = (after[..., 1:] == after[..., :-1]) | (
            jnp.isnan(after[..., 1:]) & jnp.isnan(after[..., :-1]))
        raise_if(jnp.any(ties), lambda: argsort_ties(location), location=location)
    return jnp.argsort(a, axis=axis, stable=True)


_where = _twin(np.where, jnp.where, 'where')
_array = _twin(np.array, jnp.array, 'array')


def array(obj, *args, **kwargs):
    """Python reference: `numpy.array(obj, dtype, copy=True)`: the twins' (see the module
    docstring); with `copy=False` or None (NumPy's array itself where it needs no copy: a
    view, which a traced copy would not be) NumPy's."""
    if kwargs.get('copy', True) is not True:
        return np.array(obj, *args, **kwargs)
    return _array(obj, *args, **kwargs)


asarray = _twin(np.asarray, jnp.asarray, 'asarray')   # (where nothing writes: BOUND_ONLY)
_gradient = _twin(np.gradient, jnp.gradient, 'gradient')


def gradient(f, *varargs, **kwargs):
    """Python reference: `numpy.gradient(f, *varargs, axis, edge_order)`: the twins'; with
    `edge_order=2`, which `jax.numpy` does not compute, NumPy's."""
    if kwargs.get('edge_order', 1) != 1:
        return np.gradient(f, *varargs, **kwargs)
    return _gradient(f, *varargs, **kwargs)


def unravel_index(indices, shape, order='C'):
    """Python reference: `numpy.unravel_index(indices, shape, order)`: the twins'; of a
    traced index, NumPy's ValueError where it is out of range (checked when the program
    runs: JAX's clamps it)."""
    if not _holds_traced(indices):
        return np.unravel_index(indices, shape, order=order)
    size = int(np.prod(shape))
    flat = jnp.asarray(indices)
    location = here()
    raise_if(jnp.any((flat < 0) | (flat >= size)), lambda: ValueError(
        f'index out of bounds for array with size {size} (np.unravel_index)'),
        location=location)
    if order == 'F':
        return tuple(reversed(jnp.unravel_index(flat, tuple(reversed(shape)))))
    return jnp.unravel_index(flat, shape)


def take(a, indices, axis=None, out=None, mode='raise'):
    """Python reference: `numpy.take(a, indices, axis, out, mode)`: the twins' for `mode`
    'raise' (NumPy's IndexError where an index is out of range, checked when the program
    runs: JAX's fills) and 'wrap'; NumPy's for the others and for `out=`."""
    if out is not None or mode not in ('raise', 'wrap') or not _holds_traced((a, indices)):
        return np.take(a, indices, axis=axis, out=out, mode=mode)
    index = jnp.asarray(indices)
    if mode == 'raise':
        size = int(np.size(a) if axis is None else np.shape(a)[axis])
        location = here()
        raise_if(jnp.any((index < -size) | (index >= size)), lambda: IndexError(
            f'index out of bounds for axis {axis or 0} with size {size} (np.take)'),
            location=location)
    return jnp.take(a, index, axis=axis, mode='wrap')


def where(condition, *values, **kwargs):
    """Python reference: `numpy.where(condition, x, y)`: the twins' (see the module
    docstring); `numpy.where(condition)` (the indices, of a size the values decide) is
    NumPy's."""
    return _where(condition, *values, **kwargs) if values else np.where(condition)


linalg = types.SimpleNamespace(**_twins(np.linalg, jnp.linalg, _LINALG, 'linalg.'))
fft = types.SimpleNamespace(**_twins(np.fft, jnp.fft, _FFT, 'fft.'))


def twin(name):
    """This module's function for NumPy's `name` ('numpy.exp', 'numpy.linalg.norm', one of
    NAMES under `numpy.`): for a NumPy function converted code calls as a value
    (`f = np.exp; f(x)`, `map(np.exp, xs)`), through `ag.call`."""
    found = {**globals(), **_REDUCING, **_FLOATS}
    for attr in name.split('.')[1:]:
        found = found[attr] if isinstance(found, dict) else getattr(found, attr)
    return found


NAMES = frozenset([name for name in _ELEMENTWISE + _VALUES
                    + ('where', 'array', 'argsort', 'asarray', 'unravel_index', 'gradient',
                       'take')
                   if name in globals()] + list(_REDUCING) + list(_FLOATS)
                  + list(UFUNC_METHOD_NAMES)
                  + [f'linalg.{name}' for name in vars(linalg)]
                  + [f'fft.{name}' for name in vars(fft)])
"""The NumPy functions (paths under `numpy`) this module stands in for."""

BOUND_ONLY = frozenset({'asarray'})
"""Those it stands in for only where passes.numpy_calls sees that nothing changes the
result in place (not for a function value: `f = np.asarray; f(x)` stays NumPy's)."""

origin.forwards(twin('numpy.exp'), where, array, argsort, unravel_index, gradient, take,
                *_FLOATS.values())
# (NumPy's errors are the calling line's; the twins share one code object)
