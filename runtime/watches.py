"""What the functions a staged branch or loop body calls change: their places (runtime.places)
found while the branch is traced, carried by the statement as fields (runtime.statement,
runtime.mutation), so that a global, an object's attribute or a list a helper writes under
a staged `if` reaches the code after it as it does in Python.
"""
import types

from . import context
from .context import staged_depth
from .places import _MISSING, Installed, StateFinder, container, is_holder, put, snapshot

class PlaceAttribute:
    """A place as an attribute `value` (what runtime.mutation carries as a field)."""

    def __init__(self, place):
        self.place = place
        self.key = place.key

    @property
    def value(self):
        value = self.place.get()
        if value is _MISSING:
            raise AttributeError(self.place.label)
        return snapshot(value)

    @value.setter
    def value(self, value):
        put(self.place, value)

    @value.deleter
    def value(self):
        self.place.delete()


class Watch:
    """The places that the functions called by one staged branch or body reach (their
    globals, the objects and containers they are given, those the branch's closure
    holds): `during(fn)` runs `fn` watching them, then puts back what it changed and
    remembers those places (`changed`)."""

    def __init__(self, functions, carried=()):
        """`functions`: the statement's branches or body; `carried`: the keys of the
        places the statement carries already (not watched)."""
        self.carried = set(carried)
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
                if type(value) in (list, dict):
                    self.containers.add(id(value))
        self.changed = {}   # key -> Place

    def during(self, fn, *args):
        finder = StateFinder(None)
        roots = list(self.roots)
        installed = Installed([], {})
        depth = staged_depth()
        outer = context.current().on_call

        def on_call(target, call_args=(), places=()):
            if outer is not None:
                outer(target, call_args, places)
            if staged_depth() < depth:
                return
            if target is None:   # places a statement inside is about to carry
                installed.add([p for p in places if p.key not in self.carried])
                return
            new = finder.add_function(target)
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
                     and all(r[1] is not old for _, old in roots)]
            roots.extend(fresh)
            given = [container(label, arg) for label, arg in found
                     if id(arg) in self.containers]
            if new or fresh or given:
                found = finder.find(roots, potential=True) + given
                installed.add([p for p in found if p.key not in self.carried])
        with context.setting(on_call=on_call):
            try:
                return fn(*args)
            finally:
                changed = installed.changed()
                installed.restore()
                for place in installed.places:
                    if place.label in changed:
                        self.changed.setdefault(place.key, place)
