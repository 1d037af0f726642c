"""`and`, `or` and `not` on values that may be traced.

Python reference: `left and right()` is `right()` when `left` is true, else `left`;
`left or right()` is `left` when it is true, else `right()`. A traced `left` selects as
Python would, `jnp.where(left, right, left)` (or `jnp.logical_and`/`logical_or` for two
booleans); a framework's value selects with the framework's primitive (see
runtime.backends.dispatch).
"""
import jax.numpy as jnp

from ..backends import dispatch


def and_(left, *rights):
    """Python reference: `left and rights[0]() and rights[1]() ...`."""
    for right in rights:
        left = _short_circuit(left, right, take_right_when=True)
    return left


def or_(left, *rights):
    """Python reference: `left or rights[0]() or rights[1]() ...`."""
    for right in rights:
        left = _short_circuit(left, right, take_right_when=False)
    return left


def _short_circuit(left, right, take_right_when):
    """`right()` where `bool(left) == take_right_when`, else `left` (`and`: True,
    `or`: False)."""
    def keep_left():
        return left
    backend = dispatch.backend_for(left)
    if backend is dispatch.PYTHON:
        return right() if bool(left) == take_right_when else left
    if backend is not dispatch.JAX:   # a framework's
        branches = (right, keep_left) if take_right_when else (keep_left, right)
        return backend.choose(left, *branches)
    right = right()
    if _both_bool(left, right):
        combine = jnp.logical_and if take_right_when else jnp.logical_or
        return combine(left, right)
    return jnp.where(left, right, left) if take_right_when else jnp.where(left, left, right)


def _both_bool(left, right):
    return jnp.result_type(left) == jnp.bool_ and jnp.result_type(right) == jnp.bool_


def not_(value):
    """Python reference: `not value`; a traced value gives `jnp.logical_not`."""
    backend = dispatch.backend_for(value)
    if backend is dispatch.PYTHON:
        return not value
    if backend is not dispatch.JAX:   # a framework's
        return backend.choose(value, lambda: False, lambda: True)
    return jnp.logical_not(value)
