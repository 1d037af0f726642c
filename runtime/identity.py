"""`x is True` / `x is False` when `x` is a traced flag.

    done = False
    if x > y:            # traced: `done` comes out of lax.cond as a traced bool
        done = True
    while done is False: ...

In Python `done` is the bool `True` or `False`; staging turned it into a traced boolean
scalar that stands for that bool. An identity test against the tracer object would be
`False` whatever its value, so a traced boolean scalar compared with `True`/`False` by
`is` compares values instead. Likewise `x is None` on an optional value (None on some
paths of staged code, runtime.absent) tests its presence flag. Everything else keeps Python's identity test (a traced
number or array is never the object `True`, and `x is None` needs no help).
"""
import jax.numpy as jnp

from .absent import Maybe
from .state import is_traced


def is_(left, right):
    """Python reference: `left is right` (`right` or `left` is a literal True/False or
    None). An optional value (a result that is None on some paths, see runtime.absent)
    is None where its flag is false."""
    for optional, literal in ((left, right), (right, left)):
        if literal is None and isinstance(optional, Maybe) and optional.absent is None:
            return jnp.logical_not(optional.present)
    for flag, literal in ((left, right), (right, left)):
        if (literal is True or literal is False) and is_traced(flag) \
                and _is_bool_scalar(flag):
            return flag if literal else jnp.logical_not(flag)
    return left is right


def is_not(left, right):
    """Python reference: `left is not right` (`right` or `left` is a literal True/False)."""
    result = is_(left, right)
    return jnp.logical_not(result) if is_traced(result) else not result


def _is_bool_scalar(value):
    return jnp.shape(value) == () and jnp.result_type(value) == jnp.bool_
