"""State that lives in objects: attributes assigned and containers changed in place.

Python code changes objects as well as variables: `self.count += 1`, `xs[0] = v` on a list
the caller passed in, `d['a']['b'] = 1`. Staged control flow passes values, not objects:
a branch traced for `lax.cond` gets a rebuilt copy of each container, and writing a
traced value into a real object would leak it out of the trace. `Mutations` bridges the
two for one `if`/`while`/`for` statement:

- attributes (`fields`, {'self.count': (self, 'count')} from the converter) join the
  state under their own names: before a branch or loop body runs, the value it gets is
  installed on the object, and after it the attribute's new value is read back (and the
  object restored while tracing); when the statement ends the final value is set;
- a list or dict that a traced branch or body changed in place (it returns the same
  container, with other contents) gets the final contents written back into the very
  object that came in, so every other reference (the caller's) sees the change; one
  that every traced path gives back as it came in (the same object, the same contents)
  is that very object after the statement, not the copy `lax` gives back, as in Python
  (so a staged statement around this one sees it unchanged on that path, and merges the
  in-place change another path makes). Other objects that are pytrees travel through
  `lax` as copies too: a Flax NNX module or Variable changed in place gets its new state
  written back with `nnx.update`; any other such object changed in place is an error
  that names it (a copy would be changed, not the caller's object).

Run as plain Python (a concrete condition), the statement changes the objects itself and
all this is a no-op.
"""
import collections
from collections import abc

import jax

from ..errors import here
from ..messages import (aliased_on_some_paths, changed_and_replaced, opaque_container_changed,
                        pytree_changed_in_place)
from .. import context
from ..checks.keys import Keyed
from ..context import staged_depth
from ..values.maybe import Maybe
from ..values.stacked import Stacked
from ..values.split import Undefined, pack, unpack
from .filled import copies, install, restore, write_back
from .places import PlaceField

_MUTABLE = (list, dict)


class Mutations:
    def __init__(self, values, names, fields=None, extra=(), watch=None, returned=False):
        """`values`: the statement's inputs; `names`: its outputs (for a loop, the same
        variables); `fields`: a function giving {label: (object, attribute)}; `extra`:
        more fields, (label, object, attribute); `watch`: a runtime.state.watches.Watch that
        watches what the calls of a traced branch or body change; `returned`: the output
        is the function's result (`return a if c else b`), which no code changes after."""
        self.values = tuple(values)
        self.returned = returned
        self.names = tuple(names)
        self.fields = _resolve(fields) + list(extra)
        self.named = len(self.fields) - len(extra)   # (the converter's: the user's objects)
        self.watch = watch
        if watch is not None:   # (what the statement carries, the watch leaves alone)
            watch.carried |= {holder.key if isinstance(holder, PlaceField)
                              else ('attribute', id(holder), attr)
                              for _, holder, attr in self.fields}
        self.depth = staged_depth()
        self.kept = {}          # output index -> the input a traced path changed in place
        self.replaced = set()   # output indices a traced path rebound
        self.sources = {}       # output index -> the inputs the traced paths returned it as
        self.paths = 0          # traced paths recorded
        self.existing = _closure_containers(watch)   # id -> (container, contents)
        self.aliases = {}       # output index -> [(existing container, changed?)] per path
        self.all_names = self.names + tuple(label for label, _, _ in self.fields)
        self.state = self.values + tuple(_get(*field) for field in self.fields)
        self.own_fields = {k for k, (_, holder, attr) in enumerate(self.fields)
                           if attr in getattr(holder, '__dict__', {attr: None})}
        self.rebound_fields = set()   # fields a traced path rebound (`obj.xs = ...`)

    @property
    def active(self):
        return bool(self.fields) or bool(self.existing) or any(
            _contents(v) is not None for v in self.values)

    def wrap(self, fn, leading=0, returns_state=True):
        """`fn(*leading, *values)` as a function of the whole state (values and fields),
        returning one value per name in `all_names` (or `fn`'s own result, for a test)."""
        if fn is None or not (self.active or self.watch is not None):
            return fn
        n = len(self.values)

        def wrapped(*args):
            inner = traced if self.active else fn
            if self.watch is not None and staged_depth() > self.depth:
                return self.watch.during(inner, *args)
            return inner(*args)

        def traced(*args):
            extra, values = args[:leading], args[leading:leading + n]
            tracing = staged_depth() > self.depth
            saved = [_get(*field) for field in self.fields]
            objects = [_place_object(field) for field in self.fields] if tracing else None
            installed, filled = install(self.fields, args[leading + n:], saved,
                                        self._fillable(tracing), _set)
            before = [_contents(v) for v in values] if tracing else None
            try:
                out = fn(*extra, *values)
                if not returns_state:
                    return out
                out = pack(self.names, out)
                if tracing:
                    self._record(values, before, out)
                    self.rebound_fields |= {k for k, (field, value) in enumerate(zip(
                        self.fields[:self.named], installed)) if _get(*field) is not value}
                return unpack(self.all_names, copies(
                    out + tuple(_get(*f) for f in self.fields), filled))
            finally:
                if tracing:
                    for field, value, obj in zip(self.fields, saved, objects):
                        if obj is not None:   # (a found place: its very object first)
                            reinstate(field[1].place, obj)
                        _set(field, value)
                    for container, items in filled:
                        restore(container, items)
        return wrapped

    def _fillable(self, tracing):
        """Per field, the list or dict it held as the statement began where a trace may
        give it traced items in place (runtime.state.filled), else None: the user's
        objects' (not a place found while tracing)."""
        start = len(self.values)
        return [self.state[start + k] if tracing and k < self.named and not isinstance(
            field[1], PlaceField) else None for k, field in enumerate(self.fields)]

    def _record(self, values, before, out):
        self.paths += 1
        for i, new in enumerate(out):
            source = next((j for j, value in enumerate(values) if value is new or (
                type(value) in FLAGGABLE and context.changed_dict(value) is new)), None)
            self.sources.setdefault(i, set()).add(   # (only containers, as they came in)
                source if source is not None and values[source] is new
                and before[source] is not None else None)
            if source is None:
                self.replaced.add(i)
                known = self.existing.get(id(new))
                if known is not None and known[0] is new:   # (`e = d`: d existed before)
                    self.aliases.setdefault(i, []).append((new, _contents(new) != known[1]))
            elif before[source] is not None and _contents(new) != before[source]:
                if _opaque(new):   # (a Counter: no traced items to carry its change)
                    raise opaque_container_changed(self.names[i], type(new).__name__,
                                                   here())
                self.kept[i] = source

    def finish(self, results):
        """The statement's results for `names` (from one value per name in `all_names`),
        after setting the attributes and writing changed containers back into the
        objects that came in."""
        for k, (field, value) in enumerate(zip(self.fields, results[len(self.names):])):
            if not isinstance(value, Undefined):
                self._set_field(k, field, value)
        out = []
        for i, (name, after) in enumerate(zip(self.names, results)):
            if i in self.aliases:
                out.append(after if name == 'return' or self.returned
                           else self._aliased(i, name))
                continue   # (the function's result: no code after it changes it)
            if i not in self.kept:
                out.append(self._unchanged(i, after))
                continue
            if i in self.replaced:
                raise changed_and_replaced(name, here())
            target = self.values[self.kept[i]]
            if type(target) in FLAGGABLE and getattr(after, 'present', None):
                out.append(_flagged_dict(target, after))
                continue
            if not isinstance(target, _MUTABLE) and write_back(target, after) is not target:
                raise pytree_changed_in_place(name, type(target).__name__, here())
            out.append(write_back(target, after))
        return unpack(self.names, tuple(out))

    def _set_field(self, k, field, value):
        """The attribute of field `k` holds `value` after the statement; where it held a
        list or dict that every traced path changed in place (`obj.xs.append(v)`,
        `obj.d['w'] = e`, not `obj.xs = ...`), that very container holds `value`'s items
        and stays where it was (other names holding it see them; a class's list reached
        through an instance: `append` changes the class's list). (A place
        found while tracing, a PlaceField, is given back by the Function: its lists may
        be logs, see runtime.state.logs; so are the `extra` fields.)"""
        came = self.state[len(self.values) + k]
        kind = type(came)   # (a dict too: `self.params['w'] = ...` in a method)
        if kind not in (list, dict) or k in self.rebound_fields or value is came \
                or not isinstance(value, (list, Stacked) if kind is list else dict) \
                or k >= self.named or isinstance(field[1], PlaceField):
            _set(field, value)
            return
        if kind is list:
            came[:] = list(value)
        elif write_back(came, value) is not came:   # (keys on some paths: the flagged one)
            _set(field, value)
            return
        holder, attr = field[1], field[2]
        if attr in getattr(holder, '__dict__', {}) and k not in self.own_fields:
            del holder.__dict__[attr]   # (the statement's tracing left it on the instance)
        elif k in self.own_fields:
            _set(field, came)

    def _unchanged(self, i, after):
        """Output `i`: the input container that every traced path gave back as it
        came in (the same object, its contents unchanged), else `after` (the statement's
        result: a copy, or a value that is not such a container)."""
        sources = self.sources.get(i, ())
        if len(sources) != 1 or None in sources or i in self.replaced:
            return after
        return self.values[next(iter(sources))]


    def _aliased(self, i, name):
        """Output `i`, bound on some traced path to a list or dict that existed before the
        statement (`e = d`): that very object when every path binds it and none changes
        it, else the named error (which object the name refers to would be decided at run
        time, and changes through it would reach a copy)."""
        found = self.aliases[i]
        first = found[0][0]
        if len(found) == self.paths and all(obj is first and not changed
                                            for obj, changed in found):
            return first
        raise aliased_on_some_paths(name, here())


def _closure_containers(watch):
    """{id: (container, its contents)} for the lists and dicts that the closures of the
    statement's branches or body hold (see runtime.state.watches.Reach)."""
    found = {}
    for fn in getattr(watch, 'functions', ()) or ():
        for cell in getattr(fn, '__closure__', None) or ():
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            if isinstance(value, _MUTABLE):
                found[id(value)] = (value, _contents(value))
    return found


FLAGGABLE = (dict, collections.defaultdict)
"""The dicts a staged statement may give keys on some paths only (a defaultdict's flagged
dict keeps its `default_factory`, see runtime.checks.keys)."""


def _flagged_dict(target, after):
    """`after`, a dict with keys on some paths only (runtime.checks.keys) that a staged
    statement made of plain dict (or defaultdict) `target`: the variable holds `after`
    from now on, whose flags a plain dict cannot hold; `target` gets every key, and the
    Function gives the object that came in the contents of `after` when the call ends
    (runtime.context: `fields`, `changed_dict`)."""
    write_back(target, dict(dict.items(after)))
    fields = context.current().fields
    if fields is not None:
        fields[('dict', id(target))] = (target, after)
    return after


def _contents(value):
    """What identifies the contents of a container, or of another mutable pytree object,
    while tracing: its structure and leaves (None for values that cannot change in place:
    leaves, tuples); of a container that is no pytree (`_opaque`), its items."""
    if _opaque(value):
        items = value.items() if isinstance(value, abc.Mapping) else enumerate(value)
        return tuple((key, id(item)) for key, item in items)
    if not isinstance(value, _MUTABLE) and (
            value is None or isinstance(value, (tuple, Stacked))   # (lists: runtime.state.lists)
            or jax.tree_util.all_leaves([value])):
        return None
    leaves, treedef = jax.tree_util.tree_flatten(value)
    return treedef, tuple(id(leaf) for leaf in leaves)


def _opaque(value):
    """Whether `value` is a mutable container that JAX takes for a leaf, not a pytree: a
    dict or list subclass (`collections.Counter`), a `UserDict`, `UserList`."""
    return isinstance(value, (abc.MutableMapping, abc.MutableSequence)) and \
        type(value) not in (dict, list) and jax.tree_util.all_leaves([value]) and \
        not isinstance(value, Keyed)


def _resolve(fields):
    """[(label, object, attribute)] for the attributes to carry: those of objects that
    are not pytrees (a pytree's attributes already travel with it); for a property the
    code assigns, the attributes the object holds (what its setter may change)."""
    if fields is None:
        return []
    try:
        table = fields()
    except (AttributeError, NameError, LookupError, TypeError):
        return []   # an object not there yet: the statement runs as Python would
    found = {}
    for label, (holder, attr) in table.items():
        if holder is None or isinstance(holder, (Undefined, jax.Array)) or \
                not jax.tree_util.treedef_is_leaf(jax.tree_util.tree_structure(holder)):
            continue
        if isinstance(getattr(type(holder), attr, None), property):
            base = label.rpartition('.')[0]   # (`t.f = v` runs the setter, which changes
            for name in getattr(holder, '__dict__', ()):   # the object's own attributes)
                found.setdefault((id(holder), name), (f'{base}.{name}', holder, name))
        else:
            found.setdefault((id(holder), attr), (label, holder, attr))
    return list(found.values())


def _get(label, holder, attr):
    try:
        value = getattr(holder, attr)
    except AttributeError:
        return Undefined(label)
    flag = context.field_flag(*_owner(holder, attr))
    return value if flag is None else Maybe(value, flag, Undefined(label))


def _place_object(field):
    """The object a field found while tracing (a watches.PlaceAttribute) holds now (its
    getter gives a copy), else None."""
    place = getattr(field[1], 'place', None)
    return None if place is None else place.get()


def reinstate(place, obj):
    """Give `place` back the very list or dict `obj` it held before a trace installed
    another object there (a staged loop's `Collecting` list): other references to it,
    such as `ALIAS = OL` or an import of the global, must see what happens to it after."""
    if isinstance(obj, (list, dict)) and place.get() is not obj:
        place.set(obj)


def _owner(holder, attr):
    """(object, attribute) that the field `holder.attr` is: for an attribute found while
    tracing (carried through a watches.PlaceAttribute), the real object's."""
    owner = getattr(getattr(holder, 'place', None), 'owner', None)
    if owner is None or owner[0]() is None:
        return holder, attr
    return owner[0](), owner[1]


def _set(field, value):
    _, holder, attr = field
    fields = context.current().fields
    obj, name = _owner(holder, attr)
    if fields is not None:
        fields.pop((id(obj), name), None)
    if isinstance(value, Undefined):
        if hasattr(holder, attr):
            delattr(holder, attr)
    elif isinstance(value, Maybe) and isinstance(value.absent, Undefined):
        # An attribute staged code created on some paths only: the object holds the
        # value, the flag says where Python's has it (reads: runtime.python.py_builtins).
        setattr(holder, attr, value.value)
        if fields is not None:
            fields[(id(obj), name)] = (obj, getattr(obj, name, None), value.present)
    else:
        setattr(holder, attr, value)
