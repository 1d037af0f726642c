"""Item and slice assignment: `x[i] = v` and `x[i] += v`, NumPy's meaning on JAX arrays.

A JAX array cannot change in place, so converted code rebinds the container instead:

    x[i] = v           ->  x = ag.setitem(x, i, v)
    x[1:4] += v        ->  x = ag.update_item(x, slice(1, 4), '+=', v)

A JAX array (concrete or traced) gives a new array, `x.at[i].set(v)`; any other container
(list, dict, NumPy array, user object) is changed in place by its own `__setitem__` and
returned as it is, so rebinding the name changes nothing and the caller sees the change.
"""
import operator

import jax
import jax.numpy as jnp

_UPDATES = {
    '+=': operator.iadd, '-=': operator.isub, '*=': operator.imul, '/=': operator.itruediv,
    '//=': operator.ifloordiv, '%=': operator.imod, '**=': operator.ipow,
    '@=': operator.imatmul, '&=': operator.iand, '|=': operator.ior, '^=': operator.ixor,
    '<<=': operator.ilshift, '>>=': operator.irshift,
}
"""The augmented assignment operators, as `update_item` takes them."""


def setitem(target, key, value):
    """Python reference: `target[key] = value; return target`.

    For a JAX array: `target.at[key].set(value)`, with `value` cast to the array's dtype
    and broadcast to the selected shape as NumPy's item assignment does.
    """
    if isinstance(target, jax.Array):
        return target.at[key].set(jnp.asarray(value).astype(target.dtype))
    target[key] = value
    return target


def update_item(target, key, op, value):
    """Python reference: `target[key] op value; return target` for an augmented operator
    `op` ('+=', '-=', ...): read the item, combine it with `value` in place if it can
    (`operator.iadd`...), store it back.

    For a JAX array this is NumPy's buffered update `x.at[key].set(x[key] op value)`: an
    index repeated in `key` is updated once, as in NumPy (not accumulated as by `.at[].add`).
    `value` is evaluated before `target[key]` is read (Python reads the item first; the
    two differ only if computing `value` changes that item).
    """
    return setitem(target, key, _UPDATES[op](target[key], value))
