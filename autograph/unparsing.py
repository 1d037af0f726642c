"""Generated code as text: `ast.unparse`, faster, and the same text with the line each
statement is printed on.

The runtime's messages name the user's line of the generated statement that runs (see
runtime.origin): a map from the text's lines to the lines the converted tree's statements
had before. Parsing the text again and walking both trees makes it (a few milliseconds, at
the first trace); `unparse_lines` records it while unparsing, for next to nothing.
"""
import ast

from autograph import expression_text

_BASE = getattr(ast, '_Unparser', None)
_CASE = ast.match_case


def unparse(node):
    """`ast.unparse(node)`: the same text, a third faster (see `_Unparser`)."""
    return _Unparser().visit(node) if _Unparser is not None else ast.unparse(node)


def unparse_lines(node, first_line):
    """(text, old lines, parts) of `node` (a statement): `compact(unparse(node))` and,
    for each line of it that starts a statement (or an `except` clause, or holds a
    decorator), (the line, counting `first_line` for the first, the line the statement
    had before or, where it has none, its enclosing statement's); and for each lambda
    whose body had a line other than its statement's, (the line, its first and end
    columns, that line). None where the lines cannot be counted that way (a string
    written across lines, or no private unparser to extend)."""
    if _LineRecorder is None:
        return None
    recorder = _LineRecorder(first_line - 1, getattr(node, 'lineno', None) or first_line)
    text = compact(recorder.visit(node))
    if text.count('\n') + first_line != recorder.line:   # (a string across lines)
        return None
    return text, recorder.old_lines, recorder.parts


def compact(text):
    """Drop the blank lines `ast.unparse` puts before nested definitions."""
    lines = text.split('\n')
    keep = [line for i, line in enumerate(lines)
            if line.strip() or i + 1 >= len(lines)
            or not lines[i + 1].lstrip().startswith(('def ', '@', 'class '))]
    return '\n'.join(keep)


def _elifs(node):
    """The `if` statements `ast.unparse` writes as the `elif`s of the `if` `node`."""
    found = []
    while len(node.orelse) == 1 and node.orelse[0].__class__ is ast.If:
        node = node.orelse[0]
        found.append(node)
    return found


def _extensible():
    """Whether `ast` has the private unparser class, with the methods `_Unparser`
    replaces and `_LineRecorder` extends."""
    return _BASE is not None and hasattr(ast, '_Precedence') and all(
        hasattr(_BASE, name) for name in (
            'traverse', 'write', 'get_precedence', 'block', 'delimit', 'fill',
            'get_raw_docstring', '_write_docstring', '_write_docstring_and_traverse_body'))


if _extensible():
    class _Unparser(_BASE):
        """`ast.unparse`'s own unparser, its `visit_<Class>` methods found in a per-class
        table (`ast.NodeVisitor.visit` builds the method's name and looks it up for every
        node) and its blocks and brackets entered without a generator each: the same
        methods write the same text. (The standard one is used where this private class
        is not there to extend.)"""
        _methods = {}   # node class -> its visit_<Class>
        _avoid_backslashes = False   # (set by Python 3.11's and 3.12's own, in f-strings)

        def traverse(self, node):
            if node.__class__ is ast.Name:   # (the commonest node: `visit_Name` inline)
                self._source.append(node.id)
                return
            if node.__class__ is list:
                for item in node:
                    self.traverse(item)
                return
            if node.__class__ in _WRITTEN and not self._avoid_backslashes and self._text(
                    node, expression_text.ANY_LINE):
                return
            method = self._methods.get(node.__class__)
            if method is None:
                cls = type(self)
                method = self._methods[node.__class__] = getattr(
                    cls, 'visit_' + node.__class__.__name__, cls.generic_visit)
            method(self, node)

        def _text(self, node, lambda_line):
            """Write expression `node` by autograph.expression_text, where it writes it
            (True)."""
            text = expression_text.text(node, self._precedences.get(node, _TEST),
                                        self._precedences, lambda_line)
            if text is None:
                return False
            self._source.append(text)
            return True

        def write(self, *text):
            self._source += text

        def get_precedence(self, node, default=ast._Precedence.TEST):
            return self._precedences.get(node, default)   # (an enum member is slow to get)

        def block(self, *, extra=None):
            return _Block(self, extra)

        def delimit(self, start, end):
            return _Delimiter(self, start, end)

    class _LineRecorder(_Unparser):
        """`_Unparser`, recording the line each statement (and `except` or `case`
        clause: a case has the line of its pattern; and `elif`, an `if` in an `else`)
        starts on: the line of its first `fill` after its decorators'. The nested
        unparsers an f-string's parts get record nothing (their `line` is None). (It
        overrides no `visit_<Class>`: it shares `_Unparser`'s table of them.)"""
        _statements = {}   # node class -> whether it is a statement or a clause

        def __init__(self, line=None, old_line=None, **options):
            super().__init__(**options)
            self.line = line           # the line written last (None: record nothing)
            self.old = old_line        # the enclosing statement's line before
            self.old_lines = []
            self.parts = []            # (line, first column, end column, line before)
            self.pending = None        # (statement, decorator lines before its own)
            self.elifs = []            # per `if` being written, its `elif`s still to write
            self.columns = (None, 0, 0)   # (the text pieces read, how many, the column)

        def traverse(self, node):
            cls = node.__class__
            if cls is ast.Name:   # (as `_Unparser.traverse` writes it, without a call)
                self._source.append(node.id)
                return
            if cls is list or self.line is None:
                return super().traverse(node)
            statement = self._statements.get(cls)
            if statement is None:
                statement = self._statements[cls] = issubclass(
                    cls, (ast.stmt, ast.excepthandler, _CASE))
            if not statement:
                if cls in _WRITTEN and not self._avoid_backslashes and self._text(
                        node, self.old):
                    return
                if cls is ast.Lambda:
                    return self._lambda(node)
                method = self._methods.get(cls)
                if method is None:
                    return super().traverse(node)
                return method(self, node)   # (as `_Unparser.traverse` calls it)
            outer = self.old
            self.old = getattr(node.pattern if cls is _CASE else node, 'lineno', None) or outer
            self.pending = (node, len(getattr(node, 'decorator_list', ())))
            if cls is ast.If:
                self.elifs.append(_elifs(node))
            super().traverse(node)
            if cls is ast.If:
                self.elifs.pop()
            self.old = outer

        def _lambda(self, node):
            """A lambda whose body has a line of its own (an `elif` test in the
            `ag.if_exp_chain(...)` of an `if` chain): its columns and that line go to
            `parts`, so that an error raised in it names its line, not the statement's."""
            line = getattr(node.body, 'lineno', None)
            if line is None or line == self.old:
                return _Unparser.traverse(self, node)
            first, outer, self.old = self._column(), self.old, line
            _Unparser.traverse(self, node)
            self.old = outer
            self.parts.append((self.line, first, self._column(), line))

        def _column(self):
            """The column (in UTF-8 bytes) after the text written so far, read on from
            where the last call stopped (a line holding thousands of lambdas, the
            `ag.if_exp_chain(...)` of a long `if` chain, is read once, not once each)."""
            source, start, column = self.columns
            if source is not self._source or start > len(source):   # (another buffer)
                source, start, column = self._source, 0, 0
            for index in range(start, len(source)):
                piece = source[index]
                newline = piece.rfind('\n')
                column = len(piece[newline + 1:].encode()) if newline >= 0 else \
                    column + len(piece.encode())
            self.columns = (source, len(source), column)
            return column

        def fill(self, text=''):
            if self.line is not None:
                self.line += 1
                if text == 'elif ':   # (an `if` alone in an `else`, written unvisited)
                    self.pending = (self.elifs[-1].pop(0), 0)
                    self.old = getattr(self.pending[0], 'lineno', None) or self.old
                if self.pending is not None:
                    node, decorators = self.pending
                    self.pending = (node, decorators - 1) if decorators else None
                    old = self.old if not decorators else getattr(
                        node.decorator_list[-decorators], 'lineno', None) or self.old
                    self.old_lines.append((self.line, old))
            super().fill(text)

        def _write_docstring_and_traverse_body(self, node):
            docstring = self.get_raw_docstring(node)
            if docstring is None or self.line is None:
                return super()._write_docstring_and_traverse_body(node)
            outer, statement = self.old, node.body[0]   # (as `traverse` records it)
            self.old = getattr(statement, 'lineno', None) or outer
            self.pending = (statement, 0)
            self._write_docstring(docstring)
            self.old = outer
            self.traverse(node.body[1:])
    _TEST = ast._Precedence.TEST
    _WRITTEN = expression_text.WRITTEN if expression_text.AGREES else frozenset()
else:   # pragma: no cover
    _Unparser = _LineRecorder = None


class _Block:
    """`ast._Unparser.block` (the `:` and indentation of a block) as a class rather than
    a generator: unparsing enters one for every block, bracket and parenthesis."""
    __slots__ = ('unparser', 'extra')

    def __init__(self, unparser, extra):
        self.unparser, self.extra = unparser, extra

    def __enter__(self):
        self.unparser.write(':')
        if self.extra:
            self.unparser.write(self.extra)
        self.unparser._indent += 1

    def __exit__(self, kind, value, traceback):
        if kind is None:
            self.unparser._indent -= 1


class _Delimiter:
    """`ast._Unparser.delimit`: `start`, what is written inside, then `end`."""
    __slots__ = ('unparser', 'start', 'end')

    def __init__(self, unparser, start, end):
        self.unparser, self.start, self.end = unparser, start, end

    def __enter__(self):
        self.unparser.write(self.start)

    def __exit__(self, kind, value, traceback):
        if kind is None:
            self.unparser.write(self.end)
