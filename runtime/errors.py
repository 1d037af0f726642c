"""Errors raised by converted code, each naming the user's variable and file:line."""
from . import origin


class AutographError(Exception):
    """What autograph raises for a program it cannot convert or stage (the converter's
    ConversionError and the runtime's ControlFlowError)."""


class ControlFlowError(AutographError, ValueError):
    """Control flow that cannot be staged into `lax` as written (names the fix)."""
    kind = None
    """The name of its kind in runtime.messages.KINDS (None for one raised by user code's
    own checks)."""


class StagedRecursion(ControlFlowError):
    """A function that calls itself from staged control flow too many levels deep: its
    recursion depends on a traced value. No other way of running the statements around
    the call (a loop unrolled instead of staged) would end, so nothing retries them."""


class IntegerRange(ControlFlowError, OverflowError):
    """A number beyond the traced integers' range where Python's int has none: a Python
    int that meets a traced integer, `int()` of a traced float too large for it."""


class UnorderedItems(ControlFlowError, TypeError):
    """Items of kinds Python cannot order (a str and a number) given to `sorted`, `min`
    or `max` with traced ones: Python's TypeError, which names the user's line."""


def where(location):
    return f' at {location}' if location else ''


def here(depth=1):
    """The user location of the generated statement that called the operator."""
    return origin.caller_location(depth + 1)
