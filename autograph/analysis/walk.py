"""Fast tree walking: `ast.NodeVisitor`/`NodeTransformer` and `ast.iter_child_nodes` as the
converter uses them, at a fraction of the cost.

The standard ones look up `visit_<Class>` by name on every node, go through two generators
per node, and visit the context and operator nodes (`Load`, `Add`, ...) that every name and
operator carries, none of which the converter's visitors look at. These do the same walk
with a per-class method table and skip those leaves unless the visitor has a method for
them: the same calls on the same nodes, in the same order, with the same results.
"""
import ast

_LEAVES = (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)
"""Node classes without children that no converter visitor looks at."""


def children(node):
    """The child nodes of `node`, in `ast.iter_child_nodes` order, as a list."""
    out = []
    cls = node.__class__
    for field in _NODE_FIELDS[cls]:
        value = getattr(node, field, None)
        if isinstance(value, list):
            out += [item for item in value if isinstance(item, ast.AST)]
        elif isinstance(value, ast.AST):
            out.append(value)
    return out


def node_fields(cls):
    """The fields of node class `cls` that may hold nodes (not names, numbers, flags)."""
    return tuple(f for f in cls._fields if f not in _SCALAR_FIELDS
                 and not (f == 'value' and cls in (ast.Constant, ast.MatchSingleton)))


_SCALAR_FIELDS = frozenset({'id', 'attr', 'arg', 'name', 'module', 'level', 'is_async',
                            'kind', 'type_comment', 'asname', 'conversion', 'tag'})
"""Fields that the grammar types as identifiers, strings, numbers or constants."""


class _FieldTable(dict):
    """node class -> node_fields(class), computed on first use."""

    def __missing__(self, cls):
        fields = self[cls] = node_fields(cls)
        return fields


_NODE_FIELDS = _FieldTable()


class _Dispatch:
    """The per-class table of a visitor class: node class -> its `visit_<Class>` (or None
    for generic_visit), and whether leaves need visiting at all."""

    def __init__(self, visitor_class):
        self.methods = {}
        self.visitor_class = visitor_class
        self.skip_leaves = not any(
            name.startswith('visit_') and isinstance(getattr(ast, name[6:], None), type)
            and issubclass(getattr(ast, name[6:]), _LEAVES) for name in dir(visitor_class))

    def method(self, node_class):
        try:
            return self.methods[node_class]
        except KeyError:
            method = getattr(self.visitor_class, 'visit_' + node_class.__name__, None)
            if method is _CONSTANT_SHIM:   # only for visit_Num & co., which none defines
                method = None
            if method is None and self.skip_leaves and node_class in _TERMINALS:
                method = _unchanged
            self.methods[node_class] = method
            return method


_CONSTANT_SHIM = ast.NodeVisitor.visit_Constant
_TERMINALS = (ast.Name, ast.Constant)
"""Nodes with nothing under them but a context: generic_visit leaves them as they are."""


def _unchanged(visitor, node):
    return node


def _dispatch(visitor):
    cls = type(visitor)
    table = cls.__dict__.get('_ag_dispatch')
    if table is None:
        table = _Dispatch(cls)
        setattr(cls, '_ag_dispatch', table)
    return table


class Visitor(ast.NodeVisitor):
    """`ast.NodeVisitor`, faster (see the module docstring)."""

    def visit(self, node):
        method = _dispatch(self).method(node.__class__)
        if method is None:
            return self.generic_visit(node)
        return method(self, node)

    def generic_visit(self, node):
        table = _dispatch(self)
        skip = table.skip_leaves
        for field in _NODE_FIELDS[node.__class__]:
            value = getattr(node, field, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST) and not (skip and isinstance(item, _LEAVES)):
                        self.visit(item)
            elif isinstance(value, ast.AST) and not (skip and isinstance(value, _LEAVES)):
                self.visit(value)


class Transformer(ast.NodeTransformer):
    """`ast.NodeTransformer`, faster (see the module docstring)."""

    visit = Visitor.visit

    def generic_visit(self, node):
        skip = _dispatch(self).skip_leaves
        for field in _NODE_FIELDS[node.__class__]:
            try:
                old = getattr(node, field)
            except AttributeError:
                continue
            if isinstance(old, list):
                new_values = []
                for value in old:
                    if isinstance(value, ast.AST) and not (skip and isinstance(value, _LEAVES)):
                        value = self.visit(value)
                        if value is None:
                            continue
                        if not isinstance(value, ast.AST):
                            new_values.extend(value)
                            continue
                    new_values.append(value)
                old[:] = new_values
            elif isinstance(old, ast.AST) and not (skip and isinstance(old, _LEAVES)):
                new = self.visit(old)
                if new is None:
                    delattr(node, field)
                else:
                    setattr(node, field, new)
        return node
