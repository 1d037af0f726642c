"""Collectives under staged control flow whose condition differs between devices.

Python reference: inside `jax.shard_map` every device runs the function on its own
shard, and a collective (`lax.psum`, `lax.all_gather`, `lax.ppermute`, ...) over a mesh
axis returns only once every device along that axis has called it. A staged `if` whose
condition varies over that axis runs a branch on some of those devices only; a staged
loop whose test varies over it runs its body a different number of times on each. The
devices that call the collective would then wait for the others forever: the program
hangs, as the same program written with `lax.cond` or `lax.while_loop` does. So staging
such a statement is a clear error (where the types say that the condition varies, as
they do under `jax.shard_map`'s default `check_vma=True`).

A collective in the condition itself is not: `while lax.psum(e, 'data') > 1.0:` tests
the same value on every device.
"""
from jax.extend.core import ClosedJaxpr, Jaxpr

from ..messages import collective_under_varying

COLLECTIVES = frozenset({
    'psum', 'psum_invariant', 'psum2', 'pmax', 'pmin', 'pbroadcast', 'all_gather',
    'all_gather_invariant', 'ppermute', 'reduce_scatter', 'psum_scatter', 'all_to_all',
    'ragged_all_to_all'})
"""The primitives that wait for every device along their axes (not `axis_index`, nor
`pvary`, which compute on each device alone)."""


_SHOWN = {'psum_invariant': 'psum', 'psum2': 'psum', 'all_gather_invariant': 'all_gather',
          'reduce_scatter': 'psum_scatter'}
"""The function that binds a primitive, where its name differs."""


def check(axes, jaxprs, location, what):
    """Raise when one of `jaxprs` (ClosedJaxprs), run only where a condition that varies
    over the manual `axes` allows, calls a collective over one of them."""
    if not axes:
        return
    for jaxpr in jaxprs:
        for name, over in _collectives(jaxpr.jaxpr):
            common = [a for a in over if a in axes]
            if common:
                raise collective_under_varying(what, _SHOWN.get(name, name), common,
                                               location)


def _collectives(jaxpr):
    """(primitive name, its axis names) of each collective in `jaxpr`, nested ones too."""
    for eqn in jaxpr.eqns:
        if eqn.primitive.name in COLLECTIVES:
            over = eqn.params.get('axes', eqn.params.get('axis_name', ()))
            yield eqn.primitive.name, over if isinstance(over, (tuple, list)) else (over,)
        for param in eqn.params.values():
            for inner in param if isinstance(param, (tuple, list)) else (param,):
                if isinstance(inner, ClosedJaxpr):
                    yield from _collectives(inner.jaxpr)
                elif isinstance(inner, Jaxpr):
                    yield from _collectives(inner)
