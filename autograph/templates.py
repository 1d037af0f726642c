"""Building generated code: snippets of real Python with placeholder names.

`statements('flag = False', flag='did_break')` parses the snippet and replaces each
placeholder: a string renames the name; an expression node takes its place; a list of
statements replaces a placeholder that stands alone as a statement. Replacing a name the
snippet does not contain is an error, so templates and their callers cannot drift apart.
Generated nodes carry no location until `set_origin` gives them the user's.
"""
import ast
import functools

from autograph.syntax_trees import parse

_LOCATION = ('lineno', 'col_offset', 'end_lineno', 'end_col_offset')


@functools.lru_cache(maxsize=None)
def _parsed(template):
    tree = parse(template.strip())
    _strip_locations(tree)
    return tree


def statements(template, **replacements):
    tree = _copy(_parsed(template))
    used = set()
    body = _replace_block(tree.body, replacements, used)
    missing = set(replacements) - used
    if missing:
        raise ValueError(f'template has no placeholder {sorted(missing)}: {template!r}')
    return body


def _copy(node):
    """A deep copy of a syntax tree (much faster than copy.deepcopy on small trees)."""
    if isinstance(node, list):
        return [_copy(item) for item in node]
    if not isinstance(node, ast.AST):
        return node
    new = type(node)(**{field: _copy(getattr(node, field)) for field in node._fields})
    for attr in node._attributes:
        if hasattr(node, attr):
            setattr(new, attr, getattr(node, attr))
    return new


def _replace_block(stmts, replacements, used):
    out = []
    for stmt in stmts:
        if (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Name)
                and isinstance(replacements.get(stmt.value.id), list)):
            used.add(stmt.value.id)
            out.extend(replacements[stmt.value.id])
            continue
        out.append(_Replacer(replacements, used).visit(stmt))
    return out


class _Replacer(ast.NodeTransformer):
    def __init__(self, replacements, used):
        self.replacements = replacements
        self.used = used

    def visit_Name(self, node):
        if node.id not in self.replacements:
            return node
        self.used.add(node.id)
        new = self.replacements[node.id]
        if isinstance(new, str):
            node.id = new
            return node
        new = _copy(new)
        if hasattr(new, 'ctx'):
            _set_ctx(new, node.ctx)
        return new

    def generic_visit(self, node):
        for field in ('body', 'orelse'):
            block = getattr(node, field, None)
            if isinstance(block, list):
                setattr(node, field, _replace_block(block, self.replacements, self.used))
        for field, value in ast.iter_fields(node):
            if field in ('body', 'orelse'):
                continue
            if isinstance(value, list):
                setattr(node, field, [self.visit(v) if isinstance(v, ast.AST) else v
                                      for v in value])
            elif isinstance(value, ast.AST):
                setattr(node, field, self.visit(value))
        return node

    def visit_FunctionDef(self, node):
        if node.name in self.replacements:
            self.used.add(node.name)
            node.name = self.replacements[node.name]
        return self.generic_visit(node)


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


def test(condition):
    """`lambda: condition`, the form the operators take a condition in (evaluated with
    operations on constants computed, see runtime.operators.conditionals); for one that
    assigns with `:=` (in the function's scope, which the lambda's own would hide)
    `lambda test=condition: test`."""
    if any(isinstance(n, ast.NamedExpr) for n in ast.walk(condition)):
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
