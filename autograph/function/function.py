"""`Function`: `tf.function`'s tracing semantics on `jax.jit`.

Python reference: `return python_function(*args, **kwargs)`, traced and compiled once per
call key (see `keys`): a new key traces the converted function and compiles it; the same
key reuses the compiled program, so a Python `print` in the function runs only while
tracing. Keys that differ only in their arrays' shapes and dtypes share one `jax.jit`,
which keys those itself (`_static_jit`); a call whose entry is cached checks only what
can change since (see `calls`), the others find their trace's ConcreteFunction (see
`concrete`); with `jit=False` a call runs the converted function as it is. Results come
back as the function returned them (see `results`), and errors as the user's
(`autograph.errors.user_facing`). The state the function reads and writes besides its
arguments is read into the key and written back (see `state`), except lists it only
appends to: logs, appended after each call (`logs`).

A function traced again on each of its last `RETRACE_WINDOW` calls gets one warning that
names the arguments, or the state, that changed. `run_functions_eagerly(True)` runs every
Function as the plain Python it converts, as `tf.config.run_functions_eagerly` does.

Lifetimes: a Function keeps each trace (its ConcreteFunction and compiled program) as long
as it lives itself, or until an argument its key holds weakly goes (see `keys`). A
method's Function, made per instance by `__get__`, holds its instance weakly and is cached
weakly by it, so instances are freed as if the method were not converted;
`instance.method` is a BoundFunction, which holds the instance as a bound method does.
"""
import collections
import functools
import inspect
import threading
import types
import warnings
import weakref

import jax

from autograph.conversion import converted_callable
from autograph.errors import raise_user_facing
from autograph.function.concrete import ConcreteFunction, check_signature, named
from autograph.function.calls import MISS, CallCache
from autograph.function.keys import (RETRACE_WINDOW, STATE, ObjectKey, call_key, full_key,
                                     numpy_leaves, retrace_message, static_part, traced_layouts)
from autograph.function.logs import LogRead, again_if_log_read
from autograph.function.results import given_back, given_back_to
from autograph.function.state import CallState
from autograph.runtime.checks import check_outcomes, checks
from autograph.runtime import context
from autograph.runtime.staging import loop_autodiff
from autograph.runtime.loops import loop_policy, reductions
from autograph.runtime.checks.absent import check_defined
from autograph.runtime.python.written import reporting_written
from autograph.runtime.values.types import has_symbolic_shape

# --- the eager switch -------------------------------------------------------------------

_run_eagerly = False
"""Whether every Function runs as plain Python. One flag for the process, in every thread,
as `tf.config.run_functions_eagerly`: a debugging switch, not a per-call option."""


def run_functions_eagerly(enabled):
    """Run every converted function as plain Python (for debugging), or stop doing so.

    Process-wide, as `tf.config.run_functions_eagerly`: it holds in every thread until it
    is switched back."""
    global _run_eagerly
    _run_eagerly = bool(enabled)


def functions_run_eagerly():
    """Whether `run_functions_eagerly(True)` is in effect."""
    return _run_eagerly


class Function:
    """A converted function, traced and compiled per call key (see module docstring)."""

    def __init__(self, python_function, input_signature=None, jit=True, unroll_loops=None,
                 loop_autodiff=None, sequential_sums=None, instance=None):
        functools.update_wrapper(self, python_function)
        for attr in ('__name__', '__qualname__'):   # callable objects have neither
            if not hasattr(self, attr):
                setattr(self, attr, type(python_function).__name__)
        # A method bound to `instance` holds it weakly (see `__get__`): `_function` is then
        # the plain function, and `python_function` binds it to the instance on each use.
        self._function = python_function
        self._instance = None
        if instance is not None:
            self._instance = weakref.ref(instance)
            self.__signature__ = inspect.signature(python_function.__get__(instance))
        self.input_signature = (tuple(input_signature) if input_signature is not None
                                else None)
        self._jit = jit
        self.unroll_loops = unroll_loops   # see autograph.convert
        self.loop_autodiff = loop_autodiff   # see runtime/staging/loop_autodiff.py
        self.sequential_sums = sequential_sums   # see runtime/loops/reductions.py
        self._concrete = {}
        self._lock = threading.RLock()
        self._bound = weakref.WeakKeyDictionary()
        self.trace_count = 0
        # Keys that differ only in their arrays' shapes and dtypes share one jax.jit,
        # whose C++ dispatch keys those (see `_static_jit`); a cached call checks only
        # what can change (see `calls`).
        self._static_jits = {}
        self._cache = CallCache(self)
        # How many arguments a call has that may go straight to the cache, without
        # binding them to the parameters: -1 when none may, -2 before the first jitted
        # call (see `_call`).
        self._cached_arity = -2
        self._calls = 0
        self._trace_calls = collections.deque(maxlen=RETRACE_WINDOW)
        self._trace_keys = collections.deque(maxlen=2)
        self._warned_retracing = False
        self._state = CallState(self)
        self._as_is = not _has_python_source(python_function)
        if self._as_is:
            warnings.warn(f'{python_function!r} has no Python source code (a builtin, a '
                          f'NumPy ufunc or a C function): autograph.convert calls it as it '
                          f'is, without conversion or jax.jit.', stacklevel=3)

    @property
    def python_function(self):
        """The Python function this Function converts (for a method: bound)."""
        if self._instance is None:
            return self._function
        return types.MethodType(self._function, self._live_instance())

    def _live_instance(self):
        instance = self._instance()
        if instance is None:
            raise ReferenceError(f'{self.__qualname__}: the object this method was bound '
                                 f'to no longer exists')
        return instance

    @property
    def __ag_python_function__(self):
        """What converted code calls this Function as (a class attribute, so that
        functools.wraps around a Function, e.g. jax.vmap's, does not copy it)."""
        return self.python_function

    @property
    def converted(self):
        """The converted Python function (not jitted): asked of the conversion cache on
        every use, which converts again where a global now hides a builtin the code
        names (or no longer does)."""
        converted = converted_callable(self._function, strict=True)
        if self._instance is None:
            return converted
        return types.MethodType(converted, self._live_instance())

    def __get__(self, instance, owner=None):
        """`instance.method`: the method's Function for that instance (one per instance,
        cached weakly by it), as a BoundFunction that keeps the instance alive.

        The cached Function refers to the instance weakly: a strong reference would make
        each instance keep itself alive through the cache."""
        if instance is None:
            return self
        try:
            bound = self._bound.get(instance)
        except TypeError:
            bound = None
        if bound is None:
            method = self._function.__get__(instance, owner)
            weak = (isinstance(method, types.MethodType) and method.__self__ is instance
                    and method.__func__ is self._function and _weakly_referable(instance))
            bound = Function(self._function if weak else method, self.input_signature,
                             self._jit, self.unroll_loops, self.loop_autodiff,
                             self.sequential_sums,
                             instance=instance if weak else None)
            try:
                self._bound[instance] = bound
            except TypeError:
                pass
        return BoundFunction(bound, instance) if bound._instance is not None else bound

    def __call__(self, *args, **kwargs):
        if _run_eagerly or self._as_is:
            return self.python_function(*args, **kwargs)
        self._calls += 1
        try:
            if len(args) == self._cached_arity and not kwargs:   # (see `_call`)
                try:
                    out = self._cache.serve(args)
                    if out is not MISS:
                        return out
                except LogRead:   # (its trace stopped: the full path starts again)
                    pass
            if not self._jit:
                return given_back(self._run_unjitted(args, kwargs), self.python_function)
            return again_if_log_read(self._call, args, kwargs)
        except Exception as error:
            raise_user_facing(error)

    def _call(self, args, kwargs):
        """A jitted call: a cached one (`calls`) once its arguments are bound, else the
        full path (the places found, the key made, its program run)."""
        places = code = None
        if self._cached_arity == -2:   # (a plain attribute: read on every call)
            self._cached_arity = self._positional if self.input_signature is None else -1
        if self.input_signature is None:
            if kwargs or len(args) != self._positional:
                args, kwargs = self._bind(args, kwargs)
            if not kwargs:
                out = self._cache.call(args)
                if out is not MISS:
                    return out
            code = {}
            places = self._state.places(args, kwargs, code=code)
        key, leaves, bound = self._key(args, kwargs, places, code)
        concrete = self._concrete.get(key) or self._concrete_function(key)
        return self._state.written_back(concrete.call_leaves(leaves), *bound, places)

    def _key(self, args, kwargs, places=None, code=None):
        """The call's key and flat leaves (the state it reads included, see `state`), and
        the arguments bound to the parameters. `places` and `code`: the state's and the
        code's, when known (see CallState.with_state; the arguments are then bound)."""
        if self.input_signature is not None:
            check_signature(self.python_function, self.input_signature, args, kwargs)
        elif places is None:   # (else bound already, see __call__)
            args, kwargs = self._bind(args, kwargs)
        key, leaves = call_key(args, self._state.with_state(args, kwargs, places, code))
        return key, leaves, (args, kwargs)

    @functools.cached_property
    def _signature(self):
        try:
            return inspect.signature(self.python_function)
        except (TypeError, ValueError):
            return None

    @functools.cached_property
    def _positional(self):
        """How many parameters there are when all are plain positional ones (else -1)."""
        kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        params = self._signature.parameters.values() if self._signature is not None else ()
        return len(params) if all(p.kind in kinds for p in params) else -1

    def _bind(self, args, kwargs):
        """The arguments bound to the parameters, defaults included, as positional
        arguments where the signature allows (Python's own TypeError when they do not fit)."""
        if self._signature is None or (not kwargs and len(args) == self._positional):
            return args, kwargs   # (nothing to bind: each parameter given in its place)
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError as error:   # as Python says it: "f(): missing a required ..."
            raise TypeError(f'{self.__qualname__}(): {error}') from None
        bound.apply_defaults()
        return bound.args, bound.kwargs

    def get_concrete_function(self, *args, **kwargs):
        """The ConcreteFunction for these arguments (arrays or jax.ShapeDtypeStruct)."""
        if not args and not kwargs and self.input_signature is not None:
            args = self.input_signature

        def traced(args, kwargs):
            key, leaves, _ = self._key(args, kwargs)
            concrete = self._concrete.get(key) or self._concrete_function(key)
            concrete.ensure_traced()
            return concrete
        return again_if_log_read(traced, args, kwargs)

    def _concrete_function(self, key):
        with self._lock:
            concrete = self._concrete.get(key)
            if concrete is None:
                concrete = ConcreteFunction(self, key)
                self._concrete[key] = concrete
                for leaf in key[1]:   # an argument held weakly: its trace goes with it
                    if isinstance(leaf, ObjectKey) and leaf.ref is not None:
                        weakref.finalize(leaf.obj, _forget_trace, weakref.ref(self),
                                         key).atexit = False
            return concrete

    def _static_jit(self, static):
        """The jax.jit of the keys with static part `static` (see `keys.static_part`): it
        takes their arrays, and its C++ dispatch keys their shapes and dtypes; each new
        one traces `_trace_static`, which registers its key's ConcreteFunction."""
        with self._lock:
            jitted = self._static_jits.get(static)
            if jitted is None:
                jitted = jax.jit(named(functools.partial(self._trace_static, static),
                                       self.__name__))
                self._static_jits[static] = jitted
            return jitted

    def _trace_static(self, static, *arrays):
        """What a static part's jax.jit traces: the key of these arrays registered, then
        the converted code run."""
        key, leaves = full_key(static, arrays)
        self._concrete_function(key)
        args, kwargs = jax.tree_util.tree_unflatten(key[0], leaves)
        numpy, arguments = numpy_leaves(key, leaves, args, kwargs)
        with context.setting(numpy=context.numpy_marks(numpy), arguments=arguments,
                             layouts=traced_layouts(key, leaves)):
            return self._traced_call(key, args, kwargs)

    def _traced_call(self, key, args, kwargs):
        """Run the converted function while tracing it for `key` (the traced values that
        stand for its NumPy arrays noted in the context: see runtime.context's `numpy`)."""
        self.trace_count += 1
        self._trace_calls.append(self._calls)
        self._trace_keys.append(key)
        if (not self._warned_retracing and len(self._trace_calls) == RETRACE_WINDOW
                and self._trace_calls[-1] - self._trace_calls[0] == RETRACE_WINDOW - 1):
            self._warned_retracing = True
            warnings.warn(retrace_message(self, *self._trace_keys), stacklevel=4)
        kwargs = dict(kwargs)
        values = kwargs.pop(STATE, {})
        tracing = self._state.tracing(args, kwargs, values)
        try:
            with context.setting(fields={}):   # (read by the outputs too)
                with context.setting(on_call=tracing.on_call, discovered={},
                                     logs=tracing.logs), \
                        checks.threaded(checks.Table()) as scope:
                    result, written = self._run_converted(args, kwargs)
                out = tracing.outputs(result, self.python_function, written)
        finally:
            tracing.restore()
        return out, check_outcomes.outcome(scope.errors)

    def _run_unjitted(self, args, kwargs):
        """A call with `jit=False`: the converted code runs as it is, inside the caller's
        trace, if any, where its failed checks are reported by a callback (and the state
        it changes is written by the code itself)."""
        places = self._state.places(args, kwargs, potential=True)
        # (`fields`: read by given_back_to too)
        with context.setting(fields={}, numpy=context.numpy_marks()):
            with context.setting(discovered={}), checks.threaded(checks.Table()) as scope:
                value, _ = self._run_converted(args, kwargs)   # (NumPy written in place)
            check_outcomes.report(scope.errors)
            given_back_to([place for place in places if not place.log], self.python_function)
        return value

    def _run_converted(self, args, kwargs):
        """(the converted function's result, {parameter: final value} of the array
        parameters whose items it wrote: see runtime.python.written.reporting_written)."""
        with loop_policy.unroll_loops(self.unroll_loops), \
                reductions.sequential_sums(self.sequential_sums), \
                loop_autodiff.autodiff_mode(self.loop_autodiff), context.setting(
                    symbolic=context.current().symbolic or has_symbolic_shape((args, kwargs))):
            value, written = reporting_written(self.converted, args, kwargs)
            return check_defined(value), written

    def pretty_printed_concrete_signatures(self):
        return '\n\n'.join(str(c) for c in self._concrete.values())

    def __repr__(self):
        return f'<autograph.Function {self.__qualname__}>'


class BoundFunction:
    """A converted method bound to an instance: calls, and every attribute, are those of
    the method's Function for that instance, which refers to the instance weakly; this
    holds it, as a bound method holds its `__self__`."""

    def __init__(self, function, instance):
        self._function = function
        self._instance = instance
        self.__doc__, self.__module__ = function.__doc__, function.__module__

    def __call__(self, *args, **kwargs):
        return self._function(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._function, name)

    def __repr__(self):
        return repr(self._function)


def _forget_trace(function_ref, key):
    function = function_ref()
    if function is not None:
        with function._lock:
            function._concrete.pop(key, None)
            function._static_jits.pop(static_part(key), None)


def _has_python_source(fn):
    """Whether converting `fn` reaches Python code (a function, a method, a callable
    object with a Python `__call__`, or a JAX wrapper of one): not a builtin or ufunc."""
    from autograph.prebuilt import wraps_user_code
    fn = getattr(fn, '__ag_python_function__', fn)
    if isinstance(fn, functools.partial):
        fn = fn.func
    if inspect.ismethod(fn):
        fn = fn.__func__
    if isinstance(fn, (staticmethod, classmethod)):
        fn = fn.__func__
    if inspect.isfunction(fn) or wraps_user_code(fn) or isinstance(fn, Function):
        return True
    return inspect.isfunction(getattr(type(fn), '__call__', None))


def _weakly_referable(obj):
    try:
        weakref.ref(obj)
    except TypeError:
        return False
    return True

