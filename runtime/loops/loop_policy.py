"""Whether a `for` over a range with Python bounds is staged as one loop or unrolled.

    for t in range(xs.shape[0]):      # Python bound, traced state
        h = jnp.tanh(xs[t] + h @ w)

Unrolled (as Python runs it, and as TensorFlow does), the compiled program holds one copy
of the body per iteration, so compile time grows with the trip count. Staged, the body is
traced once with a traced index into one `lax.scan` (or `lax.while_loop` with a `break`).
The values are the same; only trace-time Python side effects differ (a `print` in the
body runs once when staged, once per iteration when unrolled).

The choice, most specific first:
- `autograph.set_loop_options(unroll=True|False)` as the loop's first statement;
- `autograph.convert(f, unroll_loops=True|False)` for the loops traced while `f` runs
  (and the functions it calls that do not choose themselves);
- otherwise automatic: a loop of at least `SHORT_LOOP` iterations whose state or body
  sees traced values is staged. Measured on CPU (benchmarks/loop_scaling.py), compiling
  an unrolled body already costs more than compiling one `lax.scan` from 4 iterations on.

A `for` over a Python list or tuple of like arrays (`for w in weights`, one shape and
dtype, see runtime.loops.iterables.stacked_items) follows the same policy from `SHORT_LIST`
items on (below, stacking the items costs more than the unrolled copies): staged, it is
one `lax.scan` over the stacked items.

A body that needs its index as a Python int (`layers[i]` over a Python list, shapes that
depend on `i`, `int(i)`), or that reads a list it appends to (`out.append(out[-1] * 2)`,
see runtime.state.lists), cannot be staged, nor can a loop over other Python iterables: the
loop is unrolled, with a warning naming the loop and the reason when it is longer than
`LONG_LOOP` iterations, when its unrolled copies add more than `LARGE_UNROLL` equations
to the program, or when the user asked for staging.

A `for` over the rows of an array whose length is known while tracing (`for x in xs`, also
under `enumerate` and `zip`) is always staged first, as one `lax.scan`, whatever its length
or the unroll options; when its body cannot be staged (for the reasons above) it runs as
Python instead, over rows `xs[0]`, `xs[1]`, ..., as a range loop of that length would, up
to `LONGEST_ARRAY_UNROLL` rows. A longer one reports the error that stopped its staging
(its unrolled copies would compile for minutes).
"""
import contextlib
import logging
import warnings

from jax._src import core   # (the equations of the trace being built, see _equations)

from .. import context

SHORT_LOOP = 4
LONG_LOOP = 16
SHORT_LIST = LONG_LOOP + 1
LARGE_UNROLL = 1000
LONGEST_ARRAY_UNROLL = 1000

log = logging.getLogger('autograph')

@contextlib.contextmanager
def unroll_loops(value):
    """While tracing a function converted with `unroll_loops=value` (None: inherit)."""
    if value is None:
        yield
        return
    with context.setting(unroll_loops=bool(value)):
        yield


def wanted(length, unroll, short=SHORT_LOOP):
    """True (stage), False (unroll) or None (stage if the loop's values are traced);
    `short`: the fewest iterations staged automatically."""
    if unroll is None:
        unroll = context.current().unroll_loops
    if unroll is None:
        return None if length >= short else False
    return not unroll


def may_unroll(length, rows):
    """Whether a loop of `length` iterations whose body cannot be staged runs as Python:
    over a Python range or list always (Python would run each iteration), over an array's
    rows (`rows`) up to LONGEST_ARRAY_UNROLL of them."""
    return not rows or length <= LONGEST_ARRAY_UNROLL


def report_staged(location, length, how):
    log.info('the loop at %s (%d iterations) is staged as one %s', location, length, how)


@contextlib.contextmanager
def unrolled(location, length, reason, asked=False, traced=True):
    """While a loop of `length` iterations (None: not known before it runs) runs as
    Python because of `reason`: warn when it is long or large (see the module docstring),
    or staging was asked for, and it traced something (else log it). `traced`: whether
    its values are traced, for when the equations cannot be counted."""
    before = _equations()
    count = [0, None]
    yield count     # the loop counts its Python iterations in count[0], says in count[1]
    after = _equations()   # how the rest ran once its exit flag was traced (REST_...)
    added = after - before if before is not None and after is not None else None
    if added == 0 or added is None and not traced:
        return      # a Python loop over Python values: nothing unrolled
    message = _message(location, length, count, added, reason)
    length = length if length is not None else count[0]
    if asked or length > LONG_LOOP or (added or 0) > LARGE_UNROLL:
        if location is None:
            warnings.warn(message, stacklevel=4)
        else:   # (at the user's line; once per line, as Python shows warnings)
            warnings.warn_explicit(message, UserWarning, location.file, location.line,
                                   registry=_shown)
    else:
        log.info(message)


_shown = {}

REST_STAGED = 'staged'     # the iterations after the exit flag became traced: one loop
REST_GUARDED = 'guarded'   # each of them a `lax.cond` on the flag, unrolled too


def _message(location, length, count, added, reason):
    """What happened to a loop that ran as Python (see `unrolled`)."""
    ran, rest = count
    size = f', {added} operations' if added is not None else ''
    if rest == REST_STAGED and length is not None:
        first = 'its first iteration is' if ran == 1 else f'its first {ran} iterations are'
        size = f' ({added} operations)' if added is not None else ''
        return (f'the loop at {location} ({length} iterations) cannot be staged whole: '
                f'{first} unrolled into the compiled program{size}, and the other '
                f'{length - ran} (from where its exit condition is traced) are one staged '
                f'loop. Staging the whole loop failed with {reason}')
    guarded = (', each iteration after its exit condition became traced as a lax.cond'
               if rest == REST_GUARDED else '')
    length = length if length is not None else ran
    return (f'the loop at {location} ({length} iterations{size}) is unrolled into the '
            f'compiled program{guarded}, so its compile time grows with its length: '
            f'{reason}')


def _equations():
    """How many equations the jaxpr being traced holds, or None outside a trace."""
    frame = getattr(core.trace_ctx.trace, 'frame', None)
    eqns = getattr(frame, 'tracing_eqns', None)
    return None if eqns is None else len(eqns)
