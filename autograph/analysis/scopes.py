"""Which of a function's variables live in cells shared with nested functions.

A nested function or lambda sees a variable of its enclosing function as it is when the
nested function *runs* (late binding): `g = lambda: i` followed by `i = 5` makes `g()`
return 5. Such a variable lives in a cell; converted control flow must update the cell
itself rather than pass the variable in and out of its branch and loop functions (which
would leave the nested function looking at a stale value). Likewise a nested function
that assigns a variable with `nonlocal` changes it wherever it is called.

The analysis runs once on the user's own code, before any pass, so the small lambdas the
passes generate (`ag.and_(a, lambda: b)`, which run at once) are not mistaken for
closures. Its result is a side table keyed by function node:

    Sharing.captured  names of this scope that nested functions read or assign
    Sharing.writers   {nested function name: names of enclosing scopes it assigns with
                       `nonlocal`, or whose list/dict it changes in place (`xs[0] = v`,
                       `xs.append(v)`), directly or through the nested functions it calls}
    Sharing.escaped   writers used as values (passed, stored), so any call may run them
"""
import ast
import dataclasses

from autograph.analysis.activity import MUTATING_METHODS, changed_argument
from autograph.analysis.walk import children

_DEFERRED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.GeneratorExp,
             ast.ClassDef)
"""Nested scopes whose code runs later than where they appear (a generator expression's
body runs when it is iterated; a class body's methods when they are called)."""
_IMMEDIATE = (ast.ListComp, ast.SetComp, ast.DictComp)


@dataclasses.dataclass(frozen=True)
class Sharing:
    captured: frozenset
    writers: dict
    escaped: frozenset

    def dump(self):
        writers = {k: sorted(v) for k, v in sorted(self.writers.items())}
        return (f'captured={sorted(self.captured)} writers={writers} '
                f'escaped={sorted(self.escaped)}')


def sharing(function, nested=True):
    """The Sharing of `function`'s own scope (a FunctionDef or Lambda). `nested` false:
    the caller knows that no function, lambda, generator expression or class is defined
    in `function` (a census's), so nothing is shared, found without a walk."""
    if not nested:
        return Sharing(frozenset(), {}, frozenset())
    own = _own_scope(function)
    functions = {n.name for n in own.deferred
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    captured, writes, calls, free_reads = set(), {}, {}, set()
    for child in own.deferred:
        reads, assigned = _free(child)
        captured |= reads | assigned
        free_reads |= reads
        if getattr(child, 'name', None) in functions:
            writes[child.name] = writes.get(child.name, set()) | assigned
            calls[child.name] = calls.get(child.name, set()) | (reads & functions)
    # A nested function that calls another one assigns what that one assigns.
    changed = True
    while changed:
        changed = False
        for name, callees in calls.items():
            added = set().union(*[writes[c] for c in callees]) - writes[name]
            if added:
                writes[name] |= added
                changed = True
    writers = {name: frozenset(names) for name, names in writes.items() if names}
    loads = [n.id for n in own.nodes
             if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
    called = [n.func.id for n in own.nodes
              if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    escaped = {name for name in writers if loads.count(name) > called.count(name)}
    # A writer read by a lambda or another closure may run whenever that one does.
    escaped |= free_reads & set(writers)
    return Sharing(frozenset(captured), writers, frozenset(escaped))


@dataclasses.dataclass
class _Own:
    nodes: list      # the nodes of the scope itself (immediate comprehensions included)
    deferred: list   # the nested deferred scopes directly inside it


def _own_scope(node):
    own = _Own([], [])
    stack = list(_body(node))
    while stack:
        current = stack.pop()
        if isinstance(current, _DEFERRED):
            own.deferred.append(current)
            stack += _header(current)   # defaults and decorators run here
            continue
        own.nodes.append(current)
        stack += children(current)
    return own


def _body(node):
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return [node.args] + node.body
    if isinstance(node, ast.Lambda):
        return [node.args, node.body]
    if isinstance(node, ast.ClassDef):
        return node.body
    return [g for g in node.generators] + [getattr(node, 'elt', None)]


def _header(node):
    """The parts of a nested scope's definition evaluated where it is defined."""
    if isinstance(node, ast.GeneratorExp):
        return [node.generators[0].iter]
    if isinstance(node, ast.ClassDef):
        return node.bases + node.decorator_list
    parts = node.args.defaults + [d for d in node.args.kw_defaults if d is not None]
    return parts + getattr(node, 'decorator_list', [])


def _free(node):
    """(names `node` reads from enclosing scopes, names it assigns there via nonlocal or
    whose objects it changes in place)."""
    own = _own_scope(node)
    bound, loaded, declared_global, declared_nonlocal = set(), set(), set(), set()
    changed = set()
    for n in own.nodes:
        target = _changed_in_place(n)
        if target is not None:
            changed.add(target)
        if isinstance(n, ast.Name):
            (loaded if isinstance(n.ctx, ast.Load) else bound).add(n.id)
        elif isinstance(n, ast.arg):
            bound.add(n.arg)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split('.')[0] for a in n.names)
        elif isinstance(n, ast.Global):
            declared_global.update(n.names)
        elif isinstance(n, ast.Nonlocal):
            declared_nonlocal.update(n.names)
    for child in own.deferred:
        if hasattr(child, 'name'):
            bound.add(child.name)
    inner_reads, inner_writes = set(), set()
    for child in own.deferred:
        reads, writes = _free(child)
        inner_reads |= reads
        inner_writes |= writes
    local = bound - declared_global - declared_nonlocal
    if isinstance(node, ast.ClassDef):   # methods do not see the class body's names
        reads = (loaded - local - declared_global) | inner_reads
        return reads, (bound & declared_nonlocal) | inner_writes
    reads = (loaded | inner_reads) - local - declared_global
    writes = (bound & declared_nonlocal) | ((inner_writes | changed) - local - declared_global)
    return reads | declared_nonlocal, writes


def _changed_in_place(node):
    """The variable whose list or dict `node` changes in place (`xs[i] = v`, `xs[i] += v`,
    `del xs[i]`, `xs.append(v)`, `heapq.heappush(xs, v)`), or None."""
    if isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load):
        base = node.value
        while isinstance(base, ast.Subscript):
            base = base.value
        return base.id if isinstance(base, ast.Name) else None
    if isinstance(node, ast.Call) and changed_argument(node) is not None:
        return changed_argument(node).id   # (`heapq.heappush(xs, v)`)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in MUTATING_METHODS and isinstance(node.func.value, ast.Name)):
        return node.func.value.id
    return None
