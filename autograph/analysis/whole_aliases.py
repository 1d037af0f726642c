"""Whole aliases of a new list or dict that no code can tell from a copy (for
passes.unaliased): `prev = cur` in a loop, `best, best_score = candidate, s` under an
`if`, where nothing changes either object in place, or hands it on, before both names
are bound again.

    cur = [0.0] * (n + 1)          # a new list, each iteration
    ...                            # (cur[j] = e: changes before the alias are seen in
    if cur[n] > limit:             #  both alike)
        break
    prev = cur                     # `prev is cur` from here on, in Python

After `prev = cur` Python's two names hold one list; a staged `if` or loop that binds
`prev` to it on some paths only cannot decide which object the name holds afterwards
(runtime.state.mutation: a named error). Where nothing can tell the two names' object
from a copy, the alias may be a copy: `N = A` (or the pair `N`, `A` at one position of
`..., N, ... = ..., A, ...`) inside an `if` or a loop (also under a `try` or `with`)
is listed when

- every binding of the value's name `A` makes a new list or dict (a display, a
  comprehension, `[0] * n`, `list(...)`, `dict(...)`): no one else holds it;
- `A` is handed on nowhere but here (not stored, given to a call that may keep or change
  it, aliased again, read by a nested function or declared global/nonlocal), and no
  `return` gives both `N` and `A`;
- after it, on every path until each is bound again, neither `N` nor `A` is changed in
  place (an item or attribute written, `+=`, a method called) or used so (that list's
  `is`): a liveness analysis (analysis.identity_uses) whose reads are those uses; not
  in a function where a `break`, `continue` or `return` leaves a `try` that has a
  `finally` (the liveness does not follow the `finally` there).
"""
import ast

from autograph.analysis.activity import scope_of
from autograph.analysis.identity_uses import (IdentityFlow, in_nested_scopes,
                                              jumps_through_finally, reading, uses)
from autograph.analysis.view_bindings import own_statements
from autograph.analysis.walk import blocks, nodes, statements_in

_FRESH_CALLS = frozenset({'list', 'dict', 'sorted'})
_COMPOUND = (ast.If, ast.While, ast.For)


def unobserved_aliases(function, library=lambda func: False):
    """(statement, `A`'s Name node) for the aliases `N = A` of `function`'s own scope
    whose sharing no code can see (see the module docstring). `library(func)`: whether
    the called expression `func` is a library function that reads its arguments only."""
    pairs = [(stmt, target, value) for stmt in _nested_statements(function)
             for target, value in _aliases(stmt)]
    if not pairs:
        return []
    scope = scope_of(function)
    held = set(scope.declared) | in_nested_scopes(function)   # (read later, maybe)
    args = function.args
    held |= {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}   # (the
    held |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}      # caller's)
    fresh = _fresh_names(function, scope.locals - held)
    pairs = [(stmt, target, value) for stmt, target, value in pairs
             if value.id in fresh and target.id not in held]
    if not pairs or jumps_through_finally(function, (ast.Break, ast.Continue, ast.Return)):
        return []
    reads_only = reading(scope, library)
    escaped = _escaping(function, [value for _, _, value in pairs], reads_only)
    together = _returned_together(function)
    pairs = [(stmt, target, value) for stmt, target, value in pairs
             if value.id not in escaped and not any(
                 {target.id, value.id} <= names for names in together)]
    if not pairs:
        return []
    flow = IdentityFlow(function, reads_only)
    return [(stmt, value) for stmt, target, value in pairs
            if not {target.id, value.id} & flow.live_out.get(stmt, {value.id})]


def _aliases(stmt):
    """(N, A), the Name nodes of `N = A`, or of the names at one position of `N1, N2 =
    A1, e` (a tuple or list of names given a display of as many values)."""
    if stmt.__class__ is not ast.Assign or len(stmt.targets) != 1:
        return []
    target, value = stmt.targets[0], stmt.value
    if target.__class__ is ast.Name:
        pairs = [(target, value)]
    elif target.__class__ in (ast.Tuple, ast.List) and value.__class__ in (
            ast.Tuple, ast.List) and len(target.elts) == len(value.elts):
        pairs = list(zip(target.elts, value.elts))
    else:
        return []
    return [(t, v) for t, v in pairs if t.__class__ is ast.Name
            and v.__class__ is ast.Name and t.id != v.id]


def _nested_statements(function):
    """The statements inside the `if`s and loops of `function`'s own scope, at any depth
    (under a `try` or a `with` too), each once."""
    inside = [stmt for stmt in own_statements(function.body) if stmt.__class__ in _COMPOUND]
    found = {id(stmt): stmt for stmt in statements_in(
        [block for stmt in inside for block in blocks(stmt)])}
    return list(found.values())


def _returned_together(function):
    """The names each `return` of `function`'s own scope gives."""
    return [{n.id for n in nodes(stmt.value) if n.__class__ is ast.Name}
            for stmt in own_statements(function.body)
            if stmt.__class__ is ast.Return and stmt.value is not None]


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


def _escaping(function, values, reads_only):
    """The names that `function` hands on (see analysis.identity_uses) other than by
    the aliases whose value nodes are `values`."""
    skip = {id(value) for value in values}
    found = set()
    for stmt in own_statements(function.body):
        for name, node, kind in uses(stmt, reads_only):
            if kind == 'hands on' and id(node) not in skip:
                found.add(name)
    return found
