"""`ag.getitem(seq, i)`: `seq[i]` where `i` may be traced and `seq` a Python list/tuple;
`ag.repeat(seq, n)`: `seq * n`, where a traced `n` is a named error.

A Python list cannot be indexed by a value known only when the program runs, so:

    items of one shape and dtype (or pytrees of them)  ->  jnp.stack(items)[i]
    functions (`layers[i](x)`)                         ->  lax.switch(i, layers, x)
    anything else                                      ->  ControlFlowError

with Python's meaning: a negative index counts from the end, and an index out of range
is Python's IndexError, checked when the program runs (JAX would clamp it silently). A
list of Python numbers (`[-1.0, 0.0, +1]`) reads from one array of their promoted,
weakly typed dtype.
"""

import functools
import inspect
import linecache

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .. import context
from ..context import numpy_meaning
from ..checks.absent import present
from ..checks.raises import raise_if
from .masked import selected
from ..errors import here
from ..messages import boolean_mask, sequence_index, traced_repeat
from . import parts
from ..values.item_copies import DictCopy, guarded
from ..values.stacked import Stacked
from ..values.types import aval, cast, promoted
from ..values.split import any_traced, is_traced
from ..values.choice import Choice, picked


def getitem(seq, index, numpy=None):
    """Python reference: `seq[index]`.

    In the body of a vectorised loop, an array it reads at its index gives the
    iteration's item (runtime.items.parts). `numpy`: whether array `seq` stands for a
    NumPy array, where the converter knows it from the function's arguments (`w = v *
    1.0`; a NumPy array's read out of range is NumPy's IndexError); None: as `seq` says."""
    index = present(index, lambda: TypeError(
        f'{type(seq).__name__} indices must be integers or slices, not NoneType'))
    if isinstance(seq, jax.Array):
        found = parts.lookup(seq, index)
        if found is not None:
            item, rest = found
            return _array_item(item, rest, numpy) if rest else item
        return _array_item(seq, index, numpy)
    if isinstance(seq, np.ndarray) and any_traced(index):   # (a table the function made:
        return getitem(jnp.asarray(seq), index, numpy=True)    # its values, at run time)
    if type(seq) in _DICTS and (is_traced(index) or type(index) is tuple and any_traced(
            index)):   # (a read copy too: `P[s][a]`; a tuple of traced items: `Q[(r, c)]`)
        return _dict_item(seq, index)
    if isinstance(index, Choice) and type(seq) in _DICTS:
        return _chosen_item(seq, index)
    if not isinstance(seq, (list, tuple, Stacked)):
        method = user_method(seq, '__getitem__')
        return seq[index] if method is None else method(seq, index)
    if not is_traced(index):
        return seq[index]
    if isinstance(seq, Stacked) and seq.stacked() is not None:
        return _at(seq.stacked(), _position(index, len(seq)))
    if not seq or jnp.ndim(index) or not jnp.issubdtype(index.dtype, jnp.integer):
        raise _error(seq, index, 'the index must be a traced integer scalar and the list '
                                 'not empty')
    return _item_at(seq, _position(index, len(seq), type(seq).__name__), index)


_DICTS = (dict, DictCopy)


def user_method(obj, name):
    """The converted version of method `name` (`'__getitem__'`, `'__setitem__'`) of
    `obj`'s class, where the user wrote it (a function that is not library code), else
    None: `obj[i]` then runs it converted, as a call `obj.get(i)` would (a traced index
    reaches a list inside it, `self.items[i]`, as in converted code)."""
    method = getattr(type(obj), name, None)
    if not inspect.isfunction(method) or context.converter.is_library(method) or \
            not has_source(method.__code__):
        return None
    return context.converter.converted_callable(method)


def has_source(code):
    """Whether the source of `code` can be read (not a method that dataclasses or
    namedtuple made from a string: called as it is, with no warning)."""
    return 0 < code.co_firstlineno <= len(linecache.getlines(code.co_filename))


def set_list_item(items, index, value):
    """Python reference: `items[index] = value` for a Python list and a traced integer
    `index`: each item becomes `value` where the index is its position and stays itself
    elsewhere (a select per item: the list keeps its length; its items and `value` of
    one type, as a read at a traced index needs them), Python's IndexError for an index
    out of range (checked when the program runs). None where the list is not such."""
    if not items or jnp.ndim(index) or not jnp.issubdtype(index.dtype, jnp.integer):
        return None
    leaves = [jax.tree_util.tree_flatten(item) for item in [*items, value]]
    types = _common_types(leaves)
    if types is None:
        return None
    position = _position(index, len(items))
    new = [leaf for leaf in leaves[-1][0]]
    for j, (old, treedef) in enumerate(leaves[:-1]):
        items[j] = jax.tree_util.tree_unflatten(treedef, [
            jnp.where(position == j, cast(jnp.asarray(v, t.dtype), t),
                      cast(jnp.asarray(o, t.dtype), t)) for v, o, t in zip(new, old, types)])
    return items


def update_dict_item(table, key, update):
    """Python reference: `table[key] = update(table[key])` for a traced `key` (`counts[k]
    += 1`): the item whose key equals it becomes its update and the others stay
    themselves (a select per item: the dict keeps its keys, its items and the update of
    one type, as a read at a traced key needs them), Python's KeyError where no key
    equals it (checked when the program runs). None where the dict is not such (see
    `key_matches`)."""
    keys = list(table)
    matches = key_matches(keys, key) if type(table) is dict else None
    if not matches:
        return None
    old = [jax.tree_util.tree_flatten(table[k]) for k in keys]
    try:   # (each item's update: only the one the key selects is kept)
        new = [jax.tree_util.tree_flatten(update(table[k])) for k in keys]
    except (TypeError, ValueError):   # (items of other kinds: the named error)
        return None
    types = _common_types(old + new)
    if types is None:
        return None
    _check_key(matches, keys)
    for k, match, (before, treedef), (after, _) in zip(keys, matches, old, new):
        table[k] = jax.tree_util.tree_unflatten(treedef, [
            jnp.where(match, cast(jnp.asarray(a, t.dtype), t), cast(jnp.asarray(b, t.dtype), t))
            for a, b, t in zip(after, before, types)])
    return table


def dict_get(table, key, default=None):
    """Python reference: `table.get(key, default)` for a traced `key`: the item whose key
    equals it, `default` where none does (items and `default` chosen as a list's are;
    see `key_matches`)."""
    matches = key_matches(list(table), key)
    if matches is None:
        raise _error(list(table.values()), key, _KEYS_NEEDED)
    found = jnp.stack(matches + [jnp.bool_(True)])
    return _item_at([*table.values(), default], jnp.argmax(found), key)


def list_index(items, value, start=0, stop=None):
    """Python reference: `items.index(value[, start[, stop]])` for a list or tuple (or a
    list a staged loop collected) whose items or `value` are traced: the first position
    from `start` whose item is `value` or equals it (a traced int where a traced `==`
    decides), Python's ValueError where none does (checked when the program runs)."""
    kind = 'tuple' if type(items) is tuple else 'list'
    items = list(items)
    found = []   # (position, its item's `==`: traced, or True where Python's decides)
    for k in range(*slice(start, stop).indices(len(items))):
        equal = items[k] is value or items[k] == value
        if is_traced(equal) and jnp.ndim(equal):
            raise _error(items, value, 'the items and the value must be scalars')
        if is_traced(equal) or equal:
            found.append((k, equal))
        if not is_traced(equal) and equal:
            break
    if found and not is_traced(found[0][1]):
        return found[0][0]
    position = jnp.int32(-1)
    for k, equal in reversed(found):
        position = jnp.where(equal, k, position)
    raise_if(position < 0, lambda v: ValueError(f'{v!r} is not in {kind}'), (value,))
    return position


def _dict_item(table, key):
    """Python reference: `table[key]` for a traced key: the item whose key equals it (see
    `key_matches`), Python's KeyError where none does (checked when the program runs);
    items chosen as a list's are (`_item_at`)."""
    keys = list(table)
    matches = key_matches(keys, key)
    if not matches:
        raise _error(list(table.values()), key, _KEYS_NEEDED)
    _check_key(matches, keys)
    return _item_at(list(table.values()), jnp.argmax(jnp.stack(matches)), key)


_KEYS_NEEDED = ('the key must be a traced scalar (or a tuple of scalars) and the dict\'s '
                'keys Python numbers (or tuples of numbers of its length)')


def key_matches(keys, key):
    """Per key of `keys`, whether traced `key` equals it (a traced bool): a scalar of
    Python number keys, or a tuple of scalars (some traced: `Q[(r, c)]`) of keys that are
    tuples of Python numbers of its length, item by item. None for other keys."""
    if type(key) is tuple:
        if not all(type(k) is tuple and len(k) == len(key) and all(
                isinstance(part, (bool, int, float)) for part in k) for k in keys) or any(
                jnp.ndim(part) for part in key):
            return None
        return [functools.reduce(jnp.logical_and, [jnp.asarray(a == b) for a, b in
                                                   zip(key, k)], jnp.bool_(True))
                for k in keys]
    if jnp.ndim(key) or not all(isinstance(k, (bool, int, float)) for k in keys):
        return None
    return [key == k for k in keys]


def _check_key(matches, keys):
    """Python's KeyError where no key matched (checked when the program runs)."""
    raise_if(jnp.logical_not(jnp.any(jnp.stack(matches))), lambda: KeyError(
        f'a traced key that is none of {", ".join(map(repr, keys))}'))


def _chosen_item(table, key):
    """Python reference: `table[key]` for a key that is one of several texts, picked when
    the program runs (a Choice, runtime.values.choice): the item of the key picked, a
    Choice where items are texts that differ; Python's KeyError where the key picked is
    not in the dict (checked when the program runs)."""
    found = [option for option in key.options if option in table]
    if not found:
        raise KeyError(key.options[0])
    for slot, option in enumerate(key.options):
        if option not in table:
            raise_if(key.index == slot, lambda option=option: KeyError(option))
    return picked([table[o] if o in table else table[found[0]] for o in key.options],
                  key.index, 'a dict read at a text known when the program runs')


def _item_at(seq, position, index):
    """`seq[position]` for a position in range: items of one type stacked, functions
    switched between."""
    if all(callable(item) and not isinstance(item, jax.Array) for item in seq):
        return _Switch(list(seq), position)
    leaves = [jax.tree_util.tree_flatten(item) for item in seq]
    types = _common_types(leaves)
    if types is None:
        raise _error(seq, index, 'its items are not arrays of one shape and dtype, nor '
                                 'functions')
    columns = zip(*[items for items, _ in leaves])
    stacked = [jnp.stack([cast(jnp.asarray(x, t.dtype), t) for x in column])
               for column, t in zip(columns, types)]
    return guarded(jax.tree_util.tree_unflatten(leaves[0][1],
                                                [_at(s, position) for s in stacked]))


def _common_types(leaves):
    """Per leaf position, the type the items share as JAX promotes them (Python numbers
    take the others' dtype, weakly typed when all are: `[-1.0, 0.0, +1]` is a weak
    float), or None when the structures or shapes differ, an item is not a number or
    an array, or two arrays' dtypes differ."""
    if not all(_is_number(x) for items, _ in leaves for x in items) or len(
            {treedef for _, treedef in leaves}) != 1:
        return None
    types = None
    for items, _ in leaves:
        mine = [aval(jnp.asarray(x)) if not isinstance(x, (bool, int, float, complex))
                else aval(x) for x in items]
        types = mine if types is None else [promoted(a, b) for a, b in zip(types, mine)]
        if any(t is None for t in types):
            return None
    return types


def _array_item(array, index, numpy=None):
    """`array[index]`, with NumPy's meaning of a list of traced indices (an index array),
    and a named error for a traced boolean mask (its result's length depends on data).
    For an array that stands for a NumPy array, an index out of range is NumPy's
    IndexError (a JAX array's read clamps it, as JAX does)."""
    parts = index if isinstance(index, tuple) else (index,)   # (`x[i, mask]` too)
    if any(isinstance(p, jax.Array) and is_traced(p) and p.dtype == jnp.bool_
           for p in parts):
        location = here(2)
        masked = None if isinstance(index, tuple) else selected(array, index, location)
        if masked is None:
            raise boolean_mask(location)
        return masked
    if numpy_meaning(array) if numpy is None else numpy:
        check_bounds(array, index, scalars=True)
    return array[index_array(index)]


def check_bounds(array, key, scalars=False):
    """NumPy's IndexError for a write at an index of `key` (into the JAX array `array`:
    integers, index arrays, slices, None) out of range of its axis, where JAX would drop
    the write silently; a negative index in range counts from the end. A Python integer,
    and an index array (a list of integers, an integer array) whose values are known
    while tracing, are checked then; a traced index array when the program runs. A
    traced integer scalar keeps JAX's meaning (a write out of range writes nothing), as
    a JAX array's reads do (they clamp: docs/guide.md), except with `scalars` (a read or
    write of an array that stands for a NumPy array: checked when the program runs); masks and
    Ellipsis are left to JAX. Inside a staged branch the error is that path's."""
    parts = key if isinstance(key, tuple) else (key,)
    if any(p is Ellipsis for p in parts):
        return
    axis = 0
    for part in parts:
        if part is None:
            continue
        if axis >= array.ndim:
            return   # (JAX's own error: too many indices)
        n = array.shape[axis]
        if isinstance(part, (int, np.integer)) and not isinstance(part, bool):
            raise_if(not -n <= part < n, _out_of_bounds, (part, axis, n))
        elif scalars and _is_integer(part):   # (a traced integer scalar)
            raise_if((part < -n) | (part >= n), _out_of_bounds, (part, axis, n))
        elif _is_index_array(part):
            _check_index_array(index_array(part), axis, n)
        axis += 1


def _is_index_array(part):
    """An index array as NumPy reads one: a list of integers (not bools), or an integer
    array of at least one dimension."""
    if isinstance(part, list):
        return bool(part) and all(_is_integer(k) for k in part)
    return isinstance(part, (jax.Array, np.ndarray)) and part.ndim > 0 and \
        jnp.issubdtype(part.dtype, jnp.integer)


def _is_integer(k):
    return (isinstance(k, (int, np.integer)) and not isinstance(k, bool)) or (
        isinstance(k, jax.Array) and k.ndim == 0 and jnp.issubdtype(k.dtype, jnp.integer))


def _check_index_array(indices, axis, n):
    if not is_traced(indices):
        values = np.asarray(indices).ravel()
        bad = values[(values < -n) | (values >= n)]
        raise_if(bad.size > 0, _out_of_bounds, (int(bad[0]) if bad.size else 0, axis, n))
        return
    outside = jnp.logical_or(indices < -n, indices >= n).ravel()
    raise_if(jnp.any(outside), _out_of_bounds,
             (indices.ravel()[jnp.argmax(outside)], axis, n))


def _out_of_bounds(index, axis, size):
    return IndexError(f'index {index} is out of bounds for axis {axis} with size {size}')


def index_array(key):
    """A list of indices (`M[[i, j]]`) as NumPy takes it: an index array (JAX takes
    only arrays)."""
    if isinstance(key, list) and key and all(_is_integer(k) for k in key):
        return jnp.stack([jnp.asarray(k) for k in key]) if any_traced(key) \
            else jnp.asarray(np.asarray(key))
    return key


def repeat(seq, count):
    """Python reference: `seq * count` (a list or tuple repeated)."""
    if is_traced(count):
        raise traced_repeat(type(seq).__name__, here())
    return seq * count


def _position(index, length, kind='list'):
    """The index as a position in 0..length-1, checked in range when the program runs
    (Python's IndexError)."""
    kind = kind if kind in ('list', 'tuple') else 'list'
    raise_if(jnp.logical_or(index < -length, index >= length),
             lambda: IndexError(f'{kind} index out of range'))
    return jnp.where(index < 0, index + length, index)


def _at(array, position):
    """`array[position]` for a position already in range (JAX's indexing would wrap a
    negative index again)."""
    return lax.dynamic_index_in_dim(array, position, keepdims=False,
                                    allow_negative_indices=False)


def _is_number(x):
    return isinstance(x, (jax.Array, np.ndarray, np.generic, int, float, complex, bool))


class _Switch:
    """`seq[i]` for a list of functions: calling it calls the chosen one (lax.switch)."""

    def __init__(self, functions, position):
        self.functions = functions
        self.position = position

    def __call__(self, *args, **kwargs):
        convert = context.converter.converted_callable
        branches = [lambda *a, f=convert(f): f(*a, **kwargs)
                    for f in self.functions]
        return lax.switch(self.position, branches, *args)


def _error(seq, index, reason):
    kinds = sorted({'traced array' if is_traced(item) else type(item).__name__
                    for item in seq})
    return sequence_index(seq, kinds, here(2), reason)
