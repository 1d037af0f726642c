"""The items a comprehension with a traced `if` keeps, reduced at once by a builtin.

    nextv = min([v for v in range(n) if not visited[v] and dist[v] == best])
    total = sum(x for x in xs if x > 0)
    count = len([p for p in ps if p > t])
    first = next((i for i, e in enumerate(v) if e > t), -1)

How many items such a comprehension keeps is known only when the program runs, so the
kept items cannot be a list (the arrays of a compiled program have static shapes). Reduced
at once they need not be: the converter writes each `if test` of a comprehension that is
the argument of `min`, `max`, `sum`, `len`, `any` or `all` as a loop over `ag.keep(test)`
(no flag when the test is false, one when it is true or traced) and each item as the pair
(item, flag), collected by `ag.selection`:

    ag.min(ag.selection([(v, kept) for v in ag.range(n) for kept in ag.keep(test)]))

Python values keep Python's meaning exactly (a false test skips the item before it is
computed; the reductions get the kept items). Where a flag is traced, every item is
computed and the reduction ignores the items whose flag is false, which gives Python's
value: `sum` adds 0 for them, `len` counts the flags, `any`/`all` see False/True for
them, and `min`/`max` return the first best kept item (Python's `min` keeps the earlier
item unless a later one is smaller), with `default` where none is kept, or else Python's
ValueError raised when the program runs. Any other use of such a comprehension is the
named error of runtime.python.filtering: the converter makes a selection only there.
"""
import builtins
import operator

import jax
import jax.numpy as jnp

from ..checks.absent import truth
from ..checks.keys import Keyed
from ..checks.raises import raise_if
from ..errors import here
from ..messages import ambiguous_truth, traced_filter
from ..values.maybe import Maybe
from ..values.split import is_traced

_NO_DEFAULT = object()


def keep(test, kept=True):
    """Python reference: `if test` of a comprehension, as a loop over `()` (the item is
    skipped) or `(kept,)` (kept: `kept` is the flag of the comprehension's earlier `if`s,
    True where none). A traced scalar test gives `(kept & test,)`: the item is computed,
    and the reduction reading the selection ignores it where the flag is false. An
    optional test (None on some paths) is as true as Python's (checks.absent.truth)."""
    test = truth(test)
    if not is_traced(test):
        return (kept,) if test else ()
    if jnp.ndim(test):
        raise ambiguous_truth('the `if` of a comprehension', jnp.shape(test), here())
    test = jnp.asarray(test).astype(bool)
    return (test if kept is True else jnp.logical_and(kept, test),)


class Selection:
    """The (item, flag) pairs of a comprehension whose items a reduction reads at once
    (see the module docstring); made only as the argument of `min`, `max`, `sum`, `len`,
    `any` or `all`."""

    def __init__(self, pairs):
        self._pairs = pairs

    def pairs(self):
        """All the pairs, as a list (the comprehension runs to its end)."""
        if not isinstance(self._pairs, list):
            self._pairs = list(self._pairs)
        return self._pairs

    def __iter__(self):
        """The pairs as the comprehension makes them (lazily, the first time)."""
        return iter(self._pairs)

    def python_items(self):
        """The kept items as Python's list, where no flag is traced; else None."""
        pairs = self.pairs()
        if any(is_traced(kept) for _, kept in pairs):
            return None
        return [item for item, _ in pairs]

    def truths(self, stop_on):
        """The items as `any` (`stop_on` True) or `all` reads them, lazily: an item whose
        flag is traced counts as false for `any` and true for `all` where the flag is
        false."""
        for item, kept in self._pairs:
            item = truth(item)   # (an optional item: false where it is None)
            if kept is True:
                yield item
            elif not is_traced(item):
                yield kept if builtins.bool(item) is stop_on else (not stop_on)
            elif jnp.ndim(item):
                yield item   # (the caller's error: an ambiguous truth value)
            elif stop_on:
                yield jnp.logical_and(kept, item.astype(bool))
            else:
                yield jnp.logical_or(jnp.logical_not(kept), item.astype(bool))


def selection(pairs):
    """`ag.selection(pairs)`: the (item, flag) pairs of a comprehension, for a reduction."""
    return Selection(pairs)


def len_(value, /):
    """Python reference: `len(value)`. A selection with a traced flag counts its kept
    items when the program runs (an int32 traced value); so does a dict whose keys exist
    on some paths only (runtime.checks.keys) its keys present, and a slice of an array
    by a traced mask (`len(x[x > 0])`) its items along the first axis."""
    if isinstance(value, Keyed):
        return value.count()
    if hasattr(type(value), '__ag_len__'):   # (a masked slice: runtime.items.masked)
        return value.__ag_len__()
    if not isinstance(value, Selection):
        return builtins.len(value)
    count = 0
    for _, kept in value.pairs():
        count = count + (1 if kept is True else kept.astype(jnp.int32))
    return count


def total(value, start):
    """`sum(selection, start)`: `start + item0 + item1 + ...` over the kept items, in
    Python's order; an item whose flag is traced adds `where(flag, item, 0)`."""
    result = start
    for item, kept in value.pairs():
        if kept is not True:
            item = _kept_value(item, kept, lambda: TypeError(
                "unsupported operand type(s) for +: 'int' and 'NoneType'"))
            _check_number(item, 'sum()')
            item = jnp.where(kept, item, jnp.zeros_like(item))
        result = result + item
    return result


def extremum(name, value, key=None, default=_NO_DEFAULT):
    """`min(selection)` / `max(selection)`: the first kept item whose key no later kept
    item's key beats (Python's: `<` for min, `>` for max, the earlier item kept on ties);
    `default`, else Python's ValueError, where no item is kept."""
    better = operator.lt if name == 'min' else operator.gt
    best = best_key = None
    found = False
    for item, kept in value.pairs():
        if kept is not True:
            item = _kept_value(item, kept, lambda: TypeError(
                f"'{'<' if name == 'min' else '>'}' not supported between instances of "
                f"'NoneType' and another value"))
        item_key = item if key is None else key(item)
        if kept is not True:
            _check_number(item_key, f'{name}()')
        if found is False:   # (the first item: flags are True or traced)
            best, best_key, found = item, item_key, kept
            continue
        beats = _truth(name, better(item_key, best_key))   # (or no item kept before)
        take = _and(kept, beats if found is True else _or(jnp.logical_not(found), beats))
        best, best_key = _where(take, item, best), _where(take, item_key, best_key)
        found = _or(found, kept)
    if found is True:
        return best
    if default is not _NO_DEFAULT:
        return default if found is False else _where(found, best, default)
    if found is False:
        raise ValueError(_empty_message(name))
    raise_if(jnp.logical_not(found), lambda: ValueError(_empty_message(name)))
    return best


def next_(value, *default):
    """Python reference: `next(iterator[, default])`. Of a selection (a generator
    expression with an `if`, see the module docstring): its first kept item. The pairs
    are read one by one, as Python's generator runs, up to the first item kept by a
    Python test (the items after it are not computed); an item whose flag is traced is
    taken where no earlier item was kept when the program runs. Where no item is kept,
    `default`, else Python's StopIteration (raised when the program runs where the flags
    decide it). The converter makes a selection for `next` only where the tests and the
    item have no effect (Python stops testing at the first kept item)."""
    if not isinstance(value, Selection):
        return builtins.next(value, *default)
    best, found = None, False
    for item, kept in value:   # (computed as they are read)
        if found is not False or kept is not True:
            _check_number(item, 'next()')   # (a traced choice of it)
        if found is False:
            best, found = item, kept
        else:
            best, found = _where(found, best, item), _or(found, kept)
        if found is True:
            return best
    if default:
        if found is False or default[0] is None:
            return default[0] if found is False else _where(found, best, None)
        _check_number(default[0], 'next()')
        return _where(found, best, default[0])
    if found is False:
        raise StopIteration
    raise_if(jnp.logical_not(found), lambda: StopIteration())
    return best


def _empty_message(name):
    try:
        getattr(builtins, name)(())
    except ValueError as error:
        return str(error)


def _truth(name, value):
    if is_traced(value) and jnp.ndim(value):
        raise ambiguous_truth(name, jnp.shape(value), here())
    return value if is_traced(value) else builtins.bool(value)


def _and(a, b):
    if a is True or b is False:
        return b
    if b is True or a is False:
        return a
    return jnp.logical_and(a, b)


def _or(a, b):
    if a is False or b is True:
        return b
    if b is False or a is True:
        return a
    return jnp.logical_or(a, b)


def _where(take, a, b):
    """`a if take else b`, item by item where `take` is traced; with None on one side
    (a default of None), an optional value: None where the other is not taken."""
    if not is_traced(take):
        return a if take else b
    if b is None or a is None:
        return Maybe(a, take, None) if b is None else Maybe(b, jnp.logical_not(take), None)
    return jax.tree_util.tree_map(lambda x, y: jnp.where(take, x, y), a, b)


def _kept_value(item, kept, error):
    """An optional item (a Maybe: None on some paths) whose flag `kept` is traced: its
    value, read only where it is kept, with Python's `error()` raised when the program
    runs where it is kept and None (a dropped None is never used, as in Python)."""
    if not isinstance(item, Maybe) or item.absent is not None:
        return item
    raise_if(jnp.logical_and(kept, jnp.logical_not(item.present)), error)
    return item.value


def _check_number(value, construct):
    """An item a traced flag may drop must be a number or an array: a traced choice
    between other objects (lists, text) cannot be made."""
    if not isinstance(value, (int, float, complex)) and not hasattr(value, 'dtype'):
        raise traced_filter(f'the `if` of a comprehension reduced by {construct}', here())
