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


def hypot(*coordinates):
    """Python reference: `math.hypot(*coordinates)`."""
    if not any(map(is_traced, coordinates)):
        return _math.hypot(*coordinates)
    return jnp.sqrt(builtins.sum(_scalar(c, 'hypot') ** 2 for c in coordinates))


def _binary(name, compute, outside=None, overflows=False):
    """`math.name(x, y)`: Python's for values that are not traced, else `compute(x, y)`
    of the traced scalars; `outside(x, y)` true where Python raises its domain error;
    with `overflows`, an infinite result of finite arguments is its range error."""
    def function(x, y):
        if not is_traced(x) and not is_traced(y):
            return getattr(_math, name)(x, y)
        x, y = _scalar(x, name), _scalar(y, name)
        value = compute(x, y)
        if outside is not None:
            raise_if(outside(x, y), _domain)
        if overflows:
            raise_if(jnp.isinf(value) & jnp.isfinite(x) & jnp.isfinite(y), _range)
        return value
    function.__name__ = name
    function.__doc__ = f'Python reference: `math.{name}(x, y)` (see the module doc).'
    return function


def _whole(x):
    return x == jnp.floor(x)


atan2 = _binary('atan2', jnp.arctan2)
copysign = _binary('copysign', jnp.copysign)
pow = _binary('pow', jnp.power, lambda x, y: ((x < 0) & jnp.isfinite(y) & ~_whole(y))
              | ((x == 0) & (y < 0)), overflows=True)
fmod = _binary('fmod', jnp.fmod, lambda x, y: (y == 0) | jnp.isinf(x))
remainder = _binary('remainder', lambda x, y: x - jnp.round(x / y) * y,   # (ties to even)
                    lambda x, y: (y == 0) | jnp.isinf(x))
ldexp = _binary('ldexp', lambda x, i: x * 2.0 ** i, overflows=True)
gamma = _unary('gamma', jax.scipy.special.gamma, lambda x: (x <= 0) & _whole(x),
               overflows=True)
lgamma = _unary('lgamma', jax.scipy.special.gammaln, lambda x: (x <= 0) & _whole(x))


def modf(x):
    """Python reference: `math.modf(x)`: (the fractional part, the integral part)."""
    if not is_traced(x):
        return _math.modf(x)
    x = _scalar(x, 'modf')
    whole = jnp.trunc(x)
    return jnp.where(jnp.isinf(x), jnp.copysign(0.0, x), x - whole), whole


def isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0):
    """Python reference: `math.isclose(a, b, rel_tol=1e-09, abs_tol=0.0)`: equal, or
    both finite and within the larger of the tolerances (a traced bool)."""
    if not any(map(is_traced, (a, b, rel_tol, abs_tol))):
        return _math.isclose(a, b, rel_tol=rel_tol, abs_tol=abs_tol)
    a, b = _scalar(a, 'isclose'), _scalar(b, 'isclose')
    near = jnp.abs(a - b) <= jnp.maximum(rel_tol * jnp.maximum(jnp.abs(a), jnp.abs(b)),
                                         abs_tol)
    return (a == b) | (near & jnp.isfinite(a) & jnp.isfinite(b))


def fsum(values):
    """Python reference: `math.fsum(values)` (a float; summed in the traced values'
    precision, where Python's sum is exact)."""
    values = list(values)
    if not any(map(is_traced, values)):
        return _math.fsum(values)
    return jnp.sum(jnp.stack([_scalar(v, 'fsum') for v in values]))


def dist(p, q):
    """Python reference: `math.dist(p, q)` of two points of the same dimension."""
    if not any(map(is_traced, (*p, *q))):
        return _math.dist(p, q)
    if len(p) != len(q):
        return _math.dist([0.0] * len(p), [0.0] * len(q))   # (Python's ValueError)
    return jnp.sqrt(builtins.sum((_scalar(a, 'dist') - _scalar(b, 'dist')) ** 2
                                 for a, b in zip(p, q)))


NAMES = frozenset(name for name, value in list(globals().items())
                  if callable(value) and not name.startswith('_')
                  and getattr(_math, name, None) is not None)
"""The `math` functions this module stands in for."""
