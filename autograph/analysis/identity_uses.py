"""Uses of a variable where its object's identity shows (changed in place, handed on to
another holder), and a liveness analysis of them (analysis.dataflow with these uses for
reads): after a statement, will the object be changed or handed on before the name is
bound anew? Two questions are answered with it:

- `unobserved_aliases`: whole aliases of a new list or dict whose sharing no code can
  see (for passes.unaliased), below;
- `handed_on_last`: arrays the function makes and hands on (appends to a list) only
  once complete, so that their traced writes may make new arrays (analysis.own_arrays).

Whole aliases: `prev = cur` in a loop where nothing changes either object in place, or
hands it on, before both names are bound again.

    cur = [0.0] * (n + 1)          # a new list, each iteration
    ...                            # (cur[j] = e: changes before the alias are seen in
    if cur[n] > limit:             #  both alike)
        break
    prev = cur                     # `prev is cur` from here on, in Python

After `prev = cur` Python's two names hold one list; a staged `if` or loop that binds
`prev` to it on some paths only cannot decide which object the name holds afterwards
(runtime.state.mutation: a named error). Where nothing can tell the two names' object
from a copy, the alias may be a copy: the statement is listed when

- every binding of the value's name `A` makes a new list or dict (a display, a
  comprehension, `[0] * n`, `list(...)`, `dict(...)`): no one else holds it;
- `A` is handed on nowhere but here (not stored, given to a call that may keep or change
  it, aliased again, returned, read by a nested function or declared global/nonlocal);
- after it, on every path until each is bound again, neither `N` nor `A` is changed in
  place (an item or attribute written, `+=`, a method called) or used so (that list's
  `is`): a liveness analysis (analysis.dataflow) whose reads are those uses.

Reads of items (`prev[j]`), `len`, arithmetic, comparisons, iteration, a library
function's reading (`library(func)`: `jnp.array(best)`) and a `return` of the name
alone (nothing else holds the list) are no such use: they see the same values in a
copy.
"""
import ast

from autograph.analysis.activity import scope_of
from autograph.analysis.dataflow import Dataflow
from autograph.analysis.view_bindings import own_statements
from autograph.analysis.walk import SCOPES, blocks, children, nodes, statements_in

_FRESH_CALLS = frozenset({'list', 'dict', 'sorted'})
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
_COMPOUND = (ast.If, ast.While, ast.For)


def unobserved_aliases(function, library=lambda func: False):
    """The statements `N = A` of `function`'s own scope, inside an `if` or a loop, whose
    sharing no code can see (see the module docstring). `library(func)`: whether the
    called expression `func` is a library function that reads its arguments only."""
    candidates = [stmt for stmt in _nested_statements(function)
                  if stmt.__class__ is ast.Assign and len(stmt.targets) == 1
                  and stmt.targets[0].__class__ is ast.Name
                  and stmt.value.__class__ is ast.Name
                  and stmt.targets[0].id != stmt.value.id]
    if not candidates:
        return []
    scope = scope_of(function)
    held = set(scope.declared) | _in_nested_scopes(function)   # (read later, maybe)
    args = function.args
    held |= {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}   # (the
    held |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}      # caller's)
    fresh = _fresh_names(function, scope.locals - held)
    candidates = [s for s in candidates if s.value.id in fresh and s.targets[0].id not in held]
    if not candidates:
        return []
    reads_only = _reading(scope, library)
    escaped = _escaping(function, candidates, reads_only)
    candidates = [s for s in candidates if s.value.id not in escaped]
    if not candidates:
        return []
    flow = _IdentityFlow(function, reads_only)
    return [s for s in candidates
            if not {s.targets[0].id, s.value.id} & flow.live_out.get(s, {s.value.id})]


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
    if not names or _jumps_through_finally(function):
        return set()   # (most: stored as an item, given to a call, never appended)
    scope = scope_of(function)
    names -= _in_nested_scopes(function) | set(scope.declared)
    if not names:
        return set()
    reads_only = _reading(scope, library)
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
    flow = _IdentityFlow(function, reads_only, views=True)
    for name, stmt, _ in appends:
        after = flow.live_in if isinstance(stmt, (ast.If, ast.While, ast.For, ast.With,
                                                  ast.Try)) else flow.live_out
        if name in after.get(stmt, {name}):
            names.discard(name)
    return names


def _jumps_through_finally(function):
    """Whether a `break` or `continue` of `function` is inside a `try` with a `finally`."""
    return any(node.__class__ is ast.Try and node.finalbody and any(
        inner.__class__ in (ast.Break, ast.Continue) for inner in nodes(node))
        for node in nodes(function))


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


def _reading(scope, library):
    """`reads_only(func)`: whether a call of `func` only reads its arguments, a builtin
    of `_READERS` (not shadowed by a local) or a library function (`library`)."""
    readers = _READERS - scope.locals

    def reads_only(func):
        return (func.__class__ is ast.Name and func.id in readers) or library(func)
    return reads_only


def _in_nested_scopes(function):
    """The names read or bound inside the lambdas, generator expressions, nested
    functions and classes of `function`, which may run later."""
    found = set()
    for node in nodes(function):
        if node is not function and node.__class__ in _DEFERRED:
            found.update(n.id for n in nodes(node) if n.__class__ is ast.Name)
    return found


_DEFERRED = frozenset({ast.Lambda, ast.GeneratorExp, ast.FunctionDef, ast.AsyncFunctionDef,
                       ast.ClassDef})


def _nested_statements(function):
    """The statements inside the `if`s and loops of `function`'s own scope."""
    return statements_in([b for stmt in function.body if isinstance(stmt, _COMPOUND)
                          for b in blocks(stmt)])


def _fresh_names(function, names):
    """The names of `names` every binding of which in `function` makes a new list or
    dict (`_makes_container`), and that are bound only by `name = value`."""
    bindings, counted = {}, {}
    for node in nodes(function):
        if node.__class__ is ast.Assign and len(node.targets) == 1 and \
                node.targets[0].__class__ is ast.Name:
            bindings.setdefault(node.targets[0].id, []).append(node.value)
        elif node.__class__ is ast.Name and node.ctx.__class__ is not ast.Load:
            counted[node.id] = counted.get(node.id, 0) + 1
    return {name for name, values in bindings.items()
            if name in names and counted.get(name) == len(values)
            and all(_makes_container(v) for v in values)}


def _makes_container(value):
    cls = value.__class__
    if cls in (ast.List, ast.Dict, ast.ListComp, ast.DictComp):
        return True
    if cls is ast.BinOp and isinstance(value.op, (ast.Mult, ast.Add)):
        return _makes_container(value.left) or (isinstance(value.op, ast.Mult)
                                                and _makes_container(value.right))
    return cls is ast.Call and value.func.__class__ is ast.Name and \
        value.func.id in _FRESH_CALLS


def _escaping(function, candidates, reads_only):
    """The names that `function` hands on (see `uses`) other than by `candidates`."""
    skip = {id(s.value) for s in candidates}
    found = set()
    for stmt in own_statements(function.body):
        for name, node, kind in uses(stmt, reads_only):
            if kind == 'hands on' and id(node) not in skip:
                found.add(name)
    return found


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
    if cls is ast.Return:
        return None   # (the function ends: the list is the caller's alone)
    if cls is ast.Call and parent.func is name:
        return 'changes'   # (a call of a function: it may change what it reads)
    return 'hands on'


class _IdentityFlow(Dataflow):
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
