"""Builtins that converted code routes through the runtime because they see traced
values: `min`/`max` over arrays, and `int`/`float`/`bool`, which cannot convert one.
(`range`, `enumerate` and `zip` are in runtime.iterables.)"""
import builtins

import jax.numpy as jnp

from .errors import here
from .state import any_traced, is_traced


def _extremum(python_fn, jnp_fn, reduce_fn, args, kwargs):
    if kwargs or not any_traced(args):
        return python_fn(*args, **kwargs)
    if len(args) == 1:
        return reduce_fn(jnp.asarray(args[0]), axis=0)
    result = args[0]
    for value in args[1:]:
        result = jnp_fn(result, value)
    return result


def min_(*args, **kwargs):
    """Python reference: `min(*args, **kwargs)`; traced values give `jnp.minimum`."""
    return _extremum(builtins.min, jnp.minimum, jnp.min, args, kwargs)


def max_(*args, **kwargs):
    """Python reference: `max(*args, **kwargs)`; traced values give `jnp.maximum`."""
    return _extremum(builtins.max, jnp.maximum, jnp.max, args, kwargs)


def _concrete(python_type, suggestion):
    def convert(value=0, *args):
        if is_traced(value):
            where = f' at {here()}' if here() else ''
            raise TypeError(
                f'{python_type.__name__}() of a traced value{where}: '
                f'the value is known only when the compiled program runs, so it cannot become '
                f'a Python {python_type.__name__} while tracing. {suggestion}')
        return python_type(value, *args)
    convert.__name__ = python_type.__name__ + '_'
    convert.__doc__ = f'Python reference: `{python_type.__name__}(value)`.'
    return convert


int_ = _concrete(builtins.int, 'Use x.astype(jnp.int32) to convert it inside the program, '
                               'or pass it as a static Python value.')
float_ = _concrete(builtins.float, 'Use x.astype(jnp.float32) to convert it inside the '
                                   'program, or pass it as a static Python value.')
bool_ = _concrete(builtins.bool, 'Use it directly as a condition (if/while convert it) or '
                                 'combine conditions with jnp.logical_and/or.')
