"""`a == b`, `a != b` and `a < b` (`<=`, `>`, `>=`) where `a` and `b` are lists (or
tuples) that hold traced values.

Python reference (list and tuple comparison): two lists (two tuples) of different lengths
are unequal; else they are equal when every pair of items is (`x is y` or `x == y`, each
made a bool, in order, stopping at the first unequal pair), and `a != b` is `not a == b`.
A list never equals a tuple (nor anything else that is not a list). So with traced items
`[i, j] == [3, 0]` is the `and` of `i == 3` and `j == 0`: a traced bool, where Python
would need the items' truth values. The lengths are Python's: they decide alone.

An ordering compares the first pair of items that are not equal (`x < y` of that pair),
or, where one sequence is the start of the other, the lengths (`(1, 2) < (1, 2, 0)`):
with traced items, each pair's `==` chooses (`jnp.where`) between its own ordering and
the ordering the pairs after it give (`(d, i) < best` in a search for the least `d`).

A comparison of an object whose class defines it in user code (`__eq__`, `__lt__`)
runs that method converted, as a call of it would (Python calls it implicitly).
"""
import dataclasses
import inspect
import operator
import weakref

import jax.numpy as jnp

from .. import origin
from ..checks.raises import raise_if
from ..errors import here
from ..items.indexing import has_source, user_method
from ..messages import ambiguous_in
from ..values.split import any_traced, is_traced


def _sequence_kind(value):
    """list or tuple when `value` compares as one (its class keeps their `==`), else None."""
    for kind in (list, tuple):
        if isinstance(value, kind) and type(value).__eq__ is kind.__eq__:
            return kind
    return None


def eq(a, b):
    """Python reference: `a == b`."""
    kind = _sequence_kind(a)
    if kind is None or _sequence_kind(b) is not kind or not (any_traced(a) or any_traced(b)):
        return _compared(a, b, '__eq__', operator.eq)
    return _items_equal(a, b, '==')


def ne(a, b):
    """Python reference: `a != b`."""
    kind = _sequence_kind(a)
    if kind is None or _sequence_kind(b) is not kind or not (any_traced(a) or any_traced(b)):
        if not (_user(a, '__ne__') or _user(b, '__ne__')) and (
                _user(a, '__eq__') or _user(b, '__eq__')):   # (object's `!=`: `not ==`)
            equal = _compared(a, b, '__eq__', operator.eq)
            return jnp.logical_not(equal) if is_traced(equal) else not equal
        return _compared(a, b, '__ne__', operator.ne)
    equal = _items_equal(a, b, '!=')
    return jnp.logical_not(equal) if is_traced(equal) else not equal


def _compared(a, b, name, op):
    """`op(a, b)`, where `name` is its method (`'__eq__'`, `'__lt__'`): a method of the
    user's class of `a` or `b`, which Python calls implicitly, runs converted (as it
    would, unconverted, decide its own `and` of traced values as Python). Python's order:
    `b`'s reflected method first where `b`'s class is a subclass of `a`'s, then `a`'s,
    then `b`'s, each until one gives something but NotImplemented; else `==` is `is`,
    `!=` is `is not`, an ordering Python's TypeError."""
    made = _by_fields(a, b, name)
    if made is not None:
        return made
    reflected = _REFLECTED[name]
    if not (_user(a, name) or _user(b, reflected)):
        return op(a, b)
    tries = [(a, b, name), (b, a, reflected)]
    if type(b) is not type(a) and isinstance(b, type(a)):
        tries.reverse()
    for x, y, method in tries:
        user = user_method(x, method)
        result = user(x, y) if user is not None else getattr(type(x), method)(x, y)
        if result is not NotImplemented:
            return result
    return op(a, b)   # (Python's own ending: identity, or its TypeError)


origin.operates(_compared)   # (Python's TypeError of `op(a, b)` is the user's line's)


def _by_fields(a, b, name):
    """`a == b` (`!=`, `<`, ...) of two objects of one dataclass whose comparison
    dataclasses made (from a string: no source to convert): as that method does, the
    tuples of their compared fields, compared here as tuples of traced items are; None
    where it is not such a comparison."""
    cls = type(a)
    params = getattr(cls, '__dataclass_params__', None)
    if params is None or type(b) is not cls:
        return None
    method = cls.__dict__.get('__eq__' if name == '__ne__' else name)
    if not (params.eq if name in ('__eq__', '__ne__') else params.order) or \
            not inspect.isfunction(method) or has_source(method.__code__):
        return None
    names = [field.name for field in dataclasses.fields(cls) if field.compare]
    left, right = (tuple(getattr(x, n) for n in names) for x in (a, b))
    if name == '__ne__':
        equal = eq(left, right)
        return jnp.logical_not(equal) if is_traced(equal) else not equal
    return _BY_NAME[name](left, right)


_REFLECTED = {'__eq__': '__eq__', '__ne__': '__ne__', '__lt__': '__gt__',
              '__le__': '__ge__', '__gt__': '__lt__', '__ge__': '__le__'}


def _user(value, name):
    """Whether the class of `value` defines `name` in user code (known per class)."""
    cls = type(value)
    try:
        known = _USER_METHODS[cls]
    except KeyError:
        known = {}
        try:
            _USER_METHODS[cls] = known
        except TypeError:   # (a class that takes no weak reference: asked each time)
            pass
    found = known.get(name)
    if found is None:
        found = known[name] = user_method(value, name) is not None
    return found


_USER_METHODS = weakref.WeakKeyDictionary()   # class -> {method name: the user's?}


def _items_equal(a, b, op):
    """`a == b` for two lists (two tuples): a Python bool, or a traced one."""
    if len(a) != len(b):
        return False
    traced = []
    for x, y in zip(a, b):
        if x is y:
            continue
        equal = eq(x, y)
        if not is_traced(equal):
            if not equal:   # (Python's bool() of it: a concrete array of one item too)
                return False
            continue
        if jnp.ndim(equal):
            raise ambiguous_in(jnp.shape(equal), here(), f'`{op}` of two sequences', fix=(
                'Compare sequences of scalars, or arrays: jnp.array_equal(a, b)'))
        traced.append(equal)
    if not traced:
        return True
    return jnp.all(jnp.stack(traced)) if len(traced) > 1 else traced[0]


def _ordering(op, symbol, name):
    def compare(a, b):
        kind = _sequence_kind(a)
        if kind is None or _sequence_kind(b) is not kind or not (
                any_traced(a) or any_traced(b)):
            return _compared(a, b, name, op)
        pairs, result = [], op(len(a), len(b))
        for x, y in zip(a, b):   # (up to the first pair that surely differs)
            if x is y:
                continue
            equal = eq(x, y)
            if is_traced(equal) and jnp.ndim(equal):
                raise ambiguous_in(jnp.shape(equal), here(), f'`{symbol}` of two sequences',
                                   fix='Compare sequences of scalars')
            if not is_traced(equal) and equal:
                continue
            pairs.append((x, y, equal))
            if not is_traced(equal):
                result = _reached_ordering(op, x, y, [e for _, _, e in pairs[:-1]])
                pairs.pop()
                break
        for x, y, equal in reversed(pairs):   # (the first unequal pair decides)
            result = jnp.where(equal, result, compare(x, y))
        return result
    compare.__name__ = op.__name__
    compare.__doc__ = f'Python reference: `a {symbol} b` (see the module doc).'
    origin.operates(compare)   # (Python's TypeError of `op(a, b)` is the user's line's)
    return compare


def _reached_ordering(op, x, y, equal_before):
    """`op(x, y)` of a pair that differs, which Python compares only where the traced
    `equal_before` all hold: where that raises (`'a' < 3`: TypeError), the error is
    raised where the program reaches it."""
    try:
        return op(x, y)
    except TypeError as error:
        if not equal_before:
            raise
        reached = jnp.all(jnp.stack(equal_before)) if len(equal_before) > 1 \
            else equal_before[0]
        raise_if(reached, _type_error, (str(error),))
        return False


def _type_error(message):
    return TypeError(message)


lt = _ordering(operator.lt, '<', '__lt__')
le = _ordering(operator.le, '<=', '__le__')
gt = _ordering(operator.gt, '>', '__gt__')
ge = _ordering(operator.ge, '>=', '__ge__')

_BY_NAME = {'__eq__': eq, '__lt__': lt, '__le__': le, '__gt__': gt, '__ge__': ge}
