"""The body of a vectorised loop (runtime.loops.vectorized) evaluated with its branches
on the iteration's values as selects.

Python reference: `branches[index](*operands)`, the `lax.cond` a staged `if` became.

Under `jax.vmap`, a `lax.cond` whose predicate differs between iterations (it reads the
loop index or the iteration's items: `if i != j:`) runs every branch and selects, as
JAX's batching rule does; but that rule first broadcasts every operand to the batch, so
a value that only the inner index reads (`pos[j, 0]` in n-body, the same for every `i`)
is computed for every pair `(i, j)`: n² gathers where n would do. Here such a `cond` is
evaluated as its branches, each on the operands as they are, and one `lax.select_n` of
their results: the same values and derivatives as the batching rule gives, with each
value computed over the axes it varies along. A `cond` with effects, or whose predicate
is the same for every iteration, stays a `cond`, and so does one whose branches may
have an infinite derivative on a value that does not vary (see `_guarded`).
"""
import contextlib

import jax.numpy as jnp
from jax import lax
from jax.extend.core import Literal

from ..staging import cheap


def evaluate(closed, batched, *args):
    """The outputs of the ClosedJaxpr `closed` on `args`; `batched[k]`: whether input
    k differs between the iterations that the caller's `jax.vmap` runs."""
    jaxpr = closed.jaxpr
    env = dict(zip(jaxpr.constvars, closed.consts))
    env.update(zip(jaxpr.invars, args))
    varying = {v for v, b in zip(jaxpr.invars, batched) if b}

    def read(v):
        return v.val if isinstance(v, Literal) else env[v]

    for eqn in jaxpr.eqns:
        inputs = [read(v) for v in eqn.invars]
        flags = [not isinstance(v, Literal) and v in varying for v in eqn.invars]
        outs = None
        if eqn.primitive.name == 'cond' and flags[0] and not eqn.effects:
            outs = _selected(eqn.params['branches'], inputs, flags)
        if outs is None:
            outs = _bind(eqn, inputs)
        env.update(zip(eqn.outvars, outs))
        if any(flags):
            varying.update(eqn.outvars)
    return [read(v) for v in jaxpr.outvars]


def _selected(branches, inputs, flags):
    """Every branch on the operands, then the results of branch `index`; or None where
    a branch's derivative may be infinite (see `_guarded`)."""
    index, operands, varying = inputs[0], inputs[1:], flags[1:]
    guarded = _guarded(branches, operands, varying)
    if guarded is None:
        return None
    results = [evaluate(branch, varying, *guarded(k, index, operands))
               for k, branch in enumerate(branches)]
    return [lax.select_n(index, *column) for column in zip(*results)]


def _guarded(branches, operands, varying):
    """How branch k gets its operands: as they are, unless a branch may have an infinite
    derivative on the side not taken (runtime.staging.cheap.risky: `1 / x` under
    `if x != 0`), where the untaken branch must see its float operands behind
    `stop_gradient` (zero times an infinite derivative is nan), as JAX's batching rule
    does. That selection costs nothing for the operands that vary between iterations;
    for one that does not (`pos` read at `pos[j]`), it would compute it once per
    iteration: None, the `cond` stays."""
    if not any(cheap.risky(branch.jaxpr) for branch in branches):
        return lambda k, index, operands: operands
    inexact = [jnp.issubdtype(jnp.result_type(x), jnp.inexact) for x in operands]
    if any(f and not v for f, v in zip(inexact, varying)):
        return None

    def guarded(k, index, operands):
        taken = index == k
        return [lax.select(taken, x, lax.stop_gradient(x)) if f else x
                for x, f in zip(operands, inexact)]
    return guarded


def _bind(eqn, inputs):
    """`eqn`'s primitive applied to `inputs` (as jax.core.eval_jaxpr applies it)."""
    params = eqn.primitive.get_bind_params(eqn.params)
    functions, params = params if isinstance(params, tuple) else ((), params)
    context = getattr(eqn, 'ctx', None)
    with context.manager if context is not None else contextlib.nullcontext():
        outs = eqn.primitive.bind(*functions, *inputs, **params)
    return outs if eqn.primitive.multiple_results else [outs]
