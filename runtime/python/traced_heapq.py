"""The `heapq` module, for converted code: `heapq.nlargest(k, beams, key=score)` of
items with traced keys (a beam search's best candidates) is `ag.heapq.nlargest(...)`, and
`heapq.heappush(h, v)` is `ag.heapq.heappush(h, v)`.

Python reference: `nlargest(n, iterable, key=None)` is `sorted(iterable, key=key,
reverse=True)[:n]` and `nsmallest` is `sorted(iterable, key=key)[:n]` (the `heapq`
documentation gives these equivalents, ties included): here they are those, with the
`sorted` that orders traced keys (runtime.python.py_builtins).
"""
import heapq

import jax

from ..errors import here
from ..messages import heap_of_traced_items
from ..state.lists import read_whole
from .py_builtins import sorted_


def nlargest(n, iterable, key=None):
    """Python reference: `heapq.nlargest(n, iterable, key)` (see the module doc)."""
    return sorted_(iterable, key=key, reverse=True)[:n]


def nsmallest(n, iterable, key=None):
    """Python reference: `heapq.nsmallest(n, iterable, key)` (see the module doc)."""
    return sorted_(iterable, key=key)[:n]


def _ordering(name):
    """`heapq.<name>`, which changes the heap given first in place, comparing its items:
    the heap read whole (in a staged loop that grows it, the loop's named error, or a
    loop run as Python: see runtime.state.lists), and a named error where it compares
    traced items (Python needs their values to place them)."""
    function = getattr(heapq, name)

    def ordering(heap, *args):
        read_whole(heap)
        try:
            return function(heap, *args)
        except jax.errors.ConcretizationTypeError:
            raise heap_of_traced_items(name, here()) from None
    ordering.__name__ = ordering.__qualname__ = name
    ordering.__doc__ = f"""Python reference: `heapq.{name}(heap, ...)` (see `_ordering`)."""
    return ordering


IN_PLACE = ('heappush', 'heappop', 'heapify', 'heappushpop', 'heapreplace')
"""The functions that change the heap given in place."""

heappush, heappop, heapify, heappushpop, heapreplace = map(_ordering, IN_PLACE)
