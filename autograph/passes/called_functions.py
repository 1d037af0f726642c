"""The functions a converted function calls, by name, known by the parameters whose
items they write (analysis.written_parameters): a live global or closure function, or
a `def` of the tree (its own, or one of a function it is nested in: a sibling helper),
read before or after the passes converted it (`ag.written(v, a=a)` then names what it
writes). Used by passes.written_arguments and passes.views."""
import ast
import types

from autograph.analysis.activity import scope_of
from autograph.analysis.walk import children
from autograph.analysis.written_parameters import (LocalFunction, of_function, of_tree,
                                                   parameters)
from autograph.passes.base import SCOPES


def call_resolver(function, ctx, scope=None):
    """`resolve(name)` for the calls in `function` (see `_resolver`), the functions it
    defines known by the parameters they write."""
    scope = scope or scope_of(function)
    local = {}
    resolve = _resolver(ctx, scope.locals, local)
    if ctx.census is not None and len(ctx.census.scopes) == 1:
        return resolve   # (no `def` in the tree)
    for node in defined_once(function):   # (in order: one may call those before it)
        local[node.name] = LocalFunction(parameters(node), _reported(node, ctx)
                                         or of_tree(node, resolve, ctx.ag))
    defs = {other.name for other in ctx.census.scopes if other is not function}
    siblings = None

    def sibling(name):   # (a `def` of a function it is nested in, found when first asked)
        nonlocal siblings
        if name not in defs:
            return None
        if siblings is None:
            siblings = {}
            siblings.update(_siblings(function, ctx, set(scope.locals) | set(local), resolve))
        return siblings.get(name)
    resolve.sibling = sibling
    return resolve


class LazyResolver:
    """`call_resolver(function, ctx)`, made when first asked (a pass that may need it
    only for some statements: finding the `def`s' written parameters walks each)."""

    def __init__(self, function, ctx):
        self._made, self._args = None, (function, ctx)

    def __call__(self, name):
        return self._resolver()(name)

    def __getattr__(self, attr):   # (`sibling`)
        return getattr(self._resolver(), attr)

    def _resolver(self):
        if self._made is None:
            self._made = call_resolver(*self._args)
        return self._made


def _siblings(function, ctx, hidden, resolve):
    """{name: LocalFunction} of the `def`s of the functions `function` is nested in
    that its code can name (not hidden by a name bound in a function nearer to it)."""
    found = {}
    enclosing = [scope for scope in ctx.census.scopes if scope is not function
                 and any(node is function for node in ast.walk(scope))]
    for outer in enclosing:   # (innermost first)
        for node in defined_once(outer):
            if node.name not in hidden and node.name not in found:
                found[node.name] = LocalFunction(parameters(node), _reported(node, ctx)
                                                 or of_tree(node, resolve, ctx.ag))
        hidden = hidden | scope_of(outer).locals
    return found


def names_writing_function(ctx):
    """Whether a name of the function's tree (analysis.census) refers to a global or
    closure function that writes items of its parameters."""
    resolve = _resolver(ctx, frozenset(), {})
    return any(of_function(fn) for fn in map(resolve, ctx.census.names()) if fn is not None)


def changes_elsewhere(ctx):
    """Whether a variable of the function may be changed in place by code other than
    its own statements: a function nested in it, or a called function that writes items
    of its parameters (True without a census)."""
    return ctx.census is None or len(ctx.census.scopes) > 1 or names_writing_function(ctx)


def _reported(function, ctx):
    """The parameters a nested function converted already reports (`ag.written(v, a=a)`,
    see passes.argument_reports), in parameter order: in its own body or in the branch
    and loop functions the converter made of it (a `return` under an `if`)."""
    names, stack = set(), list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, SCOPES):
            if isinstance(node, ast.FunctionDef) and node.name in ctx.namer.made:
                stack += node.body
            continue
        stack += children(node)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == 'written' and isinstance(node.func.value, ast.Name)
                and node.func.value.id == ctx.ag):
            names.update(k.arg for k in node.keywords)
    return tuple(p for p in parameters(function) if p in names)


def defined_once(function):
    """The `def`s directly in `function`'s body (at any depth of its statements, not in
    nested functions) whose name nothing else in it binds."""
    defs, bound = [], {}
    queue = list(function.body)
    for node in queue:   # (breadth first: the queue grows as it is read)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound[node.name] = bound.get(node.name, 0) + 1
            if isinstance(node, ast.FunctionDef):
                defs.append(node)
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound[node.id] = bound.get(node.id, 0) + 1
        queue += [c for c in children(node) if not isinstance(c, SCOPES)]
    return [node for node in defs if bound[node.name] == 1]


def _resolver(ctx, local_names, local_functions):
    """`resolve(name)`: the function a name refers to: a LocalFunction of
    `local_functions`, a live global or closure function, or None."""
    globals_ = getattr(ctx.resolver, 'globals', None)
    closure = getattr(ctx.resolver, 'closure', {})

    def resolve(name):
        if name in local_functions:
            return local_functions[name]
        if name in local_names:
            return None
        found = resolve.sibling(name)
        if found is not None or globals_ is None:
            return found
        value = closure.get(name, globals_.get(name))
        return value if callable(value) and hasattr(value, '__code__') else None
    resolve.sibling = lambda name: None   # (see `call_resolver`)

    def module(name):   # (the module a name refers to, for analysis.view_chains)
        if name in local_functions or name in local_names:
            return None
        value = closure.get(name, globals_.get(name))
        return value if isinstance(value, types.ModuleType) else None
    resolve.module = module if globals_ is not None else None
    return resolve
