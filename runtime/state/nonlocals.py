"""Variables that converted branches and loop bodies change in place.

A variable that a nested function or lambda can see (it lives in a cell) must keep one
binding, so that the nested function sees its current value (late binding). Converted
code therefore declares it `nonlocal` (or `global`) in the branch and loop functions,
which assign the real variable, and lists its name in the operator's `nonlocals=`:

    def loop_body(item, total):
        nonlocal i
        i = item
        total = total + g()          # g = lambda: i * 2 sees this iteration's i
        return total
    total = ag.for_stmt(xs, loop_body, (total,), names=('total',), nonlocals=('i',))

Python control flow needs nothing more. Staged control flow traces each function once
with tracers as inputs and outputs, so for it the operator turns the variables into
ordinary state (`Nonlocals.wrap`): before each call the wrapper sets them to the
function's extra inputs, after it reads them back as extra outputs; the final values are
written back when the statement ends (`Nonlocals.finish`).

A variable with no value yet is passed as `Unbound(name)`. Staged control flow may leave
it unset on some paths (a staged `if` that assigns it in one branch): it is then bound to
a marker, and reading it later (by a closure, or a later statement) is an error naming the
statement. A variable that a staged loop creates is carried as the loop creates local
variables (its type comes from the body, see staging.loops), unless its value cannot
be carried (a function made in the body): it is then the iteration's own, and reading it
after the loop is an error that says why.
"""
import jax

from ..context import staged_depth
from ..errors import here
from ..messages import created_in_loop
from ..values.split import Unbound, Undefined, is_dynamic, pack, unpack


class Nonlocals:
    """The variables `names`, found through the closures/globals of `functions`."""

    def __init__(self, names, functions, loop=False):
        self._refs = [_reference(name, functions) for name in names]
        self.names = tuple(r.name for r in self._refs)
        # In a staged loop, variables without a value yet are created by the body.
        self._created = [loop and isinstance(r.get(), Undefined) for r in self._refs]
        self._depth = staged_depth()

    def keys(self):
        """The keys of the places these variables are (runtime.state.places): a function
        the statement calls that writes one changes what this layer carries already."""
        return [ref.key for ref in self._refs]

    def get(self):
        return tuple(Unbound(ref.name) if type(value) is Undefined else value
                     for ref, value in ((ref, ref.get()) for ref in self._refs))

    def set(self, values):
        for ref, value in zip(self._refs, values):
            ref.set(value)

    def wrap(self, fn, names):
        """`fn(*args)` returning one value per name in `names` -> a function of
        `(*args, *values of these variables)` returning one value per name, then theirs."""
        if fn is None:
            return None
        count = len(self.names)

        def with_nonlocals(*args):
            self.set(args[len(args) - count:])
            out = fn(*args[:len(args) - count])
            return unpack(tuple(names) + self.names, pack(names, out) + self._results())
        return with_nonlocals

    def wrap_test(self, fn):
        """`fn(*args)` returning a condition -> a function of `(*args, *values)`, which
        leaves the variables as they were (but those `fn` assigns): a staged loop's test
        is also computed in the middle of its body, for the path a check inside is on
        (runtime.checks.raises), where the body may have changed them already."""
        if fn is None:
            return None
        count = len(self.names)

        def with_nonlocals(*args):
            given = args[len(args) - count:]
            before = [ref.saved() for ref in self._refs]
            self.set(given)
            try:
                return fn(*args[:len(args) - count])
            finally:
                for ref, value, old in zip(self._refs, given, before):
                    if ref.saved() is value:   # (not assigned by `fn`)
                        ref.put_back(old)
        return with_nonlocals

    def _results(self):
        """The values to carry on: in a staged loop, a created variable whose value
        cannot be carried is replaced by a marker that says why."""
        values = self.get()
        if staged_depth() <= self._depth:
            return values
        return tuple(Unbound(ref.name, created_in_loop(ref.name, value, here()))
                     if created and not _carriable(value) else value
                     for ref, value, created in zip(self._refs, values, self._created))

    def finish(self, names, result):
        """Write back the final values of these variables (the last ones in `result`,
        which has one value per name and then theirs); return the rest as the result."""
        values = pack(tuple(names) + self.names, result)
        self.set(values[len(names):])
        return unpack(names, values[:len(names)])


def _carriable(value):
    """Whether a staged loop can carry `value`: arrays and numbers, and static leaves that
    are the same in every iteration (None, strings, markers), in any structure."""
    return all(is_dynamic(leaf) or leaf is None or isinstance(leaf, (str, bytes, Undefined))
               for leaf in jax.tree_util.tree_leaves(value))


class _Cell:
    def __init__(self, name, cell):
        self.name, self.cell = name, cell

    def get(self):
        try:
            return self.cell.cell_contents
        except ValueError:   # an empty cell: the variable has no value yet
            return Undefined(self.name)

    def set(self, value):
        self.cell.cell_contents = value

    def saved(self):
        """What the cell holds, or `_EMPTY`: for `put_back`."""
        try:
            return self.cell.cell_contents
        except ValueError:
            return _EMPTY

    def put_back(self, saved):
        if saved is _EMPTY:
            del self.cell.cell_contents
        else:
            self.cell.cell_contents = saved

    @property
    def key(self):   # (the key of its Place, see runtime.state.places)
        return ('cell', id(self.cell))


class _Global:
    def __init__(self, name, namespace):
        self.name, self.namespace = name, namespace

    def get(self):
        return self.namespace.get(self.name, Undefined(self.name))

    def set(self, value):
        if isinstance(value, Undefined) and not getattr(value, 'reason', None):
            self.namespace.pop(self.name, None)   # unset (a marker stays: it says why)
        else:
            self.namespace[self.name] = value

    def saved(self):
        return self.namespace.get(self.name, _EMPTY)

    def put_back(self, saved):
        if saved is _EMPTY:
            self.namespace.pop(self.name, None)
        else:
            self.namespace[self.name] = saved

    @property
    def key(self):   # (the key of its Place, see runtime.state.places)
        return ('global', id(self.namespace), self.name)


_EMPTY = object()   # (an empty cell, a global not set: see `saved`)


def current_value(name, functions):
    """The value of variable `name` as `functions` see it now (an Undefined if none)."""
    try:
        return _reference(name, functions).get()
    except ValueError:
        return Undefined(name)


def _reference(name, functions):
    for fn in functions:
        code = getattr(fn, '__code__', None)
        if code is not None and name in code.co_freevars:
            return _Cell(name, fn.__closure__[code.co_freevars.index(name)])
    for fn in functions:
        if getattr(fn, '__code__', None) is not None:
            return _Global(name, fn.__globals__)
    raise ValueError(f'no function to find the variable {name!r} through')
