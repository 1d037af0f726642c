"""The values of places (runtime.state.places) around a trace: installed while it runs,
read back after it, restored, and written back after the compiled call (see the places
module's docstring)."""
import copy

import jax
import numpy as np

from .. import context
from ..checks.keys import Keyed
from ..values.maybe import Maybe
from ..messages import numpy_traced_write
from ..values.split import Undefined, is_traced
from .filled import write_back
from .mutation import FLAGGABLE, reinstate
from .kinds import DICTS, holds_arrays
from .places import MISSING

_KEEP = object()              # a place left as the trace left it

def snapshot(value):
    """`value` with its lists and dicts copied (the leaves shared): what a container
    holds now, to put back later."""
    if type(value) is tuple:
        return tuple(snapshot(v) for v in value)
    if type(value) is list:
        return [snapshot(v) for v in value]
    if type(value) is dict:
        return {k: snapshot(v) for k, v in value.items()}
    if type(value) in DICTS:   # (a defaultdict, an OrderedDict: of its own type)
        copied = copy.copy(value)
        copied.update({k: snapshot(v) for k, v in value.items()})
        return copied
    if type(value) is Keyed:   # (a dict with keys on some paths only: its flags too)
        return Keyed({k: snapshot(v) for k, v in dict.items(value)}, value.present,
                     value.default_factory)
    return value


_CHANGING = (list, Keyed) + DICTS
"""The containers whose contents a call may change in place."""


def contents(value):
    """What tells whether `value` changed: itself, or a container's structure and the
    identities of its leaves (a Keyed dict's flags among them)."""
    if type(value) in _CHANGING:
        leaves, treedef = jax.tree_util.tree_flatten(value)
        return ('container', treedef, tuple(id(leaf) for leaf in leaves))
    return ('value', id(value))


def put(place, value, in_place=False, arrays=False):
    """Give `place` `value`: containers are filled in place, the rest assigned; with
    `in_place`, a writable NumPy array of `value`'s shape gets `value` as its items (as
    NumPy's item assignment gives them: cast to its dtype); with `arrays`, so do the
    NumPy arrays a container holds (see `write_back`)."""
    if value is MISSING:
        place.delete()
        return
    current = place.get()
    if type(current) in _CHANGING and (type(value) is type(current) or (
            isinstance(current, dict) and isinstance(value, dict))):   # (an OrderedDict
        write_back(current, value, arrays)   # given back as the plain dict of its keys)
    elif in_place and type(current) is np.ndarray and current.flags.writeable \
            and np.shape(value) == current.shape:
        if is_traced(value):   # (written under a caller's jit: NumPy needs numbers now)
            raise numpy_traced_write([place.label], None)
        np.copyto(current, np.asarray(value), casting='unsafe')
    else:
        place.set(value)


class Installed:
    """While tracing: the places given their traced values, and afterwards their
    original values again (see the module docstring)."""

    def __init__(self, places, values):
        """`places` (those the call may create included); `values`: {label: traced
        value} of those the call reads."""
        self.places = list(places)
        self.objects = [place.get() for place in self.places]
        self.original = [snapshot(place.get()) for place in self.places]
        for place in self.places:
            if place.label in values:
                put(place, values[place.label])
        self.installed = [contents(place.get()) for place in self.places]

    def add(self, places):
        """Places found while tracing (a function called): their values now are kept to
        restore them, and count as their values before the call."""
        known = {p.key for p in self.places}
        for place in places:
            if place.key not in known:
                known.add(place.key)
                self.places.append(place)
                self.objects.append(place.get())
                self.original.append(snapshot(place.get()))
                self.installed.append(contents(place.get()))

    def changed(self, trace_effects=True):
        """{label: new value} of the places the call changed. A list or dict that holds
        no array is left as tracing left it (a trace-time side effect, see `is_data`):
        with `trace_effects` (a Function's trace) always, without (a staged statement's
        branch or body, which Python runs as often as the program says, not once) only
        where its structure changed (an item added: a log); a counter in it
        (`calls[0] += 1`) is then changed like any place."""
        changed = {}
        for i, (place, before) in enumerate(zip(self.places, self.installed)):
            value = flagged(place, place.get())
            now = contents(value)
            if now == before:
                continue
            if type(value) in _CHANGING and type(value) is not Keyed and \
                    not holds_arrays(value) and (
                    trace_effects or now[:2] != before[:2]) and not place.argument:
                self.original[i] = _KEEP
                continue
            changed[place.label] = value
        return changed

    def restore(self):
        """Put back the values from before; the last noted first, so that where two
        places hold one object (a list in a closure cell that is also a statement's
        value) the value noted first, the oldest, is the one left."""
        for place, obj, value in reversed(list(zip(self.places, self.objects,
                                                   self.original))):
            if value is not _KEEP:
                reinstate(place, obj)
                put(place, value)


def flagged(place, value):
    """`value`, of `place`; for an attribute that staged code created on some paths only
    (runtime.context.field_flag), a Maybe of it and its flag (given back where present,
    deleted where not: autograph.function.results); for a plain dict to which staged code
    gave keys on some paths only, the flagged dict the function's variable holds
    (runtime.context.changed_dict)."""
    if type(value) in FLAGGABLE:
        alias = context.changed_dict(value)
        return value if alias is None else alias
    if place.key[0] != 'attribute':
        return value
    entry = (context.current().fields or {}).get(place.key[1:])
    if entry is None or entry[1] is not value:
        return value
    return Maybe(value, entry[2], Undefined(place.label))


def write(places, changed, partial=False, in_place=()):
    """After a call: give the places its concrete new values (by label); those labelled
    in `in_place` are NumPy arrays the call changed only through their items (see `put`).
    With `partial`, nothing is written unless every label is among `places`, and the
    result says whether it was written."""
    by_label = {place.label: place for place in places}
    if partial and not all(label in by_label for label in changed):
        return False
    for label, value in changed.items():
        place = by_label.get(label)
        if place is not None:
            put(place, value, label in in_place, arrays=True)
    return True
