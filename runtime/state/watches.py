"""What the functions a staged branch or loop body calls change: their places (runtime.state.places)
found while the branch is traced, carried by the statement as fields (runtime.state.statement,
runtime.state.mutation), so that a global, an object's attribute or a list a helper writes under
a staged `if` reaches the code after it as it does in Python.

A statement that finds such places is staged again carrying them, and the run it makes
again must start from the world its first run started from: what the first run changed as
Python (an iteration of a loop run as Python, a helper called at the statement's own level,
an inner statement's results written back) is put back first (`Journal`), or it would be
changed twice (a global a helper adds to counted twice).
"""
import types

from .. import context
from ..checks import checks
from ..checks.keys import Keyed
from ..context import staged_depth
from .installed import Installed, put, snapshot
from .kinds import LISTS_AND_DICTS
from .logs import is_log
from .places import (MISSING, PlaceField, StateFinder, attribute, code_names, container,
                     is_holder)


class PlaceAttribute(PlaceField):
    """A place as an attribute `value` (what runtime.state.mutation carries as a field)."""

    def __init__(self, place):
        self.place = place
        self.key = place.key

    @property
    def value(self):
        value = self.place.get()
        if value is MISSING:
            raise AttributeError(self.place.label)
        return snapshot(value)

    @value.setter
    def value(self, value):
        put(self.place, value)

    @value.deleter
    def value(self):
        self.place.delete()


class Reach:
    """The places that the functions a statement's branches or body call can reach: their
    globals, the objects they are given, and the lists and dicts they are given that the
    branches' closures hold or that are globals the branches name (`functions`).
    `found(target, call_args)` tells of one call; it returns the places that call adds
    (those a call may create included), or [] when it adds none. Objects made after the
    statement began (`Filter(b)` in a loop body: runtime.context.made) are the body's own,
    none of its state: their attributes are not places (what they hold that was there
    before, such as the arguments given to their `__init__`, is reached as arguments)."""

    def __init__(self, functions):
        self.mark = context.made_mark()
        self.roots = []
        self.containers = set()
        for fn in functions:
            for name, cell in zip(getattr(getattr(fn, '__code__', None), 'co_freevars', ()),
                                  getattr(fn, '__closure__', None) or ()):
                try:
                    value = cell.cell_contents
                except ValueError:
                    continue
                self.roots.append((name, value))
                if type(value) in LISTS_AND_DICTS:
                    self.containers.add(id(value))
            namespace = getattr(fn, '__globals__', {})   # (a global list they pass on)
            for name in code_names(fn.__code__) if hasattr(fn, '__code__') else ():
                if type(namespace.get(name)) in LISTS_AND_DICTS:
                    self.containers.add(id(namespace[name]))
        # (the callees' cells that the branches name too are watched as well: a closure
        # array the code after a traced `return` reads and a helper writes; the
        # statement's own variables in place are left out by `Watch`, as carried)
        self.finder = StateFinder(None)

    def found(self, target, call_args):
        new = self.finder.add_function(target, cells=True)
        self_ = getattr(target, '__self__', None)
        self_ = None if isinstance(self_, types.ModuleType) else self_
        code = getattr(getattr(target, '__func__', target), '__code__', None)
        params = list(code.co_varnames[:code.co_argcount]) if code else []
        if self_ is not None and params:
            params = params[1:]
        found = [(params[i] if i < len(params) else f'argument {i}', a)
                 for i, a in enumerate(call_args)]
        if self_ is not None:
            found.append(('self', self_))
        fresh = [r for r in found if is_holder(r[1])
                 and not context.made_since(r[1], self.mark)
                 and all(r[1] is not old for _, old in self.roots)]
        self.roots.extend(fresh)
        given = [container(label, arg) for label, arg in found
                 if id(arg) in self.containers]
        if new or fresh or given:
            return self.finder.find(self.roots, potential=True) + given
        return []


class Watch:
    """The places that the functions called by one staged branch or body reach (see
    `Reach`): `during(fn)` runs `fn` watching them, then puts back what it changed and
    remembers those places (`changed`)."""

    def __init__(self, functions, carried=()):
        """`functions`: the statement's branches or body; `carried`: the keys of the
        places the statement carries already (not watched)."""
        self.functions = functions
        self.carried = set(carried)
        self.changed = {}   # key -> Place

    def during(self, fn, *args):
        reach = Reach(self.functions)
        installed = Installed([], {})
        depth = staged_depth()
        outer = context.current().on_call

        def on_call(target, call_args=(), places=()):
            if outer is not None:
                outer(target, call_args, places)
            if staged_depth() < depth:
                return
            if target is not None:
                places = reach.found(target, call_args)
            else:   # (an object made after the statement began is its own: see Reach)
                places = [p for p in places if p.owner is None
                          or not context.made_since(p.owner[0](), reach.mark)]
            # (target None: places a statement inside is about to carry; logs are not
            # watched: a statement takes out what is appended to them, see logs.py)
            installed.add([p for p in places if p.key not in self.carried
                           and not is_log(p.get())])
        with context.setting(on_call=on_call):
            try:
                return fn(*args)
            finally:
                changed = installed.changed(trace_effects=False)
                installed.restore()
                for place in installed.places:
                    if place.label in changed:
                        self.changed.setdefault(place.key, place)


class Journal:
    """The places one run of a statement may change (its fields, the containers among its
    values, what the functions it calls reach, what the statements inside it carry),
    with their values from before the run: `recording(run)` runs it, noting each place
    as it is first met; `rewind()` puts them all back, for the statement to run again
    from the same world, with the flags of the attributes created on some paths
    (runtime.context `fields`) as they were: a run that set such an attribute again (a
    helper's staged `if`) replaced its flag, which must not outlive the run."""

    def __init__(self, functions, values):
        self.reach = Reach(functions)
        fields = context.current().fields
        self.flags = None if fields is None else dict(fields)
        self.errors = checks.snapshot()
        self.installed = Installed([], {})
        # (a Keyed dict too: one with keys on some paths only, whose items and flags a
        # run changes in place like a plain dict's)
        self.installed.add([container(f'<value {i}>', value) for i, value in enumerate(values)
                            if type(value) in (list, dict, Keyed)])

    def recording(self, fields, run, *args):
        """`run(*args)`, after noting `fields` ((label, object, attribute), see
        runtime.state.mutation), while noting the places the calls inside reach."""
        self.installed.add([holder.place if isinstance(holder, PlaceAttribute)
                            else attribute(label, holder, name)
                            for label, holder, name in fields])
        outer = context.current().on_call

        def on_call(target, call_args=(), places=()):
            if outer is not None:
                outer(target, call_args, places)
            found = self.reach.found(target, call_args) if target is not None else places
            self.installed.add([p for p in found if not is_log(p.get())])
        with context.setting(on_call=on_call):
            return run(*args)

    def rewind(self):
        self.installed.restore()
        fields = context.current().fields
        if fields is not None and self.flags is not None:
            fields.clear()
            fields.update(self.flags)
        checks.restore(self.errors)
