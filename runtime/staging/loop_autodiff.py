"""Staged loops with a run-time exit, lowered for the differentiation the user needs.

Python reference: `while cond_fun(state): state = body_fun(state)`.

`lax.while_loop` runs such a loop and supports forward mode (`jax.jvp`, `jax.jacfwd`) but
not reverse mode: `jax.grad` would need every intermediate state, and how many there are
is known only when the program runs. A loop has one of two lowerings, its *autodiff mode*:

- `'reverse'` (the default): a checkpointed while loop (online checkpointing, Stumm &
  Walther 2010, as implemented by `equinox.internal.while_loop(kind='checkpointed')`).
  When nothing differentiates it, it runs a plain `lax.while_loop` (no checkpointing
  cost). Under `jax.grad` the forward pass keeps at most `CHECKPOINTS` copies of the
  state (a fixed amount of memory, whatever the trip count) and the backward pass
  recomputes the steps between them. It has no forward mode.
- `'forward'`: a plain `lax.while_loop`: `jax.jvp`/`jax.jacfwd` work, `jax.grad` does not.

The mode comes from, most specific first: `autograph.set_loop_options(autodiff=...)` on
the loop (it also covers the loops nested in it, which must support the same
differentiation), `autograph.convert(fn, loop_autodiff=...)` for a whole function, else
`'reverse'`. Both set a context for as long as the code they cover is traced.

A loop traced in the body of a vectorised loop (runtime.loops.vectorized) takes the form that
runs well under `jax.vmap` (runtime.staging.lockstep), run by its mode's while loop.
"""
import contextlib

import jax
from jax import lax

from .. import context
from ..values.varying import inside_manual, varying
from . import lockstep

MODES = ('reverse', 'forward')
DEFAULT_MODE = 'reverse'
CHECKPOINTS = 16
"""States kept by a reverse-mode loop of unknown length. Steps recomputed on the backward
pass: about 2 per step up to 153 steps, 4 up to 4845, 5 up to 20349 (Stumm & Walther's
binomial bounds); memory: 16 copies of the loop state."""


def check_mode(mode, what):
    if mode is not None and mode not in MODES:
        raise ValueError(f'{what} must be one of {", ".join(map(repr, MODES))} (or None), '
                         f'got {mode!r}')
    return mode


@contextlib.contextmanager
def autodiff_mode(mode, what='loop option autodiff'):
    """While active (and traced code runs), staged loops use `mode`; None changes nothing."""
    check_mode(mode, what)
    if mode is None:
        yield
        return
    with context.setting(autodiff=mode):
        yield


def current_mode():
    return context.current().autodiff or DEFAULT_MODE


def while_loop(cond_fun, body_fun, init, max_steps=None):
    """`lax.while_loop(cond_fun, body_fun, init)` in the current autodiff mode.

    `max_steps` is a bound the loop never exceeds (a Python `range` with a `break`): a
    reverse-mode loop that short keeps every state instead of choosing checkpoints.
    """
    if context.current().batch > 1:
        return lockstep.while_loop(cond_fun, body_fun, init, max_steps, _while_loop)
    return _while_loop(cond_fun, body_fun, init, max_steps)


def _while_loop(cond_fun, body_fun, init, max_steps):
    if current_mode() == 'forward' or _varies(cond_fun, init):
        return lax.while_loop(cond_fun, body_fun, init)
    # Imported here: equinox costs ~0.2 s to import, paid only by programs with such loops.
    from equinox.internal import while_loop as checkpointed_while_loop
    if max_steps == 0:
        return init
    return checkpointed_while_loop(cond_fun, body_fun, init, max_steps=max_steps,
                                   kind='checkpointed', checkpoints=CHECKPOINTS)


def _varies(cond_fun, init):
    """Whether the loop's state or test varies over manual axes (in `jax.shard_map`).
    The checkpointed loop carries flags and buffers of its own that do not vary, which
    JAX's check of the varying axes rejects: such a loop runs as a `lax.while_loop`."""
    if not inside_manual():
        return False
    return any(varying(leaf) for leaf in jax.tree_util.tree_leaves(init)) \
        or bool(varying(cond_fun(init)))


def explain(error):
    """Add the fix to JAX's error for `jax.jvp` through a reverse-mode loop."""
    if isinstance(error, TypeError) and 'forward-mode autodiff (jvp) to a custom_vjp' in str(
            error):
        error.add_note(
            "A staged loop of converted code whose trip count is known only when it runs "
            "is reverse-differentiable (jax.grad) by default, which rules out forward mode. "
            "For jax.jvp/jax.jacfwd, convert with autograph.convert(fn, "
            "loop_autodiff='forward'), or make the loop's first statement "
            "autograph.set_loop_options(autodiff='forward').")
    return error
