"""Division of Python numbers: `a / b`, `a // b`, `a % b` where the user's code divides
numbers that plain Python holds as `int` or `float` (`int(n[0])`, `float(total)`, `len(xs)`,
a `range` loop's counter, literals and their arithmetic: autograph.passes.division).

Python reference: Python's operator, which raises ZeroDivisionError for a zero divisor
(`100 // 0`, `1.0 / 0.0`, `7 % 0`). Where the divisor is not traced, Python's operator
runs (on a traced dividend, the check is made first: JAX would give inf or nan). Where it
is traced, the value is JAX's and the error is a check raised when the program runs where
the divisor is zero (runtime.checks.raises: an error value, a select under `jax.vmap`).
"""
import operator

import jax.numpy as jnp

from .. import origin
from ..checks.raises import raise_if
from ..errors import here
from ..values.split import is_traced

_OPERATIONS = {'/': operator.truediv, '//': operator.floordiv, '%': operator.mod}


def divide(a, b, op):
    """Python reference: `a op b` (`op` one of '/', '//', '%') of Python numbers: Python's
    ZeroDivisionError for a zero `b` (see the module docstring)."""
    compute = _OPERATIONS[op]
    if not is_traced(b):
        if b == 0 and is_traced(a):
            raise _zero(op, a, b)
        return compute(a, b)   # (Python's own, and its error)
    raise_if(b == 0, lambda: _zero(op, a, b), location=here())
    return compute(a, b)


origin.forwards(divide)   # (JAX's errors in the operator are the calling line's)


def _zero(op, a, b):
    """Python's ZeroDivisionError for `a op b`, with the message this Python gives for
    ints or floats (from Python itself: the texts differ between versions)."""
    floats = any(jnp.issubdtype(jnp.result_type(v), jnp.floating) for v in (a, b))
    try:
        _OPERATIONS[op](1.0 if floats else 1, 0)
    except ZeroDivisionError as error:
        return ZeroDivisionError(*error.args)
