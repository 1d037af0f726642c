"""`and`, `or` and `not` on values that may be traced.

Python reference: `left and right()` is `right()` when `left` is true, else `left`;
`left or right()` is `left` when it is true, else `right()`. A traced `left` selects as
Python would, `jnp.where(left, right, left)` (or `jnp.logical_and`/`logical_or` for two
booleans), so a scalar `left` needs a scalar `right` (Python's result is one of them,
as it is: a select would broadcast it). An array `left` of more elements (whose truth Python cannot tell)
combines element by element, as TensorFlow's and Catalyst's AutoGraph do. A framework's
value selects with the framework's primitive (see runtime.backends.dispatch).
"""
import jax.numpy as jnp

from ..checks import checks
from ..checks.absent import truth
from ..python import identity
from ..backends import dispatch
from ..errors import here
from ..messages import operands_differ


def and_(left, *rights):
    """Python reference: `left and rights[0]() and rights[1]() ...`."""
    return _short_circuit(left, rights, take_right_when=True)


def or_(left, *rights):
    """Python reference: `left or rights[0]() or rights[1]() ...`."""
    return _short_circuit(left, rights, take_right_when=False)


def _short_circuit(left, rights, take_right_when):
    """`left` where `bool(left) != take_right_when` (`and`: false, `or`: true), else the
    rest of the chain, `rights[0]() ... rights[-1]()`, as Python evaluates it: right to
    left-associated, so an operand that is a Python value deciding the result (`a is
    None` in `x > 1 or a is None or a > 1`) stops the chain before the later operands
    are evaluated, also after a traced one. A `None` operand after a traced one is a
    false value (Python's result would be `None` there)."""
    if not rights:
        return left
    right, rest = rights[0], rights[1:]

    def keep_left():
        return left

    def rest_of_chain():
        return _short_circuit(right(), rest, take_right_when)
    backend = dispatch.backend_for(left)
    if backend is dispatch.PYTHON:
        return rest_of_chain() if bool(left) == take_right_when else left
    if backend is not dispatch.JAX:   # a framework's
        branches = ((rest_of_chain, keep_left) if take_right_when
                    else (keep_left, rest_of_chain))
        return backend.choose(left, *branches)
    # The rest runs only where `left` does not decide: its checks count only there.
    value = checks.guarded(rest_of_chain, lambda: _continues(left, take_right_when))
    if value is None:
        value = False
    if jnp.size(left) == 1 and jnp.size(value) != 1:   # (one element each: a condition)
        raise operands_differ('and' if take_right_when else 'or', jnp.shape(left),
                              jnp.shape(value), here(2))
    if _both_bool(left, value):
        combine = jnp.logical_and if take_right_when else jnp.logical_or
        return identity.combined(combine(left, value), (left, value), take_right_when)
    return jnp.where(left, value, left) if take_right_when else jnp.where(left, left, value)


def _continues(left, take_right_when):
    """Where the chain goes on after a traced `left` (a scalar: all of it, else any)."""
    truth = left if jnp.result_type(left) == jnp.bool_ else left != 0
    truth = jnp.any(truth) if take_right_when else jnp.any(jnp.logical_not(truth))
    return truth


def _both_bool(left, right):
    return jnp.result_type(left) == jnp.bool_ and jnp.result_type(right) == jnp.bool_


def not_(value):
    """Python reference: `not value`; a traced value (or an optional one, or a Choice:
    see checks.absent.truth) gives `jnp.logical_not`."""
    value = truth(value)
    backend = dispatch.backend_for(value)
    if backend is dispatch.PYTHON:
        return not value
    if backend is not dispatch.JAX:   # a framework's
        return backend.choose(value, lambda: False, lambda: True)
    return jnp.logical_not(value)
