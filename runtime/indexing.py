"""`ag.getitem(seq, i)`: `seq[i]` where `i` may be traced and `seq` a Python list/tuple;
`ag.repeat(seq, n)`: `seq * n`, where a traced `n` is a named error.

A Python list cannot be indexed by a value known only when the program runs, so:

    items of one shape and dtype (or pytrees of them)  ->  jnp.stack(items)[i]
    functions (`layers[i](x)`)                         ->  lax.switch(i, layers, x)
    anything else                                      ->  ControlFlowError

with Python's meaning: a negative index counts from the end, and an index out of range
is an error, checked when the program runs (JAX would clamp it silently).
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from . import context
from .asserts import assert_
from .errors import ControlFlowError, here
from .stacked import Stacked
from .state import is_traced


def getitem(seq, index):
    """Python reference: `seq[index]`."""
    if not is_traced(index) or not isinstance(seq, (list, tuple, Stacked)):
        return seq[index]
    if isinstance(seq, Stacked) and seq.stacked() is not None:
        return seq.stacked()[_position(index, len(seq))]
    if not seq or jnp.ndim(index) or not jnp.issubdtype(index.dtype, jnp.integer):
        raise _error(seq, index, 'the index must be a traced integer scalar and the list '
                                 'not empty')
    position = _position(index, len(seq))
    if all(callable(item) and not isinstance(item, jax.Array) for item in seq):
        return _Switch(list(seq), position)
    leaves = [jax.tree_util.tree_flatten(item) for item in seq]
    if not all(_is_number(x) for items, _ in leaves for x in items) or len(
            {(treedef, tuple((jnp.shape(x), jnp.result_type(x)) for x in items))
             for items, treedef in leaves}) != 1:
        raise _error(seq, index, 'its items are not arrays of one shape and dtype, nor '
                                 'functions')
    stacked = jax.tree_util.tree_map(lambda *xs: jnp.stack(xs), *seq)
    return jax.tree_util.tree_map(lambda s: s[position], stacked)


def repeat(seq, count):
    """Python reference: `seq * count` (a list or tuple repeated)."""
    if is_traced(count):
        location = here()
        at = f' at {location} (`{location.source_line()}`)' if location else ''
        raise ControlFlowError(
            f'a Python {type(seq).__name__} is repeated a traced number of times{at}: the '
            f'length of a Python {type(seq).__name__} must be known while tracing. Make the '
            f'count a Python int (a static argument), or build an array '
            f'(jnp.zeros/jnp.full) of a static size.')
    return seq * count


def _position(index, length):
    """The index as a position in 0..length-1, checked in range when the program runs."""
    assert_(jnp.logical_and(index >= -length, index < length),
            lambda: f'list index out of range (a list of {length} items)')
    return jnp.where(index < 0, index + length, index)


def _is_number(x):
    return isinstance(x, (jax.Array, np.ndarray, np.generic, int, float, complex, bool))


class _Switch:
    """`seq[i]` for a list of functions: calling it calls the chosen one (lax.switch)."""

    def __init__(self, functions, position):
        self.functions = functions
        self.position = position

    def __call__(self, *args, **kwargs):
        convert = context.converter.converted_callable
        branches = [lambda *a, f=convert(f): f(*a, **kwargs)
                    for f in self.functions]
        return lax.switch(self.position, branches, *args)


def _error(seq, index, reason):
    location = here(2)
    at = f' at {location} (`{location.source_line()}`)' if location else ''
    kinds = sorted({'traced array' if is_traced(item) else type(item).__name__
                    for item in seq})
    kind = type(seq).__name__
    return ControlFlowError(
        f'{_indexed_names(location)}a Python {kind} of {len(seq)} items ({", ".join(kinds)}) '
        f'is indexed by a traced value{at}, but {reason}. Make the index a Python int, or the '
        f'{kind} an array (jnp.stack) or a list of functions.')


def _indexed_names(location):
    """"'params': " for the line `y = f(params[i])`: the sequences the line reads at a
    computed index (the converter records them, see autograph.site_facts)."""
    names = location.fact('indexed') if location else ()
    return f"{' or '.join(repr(n) for n in names)}: " if names else ''
