"""Dict keys that exist on some paths only (runtime.checks.keys) across the iterations of
a staged loop: how its carry's dicts are compared while the carry settles, flagged as
the body gives them, and kept flagged where an iteration writes them in place (see
runtime.staging.carry)."""
import jax.numpy as jnp

from .keys import Keyed, factory_of, flags, has_keyed, item


def unflagged(value):
    """`value` with each Keyed in nested dicts a plain dict of all its items (for
    comparing structures while a loop's carry settles, see runtime.staging.carry)."""
    if not isinstance(value, dict) or not has_keyed(value):
        return value
    return {k: unflagged(part) for k, part in dict.items(value)}


def reflagged(grown, value, out):
    """`grown` (a loop's initial `value` completed by the keys the body `out` gives, see
    runtime.values.split.grow) with the keys that exist on some paths only flagged: those
    flagged in `value` keep their flag; a key `value` has that the body gives on some
    paths only is there (true); a key it lacks is not (false), even where every iteration
    sets it: the first iteration reads it before setting it as absent, as Python does
    (`d.get(k, 0)`, `k in d`). (After a loop that surely runs, a flag every iteration
    sets is known again: runtime.staging.carry.)"""
    if not (isinstance(grown, dict) and isinstance(value, dict)):
        return grown
    was, now = flags(value), flags(out)
    parts, present = {}, {}
    for key, part in dict.items(grown):
        had = dict.__contains__(value, key)
        given = isinstance(out, dict) and dict.__contains__(out, key)
        parts[key] = reflagged(part, item(value, key) if had else None,
                               item(out, key) if given else None)
        if key in was:
            present[key] = was[key]
        elif had and key in now:
            present[key] = jnp.asarray(True)
        elif not had:
            present[key] = jnp.asarray(False)
    return Keyed(parts, present, factory_of(grown)) if present or isinstance(grown, Keyed) \
        else parts


def snapshot(value):
    """The flags of the Keyed dicts in `value` (nested dicts) before an iteration runs
    (its writes change the dicts in place), or None where there are none."""
    if not isinstance(value, dict) or not has_keyed(value):
        return None
    return dict(flags(value)), {k: snapshot(part) for k, part in dict.items(value)}


def kept_flags(after, before):
    """`after` (a dict an iteration gives back) with the keys flagged before it
    (`before`, a `snapshot`) still flagged: true where the iteration set them."""
    if before is None or not isinstance(after, dict):
        return after
    was, inner = before
    parts, present = {}, dict(flags(after))
    for key, part in dict.items(after):
        parts[key] = kept_flags(part, inner.get(key))
        if key in was and key not in present:
            present[key] = jnp.asarray(True)
    return Keyed(parts, present, factory_of(after))
