"""Which objects a block changes in place, as opposed to variables it rebinds.

    xs = ag.setitem(xs, 0, v)     (from `xs[0] = v`, see passes/item_assignments.py)
    xs.append(v)                  changes the object in `xs` (so does
    ag.call(xs.append, v)         passes.calls' call of a method of an object it cannot type)
    self.count = self.count + 1   changes the object in `self`: attribute `self.count`

Such a change is visible through every other reference to the object (the caller's), so
a converted `if`/loop must hand the object on even where the variable is not read again.

`Mutation(function, ag)` walks the function once, bottom-up, and keeps the facts of every
statement in a side table keyed by the statement (a statement's facts are its own
expressions' combined with those of the statements inside it); the queries below combine
the facts of the statements they are given. The facts come in two reaches:

- *own*: the statement and what it contains, not entering the nested functions, lambdas
  and classes inside it (a nested `def` given as one of the statements is entered: its
  body is what it contains); the in-place changes, rebindings and attributes;
- *whole*: everything the statement contains, nested functions included; the method calls
  and list growth that `passes.control_flow` looks for.
"""
import ast

from autograph.analysis.activity import (MUTATING_METHODS, base_name, called_name,
                                         changed_argument)
from autograph.analysis.walk import CHILDREN
from autograph.analysis.walk import SCOPES

_ITEM_OPERATORS = ('setitem', 'update_item')
_GROWING = ('append', 'extend', 'insert')
_GROWING_FUNCTIONS = frozenset(_GROWING) | {'heappush', 'insort', 'insort_left', 'insort_right'}
"""The functions that add items to the list given first (`list.append(h, v)`,
`heapq.heappush(h, v)`, see analysis.activity's `changed_argument`)."""
_WITH_FACTS = frozenset({ast.Name, ast.Attribute, ast.Subscript, ast.Call, ast.Assign})
"""The node classes `Mutation._local` reads facts from."""
_SCOPES = frozenset(SCOPES)


class _IsStatement(dict):
    """node class -> whether it is a statement (`ast.stmt`), computed on first use."""

    def __missing__(self, cls):
        self[cls] = issubclass(cls, ast.stmt)
        return self[cls]


_IS_STATEMENT = _IsStatement()


class _Facts:
    """What one node and the nodes under it do (see the module docstring for the reaches).

    Own reach: `changed` (base names of assigned attributes/items and of mutating method
    calls), `stores` (names assigned), `updates` (names `x` of `x = ag.setitem(x, ...)`),
    `attributes` ({label: (base, holder, attribute)}). Whole reach: `calls` ([(depth,
    order, call)] for the calls on `name.attr` or `ag.call(name.attr, ...)`), `appended`
    (names grown by append/extend/insert), `has_call`.
    """
    __slots__ = ('changed', 'stores', 'updates', 'attributes', 'calls', 'appended',
                 'has_call')

    def __init__(self):
        self.changed, self.stores, self.updates = set(), set(), set()
        self.attributes = {}
        self.calls, self.appended, self.has_call = [], set(), False

    def add_own(self, other):
        self.changed |= other.changed
        self.stores |= other.stores
        self.updates |= other.updates
        self.attributes.update(other.attributes)

    def add_whole(self, other):
        self.calls += other.calls
        self.appended |= other.appended
        self.has_call = self.has_call or other.has_call


class Mutation:
    """The in-place facts of every statement of `function` (see the module docstring).
    `ag` is the name generated code uses for the runtime (for `ag.setitem`, `ag.call`)."""

    def __init__(self, function, ag):
        self.ag = ag
        self._facts = {}    # id(statement) -> (statement, _Facts)
        self._order = 0
        self._updated = set()   # ids of the targets `x` of `x = ag.setitem(x, ...)`
        self.assignments = []   # every `=` statement, nested functions' too
        self._visit(function, 0, None, None)
        facts = [entry[1] for entry in self._facts.values()]
        # (what any query can find, for callers that skip asking where nothing is found)
        self.any_attributes = any(f.attributes for f in facts)
        self.call_receivers = {(name, through_ag) for f in facts
                               for _, _, (name, _, through_ag) in f.calls}

    # --- queries ------------------------------------------------------------------------

    def changed_in_place(self, stmts):
        """Names of the variables whose objects `stmts` may change in place."""
        names = set()
        for facts in self._all(stmts):
            names |= facts.changed | facts.updates
        return names - {None}

    def rebound(self, stmts):
        """Names `stmts` assign a new object to (not counting `x = ag.setitem(x, ...)`:
        a name that is also so updated, `c = Cells(); c = ag.setitem(c, ...)`, is)."""
        stores = set()
        for facts in self._all(stmts):
            stores |= facts.stores
        return stores

    def assigned_attributes(self, stmts, keep=frozenset()):
        """{label: (holder, attribute)} for the attributes `stmts` assign or delete (a
        staged statement carries them: one deleted on some paths exists after it where
        Python's does), or change the object of, outer ones first: `self.a.b = v` gives
        'self.a' -> (`self`, 'a') and 'self.a.b' -> (`self.a`, 'b'). Objects of
        variables that `stmts` rebind are left out (they are new objects, not state),
        but for those of `keep`."""
        skip = self.rebound(stmts) - set(keep)
        found = {}
        for facts in self._all(stmts):
            for label, (base, holder, attr) in facts.attributes.items():
                if base not in skip:
                    found[label] = (holder, attr)
        return dict(sorted(found.items(), key=lambda item: (len(item[0]), item[0])))

    def attribute_calls(self, stmts):
        """The calls `name.attr(...)` and `ag.call(name.attr, ...)` anywhere in `stmts`,
        statement by statement, each statement's breadth first (as `ast.walk` goes)."""
        out = []
        for facts in self._all(stmts):
            out += [call for _, _, call in sorted(facts.calls, key=lambda c: c[:2])]
        return out

    def appended(self, stmts):
        """Names of the lists that `stmts` grow with `append`/`extend`/`insert`."""
        return set().union(*[facts.appended for facts in self._all(stmts)])

    def has_call(self, stmt):
        """True when `stmt` contains a call (anywhere, nested functions included)."""
        return self._get(stmt).has_call

    def _all(self, stmts):
        return [self._get(stmt) for stmt in stmts]

    def _get(self, stmt):
        entry = self._facts.get(id(stmt))
        if entry is None or entry[0] is not stmt:
            raise KeyError(f'statement at line {getattr(stmt, "lineno", "?")} was not in the '
                           f'function analysed')
        return entry[1]

    # --- the walk -----------------------------------------------------------------------

    def _visit(self, node, depth, own, whole):
        """Add the facts of `node` and everything under it to `own` (None: not in that
        reach) and `whole`; a statement keeps its own `_Facts` and adds them once done.
        (Dispatched on the node's class: this walk is a good part of the control flow
        pass.)"""
        self._order += 1
        kind = node.__class__
        if kind is ast.Name:   # the commonest node, with nothing under it
            if own is not None and node.ctx.__class__ is ast.Store:
                own.stores.add(node.id)
            return
        outer_own, outer_whole = own, whole
        if _IS_STATEMENT[kind]:
            own = whole = _Facts()
            self._facts[id(node)] = (node, own)
        if kind in _WITH_FACTS:
            self._local(node, depth, self._order, own, whole)
        for child in CHILDREN[kind](node):   # (no contexts, operators: see analysis.walk)
            cls = child.__class__
            if cls is ast.Name:   # (as at the top, without a call)
                self._order += 1
                if own is not None and child.ctx.__class__ is ast.Store and \
                        id(child) not in self._updated:
                    own.stores.add(child.id)
            elif cls is not ast.Constant:   # (tells nothing: skipping it changes no depth
                self._visit(child, depth + 1,   # and no relative order)
                            None if cls in _SCOPES else own, whole)
        if whole is not outer_whole:   # a statement: it is done
            if outer_own is not None:
                outer_own.add_own(whole)
            if outer_whole is not None:
                outer_whole.add_whole(whole)

    def _local(self, node, depth, order, own, whole):
        """The facts of `node` itself (the own ones only when `own` is not None)."""
        if isinstance(node, ast.Name):
            if own is not None and isinstance(node.ctx, ast.Store):
                own.stores.add(node.id)
        elif isinstance(node, (ast.Attribute, ast.Subscript)):
            if own is not None and isinstance(node.ctx, (ast.Store, ast.Del)):
                self._store_target(node, own)
        elif isinstance(node, ast.Call):
            whole.has_call = True
            changed = changed_argument(node)   # (`heapq.heappush(h, v)`)
            if changed is not None:
                if own is not None:
                    self._store_target(changed, own)
                if called_name(node) in _GROWING_FUNCTIONS:
                    whole.appended.add(changed.id)
                return
            func = node.func
            if isinstance(func, ast.Attribute):
                through_ag = (func.attr == 'call' and isinstance(func.value, ast.Name)
                              and func.value.id == self.ag and node.args)
                target = node.args[0] if through_ag else func
                if func.attr in _ITEM_METHODS and isinstance(func.value, ast.Name) and \
                        func.value.id == self.ag and node.args and \
                        isinstance(node.args[0], ast.Name):   # (`ag.setitem(cells, i, v)`:
                    whole.calls.append((depth, order, (   # a user class's `__setitem__`)
                        node.args[0].id, _ITEM_METHODS[func.attr], False)))
                if not isinstance(target, ast.Attribute):
                    return
                if own is not None and target.attr in MUTATING_METHODS:
                    self._store_target(target.value, own)
                if isinstance(target.value, ast.Name):
                    if target.attr in _GROWING:
                        whole.appended.add(target.value.id)
                    whole.calls.append((depth, order, (target.value.id, target.attr,
                                                       bool(through_ag))))
        elif isinstance(node, ast.Assign):
            self.assignments.append(node)
            name = _item_update(node, self.ag)
            if name is not None:
                self._updated.add(id(node.targets[0]))   # (no new object: not a store)
                if own is not None:
                    own.updates.add(name)

    @staticmethod
    def _store_target(target, facts):
        """A changed object: `x.a = v`, `del x.a`, `x[i] = v`, or the `x` of
        `x.append(v)`."""
        base = base_name(target)
        facts.changed.add(base)
        if base is None:
            return
        node, chain = target, []
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            chain.append(node)
            node = node.value
        for step in reversed(chain):   # from the base outwards
            if isinstance(step, ast.Subscript):
                if not isinstance(step.slice, ast.Constant):
                    break   # `self.items[i].x`: which object depends on `i`
                continue
            facts.attributes[ast.unparse(step)] = (base, step.value, step.attr)


_ITEM_METHODS = {'setitem': '__setitem__', 'update_item': '__setitem__',
                 'getitem': '__getitem__'}
"""The runtime's item operators and the method each calls on a user class's object."""


def _item_update(node, ag):
    """`x` for `x = ag.setitem(x, ...)` / `ag.update_item(x, ...)`, else None."""
    if not (len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)):
        return None
    func, args = node.value.func, node.value.args
    if (isinstance(func, ast.Attribute) and func.attr in _ITEM_OPERATORS
            and isinstance(func.value, ast.Name) and func.value.id == ag and args
            and isinstance(args[0], ast.Name) and args[0].id == node.targets[0].id):
        return node.targets[0].id
    return None

