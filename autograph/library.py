"""Which code is library code: called as is, never converted.

JAX, NumPy, SciPy, the standard library, neural-network libraries, and autograph itself.
Users can add their own modules (`do_not_convert_modules`) or force conversion of a
module that would otherwise be skipped (`convert_modules`); an active `Embedding` can do
the same for its own code only.
"""
import functools
import inspect
import sys
import threading

from autograph.runtime.backends import dispatch

_LIBRARIES = {
    'jax', 'jaxlib', 'numpy', 'scipy', 'flax', 'equinox', 'optax', 'chex', 'haiku',
    'orbax', 'tensorflow', 'torch', 'pytest', '_pytest', 'autograph',
    'matplotlib', 'pandas', 'ml_dtypes', 'opt_einsum', 'typing_extensions',
}
_excluded = set()
_included = set()
_lock = threading.Lock()
_changes = [0]   # how many times the two sets above changed (see `verdicts_epoch`)
verdict_changes = _changes   # (read on each cached call: a list, not a function)


def do_not_convert_modules(*names):
    """Treat these modules (and their submodules) as library code."""
    with _lock:
        _excluded.update(names)
        _changes[0] += 1


def convert_modules(*names):
    """Convert functions from these modules even if they look like library code."""
    with _lock:
        _included.update(names)
        _changes[0] += 1


def verdicts_epoch():
    """What `is_library`'s verdicts depend on besides the object: equal epochs, equal
    verdicts (the modules added by the two functions above, the active embedding)."""
    return _changes[0], dispatch.active()


def _matches(module, names):
    return any(module == n or module.startswith(n + '.') for n in names)


def is_library_module(module):
    if not module:
        return False
    embedding = dispatch.active()
    verdict = embedding.library_verdict(module) if embedding is not None else None
    if verdict is not None:
        return verdict
    if _matches(module, _included):
        return False
    top = module.split('.')[0]
    return (top in _LIBRARIES or top in sys.stdlib_module_names or top == 'builtins'
            or _matches(module, _excluded))


def is_library(obj):
    """True for objects that converted code must call as they are."""
    if inspect.ismodule(obj):
        return is_library_module(obj.__name__)
    if isinstance(obj, functools.partial):
        return is_library(obj.func)
    if inspect.ismethod(obj):
        return is_library(obj.__func__)
    if inspect.isbuiltin(obj):
        return True
    if inspect.isfunction(obj):
        # The module that defined it (functools.wraps copies __module__ from the
        # function a library wrapper wraps, e.g. jax.grad's result).
        return is_library_module(obj.__globals__.get('__name__'))
    if isinstance(obj, type):
        return is_library_module(getattr(obj, '__module__', None))
    return is_library_module(type(obj).__module__)
