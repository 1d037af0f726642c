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

A body that needs its index as a Python int (`layers[i]` over a Python list, shapes that
depend on `i`, `int(i)`), or that reads a list it appends to (`out.append(out[-1] * 2)`,
see runtime.lists), cannot be staged: the loop is unrolled, with a warning naming the
loop and the reason when it is long (`LONG_LOOP` iterations) or when the user asked for
staging.
"""
import contextlib
import logging
import warnings

from . import context

SHORT_LOOP = 4
LONG_LOOP = 100

log = logging.getLogger('autograph')

@contextlib.contextmanager
def unroll_loops(value):
    """While tracing a function converted with `unroll_loops=value` (None: inherit)."""
    if value is None:
        yield
        return
    with context.setting(unroll_loops=bool(value)):
        yield


def wanted(length, unroll):
    """True (stage), False (unroll) or None (stage if the loop's values are traced)."""
    if unroll is None:
        unroll = context.current().unroll_loops
    if unroll is None:
        return None if length >= SHORT_LOOP else False
    return not unroll


def report_staged(location, length, how):
    log.info('the loop at %s (%d iterations) is staged as one %s', location, length, how)


def report_unrolled(location, length, reason, asked):
    """A loop that could not be staged: warn when it is long or staging was asked for."""
    message = (f'the loop at {location} ({length} iterations) is unrolled into the compiled '
               f'program, so its compile time grows with its length: {reason}')
    if asked or length >= LONG_LOOP:
        warnings.warn(message, stacklevel=4)
    else:
        log.info(message)
