"""The cost rule of staged branches: which are computed side by side and selected, which
stay a `lax.cond` (or `lax.switch`).

Python reference: `branches[selector](*state)` runs one branch. Computing every branch
and selecting the taken one's values (`lax.select`) gives the same values when the
branches cannot fail, have no effects and cost little; and it avoids a conditional, which
inside a compiled loop is a branch the device decides on every iteration (on a GPU a
round trip to the host per step: the `if not did_break:` guard of the statements after a
`break` is the common case, see autograph/passes/loop_exits.py).

`selectable(jaxprs)` holds when every branch is made only of

- element-wise primitives and comparisons, selects, conversions, reshapes, broadcasts
  (`ELEMENTWISE`, `RISKY`), reductions of small values, and reads of a few items of a
  value of any size (`READS`), also inside a called jaxpr (`CALLS`), none with effects;
- on values of at most `SELECT_ITEMS` items in all (every branch's work, and the outputs
  the select picks, counted together; in a vectorised loop's body, times the iterations
  run side by side);
- such that no derivative can be infinite on the side Python does not take: a `RISKY`
  primitive (a division by a value, `sqrt`, `log`, `exp`, a power, ...: finite operands,
  infinite derivative somewhere) is used only where no inexact output of the branch
  depends on it (an integer or boolean result, or one behind `stop_gradient`). `jax.grad`
  of a select gives the untaken side a zero cotangent, and zero times an infinite
  derivative is nan; kept in a conditional, the untaken side is not differentiated.

Anything else stays a conditional: a loop, a conditional, a matmul (`dot_general`), a
callback or print, a check (a `raise` in a branch), a large array operation, `sqrt(x)`
under `if x > 0`.
"""
import math

import jax.numpy as jnp
from jax.extend.core import Literal

SELECT_ITEMS = 1024
"""The most items the branches computed side by side may compute and select, in all."""

ELEMENTWISE = frozenset({
    'add', 'sub', 'mul', 'neg', 'max', 'min', 'abs', 'sign', 'select_n', 'clamp',
    'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'and', 'or', 'not', 'xor', 'is_finite',
    'shift_left', 'shift_right_logical', 'shift_right_arithmetic', 'population_count',
    'convert_element_type', 'squeeze', 'expand_dims', 'broadcast_in_dim', 'reshape',
    'concatenate', 'iota', 'copy', 'copy_p', 'floor', 'ceil', 'round', 'square',
    'stop_gradient', 'sin', 'cos', 'tanh', 'logistic', 'atan', 'erf', 'real', 'imag',
    'complex', 'conj', 'reduce_max', 'reduce_min', 'reduce_or', 'reduce_and',
    'reduce_sum', 'argmax', 'argmin', 'integer_pow', 'div',
})
"""Primitives that cannot fail, with derivatives finite wherever their operands are
(`integer_pow` only to a positive power, `div` only by a nonzero constant)."""

RISKY = frozenset({
    'div', 'rem', 'sqrt', 'rsqrt', 'cbrt', 'log', 'log1p', 'exp', 'exp2', 'expm1', 'pow',
    'integer_pow', 'tan', 'asin', 'acos', 'atan2', 'sinh', 'cosh', 'asinh', 'acosh',
    'atanh', 'erf_inv', 'lgamma', 'digamma', 'nextafter',
})
"""Element-wise primitives that cannot fail (XLA gives a value for any operands) but
whose derivative can be infinite or nan where Python would never evaluate them."""

READS = frozenset({'dynamic_slice', 'slice', 'gather'})
"""Primitives that read a few items of a value of any size."""

CALLS = frozenset({'pjit', 'jit', 'closed_call', 'custom_jvp_call'})
"""Primitives that call a jaxpr: checked equation by equation."""


def selectable(jaxprs, batch=1):
    """Whether the branches (ClosedJaxprs taking and giving the same leaves) are cheap and
    safe to compute side by side and select (see the module docstring)."""
    work = 0
    for closed in jaxprs:
        jaxpr = closed.jaxpr
        items = _work(jaxpr)
        if items is None or _risky_derivative(jaxpr):
            return False
        work += items
    outvars = [closed.jaxpr.outvars for closed in jaxprs]
    for k, column in enumerate(zip(*outvars)):
        passed = [closed.jaxpr.invars.index(v) if v in closed.jaxpr.invars else None
                  for closed, v in zip(jaxprs, column) if not isinstance(v, Literal)]
        if len(passed) < len(column) or len(set(passed)) > 1 or None in passed:
            work += _size(column[0])
    return work * batch <= SELECT_ITEMS


def _work(jaxpr):
    """Items the equations of `jaxpr` compute (and reduce), or None when one of them is
    not cheap."""
    total = 0
    for eqn in jaxpr.eqns:
        name = eqn.primitive.name
        if eqn.effects or not (name in ELEMENTWISE or name in RISKY or name in READS
                               or name in CALLS):
            return None
        total += sum(_size(v) for v in eqn.outvars)
        if name not in READS:
            total += sum(_size(v) for v in eqn.invars)
        if name in CALLS:
            inner = _called(eqn)
            items = None if inner is None else _work(inner)
            if items is None:
                return None
            total += items
    return total


def risky(jaxpr):
    """Whether an inexact output of `jaxpr` depends on a primitive whose derivative may
    be infinite for finite operands (see the module docstring)."""
    return _risky_derivative(jaxpr)


def _risky_derivative(jaxpr):
    """Whether an inexact output of `jaxpr` depends, through differentiable values, on a
    primitive whose derivative may be infinite (see RISKY)."""
    needed = {v for v in jaxpr.outvars if _differentiable(v)}
    for eqn in reversed(jaxpr.eqns):
        if not any(v in needed for v in eqn.outvars) or eqn.primitive.name == 'stop_gradient':
            continue
        if _risky(eqn):
            return True
        needed.update(v for v in eqn.invars if _differentiable(v))
    return False


def _risky(eqn):
    """Whether `eqn`'s derivative may be infinite for finite operands."""
    name = eqn.primitive.name
    if name == 'integer_pow':
        return eqn.params['y'] < 0
    if name == 'div':
        divisor = eqn.invars[1]
        return not (isinstance(divisor, Literal) and divisor.val != 0)
    if name in CALLS:
        return _risky_derivative(_called(eqn))
    return name in RISKY


def _called(eqn):
    """The jaxpr a CALLS equation runs."""
    for key in ('jaxpr', 'call_jaxpr'):
        inner = eqn.params.get(key)
        if inner is not None:
            return getattr(inner, 'jaxpr', inner)
    return None


def _differentiable(v):
    return (not isinstance(v, Literal) and hasattr(v.aval, 'dtype')
            and jnp.issubdtype(v.aval.dtype, jnp.inexact))


def _size(v):
    """The items of `v`; a symbolic dimension (jax.export) counts as too many."""
    shape = getattr(v.aval, 'shape', ())
    if not all(isinstance(n, int) for n in shape):
        return SELECT_ITEMS + 1
    return math.prod(shape)
