"""Arrays that a called function writes items of: the caller's variable is rebound.

NumPy's `a[i] = v` in a helper writes into the caller's array. A JAX array cannot be
written in place (`a[i] = v` is `a = a.at[i].set(v)`, see passes.item_assignments), so a
function that writes items of its parameters reports their final values, and its callers
rebind the variables they passed (analysis.written_parameters finds which):

    swap(a, i, j)           ->  result, a = ag.call_writing((0,), swap, a, i, j)
    n = fill(out, x)        ->  n, out = ag.call_writing((0,), fill, out, x)
    merge(a[lo:hi])         ->  result, view = ag.call_writing((0,), merge, a[lo:hi])
                                a[lo:hi] = view      (a view: the write lands in `a`)

and in such a function (`def swap(a, i, j)`):

    return value            ->  return ag.written(value, a=a)
    (the end of the body)   ->  return ag.written(None, a=a)

`ag.written` gives a plain `value` except to `ag.call_writing`, which gets the values too
(they flow out of staged branches and loops as part of the result).

Only calls that are statements (`f(a)`, `x = f(a)`, `return f(a)`) with a variable, or a
subscript of one, as the argument are rewritten; `helper(x + 1)` rebinds nothing, as in
Python, and neither does `helper(LIST)` for a global or closure variable the function does
not assign that holds a list or dict (written in place).
"""
import ast

from autograph.analysis.activity import scope_of
from autograph.analysis.census import ITEM_STORE
from autograph.analysis.written_parameters import (LocalFunction, of_function, of_tree,
                                                   own_nodes, parameters,
                                                   positions_written, split_call)
from autograph.analysis.walk import children
from autograph.passes.base import (SCOPES, StatementRewriter, fix_missing_locations,
                                   scope_statements)


def transform(function, ctx):
    if not isinstance(function, ast.FunctionDef) or not _may_write(ctx):
        return function
    scope = scope_of(function)
    local = {}
    resolve = _resolver(ctx, scope.locals, local)
    for node in _defined_once(function):   # (in order: one may call those before it)
        local[node.name] = LocalFunction(parameters(node), _reported(node, ctx.ag)
                                         or of_tree(node, resolve, ctx.ag))
    written = of_tree(function, resolve, ctx.ag)
    _CallSites(ctx, resolve, _in_place(ctx, scope.locals | set(scope.declared))).block(
        function.body)
    if written:
        _report(function, written, ctx)
    return function


def _may_write(ctx):
    """False when the function (and those nested in it) neither assigns an item nor
    names a function that writes items of its parameters: nothing to rewrite."""
    if ctx.census.has_any((ITEM_STORE,)):
        return True
    resolve = _resolver(ctx, frozenset(), {})
    return any(of_function(fn) for fn in map(resolve, ctx.census.names()) if fn is not None)


def _reported(function, ag):
    """The parameters a nested function converted already reports (`ag.written(v, a=a)`,
    see `_report`), in parameter order."""
    names = set()
    for node in own_nodes(function):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == 'written' and isinstance(node.func.value, ast.Name)
                and node.func.value.id == ag):
            names.update(k.arg for k in node.keywords)
    return tuple(p for p in parameters(function) if p in names)


def _defined_once(function):
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


def _in_place(ctx, own_names):
    """Whether a name the function does not assign holds a list or dict now (a global's
    or a closure's): a helper writes its items in place, so the caller has nothing to
    rebind (and rebinding it would make it a local variable of the caller)."""
    globals_ = getattr(ctx.resolver, 'globals', None) or {}
    closure = getattr(ctx.resolver, 'closure', {})

    def in_place(name):
        if name in own_names:
            return False
        return type(closure.get(name, globals_.get(name))) in (list, dict)
    return in_place


def _resolver(ctx, local_names, local_functions):
    """`resolve(name)`: the function a name refers to: a LocalFunction of
    `local_functions`, a live global or closure function, or None."""
    globals_ = getattr(ctx.resolver, 'globals', None)
    closure = getattr(ctx.resolver, 'closure', {})

    def resolve(name):
        if name in local_functions:
            return local_functions[name]
        if globals_ is None or name in local_names:
            return None
        value = closure.get(name, globals_.get(name))
        return value if callable(value) and hasattr(value, '__code__') else None
    return resolve


class _CallSites(StatementRewriter):
    def __init__(self, ctx, resolve, in_place):
        super().__init__(ctx)
        self.resolve = resolve
        self.in_place = in_place

    def rewrite(self, stmt):
        call = getattr(stmt, 'value', None)
        if not isinstance(call, ast.Call) or not isinstance(stmt, (ast.Expr, ast.Assign,
                                                                    ast.Return)):
            return [stmt]
        if isinstance(stmt, ast.Assign) and len(stmt.targets) != 1:
            return [stmt]
        func, args = split_call(call, self.ctx.ag)
        if func is call.func:   # not a call of user code
            return [stmt]
        positions = [p for p in positions_written(func, args, self.resolve)
                     if not (isinstance(args[p], ast.Name) and self.in_place(args[p].id))]
        if not positions:
            return [stmt]
        namer = self.ctx.namer
        result = (stmt.targets[0] if isinstance(stmt, ast.Assign)
                  else ast.Name(id=namer.new('result'), ctx=ast.Store()))
        targets, after = [result], []
        for position in positions:
            arg = args[position]
            if isinstance(arg, ast.Name):
                targets.append(ast.Name(id=arg.id, ctx=ast.Store()))
            else:   # a view `a[lo:hi]`: written back into `a`
                view = namer.new('view')
                targets.append(ast.Name(id=view, ctx=ast.Store()))
                store = _as_store(arg)
                self.ctx.census = self.ctx.census.adding(ITEM_STORE)
                after.append(ast.Assign(targets=[store], value=ast.Name(id=view, ctx=ast.Load())))
        rebinding = ast.Call(
            func=self.ctx.runtime('call_writing'),
            args=[ast.Tuple(elts=[ast.Constant(p) for p in positions], ctx=ast.Load()),
                  func, *args],
            keywords=call.keywords)
        new = [ast.Assign(targets=[ast.Tuple(elts=targets, ctx=ast.Store())], value=rebinding)]
        new += after
        if isinstance(stmt, ast.Return):
            new.append(ast.Return(value=ast.Name(id=result.id, ctx=ast.Load())))
        return [ast.fix_missing_locations(ast.copy_location(s, stmt)) for s in new]


def _as_store(node):
    import copy
    node = copy.deepcopy(node)
    node.ctx = ast.Store()
    return node


def _report(function, written, ctx):
    """`return v` -> `return ag.written(v, a=a)`; the same at the end of the body."""
    def report(value):
        return ast.Call(func=ctx.runtime('written'), args=[value or ast.Constant(None)],
                        keywords=[ast.keyword(arg=name, value=ast.Name(id=name, ctx=ast.Load()))
                                  for name in written])
    for node in scope_statements(function):   # (a `return` is a statement: no need to
        if isinstance(node, ast.Return):        # look inside expressions)
            node.value = ast.copy_location(report(node.value), node)
    if not function.body or not isinstance(function.body[-1], ast.Return):
        last = function.body[-1]
        function.body.append(ast.fix_missing_locations(ast.copy_location(
            ast.Return(value=report(None)), last)))
    fix_missing_locations(function)
