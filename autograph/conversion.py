"""Converting Python callables, with a cache.

Cache and lifetime rules:

- The generated code is cached per code object, one conversion per `def` however many
  closures it makes; the entry goes when the code object goes (a weak reference).
  Within it, per set of builtins the function's globals hide: the conversion decided
  that `range` is Python's (and calls `ag.range`) while no global `range` hid it, so a
  module that binds (or deletes) a global `range` between calls gets the conversion
  made for that (see `_hidden`).
- The converted function (the generated code bound to one function's globals, closure
  and defaults) is kept on the function object itself (see autograph.attached: in a
  global weak-keyed table it would keep its own key alive), and is freed with it.
- Nothing else here holds a user function: converting and calling many functions and
  dropping them frees them all (tests/test_limits_memory.py).

Threads share the caches. Generating code for a `def` takes the lock of that code
object, so two threads converting the same function at once convert it once, while
different functions convert in parallel.
"""
import ast
import builtins
import contextlib
import functools
import gc
import inspect
import threading
import types
import warnings
import weakref

from autograph import runtime
from autograph import attached, codegen, limits, parsing, passes, prebuilt, site_facts
from autograph.analysis import self_attributes, written_parameters
from autograph.runtime import context, origin
from autograph.runtime.backends import dispatch
from autograph.errors import ConversionError
from autograph.library import is_library
from autograph.naming import Namer
from autograph.passes.base import Context
from autograph.passes.calls import LiveResolver

_generated = {}              # id(code object) -> (weakref, Generated)
_generating = {}             # id(code object) -> the lock of its conversion under way
_lock = threading.RLock()    # guards the tables (re-entrant for GC callbacks)
_refused = weakref.WeakKeyDictionary()  # code object -> why it is called unconverted
_ATTRIBUTE = '__autograph_converted__'   # see autograph.attached
_BUILTIN_NAMES = frozenset(dir(builtins))


def do_not_convert(fn):
    """Mark `fn` to be called as is from converted code."""
    fn.__ag_do_not_convert__ = True
    return fn


def convert_function(fn):
    """The converted version of the plain Python function `fn` (cached on `fn`)."""
    found = attached.get(fn, _ATTRIBUTE)   # (the names, the hidden ones, the function)
    if found is not None and _hidden(fn.__globals__, found[0]) == found[1]:
        return found[2]
    names = builtins_used(fn.__code__)
    hidden = _hidden(fn.__globals__, names)
    generated = generated_code(fn, hidden)
    with _lock:
        found = attached.get(fn, _ATTRIBUTE)
        if found is None or found[1] != hidden:
            found = (names, hidden, generated.bind(fn, runtime))
            attached.attach(fn, _ATTRIBUTE, found)
        return found[2]


def builtins_used(code):
    """The names of builtins `code` (and the code nested in it) reads as globals (or
    attributes: a few more to check)."""
    return tuple(sorted((_code_names(code) & _BUILTIN_NAMES) - set(code.co_freevars)))


def _hidden(namespace, names):
    """Those of the builtins `names` that the globals `namespace` hide now (a global
    `range` that is not Python's): Python looks a name up in the globals first, and the
    conversion decided what each such name is (see passes.calls.LiveResolver)."""
    return frozenset(name for name in names if name in namespace
                     and namespace[name] is not getattr(builtins, name))


def _code_names(code):
    """The global and attribute names `code` and the code nested in it use."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def generated_code(fn, hidden=None):
    """The generated code of `fn`'s `def` (generated once, cached per code object and
    the builtins its globals hide, `hidden`: see `_hidden`)."""
    # Keyed by identity: equal code objects from different files map to different lines.
    code = fn.__code__
    if hidden is None:
        hidden = _hidden(fn.__globals__, builtins_used(code))
    generated = _cached_code(code, hidden)
    if generated is not None:
        return generated
    with _lock:
        lock = _generating.setdefault(id(code), threading.Lock())
    try:
        with lock:
            generated = _cached_code(code, hidden)
            if generated is None:
                with dispatch.suspended():   # generated code is shared by every embedding
                    generated = limits.converting(lambda: _generate(fn), _where(code))
                # Its source and line map stay readable while code made from it lives.
                weakref.finalize(generated.code, origin.unregister,
                                 generated.file).atexit = False
                _remember(code, hidden, generated)
            return generated
    finally:
        with _lock:
            if _generating.get(id(code)) is lock:
                del _generating[id(code)]


def _cached_code(code, hidden):
    entry = _generated.get(id(code))
    return entry[1].get(hidden) if entry is not None and entry[0]() is code else None


def _remember(code, hidden, generated):
    key = id(code)
    with _lock:
        entry = _generated.get(key)
        if entry is None or entry[0]() is not code:
            entry = _generated[key] = (weakref.ref(code, functools.partial(_forget, key)), {})
        entry[1][hidden] = generated


def _generate(fn):
    with _collector_paused():
        return _generate_paused(fn)   # (its trees are freed before the collector runs)


def _generate_paused(fn):
    source = parsing.parse_function(fn)
    namer = Namer.for_code(fn.__code__)
    ctx = Context(file=source.file, namer=namer, ag=namer.new('ag'),
                  resolver=LiveResolver(fn))
    node = passes.run(source.node, ctx)
    qualname = getattr(fn.__code__, 'co_qualname', fn.__qualname__)
    class_name = None if isinstance(node, ast.Lambda) else \
        codegen.defining_class(qualname)
    return codegen.generate(node, source.file, ctx.ag, fn.__code__.co_freevars,
                            class_name, functools.partial(_site_facts, weakref.ref(fn)))


_paused = {'conversions': 0, 'was_enabled': False}   # (guarded by _lock)


@contextlib.contextmanager
def _collector_paused():
    """Python's cyclic garbage collector paused (it is process-wide) until the last
    conversion under way ends. A conversion allocates tens of thousands of tree nodes
    that live until it ends, and makes few cycles: the collector's passes over the
    growing tree took 45 % of converting 10,000 `if`s (2 % of a 30-line function)."""
    with _lock:
        if _paused['conversions'] == 0:
            _paused['was_enabled'] = gc.isenabled()
            gc.disable()
        _paused['conversions'] += 1
    try:
        yield
    finally:
        with _lock:
            _paused['conversions'] -= 1
            if _paused['conversions'] == 0 and _paused['was_enabled']:
                gc.enable()


def _site_facts(fn_ref):
    """The static facts of the function's lines (see autograph.site_facts), from its
    source parsed again: only messages need them, once the passes have changed the first
    tree; {} where the function is gone or its source cannot be read again as it was."""
    fn = fn_ref()
    if fn is None:
        return {}
    try:   # deep trees parse on a conversion worker, as they converted
        return limits.converting(
            lambda: site_facts.line_facts(parsing.parse_function(fn).node),
            _where(fn.__code__))
    except ConversionError:
        return {}


def _where(code):
    return f'{origin.short(code.co_filename)}:{code.co_firstlineno}'


def _forget(key, _):
    if _generated is not None:  # None while the interpreter shuts down
        _generated.pop(key, None)


def converted_callable(fn, strict=False):
    """What converted code should call for `fn`: its converted version if it is user
    code, else `fn` itself. With `strict`, a function whose source cannot be read is an
    error rather than a warning (the user asked to convert that very function)."""
    if getattr(fn, '__ag_do_not_convert__', False):
        return fn
    inner = getattr(fn, '__ag_python_function__', None)  # an autograph.Function
    if inner is not None:
        return converted_callable(inner)
    if isinstance(fn, functools.partial):
        return functools.partial(converted_callable(fn.func), *fn.args, **fn.keywords)
    if prebuilt.wraps_user_code(fn):   # jax.jit(p), jax.vmap(p), ... made outside
        return prebuilt.rewrap(fn, lambda f: converted_callable(f, strict))
    if inspect.ismethod(fn):
        func = converted_callable(fn.__func__, strict)
        return fn if func is fn.__func__ else types.MethodType(func, fn.__self__)
    if inspect.isfunction(fn):
        if strict and _is_generator(fn):
            raise ConversionError(_generator_message(fn))
        if _is_generator(fn):   # (runs as Python: an error in it names why, see errors)
            _refused.setdefault(fn.__code__, _GENERATOR_REASON)
            return fn
        if codegen.is_generated(fn.__code__) or is_library(fn):
            return fn
        return convert_function(fn) if strict else _convert_or_warn(fn)
    if isinstance(fn, type) or is_library(fn):
        return fn
    call = getattr(type(fn), '__call__', None)
    if inspect.isfunction(call) and not is_library(call):
        converted = convert_function(call) if strict else _convert_or_warn(call)
        return fn if converted is call else types.MethodType(converted, fn)
    return fn


def converts_init(cls):
    """True when `cls(...)` from converted code makes its instance as `type.__call__`
    does but runs `__init__` converted, like any user method (see runtime.python.calls):
    a user class with no metaclass of its own whose `__init__` is a user function with
    source. Library classes, metaclasses with a `__call__` of their own and generated
    `__init__`s (dataclasses: no source to read) are called as they are."""
    if is_library(cls) or type(cls).__call__ is not type.__call__ or \
            getattr(cls, '__ag_do_not_convert__', False):
        return False
    init = cls.__init__
    return (inspect.isfunction(init) and not is_library(init)
            and not getattr(init, '__ag_do_not_convert__', False)
            and not codegen.is_generated(init.__code__)
            and parsing.defined_at(init.__code__))


def _is_generator(fn):
    """Generators and coroutines run as Python (consumed while tracing)."""
    return inspect.isgeneratorfunction(fn) or inspect.iscoroutinefunction(fn) or \
        inspect.isasyncgenfunction(fn)


def _generator_message(fn):
    kind = ('an async generator' if inspect.isasyncgenfunction(fn) else
            'a coroutine (async def)' if inspect.iscoroutinefunction(fn) else 'a generator')
    code = fn.__code__
    return (f'{fn.__qualname__} ({code.co_filename}:{code.co_firstlineno}) is {kind}, which '
            f'cannot be converted: a compiled function returns arrays. Return a value (or '
            f'accumulate with lax.scan) instead; generators called from converted code run '
            f'as Python while tracing.')


_GENERATOR_REASON = ('it is a generator (or a coroutine), whose code runs as Python while '
                     'tracing, so it cannot decide on traced values (an `if` or `while` on '
                     'one): collect the values in a loop of the calling function instead')


def _convert_or_warn(fn):
    try:
        return convert_function(fn)
    except (ConversionError, SyntaxError) as error:
        if fn.__code__ not in _refused:
            _refused[fn.__code__] = str(error)
            warnings.warn(f'{fn.__qualname__} is called unconverted: {error}', stacklevel=4)
        return fn


def refusal(code):
    """Why the user function of `code` is called unconverted (the ConversionError of its
    conversion), or None."""
    return _refused.get(code)


class _Hook:
    """How the runtime reaches the converter (see runtime.context.converter)."""
    converted_callable = staticmethod(converted_callable)
    converts_init = staticmethod(converts_init)
    assigned_on_self = staticmethod(self_attributes.assigned_on_self)
    is_library = staticmethod(is_library)
    refusal = staticmethod(refusal)
    updated_only = staticmethod(written_parameters.updated_only)

    @staticmethod
    def is_converted(fn):
        code = getattr(getattr(fn, '__func__', fn), '__code__', None)
        return code is not None and codegen.is_generated(code)


context.install_converter(_Hook)
