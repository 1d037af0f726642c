"""Building generated code: snippets of real Python with placeholder names.

`statements('flag = False', flag='did_break')` parses the snippet and replaces each
placeholder: a string renames the name; a gast expression takes its place; a list of
statements replaces a placeholder that stands alone as a statement. Replacing a name the
snippet does not contain is an error, so templates and their callers cannot drift apart.
Generated nodes carry no location until `set_origin` gives them the user's.
"""
import copy

import gast

_LOCATION = ('lineno', 'col_offset', 'end_lineno', 'end_col_offset')


def statements(template, **replacements):
    tree = gast.parse(template.strip())
    _strip_locations(tree)
    used = set()
    body = _replace_block(tree.body, replacements, used)
    missing = set(replacements) - used
    if missing:
        raise ValueError(f'template has no placeholder {sorted(missing)}: {template!r}')
    return body


def expression(template, **replacements):
    (stmt,) = statements(template, **replacements)
    return stmt.value


def _replace_block(stmts, replacements, used):
    out = []
    for stmt in stmts:
        if (isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Name)
                and isinstance(replacements.get(stmt.value.id), list)):
            used.add(stmt.value.id)
            out.extend(replacements[stmt.value.id])
            continue
        out.append(_Replacer(replacements, used).visit(stmt))
    return out


class _Replacer(gast.NodeTransformer):
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
        new = copy.deepcopy(new)
        if hasattr(new, 'ctx'):
            _set_ctx(new, node.ctx)
        return new

    def generic_visit(self, node):
        for field in ('body', 'orelse'):
            block = getattr(node, field, None)
            if isinstance(block, list):
                setattr(node, field, _replace_block(block, self.replacements, self.used))
        for field, value in gast.iter_fields(node):
            if field in ('body', 'orelse'):
                continue
            if isinstance(value, list):
                setattr(node, field, [self.visit(v) if isinstance(v, gast.AST) else v
                                      for v in value])
            elif isinstance(value, gast.AST):
                setattr(node, field, self.visit(value))
        return node

    def visit_FunctionDef(self, node):
        if node.name in self.replacements:
            self.used.add(node.name)
            node.name = self.replacements[node.name]
        return self.generic_visit(node)

    def visit_arguments(self, node):
        # A placeholder argument list `(*params)` takes a list of names.
        if node.vararg is not None and isinstance(self.replacements.get(node.vararg.id), list):
            self.used.add(node.vararg.id)
            node.args = [name(n, gast.Param()) for n in self.replacements[node.vararg.id]]
            node.vararg = None
        return node


def _set_ctx(node, ctx):
    node.ctx = ctx
    if isinstance(node, (gast.Tuple, gast.List)):
        for element in node.elts:
            _set_ctx(element, ctx)


def _strip_locations(tree):
    for node in gast.walk(tree):
        for attr in _LOCATION:
            if hasattr(node, attr):
                setattr(node, attr, None)


def set_origin(nodes, origin):
    """Give every generated node without a location the location of `origin`."""
    for tree in nodes:
        for node in gast.walk(tree):
            if ('lineno' in node._attributes and getattr(node, 'lineno', None) is None
                    and hasattr(origin, 'lineno')):
                for attr in _LOCATION:
                    setattr(node, attr, getattr(origin, attr, None))
    return nodes


def name(identifier, ctx=None):
    return gast.Name(id=identifier, ctx=ctx or gast.Load(), annotation=None,
                     type_comment=None)


def names_tuple(identifiers, ctx=None):
    """`a` for one name, `a, b` for several, as a target or a value."""
    ctx = ctx or gast.Load()
    if len(identifiers) == 1:
        return name(identifiers[0], ctx)
    return gast.Tuple(elts=[name(i, ctx) for i in identifiers], ctx=ctx)


def tuple_of(identifiers):
    """`(a,)` / `(a, b)`: the state passed to an operator."""
    return gast.Tuple(elts=[name(i) for i in identifiers], ctx=gast.Load())


def strings(values):
    return gast.Tuple(elts=[gast.Constant(value=v, kind=None) for v in values],
                      ctx=gast.Load())
