"""The one style of the errors of staged code, and the kinds they come in.

Every ControlFlowError the runtime raises is rendered by `problem` from the same fields:

    <subject> at <file:line> [(`<the user's statement>`)] [<what happened>]: <why staging
    cannot do what Python does>. <What to write instead>.

`subject` names what the user wrote (a variable, a statement, a call); the location is
the user's line (runtime.origin); `why` says what is known only when the program runs, or
what the compiled program needs fixed; `fix` says what to write instead. The error keeps
its kind (`error.kind`, a name in KINDS), so tests and the guide can list them.
"""
import dataclasses

from ..errors import ControlFlowError, where

KINDS = {}
"""Kind name -> Kind: every kind of error of staged code."""


@dataclasses.dataclass(frozen=True)
class Kind:
    """A kind of error: its stable name and what makes code raise it."""
    name: str
    summary: str

    def __post_init__(self):
        KINDS[self.name] = self


def problem(kind, subject, location, why, fix='', *, happened='', statement=False,
            error=ControlFlowError):
    """The `error` of `kind` in the one style (see the module doc); `statement` quotes the
    user's line after its location."""
    text = f'{subject}{at(location, statement)}'
    if happened:
        text += f' {happened}'
    text += f': {why}.'
    if fix:
        text += f' {fix[0].upper()}{fix[1:]}.'
    raised = error(text)
    raised.kind = kind.name
    return raised


def at(location, statement=False):
    """' at file:line', with the user's statement quoted when `statement` (or '' where
    the location is not known)."""
    if statement and location:
        return f'{where(location)} (`{location.source_line()}`)'
    return where(location)
