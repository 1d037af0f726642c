"""Logs while a Function's call is traced: lists its code only appends to (which lists
those are, the converter decides: see autograph/function/logs.py).

Python reference: `calls.append(v)` puts `v` at the end of `calls`, and code that only
appends never sees the items already there. So the trace need not see them either: each
log is emptied in place (the same object, so every name for it sees the same list) while
the trace runs (`Logs`); what the trace appends is taken out as the call's logged items
(outputs of the compiled program); the items come back when the trace ends. After each
call the Function appends that call's items, as Python would have appended them.

Staged statements append where Python would (`StatementLogs`):

    if x > 0:                      # staged: lax.cond
        calls.append(x)            # appended when the program takes this branch
    for row in xs:                 # staged: lax.scan
        calls.append(row.sum())    # appended once per iteration, in order

The items a staged branch appends leave it as one field of the statement per branch
(runtime.state.mutation): a `Block` of them from the branch that appended them and None
from the others, which the branches' merge makes an optional value (a `Maybe` whose flag
says whether the program took that branch, see runtime.staging.branches). The items one
iteration of a staged loop appends are one `Block`, collected per iteration by the list
that the loop carries for the log (runtime.state.lists); after the loop that list holds
one `Iterations` (each leaf stacked over the iterations). A loop without a fixed trip
count (a while loop, a `break`, a traced range) cannot collect them: the named error of
a list such a loop grows. The Function turns these back into the items, in Python's
order, when the call's values are known (autograph.function.logs.expand).
"""
import jax

from .. import context
from ..context import staged_depth


class Logs:
    """The logs of one trace: `add` empties them, `take` gives what the trace appended,
    `restore` puts their items back."""

    def __init__(self):
        self._lists = {}   # id(list) -> (place, the list, its items before the trace)

    def add(self, places):
        """Empty the lists of `places` (log places) for the trace; a list reached by two
        names is one log, under the first."""
        for place in places:
            items = place.get()
            if type(items) is list and id(items) not in self._lists:
                self._lists[id(items)] = (place, items, list(items))
                items.clear()

    def __contains__(self, value):
        """Whether `value` is one of these logs (the very list)."""
        entry = self._lists.get(id(value))
        return entry is not None and entry[1] is value

    def lists(self):
        """[(label, list)] of the logs."""
        return [(place.label, items) for place, items, _ in self._lists.values()]

    def take(self):
        """{label: the items the trace appended to that log}, each log emptied again."""
        taken = {}
        for place, items, _ in self._lists.values():
            taken[place.label] = list(items)
            items.clear()
        return taken

    def restore(self):
        for _, items, before in self._lists.values():
            items[:] = before


def is_log(value):
    """Whether `value` is a log of the Function being traced (a list it only appends to)."""
    logs = context.current().logs
    return logs is not None and type(value) is list and value in logs


@jax.tree_util.register_pytree_node_class
class Block:
    """The items one staged branch, or one iteration of a staged loop, appended to a log:
    a pytree whose children are the items' arrays (the rest, Python values that the
    branch appended, are kept as they are, as Python appended them). Which leaves are
    arrays is fixed when it is made (JAX rebuilds pytrees with other leaves)."""
    __slots__ = ('aux', 'arrays')

    def __init__(self, items=None, aux=None, arrays=()):
        if aux is None:
            leaves, treedef = jax.tree_util.tree_flatten(items)
            arrays = [leaf for leaf in leaves if _is_array(leaf)]
            aux = (treedef, tuple(_ARRAY if _is_array(leaf) else leaf for leaf in leaves))
        self.aux, self.arrays = aux, list(arrays)

    @property
    def items(self):
        treedef, statics = self.aux
        it = iter(self.arrays)
        return jax.tree_util.tree_unflatten(
            treedef, [next(it) if s is _ARRAY else s for s in statics])

    def tree_flatten(self):
        return self.arrays, self.aux

    @classmethod
    def tree_unflatten(cls, aux, arrays):
        return cls(aux=aux, arrays=arrays)


class _Marker:
    def __repr__(self):
        return '<array>'


_ARRAY = _Marker()   # (where a Block's statics have an array)


def _is_array(leaf):
    return isinstance(leaf, jax.Array) or hasattr(leaf, '__array__') and \
        hasattr(leaf, 'dtype') and hasattr(leaf, 'shape')


@jax.tree_util.register_pytree_node_class
class Iterations:
    """The Blocks of `length` iterations of a staged loop: one Block whose arrays are
    stacked over the iterations (`at(t)` is iteration t's)."""
    __slots__ = ('block', 'length')

    def __init__(self, block, length):
        self.block, self.length = block, length

    def tree_flatten(self):
        return (self.block,), self.length

    @classmethod
    def tree_unflatten(cls, length, children):
        return cls(children[0], length)

    def blocks(self):
        """Each iteration's Block (its arrays sliced from the stacked ones)."""
        leaves, treedef = jax.tree_util.tree_flatten(self.block)
        columns = [list(leaf) for leaf in leaves]
        return [jax.tree_util.tree_unflatten(treedef, [c[t] for c in columns])
                for t in range(self.length)]


class StatementLogs:
    """The logs of one staged statement: `bind` wraps its branches (or loop body) to
    take out what they append while traced, `fields` are the statement's fields that
    carry it out (runtime.state.mutation), and setting a field's final value appends it
    to the log where the statement runs (see the module docstring)."""

    def __init__(self, logs, branches, loop):
        self.logs = logs
        self.depth = staged_depth()
        self.loop = loop
        self.branches = 1 if loop else max(branches, 1)
        self._bound = 0
        self.captured = None   # (branch index, {id(list): items}) of the run just traced
        self.known = set()     # id(list) of the logs that the fields carry
        self.unknown = False   # whether a run appended to a log that no field carries

    def bind(self, fn):
        """Branch or body `fn` (bound in order: branch i is the i-th), taking out what
        it appends to the logs when traced as staged code."""
        if fn is None:
            return None
        index = min(self._bound, self.branches - 1)
        self._bound += 1

        def taking_out(*args):
            if staged_depth() <= self.depth:   # run as Python: its appends stay
                return fn(*args)
            marks = {id(items): len(items) for _, items in self.logs.lists()}
            self.captured = None
            try:
                return fn(*args)
            finally:
                got = {}
                for _, items in self.logs.lists():   # (one found meanwhile started empty)
                    mark = marks.get(id(items), 0)
                    got[id(items)] = items[mark:]
                    del items[mark:]
                    self.unknown |= bool(got[id(items)]) and id(items) not in self.known
                self.captured = (index, got)
        return taking_out

    def fields(self):
        """(label, holder, 'value') per log and branch (per log, for a loop)."""
        lists = self.logs.lists()
        self.known = {id(items) for _, items in lists}
        return [(label if self.branches == 1 else f'{label} ({i + 1})',
                 _Slot(self, items, i), 'value')
                for label, items in lists for i in range(self.branches)]

    def missing(self):
        """Whether a run since the last call appended to a log that no field carries (a
        log found while it ran: the statement is staged again, with it)."""
        missing, self.unknown = self.unknown, False
        return missing


class _Slot:
    """A field of a statement for one log and one branch (see StatementLogs): None or
    the branch's Block (a loop: the list that collects a Block per iteration)."""

    def __init__(self, owner, items, index):
        self.owner, self.items, self.index = owner, items, index
        self.input = None

    @property
    def value(self):
        owner = self.owner
        if owner.captured is None or staged_depth() <= owner.depth:
            return [] if owner.loop else None   # (the statement's, or a run's, start)
        index, got = owner.captured
        items = got.get(id(self.items)) if index == self.index else None
        if owner.loop:
            collected = self.input if isinstance(self.input, list) else []
            if items:
                list.append(collected, Block(items))
            return collected
        return Block(items) if items else None

    @value.setter
    def value(self, value):
        owner = self.owner
        if staged_depth() > owner.depth:   # a run's input (or its start again)
            owner.captured, self.input = None, value
        elif isinstance(value, list):      # the loop's final list (of Iterations)
            self.items.extend(value)
        elif value is not None:            # a branch's: a Block, or a Maybe of one
            self.items.append(value)
