"""Which variables are NumPy views of which, where (for passes.views).

    v = a[i]        # a view binding: `v` is a view of `a` (when `i` is a basic index)
    v += e          # an in-place change of `v`: `a` changes too
    a[0] = 9        # an in-place change of `a`: `v` sees it
    v = v + e       # a rebinding: `v` is a new array from here on

`view_bindings(function)` finds the statements `v = b[key]` (b a variable other than v;
a key that may be basic: no list, comparison or string), and the loops `for v in b:`
(each item of an array is a view of it). `Views(...)` follows, through
branches and loops, which bindings reach each statement (the origins of each name: a
view binding, or OTHER for any other binding or none), and records:

- `tracked[binding] = (v, b)`: the bindings of views in a group changed in place (a view
  of a view belongs to its base's group);
- `after[stmt]`: what follows an in-place change: ('write', v, b) writes the view `v`
  back into `b` (its base's own base next, ...), ('read', u, b) reads the view `u` again
  from `b`;
- `key_names[v]`: the variable holding v's key.

An in-place change of a name that is a view on some paths only (or of different bases),
or a read of one whose base changed, is an UnsupportedSyntax.
"""
import ast

from autograph.analysis.walk import SCOPES, children
from autograph.analysis.written_parameters import (argument_base, positions_written,
                                                   split_call)
from autograph.errors import unsupported

OTHER = 'other'     # an origin: any binding that is not a tracked view's (or none)
STALE = 'stale'     # an origin: a view on some paths whose base changed since
NESTED = 'nested'   # an origin: `v = v[k]`, a view of the view `v` was (not followed)
_NOT_VIEW = frozenset({OTHER})


def view_bindings(function):
    """{Assign or For: (view name, base name)} for the statements `v = b[key]` and the
    loops `for v in b:` in `function`'s own body."""
    found = {}
    for node in _own(function.body):
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Subscript)
                and isinstance(node.value.value, ast.Name)
                and node.value.value.id != node.targets[0].id
                and _may_be_basic(node.value.slice)):
            found[node] = (node.targets[0].id, node.value.value.id)
        elif (isinstance(node, ast.For) and isinstance(node.target, ast.Name)
              and isinstance(node.iter, ast.Name) and node.iter.id != node.target.id):
            found[node] = (node.target.id, node.iter.id)   # (`for row in M`: M[0], ...)
    return found


def _may_be_basic(key):
    parts = key.elts if isinstance(key, ast.Tuple) else [key]
    for part in parts:
        if isinstance(part, (ast.List, ast.ListComp, ast.Compare, ast.BoolOp, ast.Tuple,
                             ast.Set, ast.Dict)):
            return False
        if isinstance(part, ast.Constant) and not (
                part.value is None or part.value is Ellipsis
                or (type(part.value) is int)):
            return False
    return True


def _own(stmts):
    """The nodes of `stmts`, not those of the functions and classes in them."""
    stack = list(stmts)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, SCOPES):
            stack += children(node)
        elif not isinstance(node, ast.Lambda):
            stack += node.decorator_list


class Views:
    def __init__(self, function, bindings, resolve, ctx):
        self.ctx, self.resolve, self.after = ctx, resolve, {}
        changed = set()
        for stmt in function.body:   # (each walks the statements in it too)
            changed.update(self._effects(stmt)[2])
        self.tracked = _groups(bindings, changed)
        self.key_names = {}
        for name, _ in sorted(set(self.tracked.values())):
            if name not in self.key_names:
                self.key_names[name] = ctx.namer.new(f'{name}_key')
        if self.tracked:
            self._block(function.body, {}, True)

    # --- the flow through statements ---------------------------------------------------

    def _block(self, stmts, state, record):
        for stmt in stmts:
            state = self._statement(stmt, state, record)
        return state

    def _statement(self, stmt, state, record):
        if isinstance(stmt, ast.If):
            self._loads(stmt.test, state, stmt)
            return _join(self._block(stmt.body, state, record),
                         self._block(stmt.orelse, state, record))
        if isinstance(stmt, (ast.For, ast.While)):
            return self._loop(stmt, state, record)
        if isinstance(stmt, (ast.With, ast.Try, ast.Match)):
            return self._compound(stmt, state, record)
        return self._simple(stmt, state, record)

    def _loop(self, loop, state, record):
        if isinstance(loop, ast.For):
            self._loads(loop.iter, state, loop)
        head = state
        while True:   # (the origins only grow: a fixed point)
            joined = _join(head, self._iteration(loop, head, False))
            if joined == head:
                break
            head = joined
        if record:
            self._iteration(loop, head, True)
        return self._block(loop.orelse, head, record)

    def _iteration(self, loop, head, record):
        if isinstance(loop, ast.For):
            state = head
            for name in _stored(loop.target):
                state = self._rebind(name, state, loop)
        else:
            state = head
            self._loads(loop.test, state, loop)
        return self._block(loop.body, state, record)

    def _compound(self, stmt, state, record):
        """`with`, `try`, `match`: each block from what reaches the statement and what
        each block before it leaves (a block may not run, or run in part)."""
        for node in _header(stmt):
            self._loads(node, state, stmt)
            for name in _stored(node):
                state = self._rebind(name, state, None)
        for handler in getattr(stmt, 'handlers', ()):
            if handler.name:
                state = self._rebind(handler.name, state, None)
        out = state
        for block in _blocks(stmt):
            out = _join(out, self._block(block, out, record))
        return out

    def _simple(self, stmt, state, record):
        loads, stores, changed = self._effects(stmt)
        for name in loads:
            self._check_fresh(name, state, stmt)
        actions = []
        for name in changed:
            state = self._change(name, state, stmt, actions)
        for name in stores:
            state = self._rebind(name, state, stmt)
        if record and actions:
            self.after[stmt] = actions
        return state

    # --- one statement's effects ---------------------------------------------------------

    def _change(self, name, state, stmt, actions):
        """`name` changed in place at `stmt`: write it back into its base (and that one
        into its own base...), then read again the views of what changed."""
        chain, current = [name], name
        while True:
            origins = state.get(current, _NOT_VIEW)
            if NESTED in origins:
                raise self._nested(current, stmt)
            views = [o for o in origins if o in self.tracked]
            if not views:
                break
            bases = {self.tracked[o][1] for o in views}
            if len(views) != len(origins) or len(bases) != 1:
                raise self._error(current, bases, stmt, 'is changed in place here')
            base = bases.pop()
            actions.append(('write', current, base))
            if base in chain:
                break
            chain.append(base)
            current = base
        return self._refresh(chain, state, actions)

    def _refresh(self, changed, state, actions):
        """Read again the views of the names `changed` (and their views...); a view on
        some paths only becomes STALE (an error where it is read)."""
        state, queue, done = dict(state), list(changed), set(changed)
        while queue:
            base = queue.pop(0)
            for name in sorted(state):
                origins = state[name]
                of_base = [o for o in origins if o in self.tracked
                           and self.tracked[o][1] == base]
                if name in done or not of_base:
                    continue
                if len(of_base) == len(origins):
                    actions.append(('read', name, base))
                    done.add(name)
                    queue.append(name)
                else:
                    state[name] = origins | {STALE}
        return state

    def _rebind(self, name, state, stmt):
        """`name` bound at `stmt` (a tracked view binding, or anything else): the views
        of its old value keep that value (no longer views of `name`)."""
        state = dict(state)
        views = {o for o in state.get(name, ()) if o in self.tracked}
        if stmt in self.tracked and self.tracked[stmt][0] == name:
            state[name] = frozenset({stmt})
        elif views and _self_view(stmt, name):   # (`row = row[1:]`: a view still)
            state[name] = frozenset(views | {NESTED})
        else:
            state.pop(name, None)
        for other, origins in list(state.items()):
            if other != name and any(o in self.tracked and self.tracked[o][1] == name
                                     for o in origins):
                state[other] = frozenset(
                    OTHER if o in self.tracked and self.tracked[o][1] == name else o
                    for o in origins)
        return state

    def _effects(self, stmt):
        """(names read, names bound, names changed in place) by the simple statement
        `stmt` (by a compound one: by the statements in it too)."""
        loads, stores, changed = [], [], []
        updated, local = set(), set()   # (`x += ...`'s `x`; a comprehension's variables)
        for node in _own([stmt]):
            if isinstance(node, ast.AugAssign):
                updated.add(id(node.target))
            elif isinstance(node, ast.comprehension):
                local.update(id(n) for n in _own([node.target]))
            if isinstance(node, ast.Name):
                if id(node) in local:
                    continue
                if id(node) in updated:
                    loads.append(node.id)
                    changed.append(node.id)
                elif isinstance(node.ctx, ast.Load):
                    loads.append(node.id)
                else:
                    stores.append(node.id)
            elif isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load):
                changed.append(_root(node))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                stores.append(node.name)
            elif isinstance(node, ast.Call):   # (a helper writing its arguments)
                func, args = split_call(node, self.ctx.ag)
                if func is not node.func:
                    changed += [argument_base(args[p])
                                for p in positions_written(func, args, self.resolve)]
        return loads, stores, list(dict.fromkeys(n for n in changed if n is not None))

    def _loads(self, node, state, stmt):
        for inner in _own([node]):
            if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Load):
                self._check_fresh(inner.id, state, stmt)

    def _check_fresh(self, name, state, stmt):
        origins = state.get(name, _NOT_VIEW)
        if STALE in origins and NESTED in origins:
            raise self._nested(name, stmt)
        if STALE in origins:
            bases = {self.tracked[o][1] for o in origins if o in self.tracked}
            raise self._error(name, bases, stmt, 'is read here after its base changed')

    def _error(self, name, bases, stmt, what):
        base = ' or '.join(f"'{b}'" for b in sorted(bases)) or 'an array'
        return unsupported(
            f"'{name}' {what}, but it is a NumPy view of {base} on some paths only "
            f"(bound from an item or slice of it on one path, otherwise on another): "
            f"whether {base} changes with it depends on the path, which the converted "
            f"code cannot follow. Bind '{name}' the same way on every path, or make the "
            f"copy explicit (`{name} = ....copy()`)", self.ctx, stmt)


    def _nested(self, name, stmt):
        return unsupported(
            f"'{name}' is used here as a NumPy view, but it was bound from an item or "
            f"slice of its own earlier value (`{name} = {name}[...]`), a view of a view "
            f"that the converted code cannot follow. Give the new view a name of its own "
            f"(`{name}_part = {name}[...]`)", self.ctx, stmt)


def _self_view(stmt, name):
    """Whether `stmt` is `name = name[key]` (a view of the view it rebinds)."""
    return (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Subscript)
            and _root(stmt.value) == name and _may_be_basic(stmt.value.slice))


def _groups(bindings, changed):
    """The bindings whose view, or base, is changed in place, or is a view or base of
    one that is (a group of views)."""
    changed, grew = set(changed), True
    while grew:
        grew = False
        for view, base in bindings.values():
            if (view in changed) != (base in changed):
                changed |= {view, base}
                grew = True
    return {stmt: pair for stmt, pair in bindings.items() if pair[0] in changed}


def _join(one, other):
    out = {}
    for name in one.keys() | other.keys():
        out[name] = one.get(name, _NOT_VIEW) | other.get(name, _NOT_VIEW)
    return out


def _root(node):
    while isinstance(node, ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _stored(node):
    names = []
    for inner in _own([node]):
        if isinstance(inner, ast.Name) and not isinstance(inner.ctx, ast.Load):
            names.append(inner.id)
        for field in ('name', 'rest'):   # (the captures of `match` patterns)
            value = getattr(inner, field, None)
            if isinstance(inner, ast.pattern) and isinstance(value, str):
                names.append(value)
    return names


def _header(stmt):
    if isinstance(stmt, ast.With):
        return list(stmt.items)
    if isinstance(stmt, ast.Try):
        return [h.type for h in stmt.handlers if h.type is not None]
    return [stmt.subject] + [c.pattern for c in stmt.cases] + [
        c.guard for c in stmt.cases if c.guard is not None]


def _blocks(stmt):
    if isinstance(stmt, ast.With):
        return [stmt.body]
    if isinstance(stmt, ast.Try):
        return [stmt.body] + [h.body for h in stmt.handlers] + [stmt.orelse,
                                                                stmt.finalbody]
    return [c.body for c in stmt.cases]
