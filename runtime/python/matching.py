"""`ag.python_subject`: the subject of a `match` that stays Python (class, sequence or
mapping patterns test a value's Python structure, which a traced value does not have)."""
from ..errors import here
from ..messages import traced_match_subject
from ..values.split import is_traced


def python_subject(subject):
    """Python reference: `subject` (the value that `match subject:` tests)."""
    if is_traced(subject):
        raise traced_match_subject(here())
    return subject
