"""The types of staged values: avals, weak-type promotion and casts (as JAX promotes)."""
import math

import jax
import jax.numpy as jnp
from jax._src.lax.lax import _convert_element_type   # lax.convert_element_type, keeping weak

from ..messages import condition_shape

def aval(value):
    t = jax.typeof(value)
    return jax.ShapeDtypeStruct(t.shape, t.dtype, weak_type=t.weak_type)


def same_type(a, b):
    return a.shape == b.shape and a.dtype == b.dtype and a.weak_type == b.weak_type


def promoted(a, b):
    """The type JAX gives a value that is `a` on one path and `b` on another, or None.

    A weakly typed value (a Python number) takes the other's dtype as JAX promotes it
    (`jnp.where(c, 0.0, x)` is float32 for a float32 `x`, with or without x64); two
    different strong dtypes do not mix.
    """
    if a.shape != b.shape:
        return None
    if a.dtype == b.dtype:
        return jax.ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type and b.weak_type)
    if not (a.weak_type or b.weak_type):
        return None
    dtype, weak = jax.dtypes.result_type(_operand(a), _operand(b), return_weak_type_flag=True)
    return jax.ShapeDtypeStruct(a.shape, dtype, weak_type=weak)


_PYTHON_SCALARS = {'b': False, 'i': 0, 'u': 0, 'f': 0.0, 'c': 0j}


def _operand(t):
    """What `result_type` promotes like a value of type `t`: a weak type promotes like
    the Python number of its kind (`result_type` ignores ShapeDtypeStruct.weak_type)."""
    return _PYTHON_SCALARS[t.dtype.kind] if t.weak_type else t.dtype


def cast(value, target):
    """`value` as the type `target` (weak types stay weak, as JAX keeps them)."""
    t = jax.typeof(value)
    if t.dtype == target.dtype and t.weak_type == target.weak_type:
        return value
    return _convert_element_type(value, target.dtype, weak_type=target.weak_type)


def zeros(target):
    return cast(jnp.zeros(target.shape, target.dtype), target)


def predicate(cond, location, what):
    """A traced condition as a boolean scalar, or a clear error for arrays. An array of
    size 1 (shape (1,), (1, 1)) is taken as its only element, as Python and NumPy do."""
    shape = jnp.shape(cond)
    if shape != () and math.prod(shape) == 1:
        cond, shape = jnp.reshape(cond, ()), ()
    if shape != ():
        raise condition_shape(what, shape, location)
    cond = jnp.asarray(cond)
    return cond if cond.dtype == jnp.bool_ else cond != 0
