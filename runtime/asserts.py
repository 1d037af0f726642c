"""`ag.assert_`: a Python assert, checked when the program runs if its test is traced."""
import logging

import jax
import numpy as np

from .errors import here
from .state import is_traced

MARKER = 'autograph assertion failed'


def assert_(test, message=None):
    """Python reference: `assert test, message()`."""
    if not is_traced(test):
        if not test:
            raise AssertionError(message()) if message is not None else AssertionError()
        return
    location = here()
    text = str(message()) if message is not None else 'assertion failed'
    where = f' at {location}' if location else ''

    def check(value):
        if not np.all(value):
            raise AssertionError(f'{MARKER}{where}: {text}')
    jax.debug.callback(check, test)


class _HideAssertionLogs(logging.Filter):
    """JAX logs a failed callback before raising it; ours are reported as errors."""

    def filter(self, record):
        return MARKER not in record.getMessage() and not (
            record.exc_info and MARKER in str(record.exc_info[1]))


for _name in ('jax._src.debugging', 'jax._src.callback'):
    logging.getLogger(_name).addFilter(_HideAssertionLogs())
