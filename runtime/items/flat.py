"""NumPy's flat items: `a.flat[k]` is the items of `a` in C order of its shape, whatever
its memory layout (a transpose's too), and `a.flat[k] = e` writes them into `a` itself
(see autograph.passes.flat_items):

    a.flat[k] = e        ->  a[ag.flat_key(a, k)] = ag.flat_value(a, k, e)
    y = a.flat[k]        ->  y = a[ag.flat_key(a, k)]
    a.flat = e           ->  a[ag.flat_key(a, slice(None))] = ag.flat_value(a,
                                                                 slice(None), e)

A JAX array has no `.flat` (JAX raises NotImplementedError); converted code gives the
item keys of the flat indices instead, which the item reads and writes of converted code
follow as they follow any other (NumPy's meaning on a NumPy array, a traced one too).
"""
import jax
import jax.numpy as jnp
import numpy as np

from ..values.split import is_traced


def flat_key(array, index):
    """Python reference: the key of `array` that selects the items `array.flat[index]`
    selects: an int's item (a tuple of ints), a slice's, an index array's or a mask's
    items (a tuple of index arrays), counted in C order of the shape of `array`."""
    flat = _flat_indices(array, index)
    unravel = jnp.unravel_index if is_traced(flat) else np.unravel_index
    return tuple(unravel(flat, np.shape(array)))


def flat_value(array, index, value):
    """Python reference: the value `array.flat[index] = value` stores at `flat_key(array,
    index)`: `value`'s items in C order, repeated to the number of items selected (NumPy
    repeats a shorter value; a single item takes the first)."""
    if np.ndim(value) == 0:
        return value
    shape = np.shape(_flat_indices(array, index))
    lib = jnp if is_traced(value) or is_traced(array) else np
    items = lib.ravel(lib.asarray(value))
    size = int(np.prod(shape))
    if items.shape[0] != size:
        items = lib.resize(items, size)
    return items.reshape(shape) if shape else items[0]


def _flat_indices(array, index):
    """The flat indices (in C order) `array.flat[index]` reads, NumPy's IndexError for
    those out of bounds (JAX's clamping for a traced index)."""
    if isinstance(array, jax.Array) and not is_traced(array) or \
            not isinstance(array, (jax.Array, np.ndarray)):
        array.flat   # (JAX's own NotImplementedError, Python's AttributeError)
        raise TypeError(f'flat items of a {type(array).__name__} are not followed by '
                        'converted code (of NumPy arrays only)')
    size = int(np.prod(np.shape(array)))
    if is_traced(index) or isinstance(index, jax.Array):
        return jnp.arange(size)[index]
    return np.arange(size)[index]
