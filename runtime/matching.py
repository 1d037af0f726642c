"""`ag.python_subject`: the subject of a `match` that stays Python (class, sequence or
mapping patterns test a value's Python structure, which a traced value does not have)."""
from .errors import ControlFlowError, here, where
from .state import is_traced


def python_subject(subject):
    """Python reference: `subject` (the value that `match subject:` tests)."""
    if is_traced(subject):
        location = here()
        raise ControlFlowError(
            f'the `match`{where(location)} has class, sequence or mapping patterns, which '
            f'test the Python structure of its subject, but the subject is traced '
            f'(known only when the program runs). Match a traced value only with literal '
            f'or value patterns (case 0:, case 1 | 2:, case _:), or match on Python values.')
    return subject
