"""`sum(item for k in range(...) if test)`, as converted code calls it (passes.comprehensions).

A generator is iterated by Python, which cannot iterate a range whose bound is traced (a
loop's count that a staged `while` computed): the sum of its items is then one staged
loop over the range, each item added where its test holds.
"""
import builtins

import jax.numpy as jnp

from ..loops.iterables import TracedRange
from ..values.split import is_traced
from .loops import for_stmt


def sum_over_range(numbers, item, test=None, start=0):
    """Python reference: `sum((item(k) for k in numbers if test is None or test(k)),
    start)`, `numbers` a range (`ag.range`). Items and tests have no effect (the converter
    rewrites only such), so a staged loop computes each item and adds it where its test
    holds; a range with Python bounds is Python's sum of the generator."""
    if not isinstance(numbers, TracedRange):
        return builtins.sum((value for k in numbers for value in _kept(item, test, k)),
                            start)

    def body(k, total):
        for value in _kept(item, test, k):
            total = total + value
        return total
    return for_stmt(numbers, body, (start,), names=('sum',))


def _kept(item, test, k):
    """[item(k)] where `test(k)` holds (or there is no test), [] where it does not; a
    traced test: [the item where it holds, else zeros]."""
    kept = True if test is None else test(k)
    if not is_traced(kept):
        return [item(k)] if kept else []
    value = item(k)
    return [jnp.where(kept, value, jnp.zeros_like(value))]
