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

A call may create one too: `fill(o, n)` where `fill` creates its parameter's `x` on some
paths (analysis.created_attributes: a global, closure or nested function, read from its
source), or one called inside such a statement that creates it at all.

Checked: the statements after such a statement in its block (and the blocks inside
them), up to one that assigns `o.x` or `o` itself. Reads inside lambdas and nested
functions are not (they may run where Python does not read).
"""
import ast

from autograph import templates
from autograph.analysis import created_attributes
from autograph.analysis.activity import scope_of
from autograph.analysis.census import ATTRIBUTE_DICT, ATTRIBUTE_STORE
from autograph.analysis.walk import SCOPES, blocks, children
from autograph.analysis.written_parameters import split_call
from autograph.passes.called_functions import defined_once

_OWN = (ATTRIBUTE_STORE, ATTRIBUTE_DICT, 'setattr', ast.Delete)   # see analysis.census
ONLY_WITH = _OWN + (ast.Call,)
_COMPOUND = (ast.If, ast.While, ast.For)


def transform(function, ctx):
    resolve = _creators(function, ctx)
    if resolve is not None or ctx.census.has_any(_OWN):
        function.body = _checked(function.body, frozenset(), ctx, resolve)
    return function


def _creators(function, ctx):
    """`resolve(name)` -> the analysis.created_attributes.Created of the function a call
    names, for the functions that create attributes of their parameters (live globals
    and closures, and `def`s of `function`); None when no name refers to one."""
    globals_ = getattr(ctx.resolver, 'globals', {})
    closure = getattr(ctx.resolver, 'closure', {})
    found = {}
    for name in ctx.census.names():
        value = closure.get(name, globals_.get(name))
        if value is not None and hasattr(value, '__code__'):
            created = created_attributes.of_function(value)
            if created.anywhere:
                found[name] = created
    local = {}
    if len(ctx.census.scopes) > 1 and ctx.census.has_any(_OWN):
        made = ctx.namer.made
        for node in defined_once(function):   # (in order: one may call those before it)
            local[node.name] = created_attributes.of_tree(node, local.get, made, ctx.ag)
    if not found and not any(c.anywhere for c in local.values()):
        return None
    hidden = scope_of(function).locals
    return lambda name: local.get(name) or (found.get(name) if name not in hidden else None)


def _checked(stmts, maybe, ctx, resolve):
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
                block[:] = _checked(block, maybe, ctx, resolve)
        out.append(stmt)
        if maybe:
            maybe -= _attributes(own, (ast.Store, ast.Del))   # (exists after it, or not)
            names = _names_assigned(own)
            maybe -= {(name, attr) for name, attr in maybe if name in names}
        if isinstance(stmt, _COMPOUND):
            maybe |= _created(stmt, ctx.ag)
        if resolve is not None and not isinstance(stmt, SCOPES):
            maybe |= _created_by_calls(stmt, own or _own_nodes(stmt), resolve, ctx.ag)
    return out


def _created_by_calls(stmt, own, resolve, ag):
    """(name, attr) that the calls of `stmt` may create on some paths: those its own
    expressions `own` make (created on some paths by the function called), and for an
    `if`/`while`/`for`, any its blocks' calls make."""
    found = _call_creations(own, resolve, ag, 'some_paths')
    if isinstance(stmt, _COMPOUND):
        inner = [node for block in blocks(stmt) for s in block for node in _walk_scope(s)]
        found |= _call_creations(inner, resolve, ag, 'anywhere')
    return found


def _call_creations(nodes, resolve, ag, which):
    found = set()
    for node in nodes:
        if node.__class__ is not ast.Call:
            continue
        func, args = split_call(node, ag)
        created = resolve(func.id) if isinstance(func, ast.Name) else None
        if created is None:
            continue
        for param, arg in zip(created.params, args):
            if isinstance(arg, ast.Starred):
                break
            if isinstance(arg, ast.Name):
                found |= {(arg.id, attr) for attr in getattr(created, which).get(param, ())}
    return found


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
