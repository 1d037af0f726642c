"""Building generated code: snippets of real Python with placeholder names.

`statements('flag = False', flag='did_break')` parses the snippet and replaces each
placeholder: a string renames the name; an expression node takes its place; a list of
statements replaces a placeholder that stands alone as a statement. Replacing a name the
snippet does not contain is an error, so templates and their callers cannot drift apart.
Generated nodes carry no location until `set_origin` gives them the user's.
"""
import ast
import copy
import functools

from autograph.syntax_trees import parse

_LOCATION = ('lineno', 'col_offset', 'end_lineno', 'end_col_offset')


@functools.lru_cache(maxsize=None)
def _parsed(template):
    tree = parse(template.strip())
    _strip_locations(tree)
    return tree


def statements(template, **replacements):
    used = set()
    body = _filled_block(_parsed(template).body, replacements, used)
    missing = set(replacements) - used
    if missing:
        raise ValueError(f'template has no placeholder {sorted(missing)}: {template!r}')
    return body


def store_copy(node):
    """A copy of the expression `node` (`M[i]`, `x`) as an assignment's target."""
    node = copy_tree(node)
    node.ctx = ast.Store()
    return node


def load_copy(node):
    """A copy of the target `node` (`M[i]`, `o.a`, `x`) as an expression that reads it."""
    node = copy_tree(node)
    node.ctx = ast.Load()
    return node


def copy_tree(tree, memo=None):
    """`copy.deepcopy(tree, memo)` for a syntax tree or a list of them, several times
    faster: the same copy (every attribute a node carries, nodes and lists that occur
    twice copied once, `memo` filled with id(original) -> copy), made without going
    through `__reduce_ex__` and `copy`'s per-object dispatch. Passes copy whole blocks
    (passes.returns copies what follows an `if` into its branches), so this matters."""
    return _copy_value(tree, {} if memo is None else memo)


def _copy_value(value, memo):
    cls = value.__class__
    if cls in _ATOMIC:
        return value
    copied = memo.get(id(value))
    if copied is not None:
        return copied
    if cls is list:
        copied = memo[id(value)] = []
        copied += [item if item.__class__ in _ATOMIC else _copy_value(item, memo)
                   for item in value]
        return copied
    if not isinstance(value, ast.AST):
        return copy.deepcopy(value, memo)
    copied = memo[id(value)] = cls.__new__(cls)
    copied.__dict__.update({key: item if item.__class__ in _ATOMIC
                            else _copy_value(item, memo)
                            for key, item in value.__dict__.items()})
    return copied


_ATOMIC = frozenset({str, int, float, bool, type(None), bytes, complex, type(Ellipsis)})
"""Values that `copy.deepcopy` returns as they are (it copies every other one)."""


def _filled_block(stmts, replacements, used):
    """Copies of the template's statements `stmts`, placeholders replaced (see
    `statements`); `used` collects the placeholders found."""
    out = []
    for stmt in stmts:
        if (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Name)
                and isinstance(replacements.get(stmt.value.id), list)):
            used.add(stmt.value.id)
            out.extend(replacements[stmt.value.id])
            continue
        out.append(_filled(stmt, replacements, used))
    return out


def _filled(node, replacements, used):
    """A copy of the template's node `node`, placeholders replaced: copying and replacing
    in one walk (templates are instantiated many times per conversion). The blocks of
    statements are `_filled_block`s; an expression `body`/`orelse` (of a lambda or `a if
    c else b`) is copied as it is."""
    cls = node.__class__
    if cls is ast.Name and node.id in replacements:
        used.add(node.id)
        new = replacements[node.id]
        if isinstance(new, str):
            new = copy_tree(node)
            new.id = replacements[node.id]
            return new
        new = copy_tree(new)
        if hasattr(new, 'ctx'):
            _set_ctx(new, copy_tree(node.ctx))
        return new
    fields = {}
    for key, value in node.__dict__.items():
        if value.__class__ is list:
            if key == 'body' or key == 'orelse':
                value = _filled_block(value, replacements, used)
            else:
                value = [_filled(item, replacements, used) if isinstance(item, ast.AST)
                         else item for item in value]
        elif isinstance(value, ast.AST) and key != 'body' and key != 'orelse':
            value = _filled(value, replacements, used)
        elif value.__class__ not in _ATOMIC:
            value = copy_tree(value)
        fields[key] = value
    copied = cls.__new__(cls)
    copied.__dict__.update(fields)
    if cls is ast.FunctionDef and copied.name in replacements:
        used.add(copied.name)
        copied.name = replacements[copied.name]
    return copied


def _set_ctx(node, ctx):
    node.ctx = ctx
    if isinstance(node, (ast.Tuple, ast.List)):
        for element in node.elts:
            _set_ctx(element, ctx)


def _strip_locations(tree):
    for node in ast.walk(tree):
        for attr in _LOCATION:
            if hasattr(node, attr):
                setattr(node, attr, None)


def set_origin(nodes, origin):
    """Give generated statements without a location the location of `origin`. (Nodes
    inside them without one take their parent's when the code is generated.)"""
    for node in nodes:
        if getattr(node, 'lineno', None) is None and hasattr(origin, 'lineno'):
            for attr in _LOCATION:
                setattr(node, attr, getattr(origin, attr, None))
    return nodes


def arguments(params):
    """The parameter list `(a, b, c)`."""
    return ast.arguments(args=[ast.arg(arg=p) for p in params], posonlyargs=[],
                          vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                          defaults=[])


def function(identifier, params, body):
    """`def identifier(*params): body`."""
    return ast.FunctionDef(name=identifier, args=arguments(params), body=body,
                            decorator_list=[], returns=None, type_comment=None,
                            type_params=[])


def thunk(body):
    """`lambda: body`."""
    return ast.Lambda(args=arguments([]), body=body)


def test(condition, walrus=True):
    """`lambda: condition`, the form the operators take a condition in (evaluated with
    operations on constants computed, see runtime.operators.conditionals); for one that
    assigns with `:=` (in the function's scope, which the lambda's own would hide)
    `lambda test=condition: test`. (`walrus` false: the caller knows there is no `:=`.)"""
    if walrus and any(isinstance(n, ast.NamedExpr) for n in ast.walk(condition)):
        args = arguments(['test'])
        args.defaults = [condition]
        return ast.Lambda(args=args, body=name('test'))
    return thunk(condition)


def name(identifier, ctx=None):
    return ast.Name(id=identifier, ctx=ctx or ast.Load())


def names_tuple(identifiers, ctx=None):
    """`a` for one name, `a, b` for several, as a target or a value."""
    ctx = ctx or ast.Load()
    if len(identifiers) == 1:
        return name(identifiers[0], ctx)
    return ast.Tuple(elts=[name(i, ctx) for i in identifiers], ctx=ctx)


def tuple_of(identifiers):
    """`(a,)` / `(a, b)`: the state passed to an operator."""
    return ast.Tuple(elts=[name(i) for i in identifiers], ctx=ast.Load())


def strings(values):
    return ast.Tuple(elts=[ast.Constant(value=v) for v in values],
                      ctx=ast.Load())
