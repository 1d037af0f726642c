"""`Function` and `ConcreteFunction`: `tf.function`'s tracing semantics on `jax.jit`.

A call is keyed by its arguments, bound to the function's parameters with their defaults
(so `f(x)` and `f(x, b=2)` are one trace of `def f(a, b=2)`): arrays by shape and dtype,
Python scalars, strings and None by value, containers by structure and their leaves' keys,
other objects by hash (or identity). A new key traces the converted function and compiles
it; the same key reuses the compiled program, so a Python `print` in the function runs only
while tracing.

Results are returned as the function returned them: array leaves come out of the compiled
program, and everything else (strings, None, Python numbers, functions, objects) is kept
from the trace that made them, as `equinox.filter_jit` does (see `_Result`).

Lifetimes: a Function keeps each trace (its ConcreteFunction and compiled program) as long
as it lives itself. A key holds an argument compared by identity (a function, a plain
instance) weakly, and the trace goes when the argument does; arguments with an `==` of
their own are held, as their equal values must find the trace again. A method's Function,
made per instance by `__get__`, holds its instance weakly and is cached weakly by it, so
instances are freed as if the method were not converted; `instance.method` is a
BoundFunction, which holds the instance as a bound method does.
"""
import collections
import dataclasses
import functools
import inspect
import threading
import types
import warnings
import weakref

import jax
import numpy as np

from autograph.conversion import converted_callable
from autograph.errors import EscapedTracer, user_facing  # noqa: F401 (public here too)
from autograph.runtime import loop_autodiff, loop_policy
from autograph.runtime.errors import ControlFlowError
from autograph.runtime.state import check_defined

_eager = threading.local()
_eager_default = [False]


def run_functions_eagerly(enabled):
    """Run every converted function as plain Python (for debugging), or stop doing so."""
    _eager_default[0] = bool(enabled)


def functions_run_eagerly():
    return _eager_default[0]


RETRACE_WINDOW = 5


# --- cache keys -------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class ArrayKey:
    shape: tuple
    dtype: object
    weak_type: bool = False

    def __str__(self):
        weak = ' (weakly typed)' if self.weak_type else ''
        return f'{np.dtype(self.dtype).name}[{",".join(map(str, self.shape))}]{weak}'


@dataclasses.dataclass(frozen=True)
class ValueKey:
    value: object

    def __str__(self):
        return f'{self.value!r} (Python {type(self.value).__name__})'


class ObjectKey:
    """Any other object: equal objects (same type, hash and ==) share a key.

    An object compared by identity (its class defines no `__eq__`: functions, modules,
    plain instances) is held weakly, when it can be: a cache key must not keep it alive.
    Once it is gone, the key equals no other, and its trace is dropped (see
    `Function._concrete_function`)."""

    def __init__(self, obj):
        self._type_name = type(obj).__name__
        try:
            self._hash = hash(obj)
        except TypeError:
            self._hash = id(obj)
        self._obj, self.ref = obj, None
        if type(obj).__eq__ is object.__eq__:
            try:
                self._obj, self.ref = None, weakref.ref(obj)
            except TypeError:   # not weakly referenceable: held
                pass

    @property
    def obj(self):
        """The object (None once a weakly held object is gone)."""
        return self._obj if self.ref is None else self.ref()

    def __eq__(self, other):
        if not isinstance(other, ObjectKey):
            return False
        mine, theirs = self.obj, other.obj
        return mine is not None and theirs is not None and _same_object(mine, theirs)

    def __hash__(self):
        return self._hash

    def __str__(self):
        return f'{self._type_name} object'


def _same_object(a, b):
    if a is b:
        return True
    try:
        return type(a) is type(b) and hash(a) == hash(b) and bool(a == b)
    except TypeError:
        return False


_PYTHON_VALUES = (bool, int, float, complex, str, bytes, type(None))


def leaf_key(leaf):
    if isinstance(leaf, jax.ShapeDtypeStruct):
        return ArrayKey(tuple(leaf.shape), np.dtype(leaf.dtype), getattr(leaf, 'weak_type', False))
    if isinstance(leaf, jax.Array):
        return ArrayKey(leaf.shape, leaf.dtype, jax.typeof(leaf).weak_type)
    if isinstance(leaf, (np.ndarray, np.generic)):
        return ArrayKey(leaf.shape, leaf.dtype)
    if isinstance(leaf, _PYTHON_VALUES):
        return ValueKey(leaf)
    return ObjectKey(leaf)


def call_key(args, kwargs):
    leaves, treedef = jax.tree_util.tree_flatten((args, kwargs))
    return (treedef, tuple(leaf_key(leaf) for leaf in leaves)), leaves


def _takes_traced_type(traced, given):
    """Whether the argument keyed `given` may stand for an array traced as `traced`: a
    Python number, or a weakly typed array of the same shape, that JAX's promotion
    with the traced dtype leaves at the traced dtype."""
    if isinstance(given, ArrayKey) and given.weak_type and given.shape == traced.shape:
        number = _PYTHON_NUMBER_OF_KIND.get(np.dtype(given.dtype).kind)
    elif isinstance(given, ValueKey) and type(given.value) in (bool, int, float) \
            and traced.shape == ():
        number = given.value
    else:
        return False
    return number is not None and jax.numpy.result_type(traced.dtype, number) == traced.dtype


_PYTHON_NUMBER_OF_KIND = {'b': False, 'i': 0, 'f': 0.0, 'c': 0j}


# --- Function ---------------------------------------------------------------------------

class Function:
    """A converted function, traced and compiled per call key (see module docstring)."""

    def __init__(self, python_function, input_signature=None, jit=True, unroll_loops=None,
                 loop_autodiff=None, instance=None):
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
        self.loop_autodiff = loop_autodiff   # see runtime/loop_autodiff.py
        self._converted = None
        self._concrete = {}
        self._lock = threading.Lock()
        self._bound = weakref.WeakKeyDictionary()
        self.trace_count = 0
        # Calls whose arguments are all arrays (or containers of arrays) share one jax.jit:
        # its C++ dispatch keys them by structure, shape and dtype, as we would, at the
        # cost of a plain jax.jit call.
        self._arrays_jit = jax.jit(_named(self._trace_arrays, self.__name__))
        self._calls = 0
        self._trace_calls = collections.deque(maxlen=RETRACE_WINDOW)
        self._trace_keys = collections.deque(maxlen=2)
        self._warned_retracing = False

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
        """The converted Python function (not jitted)."""
        if self._converted is None:   # (converted once: conversion has its own cache)
            self._converted = converted_callable(self._function, strict=True)
        if self._instance is None:
            return self._converted
        return types.MethodType(self._converted, self._live_instance())

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
                             instance=instance if weak else None)
            try:
                self._bound[instance] = bound
            except TypeError:
                pass
        return BoundFunction(bound, instance) if bound._instance is not None else bound

    def __call__(self, *args, **kwargs):
        if _eager_default[0]:
            return self.python_function(*args, **kwargs)
        self._calls += 1
        try:
            if not self._jit:
                return self._run_converted(args, kwargs)
            if not kwargs and self.input_signature is None and _all_arrays(args):
                return self._arrays_jit(*args)
            key, leaves = self._key(args, kwargs)
            concrete = self._concrete.get(key) or self._concrete_function(key)
            return concrete.call_leaves(leaves)
        except Exception as error:
            user = user_facing(error)
            raise user from user.__cause__   # (the user's `raise ... from` cause is kept)

    def _key(self, args, kwargs):
        if self.input_signature is not None:
            check_signature(self.python_function, self.input_signature, args, kwargs)
        else:
            args, kwargs = self._bind(args, kwargs)
        return call_key(args, kwargs)

    @functools.cached_property
    def _signature(self):
        try:
            return inspect.signature(self.python_function)
        except (TypeError, ValueError):
            return None

    def _bind(self, args, kwargs):
        """The arguments bound to the parameters, defaults included, as positional
        arguments where the signature allows (Python's own TypeError when they do not fit)."""
        if self._signature is None:
            return args, kwargs
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
        key, leaves = self._key(args, kwargs)
        concrete = self._concrete.get(key) or self._concrete_function(key)
        concrete.ensure_traced()
        return concrete

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

    def _trace_arrays(self, *args):
        """What `_arrays_jit` traces: registers the trace, then runs the converted code."""
        key, _ = call_key(args, {})
        self._concrete_function(key)
        return self._traced_call(key, args, {})

    def _traced_call(self, key, args, kwargs):
        """Run the converted function while tracing it for `key`."""
        self.trace_count += 1
        self._trace_calls.append(self._calls)
        self._trace_keys.append(key)
        if (not self._warned_retracing and len(self._trace_calls) == RETRACE_WINDOW
                and self._trace_calls[-1] - self._trace_calls[0] == RETRACE_WINDOW - 1):
            self._warned_retracing = True
            warnings.warn(retrace_message(self, *self._trace_keys), stacklevel=4)
        return _Result.of(self._run_converted(args, kwargs))

    def _run_converted(self, args, kwargs):
        with loop_policy.unroll_loops(self.unroll_loops), \
                loop_autodiff.autodiff_mode(self.loop_autodiff):
            return check_defined(self.converted(*args, **kwargs))

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


class _Result:
    """A traced result with leaves that are not arrays, as a pytree node: its children
    are the array leaves (what the compiled program returns), its auxiliary data the rest.
    jax.jit keeps the auxiliary data of each trace and rebuilds the result from it on each
    call: unflattening returns the user's own value, not a _Result."""

    def __init__(self, arrays, spec):
        self.arrays = arrays
        self.spec = spec

    @staticmethod
    def of(value):
        leaves, treedef = jax.tree_util.tree_flatten(value)
        if all(_is_array(leaf) for leaf in leaves):
            return value
        for path, leaf in jax.tree_util.tree_flatten_with_path(value)[0]:
            if not _is_array(leaf):
                _reject_hidden_tracers(leaf, 'the result' + jax.tree_util.keystr(path))
        arrays = [leaf for leaf in leaves if _is_array(leaf)]
        return _Result(arrays, (treedef, [None if _is_array(leaf) else (leaf,)
                                          for leaf in leaves]))

    @staticmethod
    def rebuild(spec, arrays):
        treedef, statics = spec
        it = iter(arrays)
        return jax.tree_util.tree_unflatten(
            treedef, [next(it) if s is None else s[0] for s in statics])


def _is_array(leaf):
    return isinstance(leaf, (jax.Array, np.ndarray, np.generic))


def _reject_hidden_tracers(value, label, depth=4):
    """A result leaf that is not an array is returned as it is, so it must hold no traced
    value: a traced array inside an object that is not a pytree would outlive its trace.
    Looks into attributes and containers, `depth` levels deep."""
    if depth == 0 or isinstance(value, (str, bytes, int, float, complex, type(None))):
        return
    if isinstance(value, dict):
        children = [(f'[{k!r}]', v) for k, v in value.items()]
    elif isinstance(value, (list, tuple, set, frozenset)):
        children = [(f'[{i}]', v) for i, v in enumerate(value)]
    elif hasattr(value, '__dict__') and not callable(value):
        children = [(f'.{k}', v) for k, v in vars(value).items()]
    else:
        return
    for suffix, child in children:
        if isinstance(child, jax.core.Tracer):
            raise ControlFlowError(
                f'{label}{suffix} is a traced array inside {type(value).__name__}, which '
                f'is not a pytree: a compiled function can only return arrays from the '
                f'trace. Register {type(value).__name__} as a pytree '
                f'(jax.tree_util.register_dataclass or register_pytree_node), or return '
                f'the arrays themselves.')
        _reject_hidden_tracers(child, label + suffix, depth - 1)


jax.tree_util.register_pytree_node(_Result, lambda r: (r.arrays, r.spec), _Result.rebuild)


def _forget_trace(function_ref, key):
    function = function_ref()
    if function is not None:
        with function._lock:
            function._concrete.pop(key, None)


def _weakly_referable(obj):
    try:
        weakref.ref(obj)
    except TypeError:
        return False
    return True


def _all_arrays(args):
    """True when every argument is an array, or a container of nothing but arrays."""
    for arg in args:
        if not isinstance(arg, jax.Array):
            return all(isinstance(leaf, jax.Array) for leaf in jax.tree_util.tree_leaves(args))
    return True


def retrace_message(function, previous, current):
    changed = _changed_arguments(function.python_function, previous, current)
    what = ', '.join(changed) if changed else 'its arguments'
    return (f'{function.__qualname__} was traced again on each of its last '
            f'{RETRACE_WINDOW} calls, because {what} changed each time. Each new Python '
            f'value, shape or dtype traces and compiles the function again. Pass numbers '
            f'that change as arrays (jnp.asarray(...)), or fix the argument shapes with '
            f'input_signature=[jax.ShapeDtypeStruct(...)].')


def _changed_arguments(fn, previous, current):
    if previous is None or previous[0] != current[0]:
        return ['the structure of the arguments']
    names = _parameter_names(fn, current[0])
    return [f"'{names[i]}' ({a} -> {b})" for i, (a, b) in enumerate(zip(previous[1], current[1]))
            if a != b and i < len(names)]


def _parameter_names(fn, treedef):
    """A name per flattened leaf: the parameter it came from."""
    try:
        params = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        params = []
    (args_count, kwargs_names) = _arg_structure(treedef)
    names = []
    for i, leaf_count in enumerate(args_count):
        label = params[i] if i < len(params) else f'argument {i}'
        names += [label] * leaf_count
    for name, leaf_count in kwargs_names:
        names += [name] * leaf_count
    return names


def _arg_structure(treedef):
    args_def, kwargs_def = treedef.children()
    args_counts = [child.num_leaves for child in args_def.children()]
    kwargs = jax.tree_util.tree_unflatten(kwargs_def, [0] * kwargs_def.num_leaves)
    kwargs_counts = [(k, jax.tree_util.tree_structure(v).num_leaves) for k, v in kwargs.items()]
    return args_counts, kwargs_counts


def check_signature(fn, signature, args, kwargs):
    """ValueError naming the argument whose shape/dtype does not match `signature`."""
    names = _parameter_names_plain(fn)
    if kwargs:
        raise ValueError(f'{fn.__qualname__} has an input_signature, so it takes positional '
                         f'arguments only; got keyword arguments {sorted(kwargs)}')
    if len(args) != len(signature):
        raise ValueError(f'{fn.__qualname__} takes {len(signature)} arguments by its '
                         f'input_signature, got {len(args)}')
    for i, (arg, spec) in enumerate(zip(args, signature)):
        expected = jax.tree_util.tree_map(leaf_key, spec)
        actual = jax.tree_util.tree_map(_array_key, arg)
        if (jax.tree_util.tree_structure(expected) != jax.tree_util.tree_structure(actual)
                or not all(_matches(e, a) for e, a in zip(jax.tree_util.tree_leaves(expected),
                                                          jax.tree_util.tree_leaves(actual)))):
            name = names[i] if i < len(names) else f'argument {i}'
            raise ValueError(
                f"argument '{name}' of {fn.__qualname__} does not match its input_signature: "
                f"expected {_describe_key(expected)}, got {_describe_key(actual)}")


def _array_key(value):
    if isinstance(value, (jax.Array, np.ndarray, np.generic, jax.ShapeDtypeStruct)):
        return leaf_key(value)
    if isinstance(value, (bool, int, float, complex)):
        return ArrayKey((), np.asarray(value).dtype, True)
    return leaf_key(value)


def _matches(expected, actual):
    return (isinstance(actual, ArrayKey) and isinstance(expected, ArrayKey)
            and expected.shape == actual.shape
            and (np.dtype(expected.dtype) == np.dtype(actual.dtype) or actual.weak_type))


def _describe_key(tree):
    return str(jax.tree_util.tree_map(str, tree))


def _parameter_names_plain(fn):
    try:
        return list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return []


# --- ConcreteFunction -------------------------------------------------------------------

class ConcreteFunction:
    """One trace of a Function: its compiled program, jaxpr, StableHLO and signature."""

    def __init__(self, function, key):
        self.function = function
        self.key = key
        treedef, keys = key
        self._treedef = treedef
        self._dynamic = [i for i, k in enumerate(keys) if isinstance(k, ArrayKey)]
        self._avals = [jax.ShapeDtypeStruct(keys[i].shape, keys[i].dtype,
                                            weak_type=keys[i].weak_type)
                       for i in self._dynamic]
        args_only = not jax.tree_util.tree_unflatten(treedef, keys)[1]
        if args_only and len(self._dynamic) == len(keys):
            self._jitted = _ArraysCall(function._arrays_jit, treedef)  # shares that trace
        else:
            self._jitted = jax.jit(_named(self._flat, function.__name__))
        self._outputs = None

    def _statics(self):
        """The leaves that are not arrays, by position (None at the arrays' places)."""
        return [k.value if isinstance(k, ValueKey) else k.obj if isinstance(k, ObjectKey)
                else None for k in self.key[1]]

    def _flat(self, *dynamic):
        leaves = self._statics()
        for i, value in zip(self._dynamic, dynamic):
            leaves[i] = value
        args, kwargs = jax.tree_util.tree_unflatten(self._treedef, leaves)
        return self.function._traced_call(self.key, args, kwargs)

    def call_leaves(self, leaves):
        return self._jitted(*[leaves[i] for i in self._dynamic])

    def ensure_traced(self):
        if self._outputs is None:
            self._outputs = self._jitted.eval_shape(*self._avals)

    def __call__(self, *args, **kwargs):
        try:
            if self.function.input_signature is None:
                key, leaves = call_key(*self._pin(args, kwargs))
            else:
                key, leaves = self.function._key(args, kwargs)
            if key != self.key:
                key, leaves = self._converted_to_traced_types(key, leaves)
            if key != self.key:
                raise self._incompatible(key)
            return self.call_leaves(leaves)
        except Exception as error:
            user = user_facing(error)
            raise user from user.__cause__

    def _pin(self, args, kwargs):
        """The call's arguments bound to the parameters; a Python argument left out takes
        the value it was traced with (as tf.function's concrete functions do)."""
        signature = self.function._signature
        if signature is None:
            return args, kwargs
        bound = signature.bind_partial(*args, **kwargs)
        traced = signature.bind(*self.structured_input_signature[0],
                                **self.structured_input_signature[1])
        for name, value in traced.arguments.items():
            if name not in bound.arguments and not any(
                    isinstance(leaf, jax.ShapeDtypeStruct)
                    for leaf in jax.tree_util.tree_leaves(value)):
                bound.arguments[name] = value
        bound.apply_defaults()
        return bound.args, bound.kwargs

    def _converted_to_traced_types(self, key, leaves):
        """A weakly typed array or a Python number given where an array was traced takes
        the traced dtype, when JAX's promotion would keep that dtype (3.0 or a weak
        float32[] for float32[]; never 2.5 for int32[])."""
        treedef, keys = key
        if treedef != self.key[0]:
            return key, leaves
        keys, leaves = list(keys), list(leaves)
        for i, (mine, theirs) in enumerate(zip(self.key[1], keys)):
            if isinstance(mine, ArrayKey) and _takes_traced_type(mine, theirs):
                leaves[i] = jax.numpy.asarray(leaves[i], dtype=mine.dtype)
                keys[i] = mine
        return (treedef, tuple(keys)), leaves

    def _incompatible(self, key):
        if key[0] != self.key[0]:
            return TypeError(f'{self.function.__qualname__}: this concrete function was '
                             f'traced for arguments structured as {self.key[0]}, got {key[0]}')
        names = _parameter_names(self.function.python_function, key[0])
        for i, (mine, theirs) in enumerate(zip(self.key[1], key[1])):
            if mine != theirs:
                name = names[i] if i < len(names) else f'argument {i}'
                if isinstance(mine, ArrayKey):
                    return ValueError(
                        f"argument '{name}' of this concrete function of "
                        f"{self.function.__qualname__} was traced as {mine}, but got "
                        f"{theirs}. Call the Function itself to trace it again for new "
                        f"shapes.")
                return TypeError(
                    f"this concrete function of {self.function.__qualname__} was traced "
                    f"with {name}={_pinned(mine)}: its Python arguments are fixed, but got "
                    f"{name}={_pinned(theirs)}. Pass {name}={_pinned(mine)} or leave it "
                    f"out, or call the Function itself to trace it for the new value.")
        return TypeError('incompatible arguments')

    @functools.cached_property
    def jaxpr(self):
        return jax.make_jaxpr(self._flat)(*self._avals)

    def as_text(self):
        """The lowered StableHLO module."""
        return self._jitted.lower(*self._avals).as_text()

    @property
    def structured_input_signature(self):
        leaves = self._statics()
        for i, aval in zip(self._dynamic, self._avals):
            leaves[i] = aval
        return jax.tree_util.tree_unflatten(self._treedef, leaves)

    @property
    def structured_outputs(self):
        self.ensure_traced()
        return self._outputs

    def __str__(self):
        args, kwargs = self.structured_input_signature
        names = _parameter_names_plain(self.function.python_function)
        params = ', '.join(names[:len(args)] + list(kwargs))
        lines = [f'{self.function.__name__}({params})', '  Args:']
        for i, arg in enumerate(args):
            name = names[i] if i < len(names) else f'arg{i}'
            lines.append(f'    {name}: {_describe_tree(arg)}')
        for name, arg in kwargs.items():
            lines.append(f'    {name}: {_describe_tree(arg)}')
        lines += ['  Returns:', f'    {_describe_tree(self.structured_outputs)}']
        return '\n'.join(lines)

    __repr__ = __str__


def _pinned(key):
    return repr(key.value) if isinstance(key, ValueKey) else f'<{key}>'


class _ArraysCall:
    """Calls a Function's all-arrays jit with flat leaves (as ConcreteFunction does)."""

    def __init__(self, jitted, treedef):
        self.jitted = jitted
        self.treedef = treedef

    def __call__(self, *leaves):
        args, _ = jax.tree_util.tree_unflatten(self.treedef, leaves)
        return self.jitted(*args)

    def lower(self, *avals):
        args, _ = jax.tree_util.tree_unflatten(self.treedef, avals)
        return self.jitted.lower(*args)

    def eval_shape(self, *avals):
        args, _ = jax.tree_util.tree_unflatten(self.treedef, avals)
        return self.jitted.eval_shape(*args)


def _named(fn, name):
    """`fn` under the user's function name, which jaxprs and profiles show."""
    def call(*args):
        return fn(*args)
    call.__name__ = call.__qualname__ = name
    return call


def _describe_tree(tree):
    def describe(leaf):
        if isinstance(leaf, jax.ShapeDtypeStruct):
            return f'{np.dtype(leaf.dtype).name}[{",".join(map(str, leaf.shape))}]'
        return repr(leaf)
    described = jax.tree_util.tree_map(describe, tree)
    return described if isinstance(described, str) else str(described).replace("'", '')
