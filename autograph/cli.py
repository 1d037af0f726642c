"""`autograph-show path/to/file.py:function` (or `file.py:Class.method`): print the
converted source of a function, read and converted statically (the file never runs)."""
import argparse
import ast
import os
import sys

from autograph import codegen, passes
from autograph.errors import ConversionError
from autograph.naming import Namer
from autograph.parsing import parse_file
from autograph.passes.base import Context
from autograph.passes.calls import StaticResolver


def convert_source(text, file, qualname):
    """The converted source of `qualname` defined in `text` (the source of `file`)."""
    module = parse_file(file, text)
    node = _find(module, qualname.split('.'), file)
    node.decorator_list = []
    namer = Namer.for_tree(node)
    ctx = Context(file=file, namer=namer, ag=namer.new('ag'), resolver=StaticResolver(module))
    return codegen.unparse_function(passes.run(node, ctx))


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


def _highlight(code):
    try:
        from pygments import highlight
        from pygments.formatters import TerminalFormatter
        from pygments.lexers import PythonLexer
    except ImportError:
        return code
    return highlight(code, PythonLexer(), TerminalFormatter())


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='autograph-show',
        description='Print the code autograph generates for a function, without running '
                    'the file.')
    parser.add_argument('target', help='path/to/file.py:function or file.py:Class.method')
    parser.add_argument('--color', choices=('auto', 'always', 'never'), default='auto')
    options = parser.parse_args(argv)
    path, sep, qualname = options.target.rpartition(':')
    if not sep or not path or not qualname:
        return _fail(f'expected path/to/file.py:function, got {options.target!r}')
    if not os.path.isfile(path):
        return _fail(f'no such file: {path}')
    try:
        with open(path, encoding='utf-8') as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as error:
        return _fail(f'cannot read {path}: {error}')
    try:
        code = convert_source(text, path, qualname)
    except SyntaxError as error:
        return _fail(f'{path}:{error.lineno}: {error.msg}')
    except ConversionError as error:
        return _fail(str(error))
    color = options.color == 'always' or (options.color == 'auto' and sys.stdout.isatty())
    sys.stdout.write(_highlight(code) if color else code)
    return 0


def _fail(message):
    print(f'autograph-show: {message}', file=sys.stderr)
    return 1


if __name__ == '__main__':
    sys.exit(main())
