"""Keeping some items of a sequence by a test: comprehension `if` clauses and `filter`.

How many items are kept depends on the test's values, and the arrays of a compiled program
have shapes known while tracing. So a test on Python values keeps Python's meaning, and a
traced test is a ControlFlowError naming the line (JAX's own error would be a
TracerBoolConversionError from inside the comprehension).
"""
import builtins

from ..checks.absent import truth
from ..errors import here
from ..messages import traced_filter
from ..values.split import is_traced


def comprehension_test(value):
    """Python reference: the test of a comprehension's `if` clause, `value` itself (an
    optional value, None on some paths, tested for its truth)."""
    value = truth(value)
    if is_traced(value):
        raise traced_filter('the `if` of a comprehension', here())
    return value


def filter_(function, iterable, /):
    """Python reference: `filter(function, iterable)` (lazy, as Python's)."""
    location = here()

    def keep(item):
        value = truth(item if function is None else function(item))
        if is_traced(value):
            raise traced_filter('filter()', location)
        return value
    return builtins.filter(keep, iterable)
