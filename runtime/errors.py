"""Errors raised by converted code, each naming the user's variable and file:line."""
from . import origin


class ControlFlowError(ValueError):
    """Control flow that cannot be staged into `lax` as written (names the fix)."""


def where(location):
    return f' at {location}' if location else ''


def here(depth=1):
    """The user location of the generated statement that called the operator."""
    return origin.caller_location(depth + 1)
