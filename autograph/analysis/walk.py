"""Fast tree walking: `ast.NodeVisitor`/`NodeTransformer` and `ast.iter_child_nodes` as the
converter uses them, at a fraction of the cost.

The standard ones look up `visit_<Class>` by name on every node, go through two generators
per node, and visit the context and operator nodes (`Load`, `Add`, ...) that every name and
operator carries, none of which the converter looks at as nodes (it reads them as fields of
their parent: `node.ctx`, `node.op`). These do the same walk with a per-class method table
and skip those leaves unless the visitor has a method for them: the same calls on the same
nodes, in the same order, with the same results.
"""
import ast

LOOPS = (ast.While, ast.For)
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
"""The statements that repeat their body, and those that open a new scope."""

_LEAVES = (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)
"""Node classes without children that no converter visitor looks at."""

_LEAF_FIELDS = frozenset({'ctx', 'op', 'ops'})
"""The fields that hold `_LEAVES` (and only those)."""


def children(node):
    """The child nodes of `node` other than `_LEAVES`, in `ast.iter_child_nodes` order, as
    a list."""
    return CHILDREN[node.__class__](node)


def _all_children(node):
    """`children`, by the general loop over the node's fields (see `_children_of`)."""
    out = []
    for field, mixed in _CHILD_FIELDS[node.__class__]:
        value = getattr(node, field, None)
        if value.__class__ is list:
            if mixed:
                out += [item for item in value if isinstance(item, _AST)]
            else:
                out += value
        elif isinstance(value, _AST):
            out.append(value)
    return out


_AST = ast.AST

_MIXED_LISTS = frozenset({(ast.Dict, 'keys'), (ast.arguments, 'kw_defaults'),
                          (ast.Global, 'names'), (ast.Nonlocal, 'names'),
                          (ast.MatchClass, 'kwd_attrs')})
"""The list fields that hold more than nodes: None for `**d` in a dict display and for a
keyword-only parameter without a default, identifiers in the others."""


def nodes(tree):
    """Every node of `tree` other than `_LEAVES`, in `ast.walk` order (breadth first), as a
    list."""
    out = [tree]
    table = CHILDREN
    for node in out:   # (the list grows as it is read: each node once, level by level)
        cls = node.__class__
        if cls is not _NAME and cls is not _CONSTANT:   # (the commonest leaves)
            out += table[cls](node)
    return out


_NAME, _CONSTANT = ast.Name, ast.Constant


def blocks(stmt):
    """The statement lists directly inside a compound statement."""
    fields = _BLOCK_FIELDS.get(stmt.__class__)
    if fields is None:
        fields = _BLOCK_FIELDS[stmt.__class__] = tuple(
            f for f in ('body', 'orelse', 'finalbody', 'handlers', 'cases')
            if f in stmt._fields)
    out = []
    for field in fields:
        value = getattr(stmt, field, None)
        if value.__class__ is list:
            if field == 'handlers' or field == 'cases':   # (a `match` that stays Python)
                out += [part.body for part in value]
            else:
                out.append(value)
    return out


_BLOCK_FIELDS = {}
"""node class -> its fields that may hold statement lists, `except` handlers or cases."""


def statements_in(stmt_lists):
    """Every statement of the lists `stmt_lists` and of the blocks of their compound
    statements, parents before children, as a list (not the bodies of nested functions
    and classes, which are scopes of their own)."""
    out, pending = [], list(stmt_lists)
    while pending:
        for stmt in pending.pop():
            out.append(stmt)
            if not isinstance(stmt, SCOPES):
                pending += blocks(stmt)
    return out


def node_fields(cls):
    """The fields of node class `cls` that may hold nodes (not names, numbers, flags)."""
    return tuple(f for f in cls._fields if f not in _SCALAR_FIELDS
                 and not (f == 'value' and cls in (ast.Constant, ast.MatchSingleton)))


_SCALAR_FIELDS = frozenset({'id', 'attr', 'arg', 'name', 'module', 'level', 'is_async',
                            'kind', 'type_comment', 'asname', 'conversion', 'tag'})
"""Fields that the grammar types as identifiers, strings, numbers or constants."""


class _FieldTable(dict):
    """node class -> the fields `select(class)` gives, computed on first use."""

    def __init__(self, select):
        super().__init__()
        self.select = select

    def __missing__(self, cls):
        fields = self[cls] = self.select(cls)
        return fields


_NODE_FIELDS = _FieldTable(node_fields)
_BRANCH_FIELDS = _FieldTable(lambda cls: tuple(f for f in node_fields(cls)
                                               if f not in _LEAF_FIELDS))
"""node class -> its fields that may hold nodes, with or without those holding leaves."""
_CHILD_FIELDS = _FieldTable(lambda cls: tuple((f, (cls, f) in _MIXED_LISTS)
                                              for f in _BRANCH_FIELDS[cls]))
"""node class -> (field, whether its list may hold more than nodes) for `children`: the
fields of _BRANCH_FIELDS (one table look-up per node instead of one per field)."""


def _children_of(cls):
    """The function `children` calls for a node of class `cls`: `_all_children` written
    out for its fields (read by name, with the same tests of each value), where the
    general loop reads each field by `getattr` from a table (the walks of the passes
    call `children` for every node). A node built without one of its fields (a node
    made by hand may lack an optional one) is read by the general loop."""
    fields = _CHILD_FIELDS[cls]
    if not fields:
        return _no_children
    lines = ['def children_of(node):', '    try:']
    lines += [f'        v{i} = node.{field}' for i, (field, _) in enumerate(fields)]
    lines += ['    except AttributeError:', '        return _all_children(node)',
              '    out = []']
    for i, (_, mixed) in enumerate(fields):
        lines += [f'    if v{i}.__class__ is list:',
                  f'        out += [item for item in v{i} if isinstance(item, _AST)]'
                  if mixed else f'        out += v{i}',
                  f'    elif isinstance(v{i}, _AST):',
                  f'        out.append(v{i})']
    lines.append('    return out')
    namespace = {'_AST': _AST, '_all_children': _all_children}
    exec('\n'.join(lines), namespace)   # (field names are identifiers of `ast`'s classes)
    return namespace['children_of']


def _no_children(node):
    return []


CHILDREN = _FieldTable(_children_of)
"""node class -> the function giving the `children` of its nodes (`CHILDREN[node.__class__]
(node)` is `children(node)` without one call, for the hottest walks)."""


class _Dispatch(dict):
    """The per-class table of a visitor class: node class -> its `visit_<Class>` (or None
    for generic_visit), computed on first use; `fields`: the node fields its
    generic_visit walks (without the leaves' unless it visits some)."""

    def __init__(self, visitor_class):
        super().__init__()
        self.visitor_class = visitor_class
        visits_leaves = any(
            name.startswith('visit_') and isinstance(getattr(ast, name[6:], None), type)
            and issubclass(getattr(ast, name[6:]), _LEAVES) for name in dir(visitor_class))
        self.fields = _NODE_FIELDS if visits_leaves else _BRANCH_FIELDS

    def __missing__(self, node_class):
        method = getattr(self.visitor_class, 'visit_' + node_class.__name__, None)
        if method is _CONSTANT_SHIM:   # only for visit_Num & co., which none defines
            method = None
        if (method is None and self.fields is _BRANCH_FIELDS and node_class in _TERMINALS
                and self.visitor_class.visit is _Walker.visit):
            method = _unchanged   # (generic_visit walks past these: see Visitor)
        self[node_class] = method
        return method


_CONSTANT_SHIM = ast.NodeVisitor.visit_Constant
_TERMINALS = (ast.Name, ast.Constant)
"""Nodes with nothing under them but a context: generic_visit leaves them as they are."""


def _unchanged(visitor, node):
    return node


class _Walker:
    """What Visitor and Transformer share: each subclass gets its own dispatch table."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._ag_dispatch = _Dispatch(cls)

    def visit(self, node):
        method = self._ag_dispatch[node.__class__]
        if method is None:
            return self.generic_visit(node)
        return method(self, node)


class Visitor(_Walker, ast.NodeVisitor):
    """`ast.NodeVisitor`, faster (see the module docstring). Its generic_visit does not
    even call `visit` for the names and constants that no method of the visitor looks at
    (the commonest nodes)."""

    def generic_visit(self, node):
        visit = self.visit
        dispatch = self._ag_dispatch
        if dispatch.fields is _BRANCH_FIELDS:   # (no leaves: the nodes `children` gives)
            for item in CHILDREN[node.__class__](node):
                if dispatch[item.__class__] is not _unchanged:
                    visit(item)
            return
        for field in dispatch.fields[node.__class__]:
            value = getattr(node, field, None)
            if value.__class__ is list:
                for item in value:
                    if isinstance(item, ast.AST) and \
                            dispatch[item.__class__] is not _unchanged:
                        visit(item)
            elif isinstance(value, ast.AST) and \
                    dispatch[value.__class__] is not _unchanged:
                visit(value)


class Transformer(_Walker, ast.NodeTransformer):
    """`ast.NodeTransformer`, faster (see the module docstring and Visitor)."""

    def generic_visit(self, node):
        dispatch = self._ag_dispatch
        for field in dispatch.fields[node.__class__]:
            try:
                old = getattr(node, field)
            except AttributeError:
                continue
            if isinstance(old, list):
                new_values = []
                for value in old:
                    if isinstance(value, ast.AST) and \
                            dispatch[value.__class__] is not _unchanged:
                        value = self.visit(value)
                        if value is None:
                            continue
                        if not isinstance(value, ast.AST):
                            new_values.extend(value)
                            continue
                    new_values.append(value)
                old[:] = new_values
            elif isinstance(old, ast.AST):
                if dispatch[old.__class__] is _unchanged:
                    continue
                new = self.visit(old)
                if new is None:
                    delattr(node, field)
                else:
                    setattr(node, field, new)
        return node
