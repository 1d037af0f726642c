"""Reads of an attribute that a staged statement may create on some paths only ->
`ag.check_field(o, 'x')` before them.

    o = Box()                      o = Box()
    while n > 0:                   while n > 0:
        o.x = n                        o.x = n
        n -= 1                         n -= 1
    return o.x             ->      ag.check_field(o, 'x')
                                   return o.x

An `if`, `while` or `for` whose blocks assign `o.x` without reading it may create the
attribute, and one whose blocks delete it (`del o.x`) may remove it (also by a constant
name: `setattr(o, 'x', v)`, `vars(o)['x'] = v`, which the passes before made
`ag.setattr(o, 'x', v)` and `ag.attributes(o)['x'] = v`). Staged, the object holds
the value afterwards and a flag says where Python's has it (runtime.state.mutation,
runtime.context.field_flag); the check raises Python's AttributeError when the program
runs on a path that left it unset. Where the attribute was there before, or the
statement ran as Python, the check does nothing.

Checked: the statements after such a statement in its block (and the blocks inside
them), up to one that assigns `o.x` or `o` itself. Reads inside lambdas and nested
functions are not (they may run where Python does not read).
"""
import ast

from autograph import templates
from autograph.analysis.census import ATTRIBUTE_DICT, ATTRIBUTE_STORE
from autograph.analysis.walk import SCOPES, blocks, children

ONLY_WITH = (ATTRIBUTE_STORE, ATTRIBUTE_DICT, 'setattr', ast.Delete)   # see analysis.census
_COMPOUND = (ast.If, ast.While, ast.For)


def transform(function, ctx):
    function.body = _checked(function.body, frozenset(), ctx)
    return function


def _checked(stmts, maybe, ctx):
    out, maybe = [], set(maybe)
    for stmt in stmts:
        own = _own_nodes(stmt) if maybe else ()
        if maybe:
            reads = sorted(_own_reads(stmt, own) & maybe)
            out += templates.set_origin([templates.statements(
                'ag.check_field(obj, attr)', obj=name,
                attr=ast.Constant(value=attr), ag=ctx.ag)[0] for name, attr in reads], stmt)
        if not isinstance(stmt, SCOPES):
            for block in blocks(stmt):
                block[:] = _checked(block, maybe, ctx)
        out.append(stmt)
        if maybe:
            maybe -= _attributes(own, (ast.Store, ast.Del))   # (exists after it, or not)
            names = _names_assigned(own)
            maybe -= {(name, attr) for name, attr in maybe if name in names}
        if isinstance(stmt, _COMPOUND):
            maybe |= _created(stmt, ctx.ag)
    return out


def _attributes(nodes, context):
    """(name, attr) of the `name.attr` nodes among `nodes` in `context` (Load, Store)."""
    return {(node.value.id, node.attr) for node in nodes
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, context)
            and isinstance(node.value, ast.Name)}


def _own_nodes(stmt):
    """The nodes of `stmt`'s own expressions (not its blocks', lambdas' or nested
    functions'), as a list."""
    out, stack = [], [c for c in children(stmt) if not isinstance(c, ast.stmt)]
    while stack:
        node = stack.pop()
        out.append(node)
        if node.__class__ is not ast.Lambda:
            stack += [c for c in children(node) if not isinstance(c, ast.stmt)]
    return out


def _own_reads(stmt, own):
    """The attributes read by `stmt`'s own expressions `own` (none for a `try`)."""
    if isinstance(stmt, SCOPES + (ast.Try,)):
        return set()
    return _attributes(own, ast.Load)


def _names_assigned(own):
    return {node.id for node in own
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}


def _created(stmt, ag):
    """The attributes the blocks of `stmt` assign and never read (those it reads must
    exist before it, on the paths Python runs)."""
    nodes = [node for block in blocks(stmt) for inner in block
             for node in _walk_scope(inner)]
    return (_attributes(nodes, ast.Store) | _attributes(nodes, ast.Del) | _named(nodes, ag)) \
        - _attributes(nodes, ast.Load)


def _named(nodes, ag):
    """(name, attr) set by a constant name: `ag.setattr(name, 'attr', v)` and
    `ag.attributes(name)['attr'] = v`."""
    def runtime(func, attr):
        return (isinstance(func, ast.Attribute) and func.attr == attr
                and isinstance(func.value, ast.Name) and func.value.id == ag)

    def constant(node):
        return isinstance(node, ast.Constant) and isinstance(node.value, str)
    found = set()
    for node in nodes:
        if isinstance(node, ast.Call) and runtime(node.func, 'setattr') \
                and len(node.args) == 3 and isinstance(node.args[0], ast.Name) \
                and constant(node.args[1]):
            found.add((node.args[0].id, node.args[1].value))
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) \
                and isinstance(node.value, ast.Call) and runtime(node.value.func, 'attributes') \
                and len(node.value.args) == 1 and isinstance(node.value.args[0], ast.Name) \
                and constant(node.slice):
            found.add((node.value.args[0].id, node.slice.value))
    return found


def _walk_scope(stmt):
    """The nodes of `stmt`, not inside nested functions, classes or lambdas."""
    stack = [stmt]
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, SCOPES):   # (Lambda among them)
            stack += children(node)
