"""Generated source: unparse with `ast.unparse`, compile, register, and bind to a function.

The converted function is compiled inside a factory whose parameters are the runtime
module and the original function's free variables:

    def create_converted(ag, scale):
        def f(x):
            ...
        return f

Only the inner code object is used (the factory never runs): it is bound to the
*original* function's globals and closure cells, so globals and closed-over variables are
read live, as in the original. Two details keep names meaning what they meant:

- the factory declares the function's own name `global` (unless it is a closure
  variable), so a function calling itself by its module-level name reads that global,
  not the factory's local;
- a method is compiled inside a class of the same name, so that Python mangles its
  private names (`self.__secret` -> `self._Model__secret`) as it did in the class body.
"""
import ast
import dataclasses
import functools
import itertools
import re
import types

from autograph.errors import ConversionError
from autograph.runtime import origin
from autograph.syntax_trees import compile_tree, parse
from autograph.unparsing import compact, unparse, unparse_lines

FACTORY = 'create_converted'
_counter = itertools.count()


@dataclasses.dataclass(frozen=True)
class Generated:
    function_source: str   # what `to_code` shows
    file: str              # the generated module's name in linecache / tracebacks
    code: types.CodeType   # the converted function's code, free variables unbound
    runtime_name: str      # the name the code uses for the runtime module

    def bind(self, fn, runtime):
        """A function running this code with `fn`'s globals, closure and defaults."""
        cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
        closure = tuple(types.CellType(runtime) if name == self.runtime_name else cells[name]
                        for name in self.code.co_freevars)
        converted = types.FunctionType(self.code, fn.__globals__, fn.__name__,
                                       fn.__defaults__, closure or None)
        converted.__kwdefaults__ = fn.__kwdefaults__
        converted.__qualname__ = fn.__qualname__
        converted.__module__ = fn.__module__
        converted.__doc__ = fn.__doc__
        converted.__annotations__ = dict(getattr(fn, '__annotations__', {}))
        converted.__ag_source_code__ = fn.__code__   # (autograph.function.in_place)
        return converted


_FILE_NAME = re.compile(r'<autograph \d+: ')   # starts every generated module's name


def is_generated(code):
    """True for code compiled from generated source: functions defined inside converted
    code (nested defs, lambdas) were converted with it. (Told by the file name, which
    outlives the generated module's registration in linecache.)"""
    return _FILE_NAME.match(code.co_filename) is not None


def generate(node, source_file, runtime_name, freevars, class_name=None, facts=None):
    """Compile the converted `node` (a FunctionDef or Lambda) into a `Generated`.
    `class_name` names the class whose body defined it, for private-name mangling;
    `facts()` gives the static facts per user line (see autograph.site_facts) that the
    line map carries for the runtime's messages (called with the line map, when first
    needed)."""
    is_lambda = isinstance(node, ast.Lambda)
    inner_name = '<lambda>' if is_lambda else node.name
    params = [runtime_name] + [v for v in freevars if v != runtime_name]
    first_line = getattr(node, 'lineno', None) or 1
    body = _factory_body(node, params, inner_name, class_name)
    header_lines = len(body) + bool(class_name)   # the factory's lines before the function
    lines = None if is_lambda else unparse_lines(node, header_lines + 1)
    function_text = (lines[0] if lines else compact(unparse(node))) if not is_lambda \
        else None
    text, tree = _factory(params, body, function_text if not class_name
                          else _class_text(class_name, node, function_text))

    file = f'<autograph {next(_counter)}: {inner_name} from {origin.short(source_file)}>'
    if lines:
        old_lines = [(line, first_line) for line in range(1, header_lines + 1)] + lines[1]
        line_map = functools.partial(_recorded_line_map, old_lines, lines[2], source_file,
                                     inner_name)
    else:
        module = ast.Module(body=[_function(FACTORY, params, body)], type_ignores=[])
        line_map = functools.partial(_line_map, tree, text, module, source_file, inner_name,
                                     first_line)
    origin.register(file, text, lambda: line_map(facts() if facts else {}))
    try:
        compiled = (compile(text, file, 'exec', dont_inherit=True) if tree is None
                    else compile_tree(tree, file, 'exec'))
    except SyntaxError as error:   # a limit of the compiler (the text parsed)
        raise ConversionError(f'the converted code of {inner_name} at '
                              f'{origin.short(source_file)}:{first_line} cannot be compiled: '
                              f'{error.msg}') from None
    code = _find_code(compiled, inner_name)
    source = function_text + '\n' if function_text is not None else unparse_function(node)
    return Generated(source, file, code, runtime_name)


def _factory_body(node, params, inner_name, class_name):
    """The statements of the factory: `global` of the function's own names, then the
    function (inside a class named `class_name` if given); a lambda is returned."""
    if isinstance(node, ast.Lambda):
        return [ast.Return(value=node)]
    definition = node
    if class_name:
        definition = ast.ClassDef(name=class_name, bases=[], keywords=[], body=[node],
                                  decorator_list=[], type_params=[])
    own_names = [n for n in (inner_name, class_name) if n and n not in params]
    return ([ast.Global(names=own_names)] if own_names else []) + [definition]


def _class_text(class_name, node, function_text):
    """The text `ast.unparse` gives for `class class_name:` around the function `node`,
    made from the function's text (unparsing is the slower half of generating code):
    each line moves one indentation level right. None where that is not the same text:
    where a string literal spans lines (a docstring or a string with a newline), whose
    inner lines `ast.unparse` leaves where they are."""
    if ('"""' in function_text or "'''" in function_text) and any(
            n.__class__ is ast.Constant and isinstance(n.value, str) and '\n' in n.value
            for n in ast.walk(node)):
        return None
    return '\n'.join([f'class {class_name}:'] + [_INDENT + line if line else line
                                                 for line in function_text.split('\n')])


def _factory(params, body, function_text=None):
    """(source, tree) of `def create_converted(*params): body`; `function_text` is the
    unparsed text of the last statement of `body` when the caller has it already.

    The factory adds one indentation level, which Python's limit on indentation (100)
    counts. Most functions are far from it: their source is compiled as text (tree None:
    parsed again only if a line map is needed). For one nested nearly as deeply as Python
    allows, each statement of the body is unparsed and parsed on its own, at the left
    margin, then placed in the factory's tree, moved one indentation level right, so that
    it still converts. Either way the source is what the code compiles from, line for line
    (tracebacks show it).
    """
    header = f'def {FACTORY}({", ".join(params)}):'
    texts = [compact(ast.unparse(stmt)) for stmt in body[:-1]]
    texts.append(function_text if function_text is not None
                 else compact(unparse(body[-1])))
    lines = [header]
    for text in texts:
        lines += [_INDENT + line if line else line for line in text.split('\n')]
    source = '\n'.join(lines) + '\n'
    if max(map(_indentation, lines)) < _SHALLOW:
        return source, None
    statements, line = [], 1
    for text in texts:
        tree = parse(text)
        ast.increment_lineno(tree, line)
        for node in ast.walk(tree):
            for attr in ('col_offset', 'end_col_offset'):
                if getattr(node, attr, None) is not None:
                    setattr(node, attr, getattr(node, attr) + len(_INDENT))
        statements += tree.body
        line += text.count('\n') + 1
    factory = parse(header + ' pass').body[0]
    factory.body = statements
    return source, ast.Module(body=[factory], type_ignores=[])


_SHALLOW = 80 * 4
"""Source whose lines are all indented less than this (in columns; `ast.unparse` indents
by four) compiles as text, far from Python's limit of 100 levels."""


def _indentation(line):
    return len(line) - len(line.lstrip(' '))


_INDENT = '    '


def _function(name, params, body):
    return ast.FunctionDef(
        name=name, args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params],
                                      vararg=None, kwonlyargs=[], kw_defaults=[],
                                      kwarg=None, defaults=[]),
        body=body, decorator_list=[], returns=None, type_comment=None, lineno=None)


def _find_code(code, name):
    """The code object called `name` nested (at any depth) in `code`."""
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            if const.co_name == name:
                return const
            found = _find_code(const, name)
            if found is not None:
                return found
    return None


def defining_class(qualname):
    """The innermost class in a qualified name: 'Model' for 'Model.step' and for
    'Model.step.<locals>.inner'; None for 'f' and 'f.<locals>.g'."""
    parts = qualname.split('.')
    for i in range(len(parts) - 2, -1, -1):
        if '<locals>' not in (parts[i], parts[i + 1]):
            return parts[i]
    return None


def unparse_function(node):
    """The source of a converted function, as `to_code` shows it."""
    return compact(unparse(node)) + '\n'


def _fill_locations(tree, default_line):
    """Give nodes without a line the line of their nearest located ancestor."""
    def visit(node, line, col):
        if 'lineno' in node._attributes:
            if getattr(node, 'lineno', None) is None:
                node.lineno, node.col_offset = line, col
                node.end_lineno, node.end_col_offset = line, col
            line, col = node.lineno, getattr(node, 'col_offset', 0) or 0
        for child in ast.iter_child_nodes(node):
            visit(child, line, col)
    visit(tree, default_line, 0)


def _recorded_line_map(old_lines, parts, source_file, function_name, facts):
    """Generated line -> the user's Location, from the (line, line before) pairs recorded
    while unparsing (see autograph.unparsing.unparse_lines); a line's first pair counts.
    The lambdas of a line that hold code of other user lines (`parts`) become its
    Location's parts. (The map `_line_map` makes, without parsing the text again.)"""
    line_map = {}
    for line, old in old_lines:
        if line not in line_map:
            line_map[line] = origin.Location(source_file, old, function_name, facts.get(old))
    by_line = {}
    for line, first, end, old in parts:
        location = origin.Location(source_file, old, function_name, facts.get(old))
        by_line.setdefault(line, []).append((first, end, location))
    for line, found in by_line.items():
        if line in line_map:
            line_map[line] = dataclasses.replace(line_map[line],
                                                 parts=tuple(sorted(found, key=_first)))
    return line_map


def _first(part):
    return part[0]


def _line_map(compiled, text, module, source_file, function_name, first_line, facts):
    """Generated line -> the user's Location, by walking the compiled tree (`compiled`,
    or parsed from the generated source `text`) and the converted one together. (Computed
    when first needed: for an error message or a traceback.)"""
    if compiled is None:
        compiled = parse(text)
    _fill_locations(module, first_line)
    line_map = {}
    for new, old in zip(ast.walk(compiled), ast.walk(module)):
        line = getattr(new, 'lineno', None)
        if line is not None and line not in line_map and getattr(old, 'lineno', None):
            line_map[line] = origin.Location(source_file, old.lineno, function_name,
                                             facts.get(old.lineno))
    return line_map
