"""The converter's own errors: what the user wrote that cannot be converted, and where."""
import linecache


class ConversionError(Exception):
    """A function cannot be converted (no source, unsupported construct, ...)."""


def unsupported(message, ctx, node):
    """A SyntaxError at the user's file, line and column, so Python draws a caret there."""
    line = getattr(node, 'lineno', None)
    column = getattr(node, 'col_offset', 0) + ctx.column_offset + 1
    text = linecache.getline(ctx.file, line) if line is not None else None
    return SyntaxError(message, (ctx.file, line, column, text or None))
