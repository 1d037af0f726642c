"""Builtins that converted code routes through the runtime because they see traced values.

Each keeps Python's meaning: with Python values it *is* the builtin; with traced values it
computes the same result with `jnp` (`int(x)` truncates toward zero, `max(xs, key=f)`
returns the first largest item, `any` stops at the first true Python item). `range`,
`enumerate` and `zip` are in runtime.loops.iterables; `str`/`repr`/`format` in runtime.values.text.
"""
import builtins

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..errors import IntegerRange, here
from .calls import call
from . import ordering, selections
from ..checks.keys import either
from ..context import field_flag
from ..checks.raises import raise_if
from ..checks.absent import present, truth
from ..values.choice import Choice, picked
from ..values.maybe import Maybe
from ..messages import (ambiguous_truth, items_differ, no_order, traced_conversion,
                        unordered_items)
from ..values.split import any_traced, is_traced


def _items(iterable):
    """The items of an iterable as a list (a traced array stays an array)."""
    if isinstance(iterable, (jax.Array, list, tuple)):
        return iterable
    return list(iterable)


def _stack(items, what):
    """The items stacked on a new axis 0 (pytrees leaf by leaf); a named error when
    they differ in structure or shape."""
    try:
        return jax.tree_util.tree_map(lambda *xs: jnp.stack(xs), *items)
    except (ValueError, TypeError) as error:
        raise items_differ(what, error, here(2)) from None


def _orderable(items, what):
    """A named TypeError where traced items are compared with items Python cannot order
    them with (a str, None): Python's `<` between them fails whatever the values."""
    leaves = jax.tree_util.tree_leaves(list(items), is_leaf=lambda x: x is None)
    others = sorted({type(x).__name__ for x in leaves
                     if x is None or isinstance(x, (str, bytes))})
    if others and any_traced(leaves):
        raise unordered_items(what, ['traced array'] + others, here(2))


def _extremum(name, python_fn, pairwise, args, kwargs):
    if len(args) == 1 and isinstance(args[0], selections.Selection):
        items = args[0].python_items()
        if items is None:
            return selections.extremum(name, args[0], **kwargs)
        args = (items,)
    if len(args) == 1:
        args = (_items(args[0]),)
    key = kwargs.pop('key', None)
    items = args[0] if len(args) == 1 else list(args)
    keys = None if key is None else [key(item) for item in items]   # (once each)
    if not any_traced(args) and not any_traced(keys) and \
            not any_traced(kwargs.get('default')):
        if keys is None or not len(items):
            return python_fn(*args, **kwargs)
        return items[python_fn(range(len(items)), key=keys.__getitem__)]   # (the first)
    if len(args) == 1 and not len(items):
        if 'default' in kwargs:
            return kwargs['default']
        raise ValueError(f'{name}() iterable argument is empty')
    if key is None and isinstance(items, jax.Array):
        if items.ndim > 1 and len(items) > 1 and items[0].size > 1:   # (`row > best`)
            raise ambiguous_truth(f'{name}()', items.shape[1:], here(2))
        return ordering.extreme(name, items)
    if key is None and all(type(item) in (tuple, list) for item in items):
        return _sequence_best(name, items)
    if key is None:
        _orderable(items, f'{name}()')
        result = items[0]
        for item in items[1:]:
            result = pairwise(result, item)
        return result
    _orderable(keys, f'{name}(..., key=)')
    keys = jnp.stack([jnp.asarray(k) for k in keys])
    chosen = ordering.first_best(name, keys)    # the first best, as Python's
    if not isinstance(items, jax.Array):   # (texts among Python items: a Choice of them)
        return picked(items, chosen, f'{name}(..., key=)')
    return jax.tree_util.tree_map(lambda s: s[chosen], _stack(items, f'{name}(..., key=)'))


def _beats(name, b, a):
    """Python's `b > a` (`b < a` for min) of two tuples or lists: the first unequal pair
    of items decides, else the longer is greater; a traced bool where items are traced."""
    decided, result = False, False
    for x, y in zip(b, a):
        wins = x > y if name == 'max' else x < y
        if jnp.ndim(wins):   # (Python asks the truth of an array's `==` if it gets here)
            raise_if(jnp.logical_not(decided), lambda: ValueError(
                'The truth value of an array with more than one element is ambiguous.'))
            return result
        result = jnp.logical_or(result, jnp.logical_and(jnp.logical_not(decided), wins))
        decided = jnp.logical_or(decided, x != y)
    longer = len(b) > len(a) if name == 'max' else len(b) < len(a)
    return jnp.logical_or(result, jnp.logical_and(jnp.logical_not(decided), longer))


def _sequence_best(name, items):
    """`max`/`min` of tuples or lists holding traced values (`max((p, state) for ...)`):
    the first item that no later one beats as Python compares them (`_beats`), picked by
    its traced index: items' arrays stacked, texts that differ a Choice."""
    best = jnp.int32(0)
    for j in range(1, len(items)):
        row = jnp.stack([_beats(name, items[j], items[i]) for i in range(j)])
        best = jnp.where(row[best], jnp.int32(j), best)
    return picked(items, best, 'max()/min()')


def min_(*args, **kwargs):
    """Python reference: `min(*args, key=None, default=...)`; traced items are compared
    as Python compares them, keeping the earlier item unless a later one is smaller
    (`jnp.where(b < a, b, a)`: a NaN first stays, a NaN later is skipped, a tie's gradient
    goes to the first); over an array's first axis and by keys the same way in one
    reduction (runtime.python.ordering); tuples and lists item by item, as Python orders
    them (`_sequence_best`)."""
    return _extremum('min', builtins.min, lambda a, b: jnp.where(b < a, b, a), args, kwargs)


def max_(*args, **kwargs):
    """Python reference: `max(*args, key=None, default=...)`; as `min_`, with `b > a`."""
    return _extremum('max', builtins.max, lambda a, b: jnp.where(b > a, b, a), args, kwargs)


def sum_(iterable, /, start=0):
    """Python reference: `sum(iterable, start)`: `start + item0 + item1 + ...`; a traced
    array sums along its first axis in one `jnp.sum`; see runtime.python.selections for
    a comprehension with a traced `if`."""
    if isinstance(iterable, selections.Selection):
        items = iterable.python_items()
        if items is None:
            return selections.total(iterable, start)
        iterable = items
    if is_traced(iterable):
        return start + jnp.sum(iterable, axis=0)
    return builtins.sum(iterable, start)


def sorted_(iterable, /, *, key=None, reverse=False):
    """Python reference: `sorted(iterable, key=None, reverse=False)`: a new list of the
    items in ascending order of their keys; equal keys keep their order, also with
    `reverse`. Traced items (a traced array's rows, or a list holding traced scalars) are
    ordered by one stable `jnp.argsort` of their scalar keys; the result is the list of
    the reordered items (a NaN among traced keys is a run-time error: see
    runtime.python.ordering)."""
    items = _items(iterable)
    keys = None if key is None else [key(item) for item in items]   # (once each)
    if not any_traced(items) and not any_traced(keys):
        if keys is None:
            return builtins.sorted(items, reverse=reverse)
        return [items[i] for i in builtins.sorted(range(len(items)), key=keys.__getitem__,
                                                  reverse=reverse)]   # (stable too)
    if not len(items):
        return []
    keys = items if key is None else keys
    if not isinstance(keys, jax.Array):
        _orderable(keys, 'sorted()')
    if not ordering.tuple_keys(keys):   # (tuples: ordered column by column)
        keys = keys if isinstance(keys, jax.Array) else _stack(keys, 'sorted()')
        if jnp.ndim(keys) != 1:
            raise no_order(jnp.shape(keys)[1:], here())
    order = ordering.sort_order(keys, reverse, here())
    if not isinstance(items, jax.Array) and _has_text(items):   # (a Choice per place)
        return [picked(items, order[i], 'sorted()') for i in range(len(items))]
    ordered = jax.tree_util.tree_map(lambda s: s[order], _stack(items, 'sorted()'))
    return [jax.tree_util.tree_map(lambda s, i=i: s[i], ordered) for i in range(len(items))]


def _has_text(items):
    return any(isinstance(leaf, (str, bytes)) for leaf in jax.tree_util.tree_leaves(items))


def list_sort(items, /, *, key=None, reverse=False):
    """Python reference: `items.sort(key=None, reverse=False)`: the list `items` itself
    put in ascending order of its items' keys (stable, also with `reverse`); None.
    Traced items are ordered as `sorted_` orders them, written back into the same list."""
    if not any_traced(items) and key is None:
        return items.sort(reverse=reverse)
    items[:] = sorted_(items, key=key, reverse=reverse)   # (traced keys of Python items)
    return None


def _truth(name, stop_on, iterable):
    if isinstance(iterable, selections.Selection):
        iterable = iterable.truths(stop_on)
    traced = []
    for item in iterable:
        item = truth(item)   # (an optional item, None on some paths: as true as Python's)
        if not is_traced(item):
            if builtins.bool(item) is stop_on:
                return stop_on
            continue
        if jnp.ndim(item):
            raise ambiguous_truth(name, jnp.shape(item), here(2))
        traced.append(item)
    if not traced:
        return not stop_on
    return (jnp.any if stop_on else jnp.all)(jnp.stack(traced).astype(bool))


def any_(iterable):
    """Python reference: `any(iterable)`: True at the first true item. Traced items are
    or-ed together with `jnp.any`; a true Python item still stops the iteration."""
    return _truth('any', True, iterable)


def all_(iterable):
    """Python reference: `all(iterable)`: False at the first false item. Traced items are
    and-ed together with `jnp.all`; a false Python item still stops the iteration."""
    return _truth('all', False, iterable)


def hasattr_(obj, name):
    """Python reference: `hasattr(obj, name)`. An attribute that staged code created on
    some paths only (runtime.context.field_flag) is there where its flag is true."""
    flag = field_flag(obj, name) if isinstance(name, str) else None
    return builtins.hasattr(obj, name) if flag is None else flag


def getattr_(obj, name, *default):
    """Python reference: `getattr(obj, name[, default])`. An attribute that staged code
    created on some paths only (runtime.context.field_flag) is its value where its flag
    is true: else the default (a select, or an optional value for None), or Python's
    AttributeError when the program runs."""
    flag = field_flag(obj, name) if isinstance(name, str) else None
    if flag is None:
        return builtins.getattr(obj, name, *default)
    value = builtins.getattr(obj, name)
    if default:
        return either(flag, value, default[0], name)
    raise_if(jnp.logical_not(flag), _attribute_error, (type(obj).__name__, name))
    return value


def check_field(obj, name):
    """Python reference: nothing (a read of `obj.name` follows, which raises
    AttributeError where it is not set). Where staged code created the attribute on some
    paths only (runtime.context.field_flag), Python's AttributeError when the program
    runs on a path that left it unset."""
    flag = field_flag(obj, name)
    if flag is not None:
        raise_if(jnp.logical_not(flag), _attribute_error, (type(obj).__name__, name))


def _attribute_error(type_name, name):
    return AttributeError(f"'{type_name}' object has no attribute '{name}'")


def pow_(base, exp, mod=None):
    """Python reference: `pow(base, exp, mod)`. With a JAX array operand (traced or not:
    JAX arrays have no three-argument `__pow__`) and a modulus, the integer power is
    computed by repeated squaring modulo `mod` (no overflow of `base ** exp` first); the
    exponent must be non-negative, checked when it runs."""
    if mod is None or not any(isinstance(v, jax.Array) for v in (base, exp, mod)):
        return builtins.pow(base, exp) if mod is None else builtins.pow(base, exp, mod)
    base, exp, mod = jnp.asarray(base), jnp.asarray(exp), jnp.asarray(mod)
    if not all(jnp.issubdtype(v.dtype, jnp.integer) for v in (base, exp, mod)):
        raise TypeError('pow() 3rd argument not allowed unless all arguments are integers')
    from ..checks.asserts import assert_
    assert_(exp >= 0, lambda: 'pow() with a modulus needs a non-negative exponent here')
    bits = jnp.iinfo(exp.dtype).bits

    def step(_, state):
        result, square, e = state
        result = jnp.where(e % 2 == 1, (result * square) % mod, result)
        return result, (square * square) % mod, e // 2
    one = jnp.ones_like(base % mod)
    result, _, _ = lax.fori_loop(0, bits, step, (one, base % mod, exp))
    return result % mod


def _scalar(python_type, make):
    name = python_type.__name__

    def convert(value=False if python_type is builtins.bool else 0, *args, **kwargs):
        if isinstance(value, (Maybe, Choice)):   # (None on some paths: Python's truth)
            value = truth(value) if python_type is builtins.bool else present(
                value, lambda: TypeError(f"{name}() argument must be a string or a "
                                         f"number, not 'NoneType'"))
        if not is_traced(value):
            return python_type(value, *args, **kwargs)   # (`int(s, base=16)`)
        args += tuple(kwargs.values())
        if not args and jnp.ndim(value) and jnp.size(value) == 1:
            value = jnp.reshape(value, ())   # (NumPy takes a size-1 array's element)
        if args or jnp.ndim(value):
            what = 'with a base' if args else f'of a traced array of shape {jnp.shape(value)}'
            raise traced_conversion(name, what, here())
        return make(value)
    convert.__name__ = name + '_'
    convert.__doc__ = (f'Python reference: `{name}(value)`. A traced scalar becomes '
                       f'`{make.__doc__}`; an optional value (None on some paths) is '
                       f'checked or tested as Python would.')
    return convert


def _to_int(x):
    """x.astype(int), truncating toward zero (a NaN, an infinity or a value out of the
    integer type's range is an error when the program runs)"""
    dtype = jax.dtypes.canonicalize_dtype(builtins.int)
    if jnp.issubdtype(x.dtype, jnp.complexfloating):
        raise TypeError("int() argument must be a string, a bytes-like object or a real "
                        "number, not 'complex'")
    if not jnp.issubdtype(x.dtype, jnp.inexact):
        return x.astype(dtype)
    whole = jnp.trunc(x)
    raise_if(jnp.isnan(x), lambda: ValueError('cannot convert float NaN to integer'))
    raise_if(jnp.isinf(x), lambda: OverflowError('cannot convert float infinity to integer'))
    limits = jnp.iinfo(dtype)
    raise_if(jnp.isfinite(x) & ((whole < limits.min) | (whole >= -float(limits.min))),
             _out_of_range, (dtype.name,))
    return whole.astype(dtype)


def _out_of_range(dtype_name):
    hint = 'enable jax_enable_x64, or keep it a float' if dtype_name == 'int32' else \
        'keep it a float'
    return IntegerRange(f'int() of a traced value out of the range of {dtype_name} (Python '
                        f'would give a larger integer): {hint}')


def _to_float(x):
    """x.astype(float)"""
    return x.astype(jax.dtypes.canonicalize_dtype(builtins.float))


def _to_bool(x):
    """x != 0, as a bool array"""
    return x.astype(builtins.bool)


int_ = _scalar(builtins.int, _to_int)
float_ = _scalar(builtins.float, _to_float)
bool_ = _scalar(builtins.bool, _to_bool)


_ARRAYS = (jax.Array, np.ndarray, np.generic)


def item(value):
    """Python reference: `value.item()`. A traced array of size 1 gives its element as a
    traced scalar (a range bound or loop bound then stages the loop, as a traced `n`); a
    user object's own `item` method is converted (see `call`)."""
    if not is_traced(value):
        return value.item() if isinstance(value, _ARRAYS) else call(value.item)
    if jnp.size(value) != 1:
        raise ValueError('can only convert an array of size 1 to a Python scalar')
    return jnp.reshape(value, ())


def complex_(*args, **kwargs):
    """Python reference: `complex(real, imag)`. Traced parts give `real + 1j * imag`."""
    if not any_traced(args) and not any_traced(kwargs):
        return builtins.complex(*args, **kwargs)
    bound = dict(zip(('real', 'imag'), args), **kwargs)
    return (jnp.asarray(bound.get('real', 0)) + 1j * jnp.asarray(bound.get('imag', 0)))
