"""Source retrieval: a function object -> its `ast` tree, with the user's real line numbers.

Functions defined in files, in notebooks (IPython registers each cell in `linecache`) and
in `exec`'d strings registered in `linecache` are found there; `inspect`, which tokenizes,
decides when a quick cut of the lines does not parse. Lambdas are found by parsing their
line's file. Every node keeps its line and column in the user's file: an indented `def`
(a method, a function in an `if`) is parsed inside an `if 1:` rather than dedented, which
leaves multi-line strings and tab indentation as they are.

The source found must be the source of the code that runs: a file edited after it was
imported no longer is. So the definition found is compiled again and compared with the
function's code object (lines, constants, names and operators; see `_Summary`): a
mismatch is a ConversionError saying that the source changed. (A check, not a proof:
an edit that only swaps two names on a line goes unseen.)
"""
import __future__
import ast
import dataclasses
import dis
import inspect
import linecache
import sys
import types

from autograph.errors import ConversionError
from autograph.syntax_trees import compile_tree, parse


@dataclasses.dataclass(frozen=True)
class Source:
    file: str
    node: object   # ast.FunctionDef or ast.Lambda, decorators removed
    module: object = None  # the whole module's tree, when it was parsed (lambdas, CLI)


def parse_function(fn):
    """The tree of `fn`'s definition (a FunctionDef or a Lambda)."""
    code = getattr(fn, '__code__', None)
    if code is None:
        raise ConversionError(f'cannot convert {fn!r}: it has no Python source code '
                              f'(builtins and C functions cannot be converted)')
    if fn.__name__ == '<lambda>':
        return _parse_lambda(code)
    node = _definition(code, *_function_lines(code))
    if node is None:
        node = _definition(code, *_inspected_lines(fn))
    if node is None:
        raise _changed(code, fn.__qualname__)
    node.decorator_list = []
    return Source(code.co_filename, node)


def _definition(code, lines, first_line):
    """The FunctionDef in `lines` that compiles to `code`, or None."""
    try:
        tree = _parse_lines(lines, first_line, code.co_filename)
    except ConversionError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                node.name == code.co_name and _compiles_to(node, code, (lines, first_line)):
            return node
    return None


def _function_lines(code):
    """The source lines of a function and the number of the first one, cheaply: from
    its first line up to the first line indented no deeper than the `def`. (A cut in
    the middle of a statement or a string fails to parse; `inspect` then decides.)
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
    """The module tree of a function's source lines, every node at its line and column
    in the user's file. Indented lines are parsed inside an `if 1:` block."""
    if not lines:
        raise ConversionError(f'no source lines in {file}')
    text = ''.join(lines)
    if lines[0][:1] in (' ', '\t'):
        # (Blank lines first put the `if 1:` on the line before the function's: every
        # node is parsed at its line, rather than moved there by a walk of the tree.)
        tree = _parse('\n' * max(first_line - 2, 0) + 'if 1:\n' + text, file)
        if first_line < 2:
            ast.increment_lineno(tree, first_line - 2)
        tree.body = tree.body[0].body
        return tree
    return _parse('\n' * (first_line - 1) + text, file)


def _changed(code, name):
    return ConversionError(
        f'cannot convert {name}: its source in {code.co_filename} (line '
        f'{code.co_firstlineno}) does not match the code that runs. The file was probably '
        f'edited after it was imported: reload the module (importlib.reload) or restart, '
        f'then convert again.')


def _compiles_to(node, code, text=None):
    """True when `node` (a FunctionDef or Lambda) compiled gives code like `code` (see
    `_Summary`). `text`: the (lines, first line number) `node` was parsed from, compiled
    instead where the tree is too deep to compile as a tree (Python 3.12 converts `ast`
    objects to its own only about 1,500 levels deep, and compiles text far deeper)."""
    if isinstance(node, ast.Lambda):
        tree = ast.Expression(body=node)
        mode = 'eval'
    else:
        # Inside a function that binds the free variables, so `nonlocal` compiles.
        body = [ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())],
                           value=ast.Constant(value=None)) for name in code.co_freevars]
        # (named so that it is never taken for the user's function)
        outer = ast.FunctionDef(name='<enclosing>', args=ast.arguments(
            posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
            defaults=[]), body=body + [node], decorator_list=[], returns=None,
            type_params=[])
        tree = ast.Module(body=[outer], type_ignores=[])
        mode = 'exec'
    stack = [tree]   # the wrapper's nodes (the parsed `node` has its locations)
    while stack:
        child = stack.pop()
        if 'lineno' in child._attributes and not hasattr(child, 'lineno'):
            ast.copy_location(child, node)
        stack += [c for c in ast.iter_child_nodes(child) if c is not node]
    flags = code.co_flags & _FUTURE_FLAGS   # e.g. `from __future__ import annotations`
    try:
        compiled = compile_tree(tree, code.co_filename, mode, flags=flags, dont_inherit=True)
    except RecursionError:
        if text is None:
            raise
        compiled = _compiled_text(*text, code, flags)
    except (SyntaxError, ValueError, TypeError):
        return False
    if compiled is None:
        return False
    found = _find_code(compiled, code.co_name, code.co_firstlineno)
    return found is not None and _Summary.of(code).runs(_Summary.of(found))


def _compiled_text(lines, first_line, code, flags):
    """The code of `lines` (a function's source from line `first_line` on) compiled with
    every line at its number, inside a function binding `code`'s free variables where it
    has some; None when the file leaves no room above the function for that wrapper."""
    head = []
    if code.co_freevars:
        head = ['def _enclosing():\n', ' ' + '; '.join(f'{name} = None' for name in
                                                      code.co_freevars) + '\n']
    elif lines[0][:1] in (' ', '\t'):
        head = ['if 1:\n']
    room = first_line - 1 - len(head)
    if room < 0:
        return None
    try:
        return compile('\n' * room + ''.join(head + lines), code.co_filename, 'exec',
                       flags=flags, dont_inherit=True)
    except (SyntaxError, ValueError, TypeError):
        return None


_FUTURE_FLAGS = sum(getattr(__future__, name).compiler_flag
                    for name in __future__.all_feature_names)


def _find_code(code, name, first_line):
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            if const.co_name == name and const.co_firstlineno == first_line:
                return const
            found = _find_code(const, name, first_line)
            if found is not None:
                return found
    return None


@dataclasses.dataclass
class _Summary:
    """What compiled code keeps of its source, nested functions included, whatever the
    scope it was compiled in: its lines, constants, names and operators."""
    lines: set
    constants: set
    names: set
    operators: set

    @staticmethod
    def of(code):
        summary = _Summary(set(), set(), set(), set())
        summary._add(code)
        return summary

    def _add(self, code):
        self.lines |= {line for _, _, line in code.co_lines() if line is not None}
        # (private names are mangled in a class body only)
        self.names |= {name for name in code.co_varnames + code.co_cellvars + code.co_names
                       + code.co_freevars if not name.startswith('__')}
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                self._add(const)
                continue
            if isinstance(const, str) and '<locals>.' in const:   # a nested class's
                const = const.rsplit('<locals>.', 1)[1]           # qualified name
            self.constants.add((type(const).__name__, repr(const)))
        self.operators |= _operators(code)

    def runs(self, source):
        """True when this running code can be the compiled `source`: everything the source
        says is in it, and it has no line the source lacks. (Not equality: tools that
        rewrite the tree before compiling, like pytest's assertion rewriting, add their
        own names and constants, at the lines of the code they replace.)"""
        return (self.lines <= source.lines and source.constants <= self.constants
                and source.names <= self.names and source.operators <= self.operators)


_OPERATORS = frozenset(i for i, name in enumerate(dis.opname)
                       if name.startswith(('BINARY_', 'COMPARE_OP', 'UNARY_', 'IS_OP',
                                           'CONTAINS_OP')))


def _operators(code):
    """{(operation, argument)} of `code`'s operators (`+`, `<`, `is not`, `not`, ...), read
    straight from its bytecode (`dis.get_instructions` takes most of a conversion's time
    for what is needed here)."""
    raw = code.co_code
    operations, arguments = raw[0::2], raw[1::2]   # wordcode: (operation, argument) pairs
    if dis.EXTENDED_ARG not in operations:   # (almost always: every argument is one byte)
        return {_operator(op, arg) for op, arg in zip(operations, arguments)
                if op in _OPERATORS}
    found, extended = set(), 0
    for i in range(0, len(raw), 2):
        op, arg = raw[i], raw[i + 1] | extended
        extended = arg << 8 if op == dis.EXTENDED_ARG else 0
        if op in _OPERATORS:
            found.add(_operator(op, arg))
    return found


_COMPARE_OP = dis.opmap['COMPARE_OP']
_TO_BOOL = 16 if sys.version_info >= (3, 13) else 0
"""Python 3.13's COMPARE_OP argument flag "make the result a bool", set where the
comparison is a test (`assert x > 0`) and not where its value is kept (pytest's rewritten
asserts): not part of which operator it is."""


def _operator(op, arg):
    if op == _COMPARE_OP:
        arg &= ~_TO_BOOL
    return dis.opname[op], arg


def _parse_lambda(code):
    if not linecache.getlines(code.co_filename):
        raise _no_lambda_source(code)
    module = parse_file(code.co_filename)
    candidates = [n for n in ast.walk(module) if isinstance(n, ast.Lambda)
                  and n.lineno == code.co_firstlineno
                  and _argument_names(n.args) == _code_argument_names(code)]
    matching = [n for n in candidates if _compiles_to(n, code)]
    if not candidates:   # (other source under its file name: Python 3.13 keeps `-c`'s
        raise _no_lambda_source(code)   # program as '<string>', which eval uses too)
    if not matching:
        raise _changed(code, 'the lambda')
    if len(matching) > 1:
        raise ConversionError(
            f'{code.co_filename}:{code.co_firstlineno} has several lambdas with the same '
            f'arguments, so the one to convert cannot be told apart: define it with `def`')
    return Source(code.co_filename, matching[0], module)


def _no_lambda_source(code):
    return ConversionError(
        f'cannot convert the lambda at {code.co_filename}:{code.co_firstlineno}: its source '
        f'code is not available. Define it in a file or a notebook cell, or register '
        f"eval'd or exec'd source in linecache.")


def defined_at(code):
    """Whether the source lines kept for `code`'s file define a function at its first
    line (`def`, `async def`, a decorator or a `lambda` there): false for code with no
    source, and for code generated under a name that other source holds (dataclasses'
    `__init__`, made from '<string>', which Python 3.13 also gives `python -c`'s program)."""
    lines = linecache.getlines(code.co_filename)
    if not 0 < code.co_firstlineno <= len(lines):
        return False
    line = lines[code.co_firstlineno - 1]
    return line.lstrip().startswith(('def ', 'async def', '@')) or 'lambda' in line


def parse_file(file, text=None):
    """The tree of a whole file, with the file's line numbers."""
    if text is None:
        text = ''.join(linecache.getlines(file))
    if not text:
        raise ConversionError(f'cannot read the source file {file}')
    return _parse(text, file)

def _parse(text, file):
    try:
        return parse(text)
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
