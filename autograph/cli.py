"""`autograph-show`: the code autograph generates, read and converted statically (the file
never runs).

    autograph-show model.py                  # list the functions and methods it can show
    autograph-show model.py:train            # the converted source of one of them
    autograph-show model.py:Model.__call__   # a method
    autograph-show model.py --all            # every one of them
    autograph-show model.py:train --diff     # a unified diff: original -> converted
"""
import argparse
import ast
import difflib
import os
import sys
import textwrap

from autograph import codegen, limits, passes
from autograph.errors import ConversionError
from autograph.naming import Namer
from autograph.parsing import parse_file
from autograph.passes.base import Context
from autograph.passes.static_resolver import StaticResolver

_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def convert_source(text, file, qualname):
    """The converted source of `qualname` defined in `text` (the source of `file`)."""
    module = parse_file(file, text)
    return _convert(module, _find(module, qualname.split('.'), file), file)


def _convert(module, node, file):
    node.decorator_list = []
    namer = Namer.for_tree(node)
    ctx = Context(file=file, namer=namer, ag=namer.new('ag'), resolver=StaticResolver(module))
    return limits.converting(lambda: codegen.unparse_function(passes.run(node, ctx)),
                             f'{file}:{node.lineno}')


def _find(scope, path, file):
    name, rest = path[0], path[1:]
    for node in scope.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name == name:
            if not rest:
                if isinstance(node, ast.ClassDef):
                    raise ConversionError(f'{name} in {file} is a class; name a method: '
                                          f'{name}.method')
                return node
            return _find(node, rest, file)
    raise ConversionError(f'no function {".".join(path)!r} in {file}')


def definitions(module):
    """(qualname, FunctionDef) of the module's functions and its classes' methods, in
    source order (functions nested in functions are shown with the one that holds them)."""
    found = []

    def visit(scope, prefix):
        for node in scope.body:
            if isinstance(node, ast.ClassDef):
                visit(node, f'{prefix}{node.name}.')
            elif isinstance(node, ast.FunctionDef):
                found.append((prefix + node.name, node))
    visit(module, '')
    return found


def listing(text, file):
    """One line per function or method: its qualname and line, or why it cannot be shown."""
    lines = []
    for qualname, node in definitions(parse_file(file, text)):
        try:
            convert_source(text, file, qualname)
            problem = ''
        except (ConversionError, SyntaxError) as error:
            problem = f'  (cannot convert: {getattr(error, "msg", error)})'
        lines.append(f'{qualname}  line {node.lineno}{problem}')
    return '\n'.join(lines) + '\n' if lines else ''


def diff(text, file, qualname):
    """A unified diff from the function's source to its converted source."""
    module = parse_file(file, text)
    node = _find(module, qualname.split('.'), file)
    first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
    original = textwrap.dedent(''.join(text.splitlines(keepends=True)[first - 1:node.end_lineno]))
    converted = _convert(module, node, file)
    return ''.join(difflib.unified_diff(
        original.splitlines(keepends=True), converted.splitlines(keepends=True),
        f'{file}:{qualname}', f'{file}:{qualname} (converted)'))


def _highlight(code, lexer):
    try:
        from pygments import highlight
        from pygments.formatters import TerminalFormatter
        from pygments.lexers import DiffLexer, PythonLexer
    except ImportError:
        return code
    return highlight(code, {'python': PythonLexer, 'diff': DiffLexer}[lexer](),
                     TerminalFormatter())


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='autograph-show',
        description='Print the code autograph generates for a function, without running '
                    'the file. With only a file, list what it can show.')
    parser.add_argument('target', help='path/to/file.py[:function or :Class.method]')
    parser.add_argument('--all', action='store_true',
                        help='show every function and method of the file')
    parser.add_argument('--diff', action='store_true',
                        help='show a unified diff from the original to the converted code')
    parser.add_argument('--color', choices=('auto', 'always', 'never'), default='auto')
    options = parser.parse_args(argv)
    path, qualname = _split_target(options.target)
    if not path:
        return _fail(f'expected path/to/file.py or path/to/file.py:function, '
                     f'got {options.target!r}')
    if not os.path.isfile(path):
        return _fail(f'no such file: {path}')
    try:
        with open(path, encoding='utf-8') as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as error:
        return _fail(f'cannot read {path}: {error}')
    try:
        output, lexer = _output(options, text, path, qualname)
    except SyntaxError as error:
        return _fail(f'{path}:{error.lineno}: {error.msg}')
    except ConversionError as error:
        return _fail(str(error))
    color = options.color == 'always' or (options.color == 'auto' and sys.stdout.isatty())
    sys.stdout.write(_highlight(output, lexer) if color and output else output)
    return 0


def _split_target(target):
    """'file.py:name' -> ('file.py', 'name'); 'file.py' -> ('file.py', None)."""
    if os.path.isfile(target):
        return target, None
    path, sep, qualname = target.rpartition(':')
    if not sep or not qualname:
        return (target if not sep else path), None
    return path, qualname


def _output(options, text, path, qualname):
    if qualname is None and not options.all:
        return listing(text, path), 'python'
    names = [qualname] if qualname else [
        name for name, _ in definitions(parse_file(path, text))]
    if len(names) == 1:
        return _show(options, text, path, names[0]), 'diff' if options.diff else 'python'
    parts = []
    for name in names:
        try:
            shown = _show(options, text, path, name)
        except (ConversionError, SyntaxError) as error:
            shown = f'# cannot convert: {getattr(error, "msg", error)}\n'
        parts.append(f'# {path}:{name}\n{shown}' if not options.diff or shown[0] == '#'
                     else shown)
    return ('' if options.diff else '\n').join(parts), 'diff' if options.diff else 'python'


def _show(options, text, path, qualname):
    return diff(text, path, qualname) if options.diff else convert_source(text, path, qualname)


def _fail(message):
    print(f'autograph-show: {message}', file=sys.stderr)
    return 1


if __name__ == '__main__':
    sys.exit(main())
