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
`enumerate(v)`, `zip(v, w)`, `iter(v)`, nested) and its body changes in place, each with
its kind (passes.kind_flags: `numpy=` of NumPy's, None where the value decides);
passes.loops gives them to `ag.for_stmt` as `live=`, and those the body also rebinds
(`v = v * 2`) as `rebound=` (runtime.loops.live: Python's iterator then keeps the first
array while the later writes go to the new one, a named error where it is NumPy's).

An iterable that gives a part of such a variable is rewritten so that the loop can read
the part's items from the variable as the loop carries it (runtime.loops.live_views):

    for e in reversed(v):      ->   ag.for_stmt(ag.reversed(v), ...)      (v[len(v) - 1 - k])
    for e in v[1:]:            ->   ag.for_stmt(ag.items_of(v, slice(1, None)), ...)
    for e in iter(v):          ->   ag.for_stmt(v, ...)

(a row of a 2-D array is itself a view, which passes.views follows). What it cannot
make read live (an iterator bound to a name, `it = iter(v)`; a view a call makes,
`np.flip(v)`) is a named error where it runs on a traced NumPy array: see
passes.live_guards. Loops that change no variable they iterate are left as they are
(their iterable is read, not their body, unless it names a variable).
"""
import ast

from autograph.analysis.activity import scope_of
from autograph.analysis.array_kinds import JAX
from autograph.analysis.census import ITERATED
from autograph.analysis.walk import SCOPES, children
from autograph.passes import live_guards
from autograph.passes.base import walk_scope
from autograph.passes.kind_flags import KindFlags, _changed_in_place, bound_values
from autograph.passes.sequences import getitem_of, key_expression

ONLY_WITH = (ITERATED,)   # (a loop over `range(...)` reads no variable's items)

_ITERATORS = ('enumerate', 'zip')
_LIST_CHANGES = frozenset({'append', 'extend', 'insert', 'pop', 'remove', 'clear', 'sort',
                           'reverse'})


def transform(function, ctx):
    facts = _Facts(function, ctx)
    if not facts.loops:
        return function
    for loop in facts.loops:
        iterated = _iterated(loop.iter, ctx.ag, _ANY)   # (the builtins checked if live)
        if not iterated:   # (`for i in range(n)`: no variable's items)
            if loop.iter.__class__ is ast.Call and live_guards.may_view(loop.iter, facts):
                live_guards.guard_view_call(loop, facts)
            elif loop.iter.__class__ is ast.Call:
                live_guards.guard_called_items(loop, facts)
            continue
        changed, rebound = _changes(loop.body, ctx.ag, facts.helpers())
        if loop.target.__class__ is ast.Tuple:
            live_guards.guard_zipped_rows(loop, changed, facts)
        names = [n for n in iterated if n in changed]
        if names and not isinstance(loop.iter, ast.Name):
            names = [n for n in _iterated(loop.iter, ctx.ag, facts.builtin) if n in changed]
        if not names:
            if isinstance(loop.iter, ast.Name) and loop.iter.id in facts.bound:
                live_guards.guard_iterator(loop, changed, facts)
            continue
        live = {}
        for name in dict.fromkeys(names):
            if facts.kinds().kind(name) is not JAX:
                live[name] = facts.kinds().value(name)
        if live:
            ctx.live_loops[loop] = (live, tuple(n for n in live if n in rebound))
            loop.iter = _followed(loop.iter, live, ctx, facts.builtin)
    if facts.made_kinds is not None:
        facts.made_kinds.note()
    return function


class _Facts:
    """What the pass asks of `function`, each found when first asked: its loops and its
    calls bound to a name (`it = iter(v)`, from one walk), its KindFlags, its helpers
    (`_helpers`), whether a name is the builtin; and the module's readings of its
    statements for passes.live_guards (`changes`, `iterated`, `called`, `is_getitem`)."""

    def __init__(self, function, ctx):
        self.function, self.ctx = function, ctx
        self.loops, self.bound = [], {}
        for node in walk_scope(function):
            if node.__class__ is ast.For:
                self.loops.append(node)
            elif node.__class__ is ast.Assign and node.value.__class__ is ast.Call \
                    and len(node.targets) == 1 and node.targets[0].__class__ is ast.Name:
                self.bound.setdefault(node.targets[0].id, []).append(node)
        self.made_kinds = self._helpers = None
        self._builtins = {}

    def kinds(self):
        if self.made_kinds is None:
            self.made_kinds = KindFlags(self.function, self.ctx,
                                        _bindings(self.function, self.ctx.ag))
        return self.made_kinds

    def helpers(self):
        if self._helpers is None:   # (only a function with nested ones has such helpers)
            census = self.ctx.census
            nested = census is None or len(census.scopes) > 1
            self._helpers = _helpers(self.function, self.ctx.ag) if nested else {}
        return self._helpers

    def changes(self, body):
        return _changes(body, self.ctx.ag, self.helpers())

    def iterated(self, node):
        return _iterated(node, self.ctx.ag, self.builtin)

    def called(self, node):
        return _called(node, self.ctx.ag) if node.__class__ is ast.Call else None

    def is_getitem(self, func):
        return _is_getitem(func, self.ctx.ag)

    def builtin(self, name):
        """Whether `name` (`reversed`, `iter`) is the builtin in the function."""
        if name not in self._builtins:
            self._builtins[name] = name not in scope_of(self.function).locals \
                and self.ctx.resolver.is_builtin(name)
        return self._builtins[name]


def _ANY(name):
    """`_Facts.builtin` where any name is taken for the builtin (to see cheaply whether a
    loop iterates a variable, before its body is read)."""
    return True


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


def _iterated(node, ag, builtin):
    """The variables whose items the iterable `node` gives: `v`, `enumerate(v)`,
    `zip(v, w)` (also as `ag.enumerate`, `ag.zip`, and nested), `iter(v)`, and those it
    gives a part of (`_part`): `reversed(v)`, `v[1:]`, `m[i]`. `builtin(name)`: whether
    `reversed` and `iter` are the builtins."""
    if isinstance(node, ast.Name):
        return [node.id]
    part = _part(node, ag, builtin)
    if part is not None:
        return _iterated(part[0], ag, builtin)
    called = _called(node, ag) if isinstance(node, ast.Call) else None
    if called == 'enumerate' and node.args:
        return _iterated(node.args[0], ag, builtin)
    if called == 'zip':
        return [name for arg in node.args for name in _iterated(arg, ag, builtin)]
    return []


_REVERSED, _ITER = object(), object()   # (the keys of `reversed(v)` and `iter(v)`)


def _part(node, ag, builtin):
    """(the iterable, its key) of `node` where it is `v[key]` (also as `ag.getitem(v,
    key)`: a NumPy array's view), `reversed(...)` (key _REVERSED) or `iter(...)` (key
    _ITER, all of it in its order) of the builtins; else None."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        return node.value, node.slice
    read = getitem_of(node, ag)
    if read is not None:
        return read if isinstance(read[0], ast.Name) else None
    if not isinstance(node, ast.Call) or node.keywords:
        return None
    if isinstance(node.func, ast.Name) and node.func.id in _PARTS and len(node.args) == 1 \
            and not isinstance(node.args[0], ast.Starred) and builtin(node.func.id):
        return node.args[0], _PARTS[node.func.id]
    return None


_PARTS = {'reversed': _REVERSED, 'iter': _ITER}


def _is_getitem(func, ag):
    """Whether `func` is `ag.getitem`."""
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
        and func.value.id == ag and func.attr == 'getitem'


def _followed(node, live, ctx, builtin):
    """The iterable `node` with its parts of the `live` variables read so that the loop
    can read them live: `reversed(v)` -> `ag.reversed(v)`, `v[1:]` -> `ag.items_of(v,
    slice(1, None))` (see runtime.loops.live_views), `iter(v)` -> `v`."""
    part = _part(node, ctx.ag, builtin)
    if part is not None:
        inner, key = part
        if not set(_iterated(inner, ctx.ag, builtin)) & set(live):
            return node
        if key is _ITER:   # (`for e in iter(v)` is `for e in v`)
            return _followed(inner, live, ctx, builtin)
        if key is _REVERSED:
            return ast.copy_location(ast.Call(func=ctx.runtime('reversed'), args=[
                _followed(inner, live, ctx, builtin)], keywords=[]), node)
        return ast.copy_location(ast.Call(func=ctx.runtime('items_of'), args=[
            inner, key_expression(key, ctx)], keywords=[]), node)
    if isinstance(node, ast.Call) and _called(node, ctx.ag):
        node.args = [_followed(arg, live, ctx, builtin) for arg in node.args]
    return node


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
            if isinstance(node, ast.Assign) and (_changed_in_place(node)
                                                 or _seen_again(node, ag)):
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
                                                 or _writes_arguments(node, ag)
                                                 or _seen_again(node, ag)):
                continue
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.For, ast.AnnAssign, ast.NamedExpr)) \
                else []
            rebound.update(n.id for t in targets for n in ast.walk(t)
                           if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    return changed, rebound


def _seen_again(node, ag):
    """`v = ag.read_view(b, v_key, v)` (passes.views): the view `v` reads the changes
    made to its base, the same array changed in place, not a rebinding."""
    value = node.value
    return (len(node.targets) == 1 and node.targets[0].__class__ is ast.Name
            and value.__class__ is ast.Call and value.func.__class__ is ast.Attribute
            and value.func.attr == 'read_view' and getattr(value.func.value, 'id', None) == ag
            and len(value.args) == 3 and getattr(value.args[2], 'id', None) ==
            node.targets[0].id)


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
