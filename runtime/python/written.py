"""`ag.written`: how a converted function whose code writes items of its parameters
reports their final values, and `ag.given`, the caller's array a parameter holds now
(see autograph.passes.written_arguments and passes.argument_reports).

A JAX array cannot be written in place: the function rebinds its own variable, and the
caller that gave the array rebinds its variable to the reported value
(runtime.python.calls' `call_writing`, and a Function's own call: `reporting_written`).
A call that cannot rebind the caller's variable (a method, `functools.partial`, a
function taken from a table: `ag.call`) checks that no traced array's write is lost
(runtime.python.argument_aliases' `check_written_back`).
"""
import sys

import jax
import numpy as np

from ..errors import here
from ..messages import caller_array_unknown
from .. import context
from ..values.split import Undefined, is_dynamic, is_traced


class Slot:
    """One call of converted code (by `call_writing`, `ag.call` or a Function): the code
    of the function it calls (and the code nested in it: its branch and loop functions),
    whose `written` reports come back to it, and that function's parameters (a function defined in it that reports its own, called
    by other code, `lax.fori_loop(0, n, body, acc)`, reports to no one)."""
    __slots__ = ('codes', 'parameters')

    def __init__(self, code):
        self.parameters = frozenset(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
                                    if code is not None else ())
        self.codes = set()
        stack = [code] if code is not None else []
        while stack:
            code = stack.pop()
            self.codes.add(code)
            stack += [c for c in code.co_consts if isinstance(c, type(code))]


class Written:
    """A result with the final values of the parameters whose items the function wrote,
    on its way back to `call_writing` (a pytree: it flows out of staged branches and
    loops like any result)."""

    def __init__(self, value, parameters):
        self.value, self.parameters = value, parameters


jax.tree_util.register_pytree_node(
    Written, lambda w: ((w.value, w.parameters), None),
    lambda _, children: Written(*children))


def reporting_written(fn, args, kwargs):
    """Python reference: `(fn(*args, **kwargs), {})`. For a Function's own call of its
    converted code: with the final values of the parameters whose items it wrote
    (`written`), by name, for the Function to give the caller's NumPy arrays."""
    code = getattr(getattr(fn, '__func__', fn), '__code__', None)
    stack = context.current().written
    stack.append(Slot(code))
    try:
        result = fn(*args, **kwargs)
    finally:
        stack.pop()
    if isinstance(result, Written):
        return result.value, result.parameters
    return result, {}


def written(value, /, **parameters):
    """Python reference: `value`. A function whose code writes items of its parameters
    returns this way: when `call_writing` called it, the result carries the parameters'
    final values back to it. (An undefined `value`, the return value on a path by which
    Python never returns, stays undefined: a staged `if` then takes the other paths'.)"""
    stack = context.current().written
    slot = stack[-1] if stack else None
    if slot is not None and not isinstance(value, Undefined) \
            and sys._getframe(1).f_code in slot.codes \
            and slot.parameters.issuperset(parameters):
        return Written(value, parameters)
    return value


def given(is_arg, value, saved):
    """Python reference: `value if is_arg else saved`: the array a caller gave a function,
    as it is now: the parameter's own `value` while it still holds that array (`is_arg`),
    else `saved`, what it held when the function rebound it.

    A traced `is_arg` (the parameter was rebound under a staged `if` or loop) selects
    with `jnp.where`, leaf by leaf for a dict or list, `value` in `saved`'s dtype (where
    `is_arg` holds, `value` is the caller's array, only promoted by the staging); values
    of other shapes or structures are an error."""
    if not is_traced(is_arg) or value is saved:
        return value if is_arg else saved
    leaves, tree = jax.tree_util.tree_flatten(value)
    kept, kept_tree = jax.tree_util.tree_flatten(saved)
    if tree != kept_tree or not all(is_dynamic(v) and is_dynamic(k)
                                    and np.shape(v) == np.shape(k)
                                    for v, k in zip(leaves, kept)):
        raise caller_array_unknown(_described(value), _described(saved), here())
    return jax.tree_util.tree_unflatten(tree, [
        jax.numpy.where(is_arg, jax.numpy.asarray(v).astype(jax.numpy.result_type(k)), k)
        for v, k in zip(leaves, kept)])


def _described(value):
    shape = getattr(value, 'shape', None)
    return type(value).__name__ if shape is None else f'{value.dtype}{list(shape)}'
