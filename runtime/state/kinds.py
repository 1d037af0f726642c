"""What kind of value a place holds: an array, a Python scalar, a container of them
that holds arrays (state, see `places`), a container of Python values and code (keyed by
its Contents), or something else."""
import collections
import functools
import types

import jax
import numpy as np

from ..checks.keys import Keyed

SCALARS = (bool, int, float, complex, str, bytes, type(None))
ARRAYS = (jax.Array, np.ndarray, np.generic)
CODE = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
        functools.partial, type)   # (what a trace depends on by identity: places.is_code)


def is_data(value):
    """Values that are state: arrays, Python scalars, and lists/dicts/tuples of them
    that hold arrays. A container of Python values alone (a list a trace logs to) is not:
    what tracing adds to it stays, as tf.function's trace-time side effects do."""
    if is_leaf_data(value):
        return True
    if type(value) in _CONTAINERS:
        leaves = _items(value)
        return all(is_data(v) for v in leaves) and holds_arrays(value)
    return False


def is_leaf_data(value):
    """Whether `value` is an array or a Python scalar."""
    return leaf_kind(value) is not None


def leaf_kind(value):
    """'array', 'scalar' or None. A type once found to be an array's or a scalar's is
    remembered (the few array types, the scalar types: `isinstance` with jax.Array, an
    abstract class, costs more than the rest of a cached call's checks)."""
    kind = LEAF_KINDS.get(type(value))
    if kind is None:
        kind = ('array' if isinstance(value, ARRAYS) else
                'scalar' if isinstance(value, SCALARS) else None)
        if kind is not None:
            LEAF_KINDS[type(value)] = kind
    return kind


LEAF_KINDS = {kind: 'scalar' for kind in SCALARS}   # type -> 'array' or 'scalar'
LEAF_KINDS[np.ndarray] = 'array'


def is_pytree_leaf(value):
    """Whether JAX flattens `value` to itself (its type is no pytree node)."""
    treedef = jax.tree_util.tree_structure(value)
    return treedef.num_nodes == 1 and treedef.num_leaves == 1


DICTS = (dict, collections.defaultdict, collections.OrderedDict)
"""The dicts that places hold as dicts: a defaultdict and an OrderedDict are pytrees of
their items too (of their own type), and change in place as a dict does."""
LISTS_AND_DICTS = (list,) + DICTS

_CONTAINERS = (list, tuple, Keyed) + DICTS   # (Keyed: a dict whose staged code gave keys
# on some paths only, runtime.checks.keys: state like the dict it stands for)


def _items(value):
    return list(dict.values(value)) if isinstance(value, dict) else list(value)


def holds_arrays(value):
    if leaf_kind(value) == 'array':
        return True
    return type(value) in _CONTAINERS and any(holds_arrays(v) for v in _items(value))


class Contents(tuple):
    """What a list, tuple or dict of Python values (scalars, functions, such containers)
    holds, by value: part of a call's key, as a trace that read them depends on them
    (see autograph.function.state's `code_key`)."""


def code_contents(value):
    """The Contents of a list, tuple or dict of Python scalars and code (functions,
    modules, classes), nested ones included, else None."""
    parts = _contents(value)
    return None if parts is None else Contents(parts)


def _contents(value):
    kind = type(value)
    if kind in SCALARS or isinstance(value, CODE):
        return kind, value
    if kind in DICTS:   # (a defaultdict's factory too: a trace may call it)
        items = [part for item in value.items() for part in item] + [
            getattr(value, 'default_factory', None)]
    elif kind in (list, tuple):
        items = value
    else:
        return None
    parts = [_contents(item) for item in items]
    return None if None in parts else (kind, tuple(parts))
