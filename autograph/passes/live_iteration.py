"""Loops that change in place the array they iterate: Python's iterator reads item k of
the array when step k begins, so a step sees what the steps before it wrote to later
items (a NumPy array; a JAX array's `v[k] = e` rebinds `v`, and the iterator keeps the
array it started with).

    for i, e in enumerate(v):          v, a = ag.for_stmt(ag.enumerate(v), loop_body,
        a = a + e                  ->                     (v, a), names=('v', 'a'),
        v[i + 1] = a                                      live={'v': v_is_numpy})

Runs after passes.item_assignments, so that every change in place is explicit in the
loop body: `v = ag.setitem(v, ...)` (and the other forms of
kind_flags._changed_in_place), `r, v = ag.call_writing(...)` (a helper writing `v`'s
items), `v += e` and a list's `v.append(e)` (and its other methods that change it). It
notes in `ctx.live_loops[loop]` the variables that the loop's iterable names (`v`,
`enumerate(v)`, `zip(v, w)`, nested) and its body changes in place, each with its kind
(passes.kind_flags: `numpy=` of NumPy's, None where the value decides); passes.loops
gives them to `ag.for_stmt` as `live=`, and those the body also rebinds (`v = v * 2`)
as `rebound=` (runtime.loops.live: Python's iterator then keeps the first array while
the later writes go to the new one, a named error where it is NumPy's). Loops that
change no variable they iterate are left as they are.
"""
import ast

from autograph.analysis.array_kinds import JAX
from autograph.analysis.walk import SCOPES, children
from autograph.passes.base import walk_scope
from autograph.passes.kind_flags import KindFlags, _changed_in_place, bound_values

ONLY_WITH = (ast.For,)

_ITERATORS = ('enumerate', 'zip')
_LIST_CHANGES = frozenset({'append', 'extend', 'insert', 'pop', 'remove', 'clear', 'sort',
                           'reverse'})


def transform(function, ctx):
    loops = [node for node in walk_scope(function) if isinstance(node, ast.For)]
    if not loops:
        return function
    kinds = helpers = None
    for loop in loops:
        iterated = _iterated(loop.iter, ctx.ag)
        if not iterated:
            continue   # (`for i in range(n)`: no variable's items)
        if helpers is None:   # (only a function with nested ones has such helpers)
            nested = ctx.census is None or len(ctx.census.scopes) > 1
            helpers = _helpers(function, ctx.ag) if nested else {}
        changed, rebound = _changes(loop.body, ctx.ag, helpers)
        names = [n for n in iterated if n in changed]
        if not names:
            continue
        kinds = kinds or KindFlags(function, ctx, _bindings(function, ctx.ag))
        live = {}
        for name in dict.fromkeys(names):
            if kinds.kind(name) is not JAX:
                live[name] = kinds.value(name)
        if live:
            ctx.live_loops[loop] = (live, tuple(n for n in live if n in rebound))
    if kinds is not None:
        kinds.note()
    return function


def _bindings(function, ag):
    """kind_flags.bound_values' bindings of `function`, where `r, a = ag.call_writing(...)`
    (a helper changing `a` in place) is no binding of `a` (it keeps its kind)."""
    bindings = bound_values(function)[0]
    for node in walk_scope(function):
        if isinstance(node, ast.Assign) and _writes_arguments(node, ag):
            for target in node.targets[0].elts[1:]:
                found = bindings.get(getattr(target, 'id', None))
                if found and None in found:
                    found.remove(None)
    return {name: found for name, found in bindings.items() if found}


def _iterated(node, ag):
    """The variables whose items the iterable `node` gives: `v`, `enumerate(v)`,
    `zip(v, w)` (also as `ag.enumerate`, `ag.zip`, and nested)."""
    if isinstance(node, ast.Name):
        return [node.id]
    called = _called(node, ag) if isinstance(node, ast.Call) else None
    if called == 'enumerate' and node.args:
        return _iterated(node.args[0], ag)
    if called == 'zip':
        return [name for arg in node.args for name in _iterated(arg, ag)]
    return []


def _called(node, ag):
    func = node.func
    if isinstance(func, ast.Name) and func.id in _ITERATORS:
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
            and func.value.id == ag and func.attr in _ITERATORS:
        return func.attr
    return None


def _helpers(function, ag):
    """{name: (the variables it changes in place, those it rebinds)} of the functions
    nested in `function` that declare variables `nonlocal` (those of them)."""
    found = {}
    for node in ast.walk(function):
        if isinstance(node, ast.FunctionDef) and node is not function:
            declared = {name for stmt in ast.walk(node) if isinstance(stmt, ast.Nonlocal)
                        for name in stmt.names}
            if declared:
                changed, rebound = _changes(node.body, ag, {})
                found[node.name] = (changed & declared, rebound & declared)
    return found


def _changes(body, ag, helpers):
    """(the variables that statements `body` change in place, those they rebind), not
    looking into nested functions but for what the `helpers` it calls change (see
    `_helpers`)."""
    changed, rebound = set(), set()
    for stmt in body:
        for node in _walk(stmt):
            if isinstance(node, ast.Name) and node.id in helpers:
                changed |= helpers[node.id][0]
                rebound |= helpers[node.id][1]
            if isinstance(node, ast.Assign) and _changed_in_place(node):
                changed.add(node.targets[0].id)
            elif isinstance(node, ast.Assign) and _writes_arguments(node, ag):
                changed.update(e.id for e in node.targets[0].elts[1:]
                               if isinstance(e, ast.Name))
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                changed.add(node.target.id)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and isinstance(node.func.value, ast.Name) \
                    and node.func.attr in _LIST_CHANGES:
                changed.add(node.func.value.id)
    for stmt in body:
        for node in _walk(stmt):
            if isinstance(node, ast.Assign) and (_changed_in_place(node)
                                                 or _writes_arguments(node, ag)):
                continue
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.For, ast.AnnAssign, ast.NamedExpr)) \
                else []
            rebound.update(n.id for t in targets for n in ast.walk(t)
                           if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    return changed, rebound


def _writes_arguments(node, ag):
    """`r, a, b = ag.call_writing(...)` (passes.written_arguments): `a`, `b` changed."""
    value, targets = node.value, node.targets
    return (len(targets) == 1 and isinstance(targets[0], ast.Tuple)
            and isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and isinstance(value.func.value, ast.Name) and value.func.value.id == ag
            and value.func.attr == 'call_writing')


def _walk(node):
    """The nodes of statement `node`, not inside nested functions or classes."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(child for child in children(node) if child.__class__ not in _SCOPES)


_SCOPES = frozenset(SCOPES)
