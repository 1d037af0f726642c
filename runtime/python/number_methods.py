"""Methods of Python numbers that a traced scalar lacks, for converted code:
`float(x).is_integer()` and `n.bit_length()` of a traced value are
`ag.number_method(float(x), 'is_integer')()` (the receiver evaluated first, as Python
evaluates it before looking the method up).

Python reference: `float.is_integer()` (3.12: `int.is_integer()` too) is True for a
finite value without a fractional part (False for infinities and NaN);
`int.bit_length()` is the number of bits of `abs(n)` without sign or leading zeros (0
for 0). A traced scalar gives the same as a traced bool (`is_integer`) or int32
(`bit_length`); any other receiver's own method is called (an object's, a NumPy
scalar's, a Python number's).
"""
import jax.numpy as jnp
from jax import lax

from ..values.split import is_traced


def _is_integer(x):
    return jnp.isfinite(x) & (jnp.floor(x) == x) if jnp.issubdtype(
        jnp.result_type(x), jnp.inexact) else jnp.ones(jnp.shape(x), jnp.bool_)


def _bit_length(n):
    magnitude = jnp.abs(jnp.asarray(n).astype(jnp.int32)).astype(jnp.uint32)
    return (32 - lax.clz(magnitude)).astype(jnp.int32)   # (abs(-2**31) as uint32: 2**31)


_TRACED = {'is_integer': _is_integer, 'bit_length': _bit_length}

NAMES = frozenset(_TRACED)
"""The methods converted code calls through `number_method`."""


def number_method(receiver, name):
    """Python reference: `receiver.name` (a bound method): for a traced scalar, a
    function computing what Python's number method gives; else the receiver's own."""
    if is_traced(receiver) and jnp.ndim(receiver) == 0:
        compute = _TRACED[name]
        return lambda: compute(receiver)
    return getattr(receiver, name)
