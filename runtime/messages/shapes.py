"""Kind `run-time-shape`: a shape would depend on a traced value. NumPy sizes a boolean
mask's result, a slice, or an item of a Python sequence when it runs; a compiled program
has fixed shapes, so these need bounds known while tracing (or a check that stops the
program when Python's slice would differ from the fixed-width one computed)."""
import jax
import numpy as np

from .style import Kind, problem

RUN_TIME_SHAPE = Kind(
    'run-time-shape', 'a shape would depend on a traced value: a boolean mask, a slice '
    'with traced bounds, an item of a Python sequence at a traced index')

FIXED_SHAPES = 'a compiled program has fixed shapes'


def boolean_mask(location):
    """An array indexed by a traced boolean mask."""
    return problem(
        RUN_TIME_SHAPE, 'an array is indexed by a traced boolean mask', location,
        statement=True,
        why=f'the result has as many items as the mask has true values, known only when '
            f'the program runs, and {FIXED_SHAPES}',
        fix='Compute with the mask instead: `jnp.where(mask, x, 0).sum()`, '
            '`jnp.sum(x, where=mask)`, or `x[jnp.nonzero(mask, size=n, fill_value=...)]` '
            'for at most n items')


def sequence_index(seq, kinds, location, reason):
    """Python sequence `seq` with items of `kinds` (type names) indexed by a traced value,
    which `reason` says it cannot be; named by the user's expression when the converter
    recorded it (site facts 'indexed')."""
    names = location.fact('indexed') if location else ()
    named = f"{' or '.join(repr(n) for n in names)}: " if names else ''
    kind = type(seq).__name__
    return problem(
        RUN_TIME_SHAPE, f'{named}a Python {kind} of {len(seq)} items ({", ".join(kinds)}) is '
                        f'indexed by a traced value', location, statement=True,
        why=f'but {reason}',
        fix=f'Make the index a Python int, or the {kind} an array (jnp.stack) or a list of '
            f'functions')


def traced_slice(sliced, seq, location, reason, fix):
    """`sliced` (the user's slice expressions, or 'a slice') of `seq` has a traced bound,
    which `reason` says it cannot have."""
    kind = ('an array' if isinstance(seq, (jax.Array, np.ndarray))
            else f'a Python {type(seq).__name__}')
    return problem(RUN_TIME_SHAPE, f'{sliced} ({kind}) is sliced with a traced bound',
                   location, statement=True, why=f'but {reason}', fix=f'To fix: {fix}')


def slice_may_shorten(sliced, location):
    """An unrolled slice whose start may leave the axis on some iteration."""
    return problem(
        RUN_TIME_SHAPE, sliced, location,
        why='its start is not known to keep the slice inside the axis on every iteration, '
            'where Python would shorten it',
        fix='Keep the start in 0..len(x) - width (jnp.clip), or pad the array')


def slice_longer(sliced, location, count, size, length, verb):
    """When the program runs: Python's slice has `count` items, more than the `size` that
    the compiled program `verb`s ('reads', 'writes') of an axis of `length`."""
    return problem(
        RUN_TIME_SHAPE, sliced, location,
        happened=f'has {count} items in Python when the program runs, more than the {size} '
                 f'the compiled program {verb}',
        why=f'a bound counts from the end of the axis (of {length})',
        fix=f'Keep the bounds in 0..{length}')


def slice_width(sliced, location, start, items, width, length):
    """When the program runs: Python's slice from `start` has `items` items, not the
    fixed `width` computed, in an axis of `length`."""
    return problem(
        RUN_TIME_SHAPE, sliced, location,
        happened=f'with start {start} has {items} items in Python, not {width}',
        why=f'the compiled program computes a slice of a fixed width {width} inside the '
            f'axis (of {length})',
        fix=f'Keep the start in 0..{length - width} (jnp.clip) or pad the array')


def slice_write_count(sliced, location, count, width):
    """When the program runs: Python's slice selects `count` items, but the value written
    to it has `width`."""
    return problem(
        RUN_TIME_SHAPE, sliced, location,
        happened=f'selects {count} items when the program runs, but the value written has '
                 f'{width}', why='NumPy would raise a shape error',
        fix='Write a value with as many items as the slice selects')


def varying_slice_used(sliced, location, use):
    """A slice whose length varies (runtime.items.masked) used as `use` (not a reduction)."""
    return problem(
        RUN_TIME_SHAPE, sliced, location, statement=True, happened=f'is used here as {use}',
        why=f'the number of items of the slice depends on a value known only when the '
            f'program runs, and {FIXED_SHAPES}',
        fix='Only a reduction of the whole slice (.sum(), .max(), .min(), .mean(), .prod(), '
            '.any(), .all(), also after arithmetic with scalars) can read it; or keep the '
            'window a fixed width (x[i:i + k] with i in 0..len(x) - k)')
