"""Text made from traced values: `str(x)`, `repr(x)`, `format(x)`, `f'{x}'`, `'%s' % x`.

While tracing, a traced value has no value yet: its text would be JAX's placeholder
(`JitTracer(~float32[])`), which code would then use as data (a dict key, a file name)
without notice. So each of these is an error that names the line and points to
`jax.debug.print`, which formats the value when the program runs. `print(x)` itself is
left alone: it prints that placeholder, once per trace, as tf.function prints a symbolic
tensor.
"""
import builtins

from .errors import ControlFlowError, here
from .state import any_traced


def _check(construct, value, depth=2):
    if any_traced(value):
        location = here(depth)
        line = f' (`{location.source_line()}`)' if location else ''
        at = f' at {location}{line}' if location else ''
        raise ControlFlowError(
            f'{construct} of a traced value{at}: its value is known only when the compiled '
            f'program runs, so it has no text while tracing. To see the value, use '
            f"jax.debug.print('{{}}', x); to branch on it, compare it as an array.")
    return value


def text(value):
    """Python reference: `value` (a value formatted into an f-string or by `%`)."""
    return _check('formatting (f-string or %)', value)


def str_(*args, **kwargs):
    """Python reference: `str(*args, **kwargs)`."""
    _check('str()', args[:1])
    return builtins.str(*args, **kwargs)


def repr_(value):
    """Python reference: `repr(value)`."""
    _check('repr()', value)
    return builtins.repr(value)


def format_(value, spec=''):
    """Python reference: `format(value, spec)`."""
    _check('format()', value)
    return builtins.format(value, spec)
