"""`value in container` where the value or the container's items are traced
(`(r, c) in walls`, `head in body` of a deque, `c in counts` of a dict's keys).

Python reference: for a list, tuple, set or deque, True when an item `is` value or `==
value`, checked in order (a true Python comparison stops); for a dict, one of its keys.
Traced comparisons are or-ed together (`ag.eq` compares tuples item by item); an array
container means `(container == value).any()`, as NumPy's.
"""
import collections

import jax.numpy as jnp

from ..checks.keys import Keyed
from ..errors import here
from ..messages import ambiguous_in
from ..values.split import any_traced, is_traced
from .equality import eq


_SEQUENCES = (list, tuple, set, frozenset, collections.deque)


def in_(value, container):
    """Python reference: `value in container`: for a list/tuple/set/deque, True when an item
    `is` value or `== value`. Traced comparisons are or-ed together; an array container
    means `(container == value).any()`, as NumPy's; a traced value in a dict, equal to
    one of its keys (a number, a tuple of numbers). A dict key that exists on some
    paths only (runtime.checks.keys) is in the dict where its flag is true."""
    if isinstance(container, Keyed) and not is_traced(value):
        return container.contains(value)
    if is_traced(container):
        return jnp.any(container == value)
    if isinstance(container, dict) and not isinstance(container, Keyed) and \
            any_traced(value):   # (its keys: `c in counts`, `(r, c) in visited`)
        container = list(container)
    if not isinstance(container, _SEQUENCES) or not (
            any_traced(value) or any_traced(list(container))):   # (`(r, c) in walls`)
        return value in container
    found = []
    for item in container:
        if item is value:
            return True
        equal = eq(item, value)
        if not is_traced(equal):
            if equal:
                return True
            continue
        if jnp.ndim(equal):
            raise ambiguous_in(jnp.shape(equal), here())
        found.append(equal)
    return jnp.any(jnp.stack(found)) if found else False
