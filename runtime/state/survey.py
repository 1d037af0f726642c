"""What a search for state (`StateFinder.find`) read, to tell cheaply on a later call
whether the same search would find the same places.

Python reference: the places of a call are those `find` gives when the call starts (see
runtime.state.places). `find` decides what each value it reads is: a place (an array, a
scalar, a list or dict of them), an object whose named attributes it reads in turn, a
log, or nothing. A `Survey` records every read: the dict (globals, an object's
attributes) or cell, the name, and what decided the value's fate:

    its type        for values whose type alone decides (arrays, scalars: a new value
                    of the same type is the same kind of place)
    its absence     for a name with no value (that it still has none)
    the code        for functions, methods, modules and classes (runtime.state.places'
                    `is_code`): the very one, as a trace that called it used it
    the object      for objects whose attributes were read (their places are theirs):
                    the very object must be there again
    its contents    for lists, dicts and tuples (and methods bound to one): whether
                    they hold arrays, or are logs, is decided again on every check

Invariant: `holds()` is true only when `find`, run now with the same roots, would
decide every value as it did, so it finds the same places (the same labels, each
reading the same holder's attribute, the same global or cell). A global or attribute
rebound to a value of another type, an attribute added or deleted, an object replaced
by another, a function rebound, a list that gets or loses its arrays, and a function
the finder learned about since (its names, namespaces and cells grow: `version`) all make it false.

What it does not cover: the roots themselves (the caller checks they are the same
objects) and whether library objects are holders (decided by the active embedding: the
caller checks that too).
"""
import itertools
import types
import weakref

from .kinds import code_contents, is_data
from .places import MISSING, is_code, is_holder_type


class Survey:
    """The reads of one `find` (see the module docstring). `ok`: false when some object
    read cannot be referred to weakly (then a survey cannot be kept); `holders`: whether
    it met objects that may hold state (whose verdict as library code may change)."""

    def __init__(self, finder, visited, logs):
        """`visited`: the (label, object, depth) `find` looked into; `logs()`: the log
        names it used."""
        self._seen, self.version = finder.seen_codes, finder.version
        self._logs = logs
        self.ok, self.holders = True, bool(visited)
        self._sizes = []   # (a weak reference to an object, its number of attributes):
        #                    where the code names attributes by computed names (the
        #                    finder's `dynamic`), all of an object's are read: one added
        #                    since must make the survey fail
        names = tuple(finder.sorted_names())
        self._reads = []   # (globals, or a weak reference to an object, checks): the
        #                    types to check (see `_types`), and the code by identity
        self._dicts = []   # (globals, or a weak reference to an object, names, checks)
        for _, namespace in finder.namespaces:
            self._add(namespace, _read(namespace, names), names)
        labels = sorted(finder.cells)
        self._cells = [finder.cells[label] for label in labels]
        cell_names = [label.rpartition('.')[2] for label in labels]
        kinds, same, again, code = self._checks(_cell_values(self._cells), cell_names)
        self._cell_checks = (kinds, same + code, again)
        for _, holder, _ in visited:
            ref = _ref(holder)
            if ref is None:
                self.ok = False
                return
            attributes = vars(holder)
            read = names
            if finder.dynamic:
                read = tuple(sorted(set(names) | set(attributes)))
                self._sizes.append((ref, len(attributes)))
            self._add(ref, _read(attributes, read), read)

    def _add(self, source, values, names):
        """Check `values`, read under `names` from `source` (globals, or a weak reference
        to an object), on each call: by type alone where that decides, else in full."""
        kinds, same, again, code = self._checks(values, names)
        if same or again:
            self._dicts.append((source, names, kinds, same + code, again))
        else:
            identical = tuple((names[i], ref) for i, ref in code)
            self._reads.append((source, *_types(names, values, code), identical))

    def _checks(self, values, names):
        """(types, same, again, code) of values read under `names`: their types; the
        objects that must be there again, by position; the containers decided again; the
        code that must be the very one again (a trace used it: see places.is_code)."""
        same, again, code = [], [], []
        for i, value in enumerate(values):
            if type(value) in _RECHECKED or isinstance(value, types.BuiltinMethodType):
                again.append((i, names[i], _fate(value, names[i], self._logs)))
                if isinstance(value, types.BuiltinMethodType):
                    same.append((i, lambda v=value: v))   # (held: a builtin method)
            elif is_code(value):
                code.append((i, _ref(value) or (lambda v=value: v)))
                self.holders = self.holders or is_holder_type(value)   # (a class)
            elif is_holder_type(value):
                self.holders = True
                ref = _ref(value)
                if ref is None:
                    self.ok = False
                    ref = _ref(self)   # (never this object: the survey is not kept)
                same.append((i, ref))
        return [type(v) for v in values], same, again, code

    def holds(self):
        """Whether `find` would find the same places now (see the module docstring)."""
        if len(self._seen) != self.version:   # (the finder's `version`)
            return False
        for source, present, absent, identical in self._reads:   # (loops, not
            if type(source) is not dict:   # comprehensions: the cost of each call counts)
                source = source()
                if source is None:
                    return False
                source = vars(source)
            get = source.get
            for name, kind in present:
                if type(get(name, MISSING)) is not kind:
                    return False
            for name, ref in identical:
                if get(name, MISSING) is not ref():
                    return False
            if absent and not source.keys().isdisjoint(absent):
                return False
        return self._rest_holds()

    def plan(self):
        """(the finder's seen codes, their `version` then, the reads whose values are
        decided by their types or identity: [(globals or a weak reference to an object,
        ((name, type), ...), names absent, ((name, weak reference), ...))], a function
        that tells whether the rest holds, or None where there is none): what
        `holds` tests, for a caller that makes its own tests of the first three."""
        rest = self._rest_holds if self._dicts or self._cells or self._sizes else None
        return self._seen, self.version, list(self._reads), rest

    def _rest_holds(self):
        for ref, size in self._sizes:
            holder = ref()
            if holder is None or len(vars(holder)) != size:
                return False
        for source, names, kinds, same, again in self._dicts:
            if type(source) is not dict:
                source = source()
                if source is None:
                    return False
                source = vars(source)
            if not self._same(list(map(source.get, names, _MISSING)), kinds, same, again):
                return False
        return not self._cells or self._same(_cell_values(self._cells), *self._cell_checks)

    def _same(self, values, kinds, same, again):
        if list(map(type, values)) != kinds:
            return False
        for i, ref in same:
            if values[i] is not ref():
                return False
        for i, name, fate in again:
            if _fate(values[i], name, self._logs) != fate:
                return False
        return True


def _types(names, values, code):
    """(((name, type), ...) of the names that have a value (but `code`, checked by
    identity), frozenset of those that have none): what a dict whose values are decided
    by their types alone must show again."""
    skip = {i for i, _ in code}
    present = tuple((n, type(v)) for i, (n, v) in enumerate(zip(names, values))
                    if v is not MISSING and i not in skip)
    return present, frozenset(n for n, v in zip(names, values) if v is MISSING)


_RECHECKED = (list, dict, tuple)
_MISSING = itertools.repeat(MISSING)


def _fate(value, name, logs):
    """What `find` makes of a list, dict or tuple (or a method bound to one) under
    `name`: a log, a place (it holds data), the functions it holds (places.Contents),
    or nothing."""
    owner = getattr(value, '__self__', None)
    if isinstance(value, types.BuiltinMethodType) and type(owner) in (list, dict):
        return 'place' if is_data(owner) else None
    if type(value) is list and name is not None and name in logs():
        return 'log'
    return 'place' if is_data(value) else code_contents(value)


def _read(mapping, names):
    return list(map(mapping.get, names, _MISSING))


def _cell_values(cells):
    return [_contents(cell) for cell in cells]


def _contents(cell):
    try:
        return cell.cell_contents
    except ValueError:
        return MISSING


def _ref(obj):
    try:
        return weakref.ref(obj)
    except TypeError:
        return None
