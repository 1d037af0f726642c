"""Source retrieval: a function object -> its `ast` tree, with the user's real line numbers.

Functions defined in files, in notebooks and in `exec`'d strings registered in `linecache`
are found with `inspect`; lambdas by parsing their line and matching their arguments.
Every node's `lineno`/`col_offset` is moved to its position in the user's file.
"""
import ast
import dataclasses
import inspect
import linecache
import textwrap

from autograph.errors import ConversionError


@dataclasses.dataclass(frozen=True)
class Source:
    file: str
    node: object   # ast.FunctionDef or ast.Lambda, decorators removed
    module: object = None  # the whole module's tree, when it was parsed (lambdas, CLI)
    column_offset: int = 0  # how far the source was dedented before parsing

def parse_function(fn):
    """The tree of `fn`'s definition (a FunctionDef or a Lambda)."""
    code = getattr(fn, '__code__', None)
    if code is None:
        raise ConversionError(f'cannot convert {fn!r}: it has no Python source code '
                              f'(builtins and C functions cannot be converted)')
    if fn.__name__ == '<lambda>':
        return _parse_lambda(code)
    lines, first_line = _function_lines(code)
    try:
        tree, indent = _parse_lines(lines, first_line, code.co_filename)
    except ConversionError:
        lines, first_line = _inspected_lines(fn)
        tree, indent = _parse_lines(lines, first_line, code.co_filename)
    node = next((n for n in tree.body
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if node is None:
        raise ConversionError(f'cannot find the definition of {fn.__qualname__} in its source')
    node.decorator_list = []
    return Source(code.co_filename, node, column_offset=indent)


def _function_lines(code):
    """The source lines of a function and the number of the first one, cheaply: from
    its first line up to the first line indented no deeper than the `def`. (A cut in
    the middle of a statement fails to parse; `inspect`, which tokenizes, then decides.)
    """
    lines = linecache.getlines(code.co_filename)
    start = code.co_firstlineno - 1
    if not 0 <= start < len(lines):
        return [], start + 1
    indent = _indent_of(lines[start])
    end = start + 1
    while end < len(lines) and lines[end - 1].lstrip().startswith('@'):
        end += 1  # decorators, then the def line
    while end < len(lines):
        text = lines[end].strip()
        if text and not text.startswith('#') and _indent_of(lines[end]) <= indent:
            break
        end += 1
    return lines[start:end], start + 1


def _inspected_lines(fn):
    try:
        return inspect.getsourcelines(fn)
    except (OSError, TypeError) as error:
        raise ConversionError(
            f'cannot convert {fn.__qualname__}: its source code is not available '
            f'({error}). Define it in a file, a notebook cell, or register exec\'d source '
            f'in linecache.') from None


def _parse_lines(lines, first_line, file):
    """(module tree, how far it was dedented) of a function's source lines. Blank lines
    in front put every node on its line of the user's file."""
    if not lines:
        raise ConversionError(f'no source lines in {file}')
    dedented = textwrap.dedent(''.join(lines))
    indent = _indent_of(lines[0]) - _indent_of(dedented.splitlines()[0])
    return _parse('\n' * (first_line - 1) + dedented, file), indent


def _parse_lambda(code):
    module = parse_file(code.co_filename)
    candidates = [n for n in ast.walk(module) if isinstance(n, ast.Lambda)
                  and n.lineno == code.co_firstlineno
                  and _argument_names(n.args) == _code_argument_names(code)]
    if not candidates:
        raise ConversionError(f'cannot find the source of the lambda at '
                              f'{code.co_filename}:{code.co_firstlineno}')
    if len(candidates) > 1:
        raise ConversionError(
            f'{code.co_filename}:{code.co_firstlineno} has several lambdas with the same '
            f'arguments, so the one to convert cannot be told apart: define it with `def`')
    return Source(code.co_filename, candidates[0], module)

def parse_file(file, text=None):
    """The tree of a whole file, with the file's line numbers."""
    if text is None:
        text = ''.join(linecache.getlines(file))
    if not text:
        raise ConversionError(f'cannot read the source file {file}')
    return _parse(text, file)

def _parse(text, file):
    try:
        return ast.parse(text)
    except SyntaxError as error:
        raise ConversionError(f'{file}:{error.lineno}: syntax error: {error.msg}') from None

def _argument_names(args):
    names = [a.arg for a in args.posonlyargs + args.args]
    names += [args.vararg.arg] if args.vararg else []
    names += [a.arg for a in args.kwonlyargs]
    names += [args.kwarg.arg] if args.kwarg else []
    return names

def _code_argument_names(code):
    count = code.co_argcount + code.co_kwonlyargcount
    count += bool(code.co_flags & inspect.CO_VARARGS) + bool(code.co_flags & inspect.CO_VARKEYWORDS)
    return list(code.co_varnames[:count])

def _indent_of(line):
    return len(line) - len(line.lstrip())
