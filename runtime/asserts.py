"""`ag.assert_`: a Python assert, checked when the program runs if its test is traced."""
import logging

import jax.numpy as jnp

from .raises import MARKER, raise_if
from .state import is_traced


def assert_(test, message=None):
    """Python reference: `assert test, message()`. A traced test (an array: all of its
    elements must hold) is checked by the compiled program (see runtime.raises)."""
    if not is_traced(test):
        if not test:
            raise AssertionError(message()) if message is not None else AssertionError()
        return
    text = str(message()) if message is not None else 'assertion failed'
    raise_if(jnp.logical_not(jnp.all(test)), lambda: AssertionError(text))


class _HideCheckLogs(logging.Filter):
    """JAX logs a failed callback before raising it; ours are reported as errors."""

    def filter(self, record):
        return MARKER not in record.getMessage() and not (
            record.exc_info and MARKER in str(record.exc_info[1]))


for _name in ('jax._src.debugging', 'jax._src.callback'):
    logging.getLogger(_name).addFilter(_HideCheckLogs())
