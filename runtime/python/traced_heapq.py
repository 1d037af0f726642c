"""The `heapq` module's selections, for converted code: `heapq.nlargest(k, beams,
key=score)` of items with traced keys (a beam search's best candidates) is
`ag.heapq.nlargest(...)`.

Python reference: `nlargest(n, iterable, key=None)` is `sorted(iterable, key=key,
reverse=True)[:n]` and `nsmallest` is `sorted(iterable, key=key)[:n]` (the `heapq`
documentation gives these equivalents, ties included): here they are those, with the
`sorted` that orders traced keys (runtime.python.py_builtins).
"""
from .py_builtins import sorted_


def nlargest(n, iterable, key=None):
    """Python reference: `heapq.nlargest(n, iterable, key)` (see the module doc)."""
    return sorted_(iterable, key=key, reverse=True)[:n]


def nsmallest(n, iterable, key=None):
    """Python reference: `heapq.nsmallest(n, iterable, key)` (see the module doc)."""
    return sorted_(iterable, key=key)[:n]


NAMES = frozenset({'nlargest', 'nsmallest'})
