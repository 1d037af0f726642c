"""The accumulators of a vectorised loop (runtime.loops.vectorized), reduced at once.

Python reference, for the kind 'sum' (the converter found `s` updated by `+=`, `-=`,
`s = s + e`, ... only, and read nowhere else in the loop: autograph.analysis.
accumulators):

    for i in range(n):
        s = update(i, s)       # s += e(i), under ifs, in inner loops, ...
    # is, its iterations being otherwise independent,
    s = s + (update(0, 0) + update(1, 0) + ... + update(n - 1, 0))

Each iteration's contribution is what its updates make of the identity of the kind
(0 for 'sum', 1 for 'prod', -inf or the dtype's lowest integer for 'max'/'maximum',
+inf or the highest for 'min'/'minimum'): an iteration that skips the update contributes
the identity. The vectorised body computes all contributions at once, one `jnp.sum`
(`prod`, `max`, `min`) over the iterations reduces them, and the kind's operator
combines the result with `s` as it was before the loop. 'max'/'min' are Python's
builtins, which keep the earlier value unless a later one compares greater (smaller):
a NaN met later is skipped, so only `s` before the loop can be one. 'maximum'/'minimum'
(`jnp.maximum`) propagate a NaN.

The accumulator takes the type the sequential loop carries it as (runtime.staging.carry:
an int before the loop and float items make a float; weak types promote as in JAX).

Integer sums and products, and every max/min, give Python's value exactly. A float (or
complex) sum or product adds in another order than Python's left to right: XLA reduces
pairwise, which is at least as accurate. `sequential_sums=True`
(`autograph.convert(..., sequential_sums=True)`, `set_loop_options(sequential_sums=True)`
for a loop and those nested in it) keeps Python's order: such a loop is then not
vectorised (a scan, as before).
"""
import contextlib

import jax
import jax.numpy as jnp
import numpy as np

from .. import context
from ..values.types import cast

KINDS = ('sum', 'prod', 'max', 'min', 'maximum', 'minimum')
REORDERED = ('sum', 'prod')
"""The kinds whose floating-point result depends on the order of the items."""


@contextlib.contextmanager
def sequential_sums(value):
    """While tracing code converted (or a loop marked) with `sequential_sums=value`
    (None: inherit)."""
    if value is None:
        yield
        return
    with context.setting(sequential_sums=bool(value)):
        yield


def kinds(names, values, reductions):
    """The kind of each value (None for the arrays the loop writes items of), or None
    when an accumulator cannot be reduced: its value before the loop is not a number or
    a JAX array (a list grows by `+=`, a NumPy array changes in place), or it is a
    float sum under `sequential_sums`."""
    found = []
    for name, value in zip(names, values):
        kind = reductions.get(name)
        if kind is not None and (kind not in KINDS or not _reducible(value)
                                 or keeps_order(kind, jnp.result_type(value))):
            return None
        found.append(kind)
    return found


def _reducible(value):
    return (isinstance(value, jax.Array) or type(value) in (int, float, complex)
            or (isinstance(value, np.generic) and not isinstance(value, np.bool_)))


def keeps_order(kind, dtype):
    """Whether the reduction `kind` over items of `dtype` must run in Python's order."""
    return (kind in REORDERED and jnp.issubdtype(dtype, jnp.inexact)
            and bool(context.current().sequential_sums))


def identity(kind, t):
    """The identity of `kind` as a value of type `t`, or None (bools, complex max)."""
    dtype = np.dtype(t.dtype)
    if dtype.kind == 'b' or (dtype.kind == 'c' and kind not in REORDERED):
        return None
    if kind in REORDERED:
        value = 0 if kind == 'sum' else 1
    elif dtype.kind == 'f':
        value = -np.inf if kind in ('max', 'maximum') else np.inf
    else:
        info = np.iinfo(dtype)
        value = info.min if kind in ('max', 'maximum') else info.max
    return cast(jnp.full(t.shape, value, dtype), t)


def combine(kind, start, contributions, t):
    """`start` (the accumulator before the loop) combined with the contributions of
    the iterations (along axis 0), as a value of type `t` (see the module docstring)."""
    items = cast(contributions, t)
    start = cast(jnp.asarray(start), t)
    if kind == 'sum':
        result = start + jnp.sum(items, axis=0, dtype=t.dtype)
    elif kind == 'prod':
        result = start * jnp.prod(items, axis=0, dtype=t.dtype)
    elif kind == 'maximum':
        result = jnp.maximum(start, jnp.max(items, axis=0))
    elif kind == 'minimum':
        result = jnp.minimum(start, jnp.min(items, axis=0))
    else:
        total = (jnp.max if kind == 'max' else jnp.min)(items, axis=0)
        later = total > start if kind == 'max' else total < start
        result = jnp.where(later, total, start)
    return cast(result, t)
