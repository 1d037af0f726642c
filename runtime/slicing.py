"""`ag.window(seq, start, width)`: `seq[start:start + width]`, `ag.getslice(seq, lower,
upper, step)`: `seq[lower:upper:step]`, and `ag.windows(seq, index)`: `seq[index]` for an
index tuple with such slices (`x[:, i:i + 3]`), where the bounds may be traced.

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
array (`x[-3:-1]`) counts from the end, as in Python. In a loop over a range with Python
bounds (which can run as Python instead, see runtime.loop_policy) there is no run-time
check: the window is staged only when its start is the loop's item and the slice fits on
every iteration (then the values are Python's); otherwise the loop runs as Python.

Assignment to such a slice of a JAX array (`x[i:i + 2] = v`, through runtime.items) is
`lax.dynamic_update_slice` when `v` gives the slice's length: see `set_slice`.
"""
import contextlib
import typing

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from . import context
from .errors import ControlFlowError, here
from .raises import raise_if
from .state import is_traced


def getslice(seq, lower=None, upper=None, step=None):
    """Python reference: `seq[lower:upper:step]`."""
    if not any(is_traced(b) for b in (lower, upper, step)):
        return seq[lower:upper:step]
    raise _traced_length(seq)


def window(seq, start, width):
    """Python reference: `seq[start:start + width]` (see the module docstring)."""
    if not is_traced(start) and not is_traced(width):
        return seq[start:start + width]
    if not isinstance(seq, (jax.Array, np.ndarray)):
        raise _error(seq, f'a Python {type(seq).__name__} cannot be sliced at a position known '
                          f'only when the program runs',
                     'make the sequence an array (jnp.asarray / jnp.stack) or the start a '
                     'Python int')
    if jnp.ndim(seq) == 0:
        raise _error(seq, 'a scalar has no axis to slice', 'index an array')
    return _along(seq, 0, seq.shape[0], start, width)


class span(typing.NamedTuple):
    """`start:start + width` as one item of an index tuple (`x[i:i + 3, :]`)."""
    start: object
    width: object


def windows(seq, index):
    """Python reference: `seq[index]`, each `span(i, k)` of the tuple `index` being the
    slice `i:i + k`; spans along several axes, with slices, integers and None between."""
    python = tuple(slice(s.start, s.start + s.width) if isinstance(s, span) else s
                   for s in index)
    if not any(is_traced(b) for s in index if isinstance(s, (span, slice))
               for b in ((s.start, s.width) if isinstance(s, span) else
                         (s.start, s.stop, s.step))):
        return seq[python]
    if not isinstance(seq, (jax.Array, np.ndarray)) or any(
            not isinstance(s, (span, slice)) and s is not None and jnp.ndim(s) != 0
            for s in index):
        raise _error(seq, 'only an array indexed by slices, integers and None can be sliced '
                          'at a position known only when the program runs',
                     'make the sequence an array, and index it with integer scalars')
    if any(isinstance(s, slice) and any(is_traced(b) for b in (s.start, s.stop, s.step))
           for s in index):
        raise _traced_length(seq)
    out = seq[tuple(slice(None) if isinstance(s, span) else s for s in index)]
    axis, at = 0, 0      # the output axis of each item: integers drop one, None adds one
    for s in index:
        if isinstance(s, span):
            out = _along(out, at, seq.shape[axis], s.start, s.width)
        axis += s is not None
        at += s is None or isinstance(s, (span, slice))
    return out


def _along(seq, axis, length, start, width):
    """`seq[start:start + width]` along `axis` (of `length`), `start` traced: a fixed-width
    dynamic slice, checked when the program runs where Python's slice is shorter."""
    if is_traced(width) or not isinstance(width, (int, np.integer)) or width < 0:
        raise _error(seq, 'the width of the slice must be a non-negative Python int',
                     'make the width a Python int (a static argument or a shape)')
    if jnp.ndim(start) or not jnp.issubdtype(jnp.result_type(start), jnp.integer):
        raise _error(seq, 'the start must be an integer scalar',
                     'index with an integer (jnp.int32)')
    if width > length:
        raise _error(seq, f'the slice takes {width} items of an axis of {length}, so Python '
                          f'would return fewer', 'make the width at most the length')
    location = here()
    text = _sliced(location)
    position = jnp.where(start < 0, start + length, start)
    if _unrollable():
        known = _known_values(start)
        if known is None or not all(_fits(v, width, length) for v in known):
            raise ControlFlowError(
                f'{text} at {location}: its start is not known to keep the slice inside the '
                f'axis on every iteration, where Python would shorten it')
        return lax.dynamic_slice_in_dim(seq, position, width, axis=axis)  # (equal: proven)
    fits = ((start >= 0) & (start + width <= length)) | ((start >= -length) & (start + width < 0))
    raise_if(jnp.logical_not(fits), lambda start: ControlFlowError(
        f'{text} at {location} with start {start} has {len(range(length)[start:start + width])} '
        f'items in Python, not {width}: the compiled program computes a slice of a fixed '
        f'width {width} inside the axis (of {length}). Keep the start in '
        f'0..{length - width} (jnp.clip) or pad the array.'), (start,))
    return lax.dynamic_slice_in_dim(seq, position, width, axis=axis)


def assigns_traced_slice(target, key):
    """True when `target[key] = value` (autograph.runtime.items) is an assignment to a
    slice of a JAX array with a traced bound: see `set_slice`."""
    return isinstance(target, jax.Array) and isinstance(key, slice) and any(
        is_traced(b) for b in (key.start, key.stop, key.step))


def set_slice(target, key, value, op=None):
    """Python (NumPy) reference: `target[key] = value` (or `target[key] op= value`, `op`
    the operator function), `key` a slice with traced bounds; returns the new array.

    The slice's length must be the length of `value` along the sliced axis (NumPy's
    assignment needs it too): `lax.dynamic_update_slice` writes `value` at the slice's
    start. When the program runs, a slice of another length (past the end, a step) stops
    it with a ControlFlowError rather than write other items than NumPy would."""
    value = jnp.asarray(value)
    if key.step is not None or value.ndim != target.ndim or target.ndim == 0:
        raise _error(target, 'the value written must be an array with the slice as its '
                             'first axis (a scalar or a broadcast value gives no length), '
                             'and the slice must have no step',
                     'write `x = lax.dynamic_update_slice(x, v, (i,))` with an array `v`')
    width, length = value.shape[0], target.shape[0]
    start = jnp.asarray(0 if key.start is None else key.start)
    stop = jnp.asarray(length if key.stop is None else key.stop)
    first, last = _bound(start, length), _bound(stop, length)
    location, text = here(), _sliced(here())
    raise_if(last - first != width, lambda first, last: ControlFlowError(
        f'{text} at {location} selects {max(0, last - first)} items when the program runs, '
        f'but the value written has {width}: NumPy would raise a shape error.'),
        (first, last))
    if op is not None:
        value = op(lax.dynamic_slice_in_dim(target, first, width), value)
    return lax.dynamic_update_slice_in_dim(target, value.astype(target.dtype), first, 0)


def _fits(start, width, length):
    """Whether Python's `[start:start + width]` of an axis of `length` has `width` items."""
    return 0 <= start and start + width <= length or -length <= start and start + width < 0


def _unrollable():
    """The traced items of the range loops with Python bounds being staged now, innermost
last: {id(traced leaf): (RangeItems, leaf position)}. Such a loop runs as Python when its
body raises ControlFlowError (see runtime.control_flow), so a window there is staged only
when its start is such an item and the slice fits on every iteration (the same values as
Python's); else it asks for the Python loop."""
    return context.current().range_items


_MAX_KNOWN = 100_000


@contextlib.contextmanager
def range_item(item, items):
    """While a range loop with Python bounds (`items`, a RangeItems) traces its body with
    the traced `item`."""
    leaves = jax.tree_util.tree_leaves(item)
    _unrollable().append({id(v): (items, p) for p, v in enumerate(leaves) if is_traced(v)})
    try:
        yield
    finally:
        _unrollable().pop()


def _known_values(start):
    """The values the traced `start` takes over its loop, when it is a loop item."""
    for frame in reversed(_unrollable()):
        if id(start) in frame:
            items, position = frame[id(start)]
            if len(items) > _MAX_KNOWN:
                return None
            return [jax.tree_util.tree_leaves(items.item(j))[position]
                    for j in range(len(items))]
    return None


def _bound(index, length):
    """Where Python's slice bound `index` falls in an axis of `length` (0..length)."""
    return jnp.clip(jnp.where(index < 0, index + length, index), 0, length)


def _traced_length(seq):
    return _error(seq, 'its length would depend on values known only when the program runs',
                  'write the slice as x[i:i + k] with a Python int k, or use '
                  'lax.dynamic_slice(x, (i,), (k,)) with a static size k')


def _error(seq, reason, fix):
    location = here()
    at = f' at {location} (`{location.source_line()}`)' if location else ''
    kind = ('an array' if isinstance(seq, (jax.Array, np.ndarray))
            else f'a Python {type(seq).__name__}')
    return ControlFlowError(f'{_sliced(location)} ({kind}) is sliced with a traced bound{at}, '
                            f'but {reason}. To fix: {fix}.')


def _sliced(location):
    """'`xs[i:i + 3]`' for the line `y = xs[i:i + 3].sum()`: the slices of the line with
    computed bounds (the converter records them, see autograph.site_facts), or 'a
    slice'."""
    found = location.fact('sliced') if location else ()
    return ' or '.join(f'`{s}`' for s in found) if found else 'a slice'
