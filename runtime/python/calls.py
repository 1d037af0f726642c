"""`ag.call(f, *args)`: call `f`, converted first when it is user code.

Also stops runaway recursion: a function that calls itself from inside staged control
flow (a `lax.cond` branch, a loop body) again and again can only be recursing on a traced
value, which never terminates while tracing. That is reported after a few levels, naming
the function, instead of a RecursionError hundreds of frames deep.
"""
import builtins
import functools
import importlib
import operator
import types

import jax
import numpy as np

from ..errors import here
from ..messages import array_kind_unknown
from ..checks import check_outcomes
from ..checks.absent import present
from ..checks.keys import Keyed
from .. import context, origin
from ..context import staged_depth
from ..values.maybe import Maybe
from ..values.split import is_traced
from ..values.stacked import STACKERS, Stacked
from . import array_methods, random_draws, traced_math, traced_numpy, traced_statistics
from .argument_aliases import check_given_once, check_written_back, parameter_names
from .recursion import STAGED_RECURSION_LIMIT, converted_inside, recursion_error
from .written import Slot, Written

TRANSFORMS = frozenset({
    'jax.grad', 'jax.value_and_grad', 'jax.vmap', 'jax.pmap', 'jax.jit', 'jax.checkpoint',
    'jax.remat', 'jax.jacfwd', 'jax.jacrev', 'jax.jacobian', 'jax.hessian', 'jax.jvp',
    'jax.vjp', 'jax.linearize', 'jax.linear_transpose', 'jax.custom_jvp', 'jax.custom_vjp',
    'jax.eval_shape', 'jax.make_jaxpr', 'jax.named_call',
    'jax.lax.scan', 'jax.lax.map', 'jax.lax.cond', 'jax.lax.switch', 'jax.lax.while_loop',
    'jax.lax.fori_loop', 'jax.lax.associative_scan', 'jax.lax.custom_root',
    'jax.lax.custom_linear_solve'})
"""JAX functions that take user functions (alone, or in a list like lax.switch's
branches): converted code converts what it gives them. Wrappers these made outside
converted code are rebuilt around the converted function (see autograph.prebuilt)."""


OVERRIDDEN_BUILTINS = frozenset(
    {'range', 'enumerate', 'zip', 'filter', 'min', 'max', 'sum', 'sorted', 'any', 'all', 'pow',
     'int', 'float', 'bool', 'complex', 'str', 'repr', 'format', 'hasattr', 'getattr',
     'setattr', 'delattr', 'len'})
"""Builtins with a version in the `ag` namespace (`ag.range`, ...) that also takes traced
values. Converted code calls those; a builtin passed around as a value (`r = range; r(n)`)
reaches `call`, which calls that version too (see `use_versions`)."""

OVERRIDDEN_METHODS = frozenset({'list.sort', 'dict.get', 'list.index'})
"""Methods of Python containers with a version that also takes traced values: converted
code calls `xs.sort(...)`, `d.get(k)`, `xs.index(v)` through `call`, which calls that
version for a list (a dict at a traced key, a list or tuple with traced items)."""

_VERSIONS = {}   # builtin name -> the `ag` namespace's version of it

_PLAIN_OWNERS = frozenset({list, dict, set, frozenset, tuple, str, bytes, bytearray, int,
                           float, complex, bool, np.ndarray})
"""Exact types whose methods (`xs.append`, `x.sum`: converted code routes a method of an
object it cannot type through `call`) are library code, called at once."""


def use_versions(versions):
    """Called once by the `ag` namespace (runtime/__init__.py), which lies above this
    package: {name: version} for every name of OVERRIDDEN_BUILTINS and OVERRIDDEN_METHODS."""
    names = OVERRIDDEN_BUILTINS | OVERRIDDEN_METHODS
    assert set(versions) == names, set(versions) ^ names
    _VERSIONS.update(versions)


def _resolve(dotted):
    module, _, attr = dotted.rpartition('.')
    return getattr(importlib.import_module(module), attr)


REDUCTIONS = {f'jax.numpy.{name}': method for name, method in (
    ('sum', 'sum'), ('prod', 'prod'), ('mean', 'mean'), ('max', 'max'), ('min', 'min'),
    ('amax', 'max'), ('amin', 'min'), ('any', 'any'), ('all', 'all'))}
"""JAX's reductions -> the method name of each: given a value that reduces itself (a
slice of run-time length, runtime.items.masked: `jnp.mean(x[mask], axis=0)`), `call`
asks it (`__ag_reduce__`), as NumPy's `np.mean(obj)` calls `obj.mean()`."""

MATH = frozenset(f'math.{name}' for name in traced_math.NAMES)
"""The `math` functions converted code calls as `ag.math.<name>` (runtime.python.traced_math)."""

STATISTICS = frozenset(f'statistics.{name}' for name in traced_statistics.NAMES)
"""The same for `statistics` (`ag.statistics.<name>`: runtime.python.traced_statistics)."""

HEAPQ = frozenset(f'heapq.{name}' for name in (
    'nlargest', 'nsmallest', 'heappush', 'heappop', 'heapify', 'heappushpop', 'heapreplace'))
"""The same for `heapq` (`ag.heapq.<name>`: runtime.python.traced_heapq, which cannot be
asked: it uses the builtins, which use this module)."""

TWINNED = MATH | STATISTICS | HEAPQ
"""The library functions converted code calls as `ag.<module>.<name>`."""

NUMPY = frozenset(f'numpy.{path}' for path in traced_numpy.NAMES)
"""The NumPy functions converted code calls as `ag.numpy.<path>` (runtime.python.traced_numpy)."""

_KNOWN = {id(_resolve(name)): name
          for name in NUMPY | TRANSFORMS | set(STACKERS) | set(REDUCTIONS) | TWINNED
          if name[len('numpy.'):] not in traced_numpy.UFUNC_METHOD_NAMES}
"""(Not a ufunc's methods: `np.add.reduce` is a new object each time it is read.)"""


def known_name(value):
    """'jax.grad', 'jax.numpy.stack', 'math.exp', 'numpy.maximum.accumulate', ... for the
    library functions converted code treats specially (see TRANSFORMS, REDUCTIONS,
    TWINNED, NUMPY and runtime.values.stacked.STACKERS); None for anything else."""
    if value is None:
        return None
    owner = getattr(value, '__self__', None)
    if isinstance(owner, np.ufunc) and owner is not value:   # (`np.add.reduce`)
        name = f'{_KNOWN.get(id(owner))}.{getattr(value, "__name__", "")}'
        return name if name in NUMPY else None
    return _KNOWN.get(id(value))


def call(fn, *args, **kwargs):
    """Python reference: `fn(*args, **kwargs)`."""
    return _call(fn, args, kwargs)


def _library_call(fn, args, kwargs):
    """`fn(*args, **kwargs)` of library function `fn`, as converted code calls it: a
    function converted code names a twin of (`f = np.exp; f(x)`: of a traced x too;
    `math`'s and `statistics`' too), a stacker or reduction of a value that does it
    itself, a JAX transform of the user's functions, converted; a random number
    generator's draw checked (runtime.python.random_draws)."""
    random_draws.check_draw(fn)
    name = known_name(fn)
    if name in NUMPY and name[len('numpy.'):] not in traced_numpy.BOUND_ONLY:
        return traced_numpy.twin(name)(*args, **kwargs)
    if name in MATH or name in STATISTICS:
        module = traced_math if name in MATH else traced_statistics
        return getattr(module, name.partition('.')[2])(*args, **kwargs)
    if name in STACKERS and len(args) == 1 and not kwargs and \
            isinstance(args[0], Stacked) and args[0].stacked() is not None:
        return args[0].stacked()
    if name in REDUCTIONS and args and hasattr(args[0], '__ag_reduce__'):
        return args[0].__ag_reduce__(REDUCTIONS[name], *args[1:], **kwargs)
    if any(isinstance(a, Maybe) for a in (*args, *kwargs.values())) and \
            context.converter.is_library(fn):   # (not a user function left as is)
        args, kwargs = _present(fn, args, kwargs)
    if name in TRANSFORMS:
        args = [_converted_functions(a) for a in args]
        kwargs = {k: _converted_functions(v) for k, v in kwargs.items()}
        if name == 'jax.vmap':   # its checks join the caller's (see runtime.checks)
            return check_outcomes.vmap(*args, **kwargs)
    result = fn(*args, **kwargs)
    random_draws.note_made(result)   # (`rng = np.random.default_rng(0)`)
    return result


def object_update(target, op, value):
    """Python reference: `target op value; return target` (`op` '+=', ...) for a variable
    that holds an object of a user class (autograph.passes.calls): its in-place method
    (`__iadd__`) runs as a call of user code (converted, and what it changes in the
    object is carried by the staged statement around, see runtime.state.watches); without
    one, or where it gives NotImplemented, Python's binary operator."""
    name = _IN_PLACE_METHODS[op]
    if getattr(type(target), name, None) is not None:
        result = call(getattr(target, name), value)   # (bound: as `a.__iadd__(e)`)
        if result is not NotImplemented:
            return result
    return _BINARY[op](target, value)


_IN_PLACE_METHODS = {'+=': '__iadd__', '-=': '__isub__', '*=': '__imul__', '/=': '__itruediv__',
                     '//=': '__ifloordiv__', '%=': '__imod__', '**=': '__ipow__',
                     '@=': '__imatmul__', '&=': '__iand__', '|=': '__ior__', '^=': '__ixor__',
                     '<<=': '__ilshift__', '>>=': '__irshift__'}
_BINARY = {op: getattr(operator, name.replace('__i', '__'))
           for op, name in _IN_PLACE_METHODS.items()}   # (`operator.__add__`...)


def _call(fn, args, kwargs, slot=None):
    owner = getattr(fn, '__self__', None)
    version = _method_version(owner, getattr(fn, '__name__', None), args)
    if version is not None:
        return _VERSIONS[version](owner, *args, **kwargs)
    if type(owner) in _PLAIN_OWNERS or isinstance(owner, (jax.Array, Keyed)):
        numpy = array_methods.numpy_version(fn)   # (`x.take([0, 2])` of a NumPy array)
        return (numpy or fn)(*args, **kwargs)   # a list's, a dict's or an array's own
    if isinstance(fn, type) and slot is None and not context.converter.is_library(fn):
        return _construct(fn, args, kwargs)
    if type(fn) is functools.partial:   # (as the call it stands for: `partial(np.multiply,
        return _call(fn.func, (*fn.args, *args),   # 2.0)(x)` is NumPy's of a traced x too)
                     {**fn.keywords, **kwargs}, slot)
    name = getattr(fn, '__name__', None)
    if name in OVERRIDDEN_BUILTINS and getattr(builtins, name) is fn:
        return _VERSIONS[name](*args, **kwargs)   # ag.range, ...
    target = context.converter.converted_callable(fn)
    inner = converted_inside(fn, context.converter) if target is fn else None
    if target is fn and inner is None:   # (library code)
        return _library_call(fn, args, kwargs)
    code = _code_of(inner or target)
    active = context.current().calls
    depths = active.setdefault(code, [])
    depth = staged_depth()
    if depths and depth > depths[-1]:
        staged_levels = sum(1 for a, b in zip(depths, depths[1:]) if b > a) + 1
        if staged_levels >= STAGED_RECURSION_LIMIT:
            raise recursion_error(fn, code, here(1))
    depths.append(depth)
    on_call = context.current().on_call
    if on_call is not None:
        on_call(target, args)
    stack = context.current().written
    stack.append(slot or Slot(code))   # (`call_writing`'s, or this call's own)
    try:
        result = target(*args, **kwargs)
    finally:
        stack.pop()
        depths.pop()
        if not depths:
            del active[code]
    return _reported(fn, args, kwargs, result) if slot is None else result


def _reported(fn, args, kwargs, result):
    """The value of a plain call's `result`: a report of written parameters rebinds no
    caller's variable here, which `check_written_back` checks."""
    if isinstance(result, Written):
        check_written_back(fn, args, kwargs, result.parameters, result.value)
        return result.value
    return result


origin.forwards(call, _call, _library_call)


def _code_of(fn):
    """The code a call of `fn` runs: a function's, a bound method's, a partial's."""
    while isinstance(fn, functools.partial):
        fn = fn.func
    return getattr(getattr(fn, '__func__', fn), '__code__', None)


def _method_version(owner, name, args):
    """The OVERRIDDEN_METHODS version `owner.name(*args)` calls, or None."""
    if name == 'sort' and type(owner) is list:
        return 'list.sort'   # (traced keys: one argsort)
    if name == 'get' and type(owner) is dict and args and (is_traced(args[0]) or type(
            args[0]) is tuple and any(map(is_traced, args[0]))):
        return 'dict.get'    # (a traced key: the item it equals, or the default)
    if name == 'index' and isinstance(owner, (list, tuple, Stacked)) and args and (
            is_traced(args[0]) or any(map(is_traced, owner))):
        return 'list.index'  # (traced items or value: the first position equal)
    return None


def _present(fn, args, kwargs):
    """`args` and `kwargs` for library code, their optional values (None on some paths)
    given as their values, with a check that raises Python's TypeError where one is None
    (library code would fail on None there)."""
    def error():
        return TypeError(f'{getattr(fn, "__name__", fn)!s}() was given None')
    return ([present(a, error) for a in args],
            {k: present(v, error) for k, v in kwargs.items()})


def _construct(cls, args, kwargs):
    """Python reference: `cls(*args, **kwargs)` for a user class. As `type.__call__` does,
    `cls.__new__` makes the instance and, when it is one of `cls`, its class's `__init__`
    sets it up -- converted, like any user method, so its item writes, branches and loops
    on arrays work (where `converts_init`: else the class is called as it is). An
    instance of `object.__new__` is new: noted as made (see runtime.context.made)."""
    fresh = cls.__new__ is object.__new__ and type(cls).__call__ is type.__call__
    if not context.converter.converts_init(cls):
        instance = cls(*args, **kwargs)
        return context.made(instance) if fresh and type(instance) is cls else instance
    instance = object.__new__(cls) if fresh else cls.__new__(cls, *args, **kwargs)
    if not isinstance(instance, cls):
        return instance
    if fresh:
        context.made(instance)
    init = type(instance).__init__
    if type(instance) is not cls and not context.converter.converts_init(type(instance)):
        result = init(instance, *args, **kwargs)
    else:
        result = _call(types.MethodType(init, instance), args, kwargs)
    if result is not None:
        raise TypeError(f"__init__() should return None, not '{type(result).__name__}'")
    return instance


origin.forwards(_construct)


def _converted_functions(arg):
    """`arg` converted when it is a function, or a list/tuple of functions."""
    converted_callable = context.converter.converted_callable
    if callable(arg):
        return converted_callable(arg)
    if isinstance(arg, (list, tuple)) and arg and all(callable(a) for a in arg):
        return type(arg)(converted_callable(a) for a in arg)
    return arg


# --- arrays a called function writes items of (see autograph.passes.written_arguments) --

def call_writing(positions, fn, *args, **kwargs):
    """Python reference: `(fn(*args, **kwargs), *[args[p] for p in positions])`, the
    arguments at `positions` being arrays whose items `fn` may write.

    NumPy's `a[i] = v` in `fn` changes the caller's array; a JAX array is rebound in `fn`
    instead, and `fn`'s converted code reports the final values of such parameters
    (`written`): those come back here, for the caller to rebind its variables. A
    parameter `fn` changes only by `a += e` changes a NumPy array in place, and
    rebinds `fn`'s own variable where it is anything else (a JAX array): there the
    caller keeps its value (see runtime.context's `numpy_meaning`); where the caller's
    may be either, a ControlFlowError (`kind_unknown`). `positions` may be a dict
    {position: whether the argument is a NumPy array, where the converter knows it}."""
    target = context.converter.converted_callable(fn)
    function = getattr(target, '__func__', target)
    code = getattr(function, '__code__', None)
    params = parameter_names(target)
    known = positions if isinstance(positions, dict) else {}
    check_given_once(function, {p: known.get(p) for p in positions}, args, kwargs, params)
    result = _call(fn, args, kwargs, Slot(code))
    if not isinstance(result, Written):
        return (result, *[args[p] for p in positions])
    numpy = {p: context.numpy_meaning(args[p]) if known.get(p) is None else known[p]
             for p in positions}
    rebound = {p for p in positions if not numpy[p]}
    if rebound:   # (the parameters only `+=` changes: where the caller's is no NumPy array)
        updated = context.converter.updated_only(function)
        rebound = {p for p in rebound if p < len(params) and params[p] in updated}
        if any(known.get(p) is None and context.kind_unknown(args[p]) and _in_place(args[p])
               for p in rebound):
            raise array_kind_unknown(here())
    return (result.value, *[result.parameters.get(params[p], args[p])
                            if p < len(params) and _in_place(args[p]) and p not in rebound
                            else args[p] for p in positions])


_IMMUTABLE = (int, float, complex, str, bytes, tuple, frozenset, type(None), np.generic)


def _in_place(value):
    """Whether a function can change `value` in place (`x += 1` of a number or a
    tuple, or of a NumPy scalar such as `a[0]` of a vector, rebinds the function's own
    variable and leaves its caller's alone)."""
    if isinstance(value, (jax.Array, np.ndarray)):
        return np.ndim(value) > 0
    return not isinstance(value, _IMMUTABLE)
