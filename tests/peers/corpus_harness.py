"""The checks of the corpus of public functions (tests/peers/test_corpus_*.py; sources and
edits in tests/peers/CORPUS.md): each ported function is run converted (with its own jit,
under jax.vmap, under jax.grad) and compared with the same function run as plain Python
on the same inputs. The ground truth is always the plain Python run; nothing here
hard-codes a result.

The ported code is written for JAX but keeps the item writes of the NumPy originals
(`out = jnp.zeros(n)`, then `out[i] = v`), which the converted code supports. Plain
Python cannot write into a JAX array, so the plain run (`plain`) sees the global `jnp` of
the function's module as NUMPY_BUFFERS: jax.numpy whose functions give writable NumPy
arrays where JAX gives concrete arrays (of JAX's dtypes, so the arithmetic stays float32
and int32), and its array arguments are given as writable NumPy copies. That run is the
same Python code with NumPy's meaning of an item write. References of jax.grad are taken
by JAX itself from the plain function (`plain_grad`), outside that binding.

Each check compiles a program, which is most of its cost: a check is added to a case only
where it tests something the others do not (see tests/peers/CORPUS.md)."""
import contextlib
import sys
import types

import jax
import jax.numpy as jnp
import numpy as np

import autograph
from tests.helpers import assert_same, converted

__all__ = ['f32', 'i32', 'key', 'close', 'converted', 'plain', 'agree', 'agree_vmap',
           'agree_grad', 'plain_grad', 'NUMPY_BUFFERS']

f32 = jnp.float32
i32 = jnp.int32


def key(seed):
    """A `jax.random` key, passed in where the original drew from NumPy's global state
    (or Python's `random`)."""
    return jax.random.PRNGKey(seed)


close = assert_same
"""Pytrees equal leaf by leaf (`tests.helpers.assert_same`, whose tolerances a caller
loosens only saying why)."""


# --- the plain run ------------------------------------------------------------------------

def _writable(x):
    """A concrete JAX array as a writable NumPy array (random keys of the typed kind and
    tracers are left as they are)."""
    if isinstance(x, jax.Array) and not isinstance(x, jax.core.Tracer):
        if jnp.issubdtype(x.dtype, jax.dtypes.prng_key):
            return x
        return np.array(x)
    return x


class _NumpyBuffers:
    """`jax.numpy` (or a submodule) whose functions give writable NumPy arrays."""

    def __init__(self, module=jnp):
        self._module = module

    def __getattr__(self, name):
        attr = getattr(self._module, name)
        if isinstance(attr, types.ModuleType):
            return _NumpyBuffers(attr)
        if not callable(attr) or isinstance(attr, type):
            return attr

        def call(*args, **kwargs):
            return jax.tree_util.tree_map(_writable, attr(*args, **kwargs))
        return call

    def empty(self, *args, **kwargs):
        return np.array(jnp.zeros(*args, **kwargs))   # reads of unwritten items agree


NUMPY_BUFFERS = _NumpyBuffers()


@contextlib.contextmanager
def numpy_buffers(fn):
    """While it runs, the module of `fn` (where `fn` and the functions it calls from that
    module look up `jnp`) sees `jnp` as NUMPY_BUFFERS."""
    module = sys.modules.get(getattr(fn, '__module__', None))
    if module is None or getattr(module, 'jnp', None) is not jnp:
        yield
        return
    module.jnp = NUMPY_BUFFERS
    try:
        yield
    finally:
        module.jnp = jnp


def _argument(a):
    if isinstance(a, np.ndarray):
        return a.copy()
    return _writable(a)


def plain(fn, *args):
    """`fn(*args)` as plain Python: `jnp` of its module gives writable NumPy arrays, and
    array arguments (JAX or NumPy, at the top level) are given as NumPy copies, which
    the function may write into."""
    with numpy_buffers(fn):
        return fn(*[_argument(a) for a in args])


# --- the checks ---------------------------------------------------------------------------

def agree(fn, *calls, rtol=1e-5, atol=1e-6):
    """One `autograph.convert(fn)` (its own jit) called once per argument tuple in `calls`
    (the same shapes, other values: a second call reuses the trace) gives what the plain
    `fn` gives on the same arguments. The converted call comes first, so a case that
    fails in conversion fails before the plain run."""
    conv = autograph.convert(fn)
    for args in calls:
        actual = conv(*args)
        close(actual, plain(fn, *args), rtol, atol)


def agree_vmap(fn, *args, in_axes=0, rtol=1e-5, atol=1e-6):
    """`jax.jit(jax.vmap(...))` of the converted `fn` without a jit of its own, over
    `in_axes` (one for all arguments, or one per argument; None: not batched), gives, per
    element of the batch, what the plain `fn` gives on that element."""
    axes = in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(args)
    size = next(a.shape[ax] for a, ax in zip(args, axes) if ax is not None)
    rows = [plain(fn, *[a if ax is None else a[(slice(None),) * ax + (b,)]
                        for a, ax in zip(args, axes)])
            for b in range(size)]
    expected = jax.tree_util.tree_map(lambda *leaves: np.stack(
        [np.asarray(leaf) for leaf in leaves]), *rows)
    close(jax.jit(jax.vmap(converted(fn), in_axes=axes))(*args), expected, rtol, atol)


_UNTRACEABLE = (jax.errors.ConcretizationTypeError, jax.errors.TracerArrayConversionError,
                jax.errors.TracerIntegerConversionError,
                jax.errors.NonConcreteBooleanIndexError)


def plain_grad(loss, *args):
    """`jax.grad` of the plain `loss` (unconverted: JAX runs its Python control flow).
    Where that Python code reads no traced value in a condition, index or conversion,
    JAX can trace it, and the gradient is taken under `jax.jit` (the same operations,
    compiled at once instead of one by one); else eagerly, where each condition sees a
    concrete value."""
    try:
        return jax.jit(jax.grad(loss))(*args)
    except _UNTRACEABLE:
        return jax.grad(loss)(*args)


def agree_grad(loss, *args, reference=None, rtol=1e-4, atol=1e-5):
    """`jax.jit(jax.grad(...))` of the converted `loss` (a scalar function; the gradient
    with respect to its first argument) equals `reference`, by default `plain_grad`
    (taken after the converted one, so a case that fails in conversion fails first)."""
    actual = jax.jit(jax.grad(converted(loss)))(*args)
    close(actual, plain_grad(loss, *args) if reference is None else reference, rtol, atol)
