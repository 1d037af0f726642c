"""What kind of value a place holds: an array, a Python scalar, a container of them
that holds arrays (state, see `places`), or something else."""
import jax
import numpy as np

SCALARS = (bool, int, float, complex, str, bytes, type(None))
ARRAYS = (jax.Array, np.ndarray, np.generic)


def is_data(value):
    """Values that are state: arrays, Python scalars, and lists/dicts/tuples of them
    that hold arrays. A container of Python values alone (a list a trace logs to) is not:
    what tracing adds to it stays, as tf.function's trace-time side effects do."""
    if is_leaf_data(value):
        return True
    if type(value) in (list, tuple, dict):
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


def _items(value):
    return list(value.values()) if type(value) is dict else list(value)


def holds_arrays(value):
    if leaf_kind(value) == 'array':
        return True
    return type(value) in (list, tuple, dict) and any(holds_arrays(v) for v in _items(value))
