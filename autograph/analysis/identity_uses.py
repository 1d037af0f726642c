"""Uses of a variable where its object's identity shows (changed in place, handed on to
another holder), and a liveness analysis of them (analysis.dataflow with these uses for
reads): after a statement, will the object be changed or handed on before the name is
bound anew? Two questions are answered with it:

- analysis.whole_aliases: aliases of a new list or dict whose sharing no code can see
  (for passes.unaliased; for it, a list returned in a tuple is no use either);
- `handed_on_last`: arrays the function makes and hands on (appends to a list) only
  once complete, so that their traced writes may make new arrays (analysis.own_arrays).

Reads of items (`prev[j]`), `len`, arithmetic, comparisons, iteration, a library
function's reading (`library(func)`: `jnp.array(best)`) and a `return` of the name
(the function ends: nothing but the caller holds the list) are no such use: they see
the same values in a copy.
"""
import ast

from autograph.analysis.activity import scope_of
from autograph.analysis.dataflow import Dataflow
from autograph.analysis.view_bindings import own_statements
from autograph.analysis.walk import SCOPES, children, nodes

_READERS = frozenset({'len', 'sum', 'min', 'max', 'sorted', 'list', 'tuple', 'dict', 'set',
                      'enumerate', 'zip', 'range', 'abs', 'float', 'int', 'bool', 'str',
                      'print', 'any', 'all', 'reversed', 'isinstance', 'repr', 'round'})
"""Builtins that read the items of a list or dict given to them and keep no hold of it."""
_READ_METHODS = frozenset({'copy', 'index', 'count', 'get', 'keys', 'values', 'items', 'sum',
                           'mean', 'max', 'min', 'astype', 'tolist', 'item', 'any', 'all',
                           'dot', 'argmax', 'argmin', 'cumsum', 'prod', 'std', 'var'})
_VIEW_METHODS = frozenset({'reshape', 'ravel', 'transpose', 'swapaxes', 'squeeze', 'view'})
_VIEW_ATTRIBUTES = frozenset({'T', 'mT', 'real', 'imag', 'flat'})
"""An array's methods that read it only, and those (and attributes) giving a view of it,
used as the view is."""


def handed_on_last(function, names, library=lambda func: False):
    """The names of `names` (arrays the function makes) that `function` hands on only by
    appending them to lists that it only grows and reads whole (`np.stack(rows)`), and
    only where nothing changes or hands on their array again before the name is bound
    anew: `r = np.zeros(3); r[0] = e; rows.append(r)` in a loop, where the list holds each
    array once it is complete (for analysis.own_arrays). (A holder that gives its items
    out, `rows[-1][0] = e`, `box.a[1] = e`, could change them later.) Not where a
    `break` or `continue` leaves a `try` that has a `finally` (the liveness follows them
    to their loop's end or head, not through the `finally`: none then), nor names read
    by nested scopes or declared global or nonlocal. `library`: as
    `unobserved_aliases`'."""
    names = set(names)
    statements = list(own_statements(function.body))
    names &= {arg.id for stmt in statements for arg in [_appended(stmt)] if arg is not None}
    if not names or jumps_through_finally(function):
        return set()   # (most: stored as an item, given to a call, never appended)
    scope = scope_of(function)
    names -= in_nested_scopes(function) | set(scope.declared)
    if not names:
        return set()
    reads_only = reading(scope, library)
    appends = []   # (name, the statement appending it, the list)
    for stmt in statements:
        for name, node, kind in uses(stmt, reads_only, views=True):
            if name in names and kind == 'hands on':
                appends.append((name, stmt, _appended_to(node, stmt)))
    names -= {name for name, _, holder in appends if holder is None}
    if not names:   # (most: stored as an item, given to a call)
        return names
    growing = _growing_lists(function, reads_only)
    names -= {name for name, _, holder in appends if holder not in growing}
    if not names:
        return names
    flow = IdentityFlow(function, reads_only, views=True)
    for name, stmt, _ in appends:
        after = flow.live_in if isinstance(stmt, (ast.If, ast.While, ast.For, ast.With,
                                                  ast.Try)) else flow.live_out
        if name in after.get(stmt, {name}):
            names.discard(name)
    return names


def jumps_through_finally(function, jumps=(ast.Break, ast.Continue)):
    """Whether a statement of `jumps` (`break`, `continue`) of `function` is inside a `try`
    with a `finally`."""
    return any(node.__class__ is ast.Try and node.finalbody and any(
        inner.__class__ in jumps for inner in nodes(node)) for node in nodes(function))


def _appended(stmt):
    """The name `e` of a statement `xs.append(e)`, else None."""
    call = getattr(stmt, 'value', None)
    if stmt.__class__ is ast.Expr and call.__class__ is ast.Call and len(call.args) == 1 \
            and call.args[0].__class__ is ast.Name and call.func.__class__ is ast.Attribute \
            and call.func.attr == 'append':
        return call.args[0]
    return None


def _appended_to(name, stmt):
    """The list `xs` of the statement `xs.append(name)`, else None."""
    call = getattr(stmt, 'value', None)
    if stmt.__class__ is ast.Expr and call.__class__ is ast.Call and call.args == [name] \
            and call.func.__class__ is ast.Attribute and call.func.attr == 'append' \
            and call.func.value.__class__ is ast.Name and not call.keywords:
        return call.func.value.id
    return None


def _growing_lists(function, reads_only):
    """The names bound only to list displays whose every other use is `xs.append(e)` or a
    reading of the whole list (`len(xs)`, `np.stack(xs)`, `if xs:`, `return xs`)."""
    found, other, parents, walked = set(), set(), {}, nodes(function)
    for node in walked:
        if node.__class__ is ast.Assign and len(node.targets) == 1 and \
                node.targets[0].__class__ is ast.Name and node.value.__class__ is ast.List:
            found.add(node.targets[0].id)
        for child in children(node):
            parents[id(child)] = node
    for node in walked:
        if node.__class__ is not ast.Name or node.id not in found:
            continue
        parent = parents.get(id(node))
        if node.ctx.__class__ is not ast.Load:
            ok = parent.__class__ is ast.Assign and parent.value.__class__ is ast.List
        else:
            ok = (parent.__class__ is ast.Attribute and parent.attr == 'append') or \
                parent.__class__ is ast.Return or (
                    parent.__class__ in (ast.If, ast.While) and parent.test is node) or (
                    parent.__class__ is ast.Call and parent.func is not node
                    and reads_only(parent.func))
        if not ok:
            other.add(node.id)
    return found - other


def reading(scope, library):
    """`reads_only(func)`: whether a call of `func` only reads its arguments, a builtin
    of `_READERS` (not shadowed by a local) or a library function (`library`)."""
    readers = _READERS - scope.locals

    def reads_only(func):
        return (func.__class__ is ast.Name and func.id in readers) or library(func)
    return reads_only


def in_nested_scopes(function):
    """The names read or bound inside the lambdas, generator expressions, nested
    functions and classes of `function`, which may run later."""
    found = set()
    for node in nodes(function):
        if node is not function and node.__class__ in _DEFERRED:
            found.update(n.id for n in nodes(node) if n.__class__ is ast.Name)
    return found


_DEFERRED = frozenset({ast.Lambda, ast.GeneratorExp, ast.FunctionDef, ast.AsyncFunctionDef,
                       ast.ClassDef})


def uses(stmt, reads_only, views=False):
    """(name, its Name node, 'changes' or 'hands on') for each use of a variable by
    `stmt`'s own expressions (and the whole of a nested function or class) that a copy
    of its list would not give alike; other reads are left out. `reads_only(func)`:
    whether a call of `func` only reads its arguments (`len`, `jnp.sum`); `views`: see
    `_use`."""
    found = []
    parents = {}
    stack = [stmt] if isinstance(stmt, SCOPES) else _own_expressions(stmt)
    if isinstance(stmt, ast.AugAssign) and stmt.target.__class__ is ast.Name:
        found.append((stmt.target.id, stmt.target, 'changes'))
    while stack:
        node = stack.pop()
        for child in children(node):
            parents[id(child)] = node
            stack.append(child)
        if node.__class__ is ast.Name and node.ctx.__class__ is ast.Load:
            kind = _use(node, parents, reads_only, stmt, views)
            if kind is not None:
                found.append((node.id, node, kind))
    return found


def _own_expressions(stmt):
    """The expressions of statement `stmt` itself: not the statements in its blocks,
    whose `case`s and `except` clauses give their patterns, guards and types."""
    found = []
    for child in children(stmt):
        if child.__class__ is ast.match_case:
            found += [child.pattern] + ([child.guard] if child.guard else [])
        elif child.__class__ is ast.ExceptHandler:
            found += [child.type] if child.type else []
        elif not isinstance(child, ast.stmt):
            found.append(child)
    return found


def _use(name, parents, reads_only, top, views):
    """How the read `name` uses its object: None where a copy gives the same. `top`: the
    statement, parent of the outermost expression; `views`: an item or view of the
    object (an array's row, `a.T`) is used as the object is (for a list or dict, an
    item is another object, which a shallow copy shares)."""
    parent = parents.get(id(name), top)
    cls = parent.__class__
    if cls is ast.Subscript:
        if parent.value is not name:
            return None   # (an index)
        if parent.ctx.__class__ is not ast.Load:
            return 'changes'
        return _use(parent, parents, reads_only, top, views) if views else None
    if cls is ast.Attribute:
        outer = parents.get(id(parent), top)
        if parent.ctx.__class__ is not ast.Load:
            return 'changes'
        if outer.__class__ is ast.Call and outer.func is parent:
            if parent.attr in _READ_METHODS:
                return None
            return _use(outer, parents, reads_only, top, views) if views and \
                parent.attr in _VIEW_METHODS else 'changes'
        return _use(parent, parents, reads_only, top, views) if views and \
            parent.attr in _VIEW_ATTRIBUTES else None
    if cls in (ast.BinOp, ast.UnaryOp) or (cls is ast.Compare and not any(
            isinstance(op, (ast.Is, ast.IsNot)) for op in parent.ops)):
        return None
    if cls is ast.For or cls is ast.comprehension:
        return None if parent.iter is name else 'hands on'
    if cls in (ast.If, ast.While) and parent.test is name:
        return None
    if cls is ast.Call and name is not parent.func and reads_only(parent.func):
        return None
    if cls is ast.Return or (cls is ast.Tuple and not views and parents.get(
            id(parent), top).__class__ is ast.Return):
        return None   # (the function ends: the list is the caller's alone; one returned
        #                with its alias is refused by analysis.whole_aliases)
    if cls is ast.Call and parent.func is name:
        return 'changes'   # (a call of a function: it may change what it reads)
    return 'hands on'


class IdentityFlow(Dataflow):
    """analysis.dataflow's liveness with the uses of `uses` for reads: a name is live
    after a statement where a path from there changes its object in place or hands it
    on before binding it again."""

    def __init__(self, function, reads_only, views=False):
        self.activity = _IdentityActivity(reads_only, views)
        self.extra_reads = {}
        self.live_out, self.live_in, self.loop_head = {}, {}, {}
        self.closures = {}
        self.block_live_in(function.body, frozenset())


class _Activity:
    __slots__ = ('reads', 'writes')

    def __init__(self, reads, writes):
        self.reads, self.writes = reads, writes


class _IdentityActivity:
    """node (a simple statement, an expression or a list of them) -> its uses (`uses`)
    as reads and the names it binds as writes."""

    def __init__(self, reads_only, views):
        self.reads_only, self.views = reads_only, views

    def __call__(self, node):
        items = node if isinstance(node, list) else [node]
        reads, writes = set(), set()
        for item in items:
            if isinstance(item, ast.stmt):
                reads.update(name for name, _, _ in uses(item, self.reads_only, self.views))
                if isinstance(item, SCOPES):
                    writes.add(item.name)
                    continue
            elif item.__class__ is not ast.Name:   # (a whole test or iterable: its
                # value read; a `with` item's object is handed on)
                wrapper = ast.Expr(value=item.context_expr if isinstance(
                    item, ast.withitem) else item) if isinstance(
                        item, (ast.expr, ast.withitem)) else None
                if wrapper is not None:
                    reads.update(name for name, _, _ in uses(wrapper, self.reads_only,
                                                             self.views))
            for inner in nodes(item):
                if inner.__class__ is ast.Name and inner.ctx.__class__ is not ast.Load:
                    writes.add(inner.id)
        if any(isinstance(i, ast.AugAssign) for i in items):
            writes -= {i.target.id for i in items if isinstance(i, ast.AugAssign)
                       and i.target.__class__ is ast.Name}
        return _Activity(frozenset(reads), frozenset(writes))
