"""`ag.window(seq, start, width)`: `seq[start:start + width]`, and `ag.getslice(seq, lower,
upper, step)`: `seq[lower:upper:step]`, where the bounds may be traced.

A slice's length must be known while tracing (it is the shape of the result). So:

    bounds known while tracing           ->  Python's slice, as is
    `x[i:i + k]`, x an array, k a Python int, i traced
                                         ->  lax.dynamic_slice_in_dim(x, i, k)
    anything else with a traced bound    ->  ControlFlowError naming the slice and the line

`x[i:i + k]` is what `lax.dynamic_slice` computes only where Python's slice has `k` items:
Python truncates a slice at the end of the array (and counts a negative start from the
end), while `dynamic_slice` moves the start back so that `k` items fit. The two differ
when the window runs past either end; there the compiled program stops with a
ControlFlowError when it runs (a run-time check, see runtime.raises), rather than return
other items than Python would. A negative start whose window ends before the end of the
array (`x[-3:-1]`) counts from the end, as in Python.
"""
import ast

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .errors import ControlFlowError, here
from .raises import raise_if
from .state import is_traced
from .syntax_trees import parse


def getslice(seq, lower=None, upper=None, step=None):
    """Python reference: `seq[lower:upper:step]`."""
    if not any(is_traced(b) for b in (lower, upper, step)):
        return seq[lower:upper:step]
    raise _error(seq, 'its length would depend on values known only when the program runs',
                 'write the slice as x[i:i + k] with a Python int k, or use '
                 'lax.dynamic_slice(x, (i,), (k,)) with a static size k')


def window(seq, start, width):
    """Python reference: `seq[start:start + width]` (see the module docstring)."""
    if not is_traced(start) and not is_traced(width):
        return seq[start:start + width]
    if not isinstance(seq, (jax.Array, np.ndarray)):
        raise _error(seq, f'a Python {type(seq).__name__} cannot be sliced at a position known '
                          f'only when the program runs',
                     'make the sequence an array (jnp.asarray / jnp.stack) or the start a '
                     'Python int')
    if is_traced(width) or not isinstance(width, (int, np.integer)) or width < 0:
        raise _error(seq, 'the width of the slice must be a non-negative Python int',
                     'make the width a Python int (a static argument or a shape)')
    if jnp.ndim(seq) == 0 or jnp.ndim(start) or not jnp.issubdtype(
            jnp.result_type(start), jnp.integer):
        raise _error(seq, 'the start must be an integer scalar and the array not a scalar',
                     'index an array of at least one dimension with an integer')
    length = seq.shape[0]
    if width > length:
        raise _error(seq, f'the slice takes {width} items of an array of {length}, so Python '
                          f'would return fewer', 'make the width at most the length')
    location, text = here(), _sliced(here())
    fits = ((start >= 0) & (start + width <= length)) | ((start >= -length) & (start + width < 0))
    raise_if(jnp.logical_not(fits), lambda start: ControlFlowError(
        f'{text} at {location} with start {start} has {len(range(length)[start:start + width])} '
        f'items in Python, not {width}: the compiled program computes a slice of a fixed '
        f'width {width} inside the array (of {length}). Keep the start in 0..{length - width} '
        f'(jnp.clip) or pad the array.'), (start,))
    position = jnp.where(start < 0, start + length, start)
    return lax.dynamic_slice_in_dim(seq, position, width, axis=0)


def traced_bounds(index):
    """True for a slice (ast) with a bound that is not a literal: the slices the converter
    routes through `getslice`/`window` (see autograph.passes.sequences)."""
    return isinstance(index, ast.Slice) and any(
        bound is not None and not _literal(bound)
        for bound in (index.lower, index.upper, index.step))


def _literal(node):
    if isinstance(node, ast.UnaryOp):
        node = node.operand
    return isinstance(node, ast.Constant)


def _error(seq, reason, fix):
    location = here(2)
    at = f' at {location} (`{location.source_line()}`)' if location else ''
    kind = ('an array' if isinstance(seq, (jax.Array, np.ndarray))
            else f'a Python {type(seq).__name__}')
    return ControlFlowError(f'{_sliced(location)} ({kind}) is sliced with a traced bound{at}, '
                            f'but {reason}. To fix: {fix}.')


def _sliced(location):
    """'`xs[i:i + 3]`' for the line `y = xs[i:i + 3].sum()`: the slices of the line with
    computed bounds, from the user's source ('a slice' when it cannot be read)."""
    try:
        tree = parse(location.source_line()) if location else None
    except SyntaxError:     # a line of a longer statement
        tree = None
    found = sorted({ast.unparse(n) for n in ast.walk(tree) if isinstance(n, ast.Subscript)
                    and traced_bounds(n.slice)}) if tree else []
    return ' or '.join(f'`{s}`' for s in found) if found else 'a slice'
