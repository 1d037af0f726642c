"""Keeping some items of a sequence by a test: comprehension `if` clauses and `filter`.

How many items are kept depends on the test's values, and the arrays of a compiled program
have shapes known while tracing. So a test on Python values keeps Python's meaning, and a
traced test is a ControlFlowError naming the line (JAX's own error would be a
TracerBoolConversionError from inside the comprehension).
"""
import builtins

from .errors import ControlFlowError, here, where
from .state import is_traced

_ADVICE = ('the number of items kept would depend on values known only when the compiled '
           'program runs, and its arrays have static shapes. Keep every item and mask them '
           '(jnp.where(test, item, fill)), or select with a boolean mask outside jax.jit')


def comprehension_test(value):
    """Python reference: the test of a comprehension's `if` clause, `value` itself."""
    if is_traced(value):
        raise ControlFlowError(f'the `if` of a comprehension{where(here())} tests a traced '
                               f'value: {_ADVICE}')
    return value


def filter_(function, iterable, /):
    """Python reference: `filter(function, iterable)` (lazy, as Python's)."""
    location = here()

    def keep(item):
        value = item if function is None else function(item)
        if is_traced(value):
            raise ControlFlowError(f'filter(){where(location)} tests a traced value: {_ADVICE}')
        return value
    return builtins.filter(keep, iterable)
