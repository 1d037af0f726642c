"""Cached calls: what a Function does on a call whose trace exists, kept to what can change.

Python reference: `return python_function(*args)`, with the state the function reads
and writes besides its arguments part of each call's inputs and outputs (see `state`):
a global or attribute changed between calls is seen by the next call, an attribute the
code names that an argument object gets later becomes state, a list that gets arrays
becomes state, a log keeps being appended to.

A call does three things: find the places of the state (runtime.state.places), make
the call's key from the arguments and the state's values (`keys`), and run the compiled
program of that key. The first is the costly one, and it depends only on what the
arguments are, not on their arrays: so it is done once per *entry*, kept by the call's
`fingerprint`:

    an array          only that it is one, and whether a NumPy one (JAX keys shapes
                      and dtypes: see below)
    a Python value    its type and value
    any other object  the very object (a bound method: its instance and function)
    a container       its structure, and the above for each leaf

Which of these a value is depends on its type alone and is found once per type: a type
is a container when JAX flattens its values into children (an empty list is one too,
though it has no leaves), so that a container is never keyed as an object: its items
must be in the fingerprint, else a list whose items changed would get the program, or
the Python values, of its old items.

An entry holds the places found for its arguments, a `Survey` of what that search read,
and a compiled program (a `jax.jit` shared by every key of one static part, see
`Function._static_jit`) per static part of the state's values (a Python number
read from `self.dt`, the structure of a dict of arrays).

Invariant: a call served by an entry is the call the full path would make. Its
arguments have the entry's fingerprint (the ids in it are those of the very objects: an
entry goes when one of its objects does, see `_Entry.refer`); the places
are the ones a search would find now, and the code it reaches the very code (the survey
holds, the library verdicts have not changed, and the lists taken for logs are still
kept apart from state and arguments);
the state's values are read on every call and their static part picks the program; the
arrays, the arguments' and the state's, are its inputs, whose shapes and dtypes the
`jax.jit` keys itself (a new shape traces it again, and the trace registers its
ConcreteFunction). Any check that fails sends the call down the full path, which makes
the entry again. A program joins an entry only when the full path's key gives it the very
arrays the entry would pass, in the same order (`CallCache._first_call`).

Once an entry's program has served a call, the next calls go to its `plans` function
(`CallCache.serve`): the same tests as one flat pass, without the fingerprint's tuple;
one whose tests fail comes back here (`call`).

Entries refer to their objects weakly (a cached call keeps no argument alive) and are
at most `MAX_ENTRIES` per Function; when one of an entry's objects goes, the calls come
here again (a plan tests objects by id). Calls with keyword arguments or an
input_signature take the full path.
"""
import operator
import types
import weakref

import jax
import numpy as np

from autograph.function.keys import ArrayKey, array_layout
from autograph.function.logs import kept_apart
from autograph.function.plans import (ARRAY, KINDS, METHOD, MISS, NUMPY, OBJECT, OTHER, TREE,
                                      VALUE, NoPlan, forget_kinds, plan)
from autograph.runtime.checks import check_outcomes
from autograph.library import verdict_changes, verdicts_epoch
from autograph.runtime.context import innermost_embedding as active_embedding
from autograph.runtime.state.kinds import LEAF_KINDS, is_pytree_leaf, leaf_kind
from autograph.runtime.state.places import is_holder_type

MAX_ENTRIES = 64
_flatten = jax.tree_util.tree_flatten
# MISS: what `CallCache.call` gives when the call takes the full path. The kinds, and
# _KINDS: id(type) -> kind, while the type lives (see `_kind`), are shared with `plans`.
_ARRAY, _VALUE, _OBJECT, _METHOD, _TREE, _OTHER = ARRAY, VALUE, OBJECT, METHOD, TREE, OTHER
_NUMPY = NUMPY
_KINDS = KINDS


def _kind(value):
    """What the fingerprint takes of `value`, by its type (found once per type)."""
    kind = _KINDS.get(id(type(value)))
    if kind is None:
        kind = _kind_of(value)
        kinds = _KINDS
        weakref.finalize(type(value), kinds.pop, id(type(value)), None).atexit = False
        kinds[id(type(value))] = kind
    return kind


def _kind_of(value):
    """The kind of every value of `value`'s type: one that holds for the type, never for
    this value alone (an empty list is a pytree without leaves, which JAX's
    `treedef_is_leaf` calls a leaf: keyed by identity, a list that later holds arrays
    would serve its arrays' program without them, or its old items' values)."""
    leaf = leaf_kind(value)
    if isinstance(value, jax.ShapeDtypeStruct):
        return _OTHER
    if leaf is not None:   # (a NumPy array: a kind of its own, as it keys a call)
        return (_NUMPY if isinstance(value, np.ndarray) else _ARRAY) if leaf == 'array' \
            else _VALUE
    if not is_pytree_leaf(value):
        return _TREE
    return _METHOD if type(value) is types.MethodType else _OBJECT


def fingerprint(values, marks, objects, arrays):
    """Add the fingerprint of `values` (see the module docstring) to `marks`, the objects
    it names to `objects`, and the arrays to `arrays`. False when one cannot be made."""
    kinds = _KINDS
    for value in values:
        kind = kinds.get(id(type(value))) or _kind(value)
        if kind is _ARRAY or kind is _NUMPY:
            marks.append(kind)
            arrays.append(value)
            if kind is _NUMPY and not value.flags.c_contiguous:
                marks.append(array_layout(value))   # (see keys.ArrayKey)
        elif kind is _VALUE:
            marks += (type(value), value)
        elif kind is _TREE:   # (its leaves are none of them trees)
            leaves, treedef = jax.tree_util.tree_flatten(value)
            marks.append(treedef)
            if not fingerprint(leaves, marks, objects, arrays):
                return False
        elif kind is _OBJECT:
            marks.append(id(value))
            objects.append(value)
        elif kind is _METHOD:
            marks += (_METHOD, id(value.__self__), id(value.__func__))
            objects += (value.__self__, value.__func__)
        else:
            return False
    return True


class CallCache:
    """The entries of one Function (see the module docstring)."""

    def __init__(self, function):
        self._function = function
        self._entries = {}
        # What a cached call is given to: the plan of the entry and static part that
        # served the last call (see `plans`), else `call`.
        self.serve = self.call

    def call(self, args):
        """The result of calling the Function with positional `args` (bound to its
        parameters as they are), or MISS when the call must take the full path."""
        marks, arrays = [], []
        kinds = _KINDS
        for value in args:   # (`fingerprint`, without the objects: see `_entry`)
            kind = kinds.get(id(type(value))) or _kind(value)
            if kind is _ARRAY:
                marks.append(_ARRAY)
                arrays.append(value)
            elif kind is _OBJECT:
                marks.append(id(value))
            elif kind is _VALUE:
                marks += (type(value), value)
            elif kind is _NUMPY:
                marks.append(_NUMPY)
                arrays.append(value)
                if not value.flags.c_contiguous:
                    marks.append(array_layout(value))   # (see keys.ArrayKey)
            elif kind is _TREE:   # (a container of arrays, the common case, here)
                leaves, treedef = _flatten(value)
                marks.append(treedef)
                for leaf in leaves:
                    if kinds.get(id(type(leaf))) is _ARRAY:
                        marks.append(_ARRAY)
                        arrays.append(leaf)
                    elif not fingerprint((leaf,), marks, [], arrays):
                        return MISS
            elif not fingerprint((value,), marks, [], arrays):
                return MISS
        marks = tuple(marks)
        entry = self._entries.get(marks)
        inputs = entry.inputs(args) if entry is not None else None
        if inputs is None:
            entry = self._entry(marks, args)
            inputs = entry.inputs(args) if entry is not None else None
            if inputs is None:
                return MISS
        statics, state = inputs
        jitted = entry.programs.get(statics)
        if jitted is None:
            return self._first_call(entry, args, statics, arrays + list(state))
        self._planned(entry, statics, jitted, args)
        out, outcome = jitted(*arrays, *state)
        return self.ran(out, outcome, args, entry)

    def ran(self, out, outcome, args, entry):
        """The result of a cached call whose program gave `out` and `outcome`."""
        if outcome is not None:
            out = check_outcomes.finish(outcome, out)
        if not out[1] and not out[2] and LEAF_KINDS.get(type(out[0])) == 'array':
            return out[0]   # (the common case first: an array, nothing written)
        return self._function._state.written_back(out, args, {}, entry.places)

    def _planned(self, entry, statics, jitted, args):
        """The next call is given to the plan of `entry` and `statics` (made the first
        time: see `plans`), or to `call` where they have none."""
        serve = entry.plans.get(statics, MISS)
        if serve is MISS:
            try:
                serve = plan(self, entry, jitted, args, [get() for get in entry.getters])
            except NoPlan:
                serve = None
            entry.plans[statics] = serve
        self.serve = self.call if serve is None else serve

    def _first_call(self, entry, args, statics, dynamic):
        """A call by the full path's key, whose program serves the entry's calls with the
        state's static part of this one from now on: when its inputs are the very
        arrays the entry passes (`dynamic`), in the same order."""
        function = self._function
        key, leaves, _ = function._key(args, {}, entry.places, entry.code)
        concrete = function._concrete.get(key) or function._concrete_function(key)
        given = [leaf for k, leaf in zip(key[1], leaves) if type(k) is ArrayKey]
        if len(given) == len(dynamic) and all(map(operator.is_, given, dynamic)):
            entry.programs[statics] = concrete._jitted
        return function._state.written_back(concrete.call_leaves(leaves), args, {},
                                            entry.places)

    def _entry(self, marks, args):
        function, objects = self._function, []
        fingerprint(args, [], objects, [])
        if not all(map(is_pytree_leaf, objects)):   # (a type registered as a pytree
            forget_kinds()                           # node since its kind was found)
            return None
        places, survey, found, code = function._state.surveyed(args)
        if survey is None or not survey.ok:
            return None
        entry = _Entry(function, places, survey, found, args, code)
        if not entry.refer(objects, self._forget(marks)):
            return None
        if len(self._entries) >= MAX_ENTRIES:
            self._entries.clear()
        self._entries[marks] = entry
        return entry

    def _forget(self, marks):
        entries = weakref.ref(self)

        def forget(_):
            cache = entries()
            if cache is not None:
                cache._entries.pop(marks, None)
                cache.serve = cache.call   # (a plan tests ids: of living objects only)
        return forget


class _Entry:
    """The places, survey and programs of one fingerprint (see the module docstring)."""

    def __init__(self, function, places, survey, found, args, code):
        self.function, self.places, self.survey = function, places, survey
        self.code = code   # (the survey checks that it is the very code again)
        self.survey_holds = survey.holds
        # (whether objects are library code, and so not holders, may change: asked
        # again where some object could be a holder)
        roots = [obj for _, obj in function._state.roots(args, {})]
        self.epoch = verdicts_epoch() if survey.holders or any(
            is_holder_type(obj) for obj in roots) else None
        self.state_places = sorted((p for p in places if not p.log), key=_label)
        self.getters = [place.get for place in self.state_places]
        # (logs: the search's own places, to keep them apart again on each call)
        self.found = found if any(p.log for p in found) else None
        self.apart = _apart(places)
        self.more = self.epoch is not None or self.found is not None
        self.programs = {}   # the state's static part -> the jax.jit to call
        self.plans = {}   # the state's static part -> its Plan, or None (see `plans`)
        self.refs = []

    def refer(self, objects, forget):
        """Refer to the fingerprint's objects: weakly where they allow it, `forget`
        called when one goes (so the ids in a fingerprint are those of living objects:
        the same ids, the same objects); else held."""
        if len({p.label for p in self.state_places}) != len(self.state_places):
            return False   # (two places of one label: the key would hold one)
        for obj in objects:
            try:
                self.refs.append(weakref.ref(obj, forget))
            except TypeError:
                self.refs.append(lambda obj=obj: obj)
        return True

    def inputs(self, args):
        """(static part, arrays) of the state's values now, in the key's order (arrays
        and scalars here, containers by `fingerprint`), when the entry's places are the
        places of a call with `args` now: the survey holds and, where there is more to
        check (`more`), the library verdicts are the same and the lists taken for logs
        are still kept apart. Else None (the full path finds the places again)."""
        if not self.survey_holds() or (self.more and not self.holds(args)):
            return None
        if not self.state_places:
            return _NO_STATE
        marks, arrays, kinds = [], [], _KINDS
        for get in self.getters:
            value = get()
            kind = kinds.get(id(type(value)))
            if kind is _ARRAY:
                marks.append(_ARRAY)
                arrays.append(value)
            elif kind is _VALUE:
                marks += (type(value), value)
            elif not fingerprint([value], marks, [], arrays):
                return None   # (no fingerprint: the full path keys it)
        return tuple(marks), arrays

    def holds(self, args):
        """Whether the library verdicts are the same and the lists taken for logs are
        still kept apart (what there is to check besides the survey, where `more`)."""
        epoch = self.epoch
        if epoch is not None and (verdict_changes[0] != epoch[0]
                                  or active_embedding() is not epoch[1]):
            return False
        return self.found is None or self.logs_apart(args)

    def logs_apart(self, args):
        """Whether the lists the search took for logs are kept apart as they were."""
        return _apart(kept_apart(self.found, args, {})) == self.apart


_NO_STATE = ((), ())


def _label(place):
    return place.label


def _apart(places):
    return [(place.key, place.log) for place in places]
