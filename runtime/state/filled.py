"""Containers given new contents in place: the list or dict an attribute holds, given a
staged body's traced items while it is traced (`install`), and any container given a
statement's or a call's final contents (`write_back`).

Python reference: `params = opt.params; while params['w'] > 2: opt.step()` reads, in
each test, the items `step` gave the dict: `params` and `opt.params` are one object. A
staged statement carries the attribute `opt.params` (runtime.state.mutation), and while
it traces a body or a test the attribute holds the traced items. Given to the very list
or dict the attribute held (not to a new one), they are what every other name for it
reads too. When the trace ends, the container gets its own items back.
"""
import sys
from collections import OrderedDict

import jax
import numpy as np

from ..checks.keys import Keyed


def install(fields, values, current, containers, assign):
    """Give each field (label, holder, attribute) its value for a traced body or test:
    where `containers` has the list or dict the attribute held as the statement began
    and it holds it still (`current`), the traced items in place (`fill`), else
    `assign(field, value)`. Returns (what each attribute holds now, [(container, its own
    items)])."""
    installed, filled = [], []
    for field, value, now, came in zip(fields, values, current, containers):
        items = fill(came, value) if came is not None and now is came else None
        if items is None:
            assign(field, value)
        else:
            filled.append((came, items))
        installed.append(value if items is None else came)
    return installed, filled


def fill(container, value):
    """Give the plain list or dict `container` the items of `value` (a list of its
    length, a dict of its keys) in place. Returns the items it had (for `restore`), or
    None where `value` is not such a container (then nothing changed)."""
    kind = type(container)
    if kind not in (list, dict) or type(value) is not kind or len(value) != len(container):
        return None
    if kind is list:
        saved = list(container)
        container[:] = value
        return saved
    if value.keys() != container.keys():
        return None
    saved = dict(container)
    for key in container:   # (its key order stays)
        container[key] = value[key]
    return saved


def restore(container, saved):
    """Give `container` back the items `fill` saved (and their order)."""
    if type(container) is list:
        container[:] = saved
    else:
        container.clear()
        container.update(saved)


def copies(values, filled):
    """`values` (a body's outputs), each container of `filled` ([(container, items)]) among
    them as a copy of it: they are read after the trace, once `restore` gave the
    containers their own items back."""
    found = {id(container) for container, _ in filled}
    return tuple(type(v)(v) if id(v) in found else v for v in values)


def _write_back_object(target, source):
    """Write the state of `source` (a traced copy of `target`) into `target`; False for
    objects that cannot be updated in place this way."""
    nnx = sys.modules.get('flax.nnx')   # only objects of a Flax already imported
    if nnx is None:
        return False
    if isinstance(target, nnx.Variable) and type(source) is type(target):
        target.set_value(source.get_value())
        return True
    if isinstance(target, nnx.Pytree) and type(source) is type(target):
        nnx.update(target, nnx.state(source))
        return True
    return False


def write_back(target, source, arrays=False):
    """`target` with the contents of `source` (lists and dicts, recursively, in place,
    and objects `_write_back_object` can update); `source` itself where the two are not
    containers of the same kind. With `arrays` (after a compiled call: `source` is
    concrete), a NumPy array that a container holds gets the items of the array of its
    shape that `source` holds there, in place (a list's NumPy arrays have NumPy's
    meaning in converted code: `for a in xs: a += 1` changes them, see
    runtime.items.views)."""
    if target is source or _write_back_object(target, source):
        return target
    if arrays and type(target) is np.ndarray and target.flags.writeable and \
            isinstance(source, (jax.Array, np.ndarray)) and \
            not isinstance(source, jax.core.Tracer) and np.shape(source) == target.shape:
        np.copyto(target, np.asarray(source), casting='unsafe')
        return target
    if isinstance(target, list) and type(source) is list:   # a loop's list state too
        # (through list's own methods: the runtime writing a Collecting list of a staged
        # loop is not a read of it by the user, see runtime.state.lists)
        items = list(list.__iter__(target))
        list.__setitem__(target, slice(None), [write_back(t, s, arrays)
                                               for t, s in zip(items, source)]
                         + source[len(items):])
        return target
    if isinstance(target, dict) and isinstance(source, dict) and (
            type(target) is type(source) or not getattr(source, 'present', None)):
        # (a dict with keys on some paths only, runtime.checks.keys, keeps its flags; an
        # OrderedDict's own methods keep its order)
        kind = type(target) if type(target) is OrderedDict else dict
        for key in [k for k in dict.keys(target) if not dict.__contains__(source, k)]:
            kind.__delitem__(target, key)
        for key, value in dict.items(source):
            kind.__setitem__(target, key, write_back(dict.__getitem__(target, key), value,
                                                     arrays)
                             if dict.__contains__(target, key) else value)
        if isinstance(target, Keyed):   # (not another dict subclass: a defaultdict)
            target.present.clear()
            target.present.update(getattr(source, 'present', {}))
        return target
    return source
