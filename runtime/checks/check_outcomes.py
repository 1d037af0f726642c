"""Where the error state of runtime.checks ends: raised at a converted Function's boundary
(`outcome`, then `finish` after the call), or reported by a callback on the failing path
where no boundary exists (`report`); and `jax.vmap` called by converted code, whose checks
join the caller's error state.
"""
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.custom_batching import custom_vmap

from .checks import (_KEEP, MARKER, Check, Errors, Layout, Table, _failed, _tokens,
                     current, replace, select, threaded)

# --- where the state ends ----------------------------------------------------------------

@dataclasses.dataclass
class Outcome:
    """The error state as a Function's compiled program returns it: its leaves are the
    children (arrays), the table its static data (kept by jax.jit per trace)."""
    table: Table
    layout: Layout
    leaves: list


jax.tree_util.register_pytree_node(
    Outcome, lambda o: (o.leaves, (o.table, o.layout)),
    lambda aux, leaves: Outcome(aux[0], aux[1], list(leaves)))


def outcome(errors):
    """What a boundary returns for `errors` (None: no check was met)."""
    if errors is None or errors.code is None:
        return None
    return Outcome(errors.table, errors.layout, errors.leaves())


def exception_of(result):
    """The user's exception for a compiled program's `Outcome` (None: no check failed).
    Reads the code: waits for the program to finish."""
    if result is None:
        return None
    errors = Errors(result.table, result.layout, result.leaves)
    number = int(np.asarray(errors.code))
    if number == 0:
        return None
    check = result.table.checks[number]
    error = check.exception(errors.slots[number])
    _note(error, check.location)
    return error


def _note(error, location):
    note = f'Raised by the compiled program at {location}.'
    if location and note not in getattr(error, '__notes__', ()):
        error.add_note(note)


def finish(result, value=None):
    """At a boundary: raise the user's exception for `result` (an Outcome) when a check
    failed, else give back `value` (the program's results). Where the Outcome is traced
    (the boundary runs under someone else's transformation), the results come back tied
    to a report of it (`tied`)."""
    if result is None:
        return value
    if any(isinstance(leaf, jax.core.Tracer) for leaf in result.leaves):
        return tied(Errors(result.table, result.layout, result.leaves), value)
    error = exception_of(result)
    if error is not None:
        raise error
    return value


def tied(errors, value):
    """`value`, its smallest numeric array made to depend on a report of `errors`.

    The report is a `jax.pure_callback`, behind a `lax.cond` on the failing path, whose
    result (0: it raises instead of returning when a check failed) selects that array. A
    pure callback gives the program no side effect, so JAX keeps calling it on its fast
    path (a `jax.debug.callback`, an effect, costs every call hundreds of microseconds of
    dispatch); the data dependency keeps XLA from removing it. Results with no such
    array are reported by `report`."""
    leaves, tree = jax.tree_util.tree_flatten(value)
    numeric = [i for i, leaf in enumerate(leaves) if isinstance(leaf, jax.core.Tracer)
               and (jnp.issubdtype(leaf.dtype, jnp.number) or leaf.dtype == jnp.bool_)]
    if not numeric:
        report(errors)
        return value
    i = min(numeric, key=lambda i: leaves[i].size)
    ok = _report(_firer(errors.table), errors.code, dict(errors.slots), pure=True) == 0
    leaves[i] = jnp.where(ok, leaves[i], jnp.zeros_like(leaves[i]))
    return jax.tree_util.tree_unflatten(tree, leaves)


def report(errors):
    """A callback, on the failing path only, that raises the user's exception."""
    if errors is None or errors.code is None:
        return
    _report(_firer(errors.table), errors.code, {n: v for n, v in errors.slots.items()})


def _firer(table):
    def fire(code, slots):
        number = int(code)
        check = table.checks[number]
        fail(check.exception(slots[number]), check.location)
    return fire


def report_now(conditions, make, args, location):
    """A check reported by itself: raise `make(*args)` when every condition holds."""
    check, values = Check.of(make, args, location)
    failed = jnp.asarray(True)
    for c in conditions:
        failed = jnp.logical_and(failed, jnp.all(c))

    def fire(code, slots):
        fail(check.exception(slots[1]), location)
    _report(fire, jnp.where(failed, jnp.int32(1), jnp.int32(0)), {1: values})


def fail(error, location):
    """Inside a callback: stop the program with `error` (see `user_exception`)."""
    from ..errors import where
    token = next(_tokens)
    _failed[token] = error
    while len(_failed) > _KEEP:
        _failed.pop(next(iter(_failed)))
    raise RuntimeError(f'{MARKER} #{token}{where(location)}: '
                       f'{type(error).__name__}: {error}')


def _report(fire, code, slots, pure=False):
    slots = jax.tree_util.tree_map(lax.stop_gradient, slots)
    return _reporter(fire, pure)(code, slots)


def _reporter(fire, pure):
    """`report(code, slots)` calling `fire` when the code is not 0 (a `jax.debug.callback`,
    or with `pure` a `jax.pure_callback` whose result, 0, it returns); under `jax.vmap`,
    first reduced to the first failing element (so the callback stays on the failing
    path: a batched `lax.cond` would run it for every element)."""
    def fired(code, slots):
        fire(code, slots)
        return np.int32(0)

    @custom_vmap
    def report(code, slots):
        if pure:
            return lax.cond(code != 0, lambda c, s: jax.pure_callback(
                fired, jax.ShapeDtypeStruct((), jnp.int32), c, s),
                lambda c, s: jnp.int32(0), code, slots)
        lax.cond(code != 0, lambda c, s: jax.debug.callback(fire, c, s),
                 lambda c, s: None, code, slots)
        return code

    @report.def_vmap
    def _batched(axis_size, in_batched, code, slots):
        code_batched, slots_batched = in_batched
        if code_batched:
            first = jnp.argmax(code != 0)
            code = code[first]
        else:
            first = 0
        slots = jax.tree_util.tree_map(lambda v, b: v[first] if b else v, slots,
                                       slots_batched)
        return report(code, slots), False
    return report


# --- jax.vmap in converted code --------------------------------------------------------

def vmap(fun, *args, **kwargs):
    """Python reference: `jax.vmap(fun, *args, **kwargs)`, called by converted code.

    The vmapped function's checks update the error state of the code that calls it: the
    function returns its own error state beside its results (batched), and the first
    failing element's joins the caller's. (A plain `jax.vmap` would leave them to report
    themselves, one callback test per call.)"""
    plain = jax.vmap(fun, *args, **kwargs)
    bound = _VMAP_SIGNATURE.bind_partial(fun, *args, **kwargs)
    out_axes = bound.arguments.get('out_axes', 0)
    bound.arguments['out_axes'] = (out_axes, 0)

    def run(*call_args, **call_kwargs):
        outer = current()
        if outer is None:
            return plain(*call_args, **call_kwargs)
        record = {}

        def inner(*a, **k):
            with threaded(outer.table) as scope:
                out = fun(*a, **k)
            errors = scope.errors
            record['layout'] = errors.layout if errors.code is not None else None
            return out, [] if record['layout'] is None else errors.leaves()
        bound.arguments['fun'] = inner
        out, leaves = jax.vmap(*bound.args, **bound.kwargs)(*call_args, **call_kwargs)
        if record['layout'] is not None:
            first = jnp.argmax(leaves[0] != 0)
            inner_errors = Errors(outer.table, record['layout'], [v[first] for v in leaves])
            keep = True if outer.code is None else outer.code == 0
            replace(select(keep, inner_errors, outer))
        return out
    return run


def _vmap_signature():
    import inspect
    return inspect.signature(jax.vmap)


_VMAP_SIGNATURE = _vmap_signature()
