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
paths (analysis.created_attributes: a global, closure or nested function, or a method:
`self.fill(n)` in a method, `o.fill(n)` for the module's classes' methods named `fill`,
read from its source), or one called inside such a statement that creates it at all.

Checked: the statements after such a statement in its block (and the blocks inside
them), up to one that assigns `o.x` or `o` itself. Reads inside lambdas and nested
functions are not (they may run where Python does not read).
"""
import ast
import inspect

from autograph import templates
from autograph.analysis import created_attributes
from autograph.analysis.activity import scope_of
from autograph.analysis.census import ATTRIBUTE_DICT, ATTRIBUTE_STORE
from autograph.analysis.walk import SCOPES, blocks, children
from autograph.passes.called_functions import defined_once

_OWN = (ATTRIBUTE_STORE, ATTRIBUTE_DICT, 'setattr', ast.Delete)   # see analysis.census
ONLY_WITH = _OWN + (ast.Call,)
_COMPOUND = (ast.If, ast.While, ast.For)


def transform(function, ctx):
    callees = _creators(function, ctx)
    if callees is not None or ctx.census.has_any(_OWN):
        function.body = _checked(function.body, frozenset(), ctx, callees)
    return function


def _creators(function, ctx):
    """The analysis.created_attributes.Callees of `function`'s calls, where one may
    reach a function that creates attributes of its parameters (a live global or
    closure function or class's `__init__`, a `def` of `function`, a method of
    `self`'s class, a method of that name of a class of the module, for an object of
    unknown class); else None."""
    globals_ = getattr(ctx.resolver, 'globals', {})
    closure = getattr(ctx.resolver, 'closure', {})
    found = {}
    for name in ctx.census.names():
        value = closure.get(name, globals_.get(name))
        if isinstance(value, type):   # (a class: what its `__init__` creates)
            init = created_attributes.class_attribute(value, '__init__')
            if inspect.isfunction(init) and created_attributes.of_function(init).anywhere:
                found[name] = value
        elif inspect.isfunction(value) and created_attributes.of_function(value).anywhere:
            found[name] = value
    local = {}
    if len(ctx.census.scopes) > 1 and ctx.census.has_any(_OWN):
        made = ctx.namer.made
        callees = created_attributes.Callees(local.get)
        for node in defined_once(function):   # (in order: one may call those before it)
            local[node.name] = created_attributes.of_tree(node, callees, made, ctx.ag)
    local = {name: created for name, created in local.items() if created.anywhere}
    code = getattr(ctx.resolver, 'code', None)
    owner = getattr(ctx.resolver, 'owner', None)
    receivers = ({function.args.args[0].arg: owner} if owner is not None
                 and function is ctx.census.scopes[-1] and function.args.args
                 and created_attributes.may_create_in_class(owner, skip=code) else {})
    names = created_attributes.attribute_names(code) if code is not None else ()
    methods = created_attributes.methods_named(globals_, names) if names else {}
    if not (found or local or receivers or methods):
        return None
    hidden = scope_of(function).locals if found else frozenset()
    callees = created_attributes.Callees(
        lambda name: local.get(name) or (found.get(name) if name not in hidden else None),
        receivers, methods)
    if found or local:
        return callees
    # (methods called on objects: read the methods called only)
    calls = (n for stmt in function.body for n in _walk_scope(stmt)
             if n.__class__ is ast.Call)
    return callees if any(callees.created(call, ctx.ag) for call in calls) else None


def _checked(stmts, maybe, ctx, callees):
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
                block[:] = _checked(block, maybe, ctx, callees)
        out.append(stmt)
        if maybe:
            maybe -= _attributes(own, (ast.Store, ast.Del))   # (exists after it, or not)
            names = _names_assigned(own)
            maybe -= {(name, attr) for name, attr in maybe if name in names}
        if isinstance(stmt, _COMPOUND):
            maybe |= _created(stmt, ctx.ag)
        if callees is not None and not isinstance(stmt, SCOPES):
            maybe |= _created_by_calls(stmt, own or _own_nodes(stmt), callees, ctx.ag)
    return out


def _created_by_calls(stmt, own, callees, ag):
    """(name, attr) that the calls of `stmt` may create on some paths: those its own
    expressions `own` make (created on some paths by the function called, or by the
    `__init__` of the class whose new object `stmt` assigns), and for an
    `if`/`while`/`for`, any its blocks' calls make."""
    found = _call_creations(own, callees, ag, 'some_paths')
    found.update((name, attr) for name, attrs in callees.constructed(stmt, ag)
                 for attr in attrs)
    if isinstance(stmt, _COMPOUND):
        inner = [node for block in blocks(stmt) for s in block for node in _walk_scope(s)]
        found |= _call_creations(inner, callees, ag, 'anywhere')
    return found


def _call_creations(nodes, callees, ag, which):
    found = set()
    for node in nodes:
        if node.__class__ is ast.Call:
            for name, some_paths, anywhere in callees.created(node, ag):
                found |= {(name, attr) for attr in (some_paths if which == 'some_paths'
                                                    else anywhere)}
    return found


def _attributes(nodes, context):
    """(name, attr) of the `name.attr` nodes among `nodes` in `context` (Load, Store)."""
    return {(node.value.id, node.attr) for node in nodes
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, context)
            and isinstance(node.value, ast.Name)}


def _own_nodes(stmt):
    """The nodes of `stmt`'s own expressions (not its blocks', lambdas' or nested
    functions'), as a list; in a comprehension, not the attributes of the names its
    `for` binds (`[b.x for b in bodies]`: its own `b`, not the function's)."""
    out, stack = [], [(c, frozenset()) for c in children(stmt) if not isinstance(c, ast.stmt)]
    while stack:
        node, shadowed = stack.pop()
        if node.__class__ is ast.Attribute and node.value.__class__ is ast.Name and \
                node.value.id in shadowed:
            continue
        out.append(node)
        if node.__class__ in _COMPREHENSIONS:
            shadowed = shadowed | {n.id for g in node.generators for n in ast.walk(g.target)
                                   if n.__class__ is ast.Name}
        if node.__class__ is not ast.Lambda:
            stack += [(c, shadowed) for c in children(node) if not isinstance(c, ast.stmt)]
    return out


_COMPREHENSIONS = frozenset({ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp})


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
