"""State that outlives a call of a Function: the globals, cells and attributes its code
reads and writes besides its arguments (runtime.state.places finds them).

Python reference: two calls `f(x); f(y)` of a plain function see each other's writes to
`self.count` or a global. A compiled call reads that state as extra arguments (part of
its key, see `keys.STATE`) and gives back what it changed, which is written back here.
Lists it only appends to are logs (autograph.function.logs): not keyed, not read; what a
call appends to them is appended after it. The functions, modules and classes it reaches
under a name are keyed by identity where they are not what traces first found there
(`CallState.code_key`): Python calls the function a global holds when the call runs.
"""
import functools
import types
import weakref

import numpy as np

from autograph.function.in_place import changed_in_place
from autograph.function.keys import CODE, STATE
from autograph.function.logs import LogNames, LogRead, append_logged, kept_apart
from autograph.function.results import Result, given_back, given_back_fields
from autograph.runtime.origin import Location, name_of
from autograph.runtime.python.argument_aliases import check_arrays_apart
from autograph.runtime.state.installed import Installed, snapshot, write
from autograph.runtime.state.logs import Logs
from autograph.runtime.state.arguments import argument_places
from autograph.runtime.state.kinds import Contents, leaf_kind
from autograph.runtime.state.places import MISSING, StateFinder, attribute
from autograph.runtime.state.survey import Survey
from autograph.runtime.state import unmodeled


class CallState:
    """The state of one Function's calls: found once per function (a StateFinder), read
    into each call's key, and written back after it."""

    def __init__(self, function):
        self._function = function
        self._finder = None   # a StateFinder, made on the first call
        self.log_names = None   # its LogNames
        self._traced_code = {}   # label -> the code traces first found there (`code_key`)
        self._trace_effects = set()   # labels of containers traces change (`traced_contents`)
        self._in_place, self._rebound = set(), set()   # labels of NumPy arrays (`in_place`)
        self.shown = {}   # label -> an attribute set by a computed name (`Tracing.on_call`)

    def finder(self):
        if self._finder is None:
            finder = StateFinder(self._function._function)
            self.log_names = LogNames(self._function, finder)
            self._finder = finder
        return self._finder

    def roots(self, args, kwargs):
        """The objects whose attributes may be state: the instance of a method, and the
        object arguments, labelled by their parameters."""
        params, method = self._root_labels
        function = self._function
        roots = []
        if method is not None:
            roots.append((method, function._live_instance() if function._instance is not None
                          else function._function.__self__))
        for i, arg in enumerate(args):
            roots.append((params[i] if i < len(params) else f'argument {i}', arg))
        roots += list(kwargs.items())
        return roots

    @functools.cached_property
    def _root_labels(self):
        """(the parameters' names, the instance's name for a method, else None): what
        `roots` labels (found once: a Function's function does not change)."""
        fn = self._function.python_function
        signature = self._function._signature
        params = list(signature.parameters) if signature is not None else []
        method = None
        if isinstance(fn, types.MethodType):
            code = getattr(fn.__func__, '__code__', None)
            method = code.co_varnames[0] if code and code.co_argcount else 'self'
        return params, method

    def places(self, args, kwargs, potential=False, roots=None, code=None):
        """The places of the state and the logs (`place.log`) the call reaches. `code`: a
        dict that gets {label: value} of the code it reaches (see `code_key`)."""
        finder = self.finder()
        if roots is None:
            roots = self.roots(args, kwargs)
        places = kept_apart(finder.find(roots, potential, self.log_names, code=code), args,
                            kwargs, potential)
        if potential:   # (lists and dicts given as arguments are keyed as arguments)
            places += argument_places(args, kwargs)
        return places

    def argument_labels(self, args, kwargs, by_parameter):
        """`by_parameter` ({parameter name: value}) by the labels of the argument places
        (runtime.state.arguments.argument_places) of the call's bound arguments."""
        params = self._root_labels[0]
        labelled = {}
        for name, value in by_parameter.items():
            if name in kwargs:
                labelled[f'<argument {name}>'] = value
            elif name in params and params.index(name) < len(args):
                labelled[f'<argument {params.index(name)}>'] = value
        return labelled

    def surveyed(self, args):
        """(places, survey, found, code) of a call with positional `args` (see `places`):
        a `Survey` of the search (None when a function was added while searching: its
        names were not all read), the search's own places (logs not yet kept apart), and
        the code it reached (see `code_key`)."""
        finder = self.finder()
        version, visited, code = finder.version, [], {}
        found = finder.find(self.roots(args, {}), False, self.log_names, visited, code)
        places = kept_apart(found, args, {})
        if finder.version != version:
            return places, None, found, code
        return places, Survey(finder, visited, self.log_names), found, code

    def with_state(self, args, kwargs, places=None, code=None):
        """`kwargs` with the current values of the state the function reads, if any (logs
        are not read), and the code it reaches that is not the code traced first
        (`code_key`). `places` and `code`: the search's, when known."""
        if places is None:
            code = {}
            places = self.places(args, kwargs, code=code)
        state = {place.label: place.get() for place in places if not place.log}
        changed = self.code_key(code or {})
        if changed:
            state[CODE] = changed
        if not state:
            return kwargs
        return {**kwargs, STATE: state}

    def code_key(self, code):
        """{label: value} of the code `code` ({label: value}: functions, methods, modules
        or classes a search found under a name, see places.is_code) that is not what
        traces first found there: part of the call's key, by identity. Python calls the
        function a name holds when it runs: a global function rebound between calls
        gets a trace of its own (and the first one gets the first trace again). A label
        that held code first and holds none now is in it too, as MISSING."""
        traced, effects = self._traced_code, self._trace_effects
        changed = {label: MISSING for label in traced if label not in code}   # (now not code)
        changed.update((label, value) for label, value in code.items()
                       if label in traced and label not in effects
                       and not _same_code(traced[label](), value))
        return changed

    def traced_contents(self, before, after):
        """The Contents of the containers of Python values a trace read, `before` and
        `after` it: those it changed are trace-time effects (a list of the traces made,
        a memo), left out of keys from now on, as tf.function leaves them; the others
        are keyed by what they held (see `code_key`)."""
        self._trace_effects.update(label for label, value in after.items()
                                   if before.get(label) != value)
        self.traced_code({label: value for label, value in after.items()
                          if label not in self._trace_effects}, contents=True)

    def traced_code(self, code, contents=False):
        """A trace found `code` ({label: value}): what each label held first, from now on
        (see `code_key`; held weakly where it can be: once it is gone, no value is it).
        Contents are recorded after the trace (`contents`, see `traced_contents`)."""
        traced = self._traced_code
        for label, value in code.items():
            if label not in traced and (type(value) is Contents) == contents:
                try:
                    traced[label] = weakref.ref(value)
                except TypeError:
                    traced[label] = lambda value=value: value

    def written_back(self, out, args, kwargs, places=None):
        """The result of a compiled call as Python gives it (see `given_back`), after
        writing back the state it changed and appending what it logged. `places`: the
        places found for the call, when known (a place the call created is looked for
        only when it is not among them)."""
        result, changed, logged = out
        if not changed and not logged and leaf_kind(result) == 'array':
            return result   # (the common case, asked first: an array, nothing written)
        result, changed, logged = _unwrapped(out)
        fn = self._function.python_function
        if changed:
            self._check_arrays_apart(changed, args, kwargs)
            changed = {label: given_back(value, fn, label)
                       for label, value in given_back_fields(changed, fn).items()}
            if places is None or not write(places, changed, True, self._in_place):
                write(self.places(args, kwargs, potential=True)
                      + list(self.shown.values()), changed, False, self._in_place)
        if logged:
            if places is None or not {p.label for p in places if p.log} >= set(logged):
                places = self.places(args, kwargs)
            append_logged(places, logged, fn)
        return given_back(result, fn)

    def _check_arrays_apart(self, changed, args, kwargs):
        """A named error where the call wrote the items of a NumPy argument that shares
        memory with another (runtime.python.argument_aliases)."""
        written = [label for label in changed if label.startswith('<argument ')]
        if not written:
            return
        params = self._root_labels[0]
        arrays = {f'<argument {i}>': (params[i] if i < len(params) else f'argument {i}',
                                      arg) for i, arg in enumerate(args)
                  if type(arg) is np.ndarray}
        arrays.update((f'<argument {k}>', (k, v)) for k, v in kwargs.items()
                      if type(v) is np.ndarray)
        fn = self._function.python_function
        code = getattr(getattr(fn, '__func__', fn), '__code__', None)
        check_arrays_apart(fn, written, arrays, code and Location(
            code.co_filename, code.co_firstlineno, fn.__qualname__))

    def in_place(self, labels, changed):
        """A trace changed the places `changed` (labels), the NumPy arrays of `labels`
        among them only through their items (autograph.function.in_place): those are
        written in place after each call, unless some trace rebinds them."""
        self._rebound.update(label for label in changed if label not in labels)
        self._in_place = (self._in_place | set(labels)) - self._rebound

    def tracing(self, args, kwargs, values):
        """The state of one trace of the call (see `Tracing`)."""
        return Tracing(self, args, kwargs, values)


def _same_code(first, now):
    """The very code, or the same Contents of a list, tuple or dict of functions."""
    return first is now or (type(now) is Contents and first == now)


def _unwrapped(out):
    """(result, changed, logged) of a call with each Result (see `Tracing.outputs`) the
    user's value again: a compiled program's come back so; under `jax.disable_jit()` the
    trace's own come back as they are."""
    result, changed, logged = out
    if not isinstance(result, Result) and not any(
            isinstance(v, Result) for part in (changed, logged) for v in part.values()):
        return out
    return (_value(result), {k: _value(v) for k, v in changed.items()},
            {k: _value(v) for k, v in logged.items()})


def _value(value):
    return Result.rebuild(value.spec, value.arrays) if isinstance(value, Result) else value


class NumpyFoundLate(LogRead):
    """A trace stopped: a function it calls reaches state holding a NumPy array that the
    trace did not install (its items could not be given traced values). The call starts
    again, with that state found from the start (as for a log read: see `LogRead`)."""


def holds_numpy(value):
    """Whether `value` is a NumPy array or a list/tuple/dict holding one."""
    if type(value) is np.ndarray:
        return True
    if type(value) in (list, tuple):
        return any(holds_numpy(v) for v in value)
    return type(value) is dict and any(holds_numpy(v) for v in value.values())


def made_outside(fn):
    """Whether `fn` runs the converted code of a function that plain Python made (see
    codegen.Generated.bind): its closure cells were there before the call, state of the
    Function like its globals. (A function that converted code defines is made by the
    trace itself: its cells are none of the Function's later calls.)"""
    return getattr(getattr(fn, '__func__', fn), '__ag_source_code__', None) is not None


class Tracing:
    """One trace's state: the places given their traced values (`values`, by label) and
    the logs emptied (runtime.state.installed, runtime.state.logs); `on_call` adds
    those of the functions the trace calls; `outputs` gives the trace's results, the
    state it changed and what it logged; `restore` puts everything back."""

    def __init__(self, state, args, kwargs, values):
        self.state, self.args, self.kwargs = state, args, kwargs
        self.roots = state.roots(args, kwargs)
        self.functions = [state._function.python_function]   # (the Python code it runs)
        self.code = {}   # (the code the trace reaches: see CallState.code_key)
        self.contents_before = self._contents()
        found = state.places(args, kwargs, potential=True, roots=self.roots, code=self.code)
        state.traced_code(self.code)
        self.logs = Logs()
        self.logs.add([place for place in found if place.log])
        self.installed = Installed([place for place in found if not place.log], values)
        self.unmodeled = unmodeled.held(self.functions[0], (*args, *kwargs.values()))

    def _contents(self):
        """{label: Contents} of the lists, tuples and dicts of Python values it reads."""
        code = {}
        self.state.places(self.args, self.kwargs, roots=self.roots, code=code)
        return {label: v for label, v in code.items() if type(v) is Contents}

    def on_call(self, fn, args=(), places=()):
        """A function the trace calls (its state and logs join), or (`fn` None) places a
        staged statement is about to carry. LogRead where the function reads a log,
        NumpyFoundLate where it reaches NumPy state the trace did not install."""
        if fn is None:
            self.installed.add(self._labelled(places))
            return
        self.functions.append(fn)
        if not self.state.finder().add_function(fn, cells=made_outside(fn)):
            return
        found = self.state.places(self.args, self.kwargs, True, self.roots, self.code)
        self.state.traced_code(self.code)
        name = name_of(fn)
        read = [p.label for p in found if not p.log and p.get() in self.logs]
        if read:
            raise LogRead(f'{name} reads {read[0]!r}, which the call took for a list it '
                          f'only appends to: call the Function again')
        known = {place.key for place in self.installed.places}
        late = [p.label for p in found if not p.log and p.key not in known
                and holds_numpy(p.get())]
        if late:
            raise NumpyFoundLate(f'{name} reaches the NumPy array(s) of {late}, which '
                                 f'the trace did not give traced values: call again')
        self.logs.add([place for place in found if place.log])
        self.installed.add([place for place in found if not place.log])

    def _labelled(self, places):
        """`places` (a staged statement's, or an attribute `ag.setattr` shows), each
        attribute of an object the Function's state holds labelled as its finder labels
        it, and kept (`CallState.shown`) to be given back after each call; one of an
        object the state does not hold (made by the trace) is none of the Function's."""
        known, holders, out = {place.key for place in self.installed.places}, None, []
        for place in places:
            if place.key[0] != 'attribute' or place.key in known:
                out.append(place)
                continue
            if holders is None:
                visited = []
                self.state.finder().find(self.roots, True, self.state.log_names,
                                         visited=visited)
                holders = {id(obj): (label, obj) for label, obj, _ in visited}
            label, holder = holders.get(place.key[1], (None, None))
            if label is not None:
                name = place.key[2]
                place = attribute(f'{label}.{name}', holder, name)
                self.state.shown.setdefault(place.label, place)
                out.append(place)
        return out

    def outputs(self, result, fn, written=None):
        """(result, {label: new value}, {label: items logged}), as the compiled program
        returns them (see results.Result). `written`: {parameter: final value} of the
        array parameters whose items the call wrote (given to NumPy arguments after it)."""
        unmodeled.untraced(self.unmodeled, name_of(fn))
        logged = self.logs.take()
        self.state.traced_contents(self.contents_before, self._contents())
        changed = self.installed.changed()
        self.state.in_place(changed_in_place(self.installed, changed, self.functions),
                            changed)
        changed.update(self.state.argument_labels(self.args, self.kwargs, written or {}))
        result, changed, logged = snapshot((result, changed, logged))
        given = {p.key[1:] for p in self.installed.places if p.key[0] == 'attribute'}
        return (Result.of(result, fn, given=given),
                {k: Result.of(v, fn, k) for k, v in changed.items()},
                {k: Result.of(v, fn, k) for k, v in logged.items()})

    def restore(self):
        self.installed.restore()
        self.logs.restore()
