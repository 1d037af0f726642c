"""Python's order of traced numbers where a NaN is among them, for `max`, `min` and `sorted`.

Python reference: `max(xs)` is

    best = xs[0]
    for x in xs[1:]:
        if x > best:
            best = x

and every comparison with a NaN is False: a NaN first stays the result, a NaN later is
skipped (`max([1.0, nan, 0.5])` is 1.0, `max([nan, 1.0])` is nan); `min` likewise with
`<`. NumPy's and JAX's reductions propagate the NaN instead, so these compute Python's
result: the best of the items after the first with NaNs left out, taken where it beats
the first. `sorted` has no such rule (the order of a list with a NaN is whatever its
merges happen to give): with a NaN among traced keys it stops the program with a named
error (a run-time check) rather than give another order.

Tuples are ordered item by item (the first unequal pair decides): `sorted` of tuple keys
with traced items (`(-score, index)`, or items that are such tuples) is one stable sort
of their columns, the first column first (`jnp.lexsort`).
"""
import jax.numpy as jnp

from ..checks.raises import raise_if
from ..errors import ControlFlowError


def extreme(name, items):
    """`max(items)` / `min(items)` of a traced array's items along its first axis (1-D,
    or rows of one number), as Python compares them."""
    if len(items) == 1 or not jnp.issubdtype(items.dtype, jnp.floating):
        return (jnp.max if name == 'max' else jnp.min)(items, axis=0)
    first, rest = items[0], items[1:]
    best = (jnp.nanmax if name == 'max' else jnp.nanmin)(rest, axis=0)
    beats = best > first if name == 'max' else best < first
    return jnp.where(beats, best, first)   # (a NaN `best` or `first`: False, `first`)


def first_best(name, keys):
    """The index of the item `max(..., key=)` / `min(..., key=)` returns, of the traced
    1-D `keys`: the first best key, a NaN skipped unless it is the first."""
    if len(keys) == 1 or not jnp.issubdtype(keys.dtype, jnp.floating):
        return (jnp.argmax if name == 'max' else jnp.argmin)(keys)
    rest = keys[1:]
    worst = -jnp.inf if name == 'max' else jnp.inf
    later = (jnp.argmax if name == 'max' else jnp.argmin)(
        jnp.where(jnp.isnan(rest), worst, rest))
    beats = rest[later] > keys[0] if name == 'max' else rest[later] < keys[0]
    return jnp.where(beats, later + 1, 0)


def check_no_nan(keys, location):
    """A run-time check that the traced keys `sorted` orders hold no NaN (see above)."""
    if jnp.issubdtype(keys.dtype, jnp.floating):
        raise_if(jnp.any(jnp.isnan(keys)), lambda: ControlFlowError(
            f'sorted() at {location} was given a NaN among its traced values: Python '
            f'orders a list holding a NaN as its merges happen to compare, which the '
            f'compiled sort cannot reproduce. Remove or replace the NaN first (e.g. '
            f'jnp.nan_to_num, or a key that maps it to inf).'))


def tuple_keys(keys):
    """Whether `keys` are tuples of one length (not empty), ordered column by column."""
    return isinstance(keys, list) and all(type(k) is tuple for k in keys) and len(
        {len(k) for k in keys}) == 1 and len(keys[0]) > 0


def sort_order(keys, reverse, location):
    """The positions of the items in `sorted` order of their traced `keys` (a 1-D array,
    or a list of tuples of scalars of one length: their columns' order), stable (equal
    keys keep their order, also with `reverse`)."""
    if isinstance(keys, list):
        columns = [jnp.stack([jnp.asarray(k[j]) for k in keys]) for j in range(len(keys[0]))]
        for column in columns:
            check_no_nan(column, location)
        return jnp.lexsort([_descending(c) if reverse else c for c in reversed(columns)])
    check_no_nan(keys, location)
    return jnp.argsort(keys, stable=True, descending=reverse)


def _descending(column):
    """`column` negated, so that an ascending stable sort puts its largest first."""
    return -column.astype(jnp.int32) if column.dtype == jnp.bool_ else -column
