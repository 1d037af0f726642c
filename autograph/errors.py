"""The converter's own errors: what the user wrote that cannot be converted, and where."""


class ConversionError(Exception):
    """A function cannot be converted (no source, unsupported construct, ...)."""


def unsupported(message, file, node, source_line=None):
    """A SyntaxError at the user's file, line and column, so Python draws a caret there."""
    line = getattr(node, 'lineno', None)
    column = getattr(node, 'col_offset', 0) + 1
    if source_line is None and line is not None:
        import linecache
        source_line = linecache.getline(file, line) or None
    return SyntaxError(message, (file, line, column, source_line))
