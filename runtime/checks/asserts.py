"""`ag.assert_`: a Python assert, checked when the program runs if its test is traced."""
import logging

import jax.numpy as jnp

from .checks import MARKER
from .raises import raise_if
from ..values.split import is_traced


def assert_(test, message=None, args=()):
    """Python reference: `assert test, message(*args)`. A traced test (an array: all of
    its elements must hold) is checked by the compiled program (see runtime.checks.raises)."""
    failed = jnp.logical_not(jnp.all(test)) if is_traced(test) else not test
    raise_if(failed, lambda *values: AssertionError(
        *(() if message is None else (message(*values),))), args)


class _HideCheckLogs(logging.Filter):
    """JAX logs a failed callback before raising it; ours are reported as errors."""

    def filter(self, record):
        return MARKER not in record.getMessage() and not (
            record.exc_info and MARKER in str(record.exc_info[1]))


for _name in ('jax._src.debugging', 'jax._src.callback'):
    logging.getLogger(_name).addFilter(_HideCheckLogs())
