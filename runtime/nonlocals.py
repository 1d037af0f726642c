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

A loop variable with no value before a staged loop (`for x in xs: fns.append(lambda:
x)`) cannot be carried (a staged loop needs its type up front): each iteration sees its
own value, and after the loop reading it is an error that says why.
"""
from .errors import ControlFlowError, here, where
from .lowering import staged_depth
from .state import Undefined, pack, unpack


class Nonlocals:
    """The variables `names`, found through the closures/globals of `functions`."""

    def __init__(self, names, functions, loop=False):
        refs = [_reference(name, functions) for name in names]
        # In a loop, variables without a value yet are the loop's own (see above).
        self._local = [r for r in refs if loop and isinstance(r.get(), Undefined)]
        self._refs = [r for r in refs if r not in self._local]
        self.names = tuple(r.name for r in self._refs)
        self._depth = staged_depth()
        self._staged = False

    def get(self):
        return tuple(ref.get() for ref in self._refs)

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
            self._enter(args[len(args) - count:])
            out = fn(*args[:len(args) - count])
            return unpack(tuple(names) + self.names, pack(names, out) + self.get())
        return with_nonlocals

    def wrap_test(self, fn):
        """`fn(*args)` returning a condition -> a function of `(*args, *values)`."""
        if fn is None:
            return None
        count = len(self.names)

        def with_nonlocals(*args):
            self._enter(args[len(args) - count:])
            return fn(*args[:len(args) - count])
        return with_nonlocals

    def _enter(self, values):
        if staged_depth() > self._depth:   # traced inside a staged primitive
            self._staged = True
            for ref in self._local:
                ref.set(Undefined(ref.name))
        self.set(values)

    def finish(self, names, result):
        """Write back the final values of these variables (the last ones in `result`,
        which has one value per name and then theirs); return the rest as the result."""
        values = pack(tuple(names) + self.names, result)
        self.set(values[len(names):])
        if self._staged:
            location = here(2)
            for ref in self._local:
                ref.set(_AfterStagedLoop(ref.name, location))
        return unpack(names, values[:len(names)])


class _AfterStagedLoop(Undefined):
    """A variable first assigned inside a staged loop, read after it."""

    __slots__ = ('location',)

    def __init__(self, name, location):
        super().__init__(name)
        self.location = location

    def error(self):
        return ControlFlowError(
            f"'{self.name}' is first assigned inside the staged loop{where(self.location)} "
            f"and read after it (by a closure or a later statement). The loop is staged, "
            f"so its last value is not known to Python: assign '{self.name}' before the "
            f"loop (a value of its final shape and dtype) to carry it through the loop.")


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


class _Global:
    def __init__(self, name, namespace):
        self.name, self.namespace = name, namespace

    def get(self):
        return self.namespace.get(self.name, Undefined(self.name))

    def set(self, value):
        if isinstance(value, Undefined):
            self.namespace.pop(self.name, None)
        else:
            self.namespace[self.name] = value


def _reference(name, functions):
    for fn in functions:
        code = getattr(fn, '__code__', None)
        if code is not None and name in code.co_freevars:
            return _Cell(name, fn.__closure__[code.co_freevars.index(name)])
    for fn in functions:
        if getattr(fn, '__code__', None) is not None:
            return _Global(name, fn.__globals__)
    raise ValueError(f'no function to find the variable {name!r} through')
