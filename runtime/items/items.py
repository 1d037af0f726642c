"""Item and slice assignment: `x[i] = v` and `x[i] += v`, NumPy's meaning on JAX arrays.

A JAX array cannot change in place, so converted code rebinds the container instead:

    x[i] = v           ->  x = ag.setitem(x, i, v)
    x[1:4] += v        ->  x = ag.update_item(x, slice(1, 4), '+=', v)

A JAX array (concrete or traced) gives a new array, `x.at[i].set(v)`; any other container
(list, dict, NumPy array, user object) is changed in place by its own `__setitem__` and
returned as it is, so rebinding the name changes nothing and the caller sees the change.
A traced boolean mask (`x[x > 0] = 0`, `x[mask] += 1`) selects with `jnp.where`, and a
list of traced indices (`M[[i, j]] = M[[j, i]]`) is an index array, as NumPy means them.
A Python list of like items (numbers, arrays of one shape) assigned at a traced index
keeps its length, each item selected (`jnp.where`) between the value and itself; another
list, or a dict, cannot be assigned at a traced index or key (the position must be known
while tracing): that is a ControlFlowError naming the container and the line. A slice of
a JAX array with traced bounds is written by `lax.dynamic_update_slice` (runtime.items.slicing).
"""
import operator

import jax
import jax.numpy as jnp
import numpy as np

from . import indexing, slicing
from ..context import argument_array, kind_unknown, mark_numpy, numpy_meaning
from ..errors import here
from ..messages import (numpy_argument_through_attribute, numpy_exchanged, numpy_held_write,
                        numpy_traced_write, numpy_unfollowed, traced_key)
from ..values.stacked import Stacked
from ..values.split import any_traced, is_traced
from ..values.slot import Slot

_UPDATES = {
    '+=': operator.iadd, '-=': operator.isub, '*=': operator.imul, '/=': operator.itruediv,
    '//=': operator.ifloordiv, '%=': operator.imod, '**=': operator.ipow,
    '@=': operator.imatmul, '&=': operator.iand, '|=': operator.ior, '^=': operator.ixor,
    '<<=': operator.ilshift, '>>=': operator.irshift,
}
"""The augmented assignment operators, as `update_item` takes them."""


def setitem(target, key, value, own=False, held=False, held_items=None):
    """Python reference: `target[key] = value; return target`.

    For a JAX array: `target.at[key].set(value)`, with `value` cast to the array's dtype
    and broadcast to the selected shape as NumPy's item assignment does. In a vectorised
    loop, the iteration's Slot of an array (runtime.loops.vectorized) is updated. A
    traced array that stands for a NumPy array is written in place in Python: the new
    traced array stands for the same NumPy array (see `numpy_kept`). `own`: `target` is
    a NumPy array the function made and keeps to itself (see `prepared`); `held`: one it
    also stored where another object holds it (see `check_held`, also for `held_items`).
    """
    target = prepared(target, key, value, own, held, held_items)
    return numpy_kept(target, _setitem(target, key, value))


def check_held(target, held=True, item=False, held_items=None):
    """A named error where `target`, traced and standing for a NumPy array, is `held` by
    another object too (a list, dict, attribute or item the function stored it in, see
    autograph.analysis.own_arrays): the write makes a new array, which that holder would
    not see, where Python's in-place write reaches it. For an `item` write, also where
    `target` may stand for one (a Function given NumPy arrays runs, and its kind is not
    known: `w = v * 1.0`), as a JAX array's items cannot be assigned in Python.

    `held_items=k`: the holder took an item of `k` indices (`rows.append(M[i])`), which
    is a view, and so holds the array, only where the array has more than `k`
    dimensions (of a vector, `M[i]` is a number: a copy)."""
    if held and is_traced(target) and (held_items is None or jnp.ndim(target) > held_items) \
            and (numpy_meaning(target) or (item and kind_unknown(target))):
        location = here()
        raise numpy_held_write(_assigned_names(location), location)


def check_attribute_write(value):
    """A named error where `value`, the array an attribute holds, about to change in
    place through it (`obj.W -= e`, `obj.W[i] = v`), is the traced stand-in of a NumPy
    array given to the converted Function as an argument (runtime.context's
    `arguments`): the change makes a new array, which the argument and the caller's
    array would not see, where Python's in-place change reaches them."""
    if is_traced(value) and argument_array(value):
        raise numpy_argument_through_attribute(here())


def check_exchange(*values):
    """A named error where one of `values`, about to change places between names (`a,
    b = b, a`), is traced and stands for a NumPy array that other names or the caller
    hold (autograph.passes.unpacked_aliases): the converted code does not follow which
    array each name holds after the exchange."""
    if any(is_traced(value) and numpy_meaning(value) for value in values):
        location = here()
        raise numpy_exchanged(_assigned_names(location), location)


def check_unfollowed(value, name):
    """A named error where `value`, about to change in place as `name` (`name += e`), is
    traced and stands for a NumPy array that a parameter held, got through other names
    (`t = a; a = b; b = t`: autograph.analysis.parameter_copies): the converted code does
    not follow which array each name holds there, so the change would not reach the
    caller's array nor the other names holding it."""
    if is_traced(value) and numpy_meaning(value):
        raise numpy_unfollowed(name, here())


def held_update(target, op, value, held_items=None):
    """Python reference: `target op value; return target` (`op` '+=', ...) for a
    variable that the function also stored where another object holds it (see
    `check_held`): a NumPy array is changed in place, where the other holder sees it;
    a named error where it or `value` is traced (the change makes a new array, which
    the holder would not see; for `held_items`, see `check_held`)."""
    if numpy_meaning(target) and (is_traced(target) or any_traced(value)) and (
            held_items is None or jnp.ndim(target) > held_items):
        location = here()
        raise numpy_held_write(_assigned_names(location), location)
    return _UPDATES[op](target, value)


def prepared(target, key, value, own, held, held_items=None):
    """`target` ready for the write of `value` at `key`: a named error where it is `held`
    (see `check_held`); where it is `own`, a NumPy array the function made and no other
    object holds (autograph.analysis.own_arrays), given a traced value or key, a JAX
    array standing for it (NumPy cannot hold a traced value, and no holder of the array
    is left with its old values)."""
    check_held(target, held, item=True, held_items=held_items)
    if own and isinstance(target, np.ndarray) and any_traced((key, value)):
        return mark_numpy(jnp.asarray(target))
    return target


def numpy_kept(target, written):
    """`written`, the array `target` is once changed in place, noted as standing for a
    NumPy array where `target` does (see runtime.context's `numpy`)."""
    if written is not target and is_traced(written) and numpy_meaning(target):
        mark_numpy(written)
    return written


def _setitem(target, key, value):
    if isinstance(target, Slot):
        return target.with_value(_set_part(target.value, target.key(key), value))
    key = slicing.as_key(target, key)
    if isinstance(key, slicing.span):
        return slicing.set_window(target, key, value)
    if slicing.assigns_traced_slice(target, key):
        return slicing.set_slice(target, key, value)
    if isinstance(target, jax.Array):
        mask = _traced_mask(target, key)
        if mask is not None and _one_value(value):
            # (an array of values, which NumPy spreads over the selected items in
            # order, is left to JAX's error)
            return jnp.where(mask, jnp.asarray(value).astype(target.dtype), target)
        # (out of range: NumPy's IndexError; at a traced integer, where it stands for one
        # or may: `w = v * 1.0` of a NumPy argument)
        indexing.check_bounds(target, key,
                              scalars=numpy_meaning(target) or kind_unknown(target))
        key, value = indexing.index_array(key), jnp.asarray(value).astype(target.dtype)
        try:
            return target.at[key].set(value)
        except ValueError:   # (JAX broadcasts less than NumPy: see `_numpy_shaped`)
            return target.at[key].set(_numpy_shaped(target, key, value))
    if _traced_list_index(target, key):
        written = indexing.set_list_item(target, key, value)
        if written is not None:
            return written
    method = indexing.user_method(target, '__setitem__')
    if method is not None:
        method(target, key, value)
        return target
    _check_static(target, key, value)
    target[key] = value
    return target


def update_item(target, key, op, value, own=False, held=False, holder=False,
                held_items=None):
    """Python reference: `target[key] op value; return target` for an augmented operator
    `op` ('+=', '-=', ...): read the item, combine it with `value` in place if it can
    (`operator.iadd`...), store it back.

    For a JAX array this is NumPy's buffered update `x.at[key].set(x[key] op value)`: an
    index repeated in `key` is updated once, as in NumPy (not accumulated as by `.at[].add`).
    `value` is evaluated before `target[key]` is read (Python reads the item first; the
    two differ only if computing `value` changes that item). `own`, `held`,
    `held_items`: as `setitem`'s. `holder`: `target` is a container holding arrays that
    other names hold too (`keep = [w]`, autograph.analysis.own_arrays): an item that has
    NumPy's meaning changes in place, where those names see it; a named error where it
    or `value` is traced (the new array would reach the container only).
    """
    if holder and isinstance(target, (list, dict)) and not any_traced(key) and \
            numpy_meaning(target[key]):
        held_update(target[key], op, value)   # (raises where traced; else in place)
        return target
    target = prepared(target, key, value, own, held, held_items)
    return numpy_kept(target, _update_item(target, key, op, value))


def _update_item(target, key, op, value):
    if isinstance(target, Slot):
        key = target.key(key)
        if key == ():
            return target.with_value(_set_part(target.value, key,
                                               _UPDATES[op](target.value, value)))
        return target.with_value(update_item(target.value, key, op, value))
    key = slicing.as_key(target, key)
    if isinstance(key, slicing.span):
        return slicing.set_window(target, key, value, _UPDATES[op])
    if slicing.assigns_traced_slice(target, key):
        return slicing.set_slice(target, key, value, _UPDATES[op])
    mask = _traced_mask(target, key) if isinstance(target, jax.Array) else None
    if mask is not None and _one_value(value):   # (every item updated, those selected kept)
        return jnp.where(mask, _UPDATES[op](target, value).astype(target.dtype), target)
    if _traced_list_index(target, key):   # (read and written at the traced index)
        return setitem(target, key, _UPDATES[op](indexing.getitem(target, key), value))
    if isinstance(target, dict) and (is_traced(key) or type(key) is tuple and any(
            map(is_traced, key))):   # (`counts[k] += 1`, `Q[(r, c)] += q`: keys kept)
        updated = indexing.update_dict_item(target, key, lambda old: _UPDATES[op](old, value))
        if updated is not None:
            return updated
    if not isinstance(target, jax.Array):
        _check_static(target, key, value)
        return setitem(target, key, _UPDATES[op](target[key], value))
    # (a list of integers is NumPy's index array: JAX takes arrays only)
    return setitem(target, key, _UPDATES[op](target[indexing.index_array(key)], value))


def _numpy_shaped(target, key, value):
    """`value` as NumPy's item assignment shapes it for the items `target[key]` selects:
    without the leading axes of length 1 it has beyond their shape (`R[j, :] = q.T @ A`
    with a (1, n) product); NumPy's ValueError for an array given to one item."""
    selected = jax.eval_shape(lambda t: t[key], target).shape
    extra = value.ndim - len(selected)
    if not selected and value.ndim:
        raise ValueError('setting an array element with a sequence.')
    if extra <= 0 or any(n != 1 for n in value.shape[:extra]):
        return value   # (JAX's error, as it is)
    return value.reshape(value.shape[extra:])


def _set_part(part, key, value):
    """`setitem` on the part of an array an iteration of a vectorised loop owns: all of
    it (`key == ()`, `out[i] = v` in a loop over i) is `v` broadcast to its shape."""
    if key == ():
        return jnp.broadcast_to(jnp.asarray(value).astype(part.dtype), part.shape)
    return setitem(part, key, value)


def _one_value(value):
    return isinstance(value, (int, float, complex, bool)) or jnp.size(jnp.asarray(value)) == 1


def _traced_mask(target, key):
    """For `x[mask] = v` with a traced boolean `mask` over x's leading axes, the mask
    broadcast against `x` (NumPy's meaning: where the mask holds, the item is `v`, which
    `jnp.where` computes without a shape that depends on data); for a tuple key with one
    such mask among integers and slices (`x[i, mask] = v`), the mask of the items it
    selects, of x's shape. Else None."""
    if isinstance(key, tuple):
        return _mask_in_tuple(target, key)
    if not _is_mask(key):
        return None
    if key.ndim > target.ndim or key.shape != target.shape[:key.ndim]:
        return None   # (JAX's own error)
    return jnp.reshape(key, key.shape + (1,) * (target.ndim - key.ndim))


def _is_mask(key):
    return isinstance(key, jax.Array) and is_traced(key) and key.dtype == jnp.bool_


def _mask_in_tuple(target, key):
    """`x[i, mask]`'s items as a boolean array of x's shape: the mask's axes taken whole,
    the mask written where the other indices select (see `_traced_mask`)."""
    masks = [p for p, k in enumerate(key) if _is_mask(k)]
    basic = all(isinstance(k, (int, slice)) or (isinstance(k, jax.Array) and k.ndim == 0
                                                and not _is_mask(k))
                for p, k in enumerate(key) if p not in masks)
    if len(masks) != 1 or not basic or isinstance(target, Slot):
        return None
    p = masks[0]
    mask = key[p]
    whole = key[:p] + (slice(None),) * mask.ndim + key[p + 1:]
    region = jnp.zeros(target.shape, jnp.bool_)
    lead = sum(isinstance(k, slice) for k in key[:p])   # (integers drop their axes)
    try:
        selected = region[whole].shape
        shaped = jnp.reshape(mask, (1,) * lead + mask.shape
                             + (1,) * (len(selected) - lead - mask.ndim))
        return region.at[whole].set(jnp.broadcast_to(shaped, selected))
    except (TypeError, ValueError, IndexError):
        return None   # (JAX's own error)


def _traced_list_index(target, key):
    """A Python list assigned at a traced integer (see indexing.set_list_item)."""
    return type(target) is list and isinstance(key, jax.Array) and is_traced(key)


def _check_static(target, key, value):
    """A named error for a list or dict assigned at a traced index or key, and for a
    NumPy array given a traced value or written at a traced index."""
    if isinstance(target, np.ndarray):
        if any_traced((key, value)):
            location = here()
            raise numpy_traced_write(_assigned_names(location), location)
        return
    if not isinstance(target, (list, dict, Stacked)) or not any_traced(key):
        return
    location = here()
    container = 'dict' if isinstance(target, dict) else 'list'
    raise traced_key(_assigned_names(location), container, location)


def _assigned_names(location):
    """The containers the user's line assigns an item of (`h` for `h[i % 3] += 1`; the
    converter records them, see autograph.site_facts)."""
    return list(location.fact('assigned')) if location else []
