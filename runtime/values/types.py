"""The types of staged values: avals, weak-type promotion and casts (as JAX promotes)."""
import math

import jax
import jax.numpy as jnp
from jax import export
from jax._src.lax.lax import _convert_element_type   # lax.convert_element_type, keeping weak

from ..errors import ControlFlowError
from ..messages import condition_shape
from .varying import axes_of, typed, vary


def aval(value):
    """The type of a value: shape, dtype, weak type and, inside `jax.shard_map`, the
    manual axes it varies over (runtime.values.varying). A Python int beyond JAX's
    integers (int32 without jax_enable_x64) is a named error: staged code would have to
    carry it as an array."""
    try:
        t = jax.typeof(value)
    except OverflowError:
        if type(value) is not int:
            raise
        raise ControlFlowError(
            f'the Python int {value} is state of a staged statement (a branch or loop '
            f'whose test is traced) but does not fit in JAX\'s integers (int32, int64 '
            f'with jax_enable_x64), so it cannot be carried as an array. Use a float '
            f'(e.g. 1e20 or float("inf") for "infinity").') from None
    return typed(t.shape, t.dtype, t.weak_type, axes_of(t))


def has_symbolic_shape(tree):
    """Whether an array in `tree` has a symbolic dimension (`jax.export.symbolic_shape`)."""
    return any(isinstance(leaf, jax.Array) and any(map(export.is_symbolic_dim, leaf.shape))
               for leaf in jax.tree_util.tree_leaves(tree))


def item_type(array):
    """The type of one item of `array` (along its first axis)."""
    t = jax.typeof(array)
    return typed(t.shape[1:], t.dtype, False, axes_of(t))


def same_type(a, b):
    return (a.shape == b.shape and a.dtype == b.dtype and a.weak_type == b.weak_type
            and axes_of(a) == axes_of(b))


def promoted(a, b):
    """The type JAX gives a value that is `a` on one path and `b` on another, or None.

    A weakly typed value (a Python number) takes the other's dtype as JAX promotes it
    (`jnp.where(c, 0.0, x)` is float32 for a float32 `x`, with or without x64); two
    different strong dtypes do not mix. Inside `jax.shard_map` it varies over the
    manual axes either varies over.
    """
    if a.shape != b.shape:
        return None
    axes = axes_of(a) | axes_of(b)
    if a.dtype == b.dtype:
        return typed(a.shape, a.dtype, a.weak_type and b.weak_type, axes)
    if not (a.weak_type or b.weak_type):
        return None
    dtype, weak = jax.dtypes.result_type(_operand(a), _operand(b), return_weak_type_flag=True)
    return typed(a.shape, dtype, weak, axes)


_PYTHON_SCALARS = {'b': False, 'i': 0, 'u': 0, 'f': 0.0, 'c': 0j}


def _operand(t):
    """What `result_type` promotes like a value of type `t`: a weak type promotes like
    the Python number of its kind (`result_type` ignores ShapeDtypeStruct.weak_type)."""
    return _PYTHON_SCALARS[t.dtype.kind] if t.weak_type else t.dtype


def cast(value, target):
    """`value` as the type `target` (weak types stay weak, as JAX keeps them), varying
    over the manual axes `target` varies over (inside `jax.shard_map`)."""
    t = jax.typeof(value)
    if t.dtype != target.dtype or t.weak_type != target.weak_type:
        value = _convert_element_type(value, target.dtype, weak_type=target.weak_type)
    return vary(value, axes_of(target))


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
