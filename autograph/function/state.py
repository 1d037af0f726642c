"""State that outlives a call of a Function: the globals, cells and attributes its code
reads and writes besides its arguments (runtime.state.places finds them).

Python reference: two calls `f(x); f(y)` of a plain function see each other's writes to
`self.count` or a global. A compiled call reads that state as extra arguments (part of
its key, see `keys.STATE`) and gives back what it changed, which is written back here.
"""
import functools
import types

from autograph.function.keys import STATE
from autograph.function.results import given_back
from autograph.runtime.state.installed import write
from autograph.runtime.state.places import StateFinder, argument_places


class CallState:
    """The state of one Function's calls: found once per function (a StateFinder), read
    into each call's key, and written back after it."""

    def __init__(self, function):
        self._function = function
        self._finder = None   # a StateFinder, made on the first call

    def finder(self):
        if self._finder is None:
            self._finder = StateFinder(self._function._function)
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

    def places(self, args, kwargs, potential=False):
        places = self.finder().find(self.roots(args, kwargs), potential)
        if potential:   # (lists and dicts given as arguments are keyed as arguments)
            places += argument_places(args, kwargs)
        return places

    def with_state(self, args, kwargs, places=None):
        """`kwargs` with the current values of the state the function reads, if any."""
        if places is None:
            places = self.places(args, kwargs)
        if not places:
            return kwargs
        return {**kwargs, STATE: {place.label: place.get() for place in places}}

    def written_back(self, out, args, kwargs, places=None):
        """The result of a compiled call as Python gives it (see `given_back`), after
        writing back the state it changed. `places`: the state's places found for the
        call, when known (a place the call created is looked for only when it is not
        among them)."""
        result, changed = out
        fn = self._function.python_function
        if changed:
            changed = given_back(changed, fn)   # (a dict: a pytree)
            if places is None or not write(places, changed, partial=True):
                write(self.places(args, kwargs, potential=True), changed)
        return given_back(result, fn)
