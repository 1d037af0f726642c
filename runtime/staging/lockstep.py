"""A while loop in the body of a vectorised loop (runtime.loops.vectorized), in the form that
runs well under `jax.vmap`.

Python reference: `while cond_fun(state): state = body_fun(state)`, once per iteration
of the vectorised loop, each with its own state.

Under `jax.vmap` the iterations' loops run in lock step: one loop that goes on while any
of them does, where an iteration whose test is false keeps its state (its steps are
computed and discarded). Left to `jax.vmap`, a `lax.while_loop` with a batched test
evaluates the test twice per step (once to decide whether to go on, once to mask the
step) and reduces it over the batch after every step. Here the loop carries each
iteration's `going` flag instead, reduces it over the batch (`unvmap_any`: the batch
axes only; unbatched, the flag itself) once per block of `STEPS` masked steps, and
evaluates the test once per step:

    going = cond_fun(state)
    while any(going over the batch):
        repeat STEPS times:
            state = body_fun(state) where going, else state
            going = going and cond_fun(state)

An iteration's state changes exactly at the steps where its own loop runs, so each ends
with Python's state; a block that starts with some iteration going may run up to
STEPS - 1 steps in which none is, which change nothing.

Measured on CPU (the Julia set of benchmarks/kernel_sources.py, 100 steps at most per
pixel, 100x100 pixels, minima of interleaved runs): the vmapped `lax.while_loop` 1.19 ms,
blocks of 1 step 0.74 ms, 2 steps 0.53 ms, 4 steps 0.51 ms, 8 steps 0.49 ms; the
sequential loop over the pixels 0.92 ms, the hand-written JAX version 0.50 ms. Longer
blocks cost compile time (first call 0.33 s with 1 step, 0.55 s with 4, 0.71 s with 8).

Derivatives: a step is a select of the stepped state and the old one, as in JAX's own
batching of a while loop, and the loop is run by the autodiff mode's while loop
(runtime.staging.loop_autodiff). A masked step also takes its state, and the values its body
reads from outside (those `jax.closure_convert` hoists), through `select(going, value,
stop_gradient(value))` (the same value, so XLA drops it): its derivative is cut before
the body, so a body whose derivative is infinite at an
iteration's final state (a pole its test guards: `while k > 0: s += log(k)`) cannot turn
the derivative into NaN, which the vmapped `while` did for every iteration but the last
to stop.
"""
import jax
from jax import lax

STEPS = 4


def while_loop(cond_fun, body_fun, init, max_steps, run):
    """`while cond_fun(state): state = body_fun(state)` from `init`, as blocks of masked
    steps run by `run(cond, body, init, max_steps)` (a while loop of one autodiff mode);
    `max_steps`: a bound on the steps (None: unknown)."""
    # Imported here, as in runtime.staging.loop_autodiff: equinox takes ~0.2 s to import.
    from equinox.internal import unvmap_any
    structure = jax.tree.structure(init)

    def block(carry):
        going, state = carry
        step, constants = jax.closure_convert(body_fun, state)
        for _ in range(STEPS):
            leaves = jax.tree.leaves(state)
            taken = structure.unflatten([_masked(going, leaf) for leaf in leaves])
            stepped = step(taken, *[_masked(going, c) for c in constants])
            state = structure.unflatten(
                [lax.select(going, new, old)
                 for new, old in zip(jax.tree.leaves(stepped), leaves)])
            going = lax.bitwise_and(going, cond_fun(state))
        return going, state

    blocks = None if max_steps is None else -(-max_steps // STEPS)
    _, out = run(lambda carry: unvmap_any(carry[0]), block, (cond_fun(init), init), blocks)
    return out


def _masked(going, value):
    """`value`, with no derivative where the step is masked."""
    return lax.select(going, value, lax.stop_gradient(value))
