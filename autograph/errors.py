"""The converter's own errors: what the user wrote that cannot be converted, and where."""
import linecache

from autograph.runtime.errors import AutographError


class ConversionError(AutographError):
    """A function cannot be converted (no source, unsupported construct, ...)."""


class UnsupportedSyntax(ConversionError, SyntaxError):
    """A construct that cannot be converted, at the user's file, line and column. It is a
    SyntaxError too, so Python's traceback draws a caret under the user's code."""

    def __str__(self):
        from autograph.runtime.origin import short
        return f'{self.msg} ({short(self.filename)}:{self.lineno})'


def unsupported(message, ctx, node):
    """An UnsupportedSyntax error at `node`'s place in the user's file."""
    line = getattr(node, 'lineno', None)
    column = getattr(node, 'col_offset', 0) + 1
    text = linecache.getline(ctx.file, line) if line is not None else None
    return UnsupportedSyntax(message, (ctx.file, line, column, text or None))
