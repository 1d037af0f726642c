"""The `math` module's functions, for converted code: `math.exp(-cost * beta)` of a traced
scalar (a Metropolis test, a distance, a log-likelihood) is `ag.math.exp(...)`.

Python reference: `math.f(x)` takes a number (or an object that converts to one: a
size-1 array) and gives a float, or raises: ValueError('math domain error') for an
argument outside the function's domain (`sqrt(-1)`, `log(0)`, `acos(2)`, `sin(inf)`),
OverflowError('math range error') for a finite argument whose result does not fit a
float (`exp(1000)`); `floor`, `ceil` and `trunc` give an int (ValueError for NaN,
OverflowError for an infinity); `isnan`, `isinf` and `isfinite` a bool.

Arguments that are not traced go to Python's `math` itself. A traced scalar gives the
`jnp` function's value (a float array of JAX's default float type; an int32 array for
`floor`, `ceil`, `trunc`), and Python's errors are checks raised when the program runs
where they hold (runtime.checks.raises): the value is Python's where Python gives one.
A traced array of more than one item is the named error `float()` gives for it.
"""
import builtins
import math as _math

import jax
import jax.numpy as jnp

from ..checks.raises import raise_if
from ..errors import here
from ..messages import traced_conversion
from ..values.split import is_traced


def _domain():
    return ValueError('math domain error')


def _range():
    return OverflowError('math range error')


def _scalar(x, name):
    """Traced `x` as a float scalar (a size-1 array's item, as NumPy gives it)."""
    if jnp.ndim(x) and jnp.size(x) == 1:
        x = jnp.reshape(x, ())
    if jnp.ndim(x):
        raise traced_conversion(f'math.{name}', f'of a traced array of shape '
                                                f'{jnp.shape(x)}', here(3))
    return jnp.asarray(x, dtype=jnp.result_type(float))


def _of_scalar(name, traced, gives='a float'):
    """`math.name` of one argument: Python's for a value that is not traced, else
    `traced(x)` of the traced scalar."""
    def function(x):
        if not is_traced(x):
            return getattr(_math, name)(x)
        return traced(_scalar(x, name))
    function.__name__ = name
    function.__doc__ = f'Python reference: `math.{name}(x)`: {gives} (see the module doc).'
    return function


def _unary(name, compute, outside=None, overflows=False):
    """`compute(x)`; `outside(x)` true where Python raises its domain error; with
    `overflows`, an infinite result of a finite `x` is its range error."""
    def traced(x):
        value = compute(x)
        if outside is not None:
            raise_if(outside(x), _domain)
        if overflows:
            raise_if(jnp.isinf(value) & jnp.isfinite(x), _range)
        return value
    return _of_scalar(name, traced)


def _integral(name, compute):
    """`math.floor`, `ceil`, `trunc`: an int, Python's errors for NaN and infinities."""
    def traced(x):
        raise_if(jnp.isnan(x), lambda: ValueError('cannot convert float NaN to integer'))
        raise_if(jnp.isinf(x), lambda: OverflowError(
            'cannot convert float infinity to integer'))
        return compute(x).astype(jnp.result_type(int))
    return _of_scalar(name, traced, 'an int')


_infinite = jnp.isinf

sqrt = _unary('sqrt', jnp.sqrt, lambda x: x < 0)
exp = _unary('exp', jnp.exp, overflows=True)
expm1 = _unary('expm1', jnp.expm1, overflows=True)
log2 = _unary('log2', jnp.log2, lambda x: x <= 0)
log10 = _unary('log10', jnp.log10, lambda x: x <= 0)
log1p = _unary('log1p', jnp.log1p, lambda x: x <= -1)
sin = _unary('sin', jnp.sin, _infinite)
cos = _unary('cos', jnp.cos, _infinite)
tan = _unary('tan', jnp.tan, _infinite)
asin = _unary('asin', jnp.arcsin, lambda x: jnp.abs(x) > 1)
acos = _unary('acos', jnp.arccos, lambda x: jnp.abs(x) > 1)
atan = _unary('atan', jnp.arctan)
sinh = _unary('sinh', jnp.sinh, overflows=True)
cosh = _unary('cosh', jnp.cosh, overflows=True)
tanh = _unary('tanh', jnp.tanh)
asinh = _unary('asinh', jnp.arcsinh)
acosh = _unary('acosh', jnp.arccosh, lambda x: x < 1)
atanh = _unary('atanh', jnp.arctanh, lambda x: jnp.abs(x) >= 1)
fabs = _unary('fabs', jnp.abs)
degrees = _unary('degrees', jnp.degrees)
radians = _unary('radians', jnp.radians)
erf = _unary('erf', jax.scipy.special.erf)
erfc = _unary('erfc', jax.scipy.special.erfc)
floor = _integral('floor', jnp.floor)
ceil = _integral('ceil', jnp.ceil)
trunc = _integral('trunc', jnp.trunc)


isnan = _of_scalar('isnan', jnp.isnan, 'a bool')
isinf = _of_scalar('isinf', jnp.isinf, 'a bool')
isfinite = _of_scalar('isfinite', jnp.isfinite, 'a bool')


def log(x, base=None):
    """Python reference: `math.log(x[, base])`: the domain error for `x <= 0` (and a
    base `<= 0`); ZeroDivisionError for base 1."""
    if not is_traced(x) and not is_traced(base):
        return _math.log(x) if base is None else _math.log(x, base)
    x = _scalar(x, 'log')
    raise_if(x <= 0, _domain)
    if base is None:
        return jnp.log(x)
    base = _scalar(base, 'log')
    raise_if(base <= 0, _domain)
    raise_if(base == 1, lambda: ZeroDivisionError('float division by zero'))
    return jnp.log(x) / jnp.log(base)


def atan2(y, x):
    """Python reference: `math.atan2(y, x)`."""
    if not is_traced(y) and not is_traced(x):
        return _math.atan2(y, x)
    return jnp.arctan2(_scalar(y, 'atan2'), _scalar(x, 'atan2'))


def hypot(*coordinates):
    """Python reference: `math.hypot(*coordinates)`."""
    if not any(map(is_traced, coordinates)):
        return _math.hypot(*coordinates)
    return jnp.sqrt(builtins.sum(_scalar(c, 'hypot') ** 2 for c in coordinates))


def copysign(x, y):
    """Python reference: `math.copysign(x, y)`."""
    if not is_traced(x) and not is_traced(y):
        return _math.copysign(x, y)
    return jnp.copysign(_scalar(x, 'copysign'), _scalar(y, 'copysign'))


NAMES = frozenset(name for name, value in list(globals().items())
                  if callable(value) and not name.startswith('_')
                  and getattr(_math, name, None) is not None)
"""The `math` functions this module stands in for."""
