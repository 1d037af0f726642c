"""`Stacked`: the list a staged loop collected with `append`, kept as one stacked array.

    out = []
    for x in xs:                 # staged: lax.scan
        out.append(f(x))         # the scan's per-iteration output
    y = jnp.stack(out)           # -> the scan's stacked output itself, no re-stacking

It behaves as the list of the collected items (their slices are made only when an item
is looked at); `jnp.stack`/`jnp.array`/`jnp.asarray` on it from converted code return
the stacked array directly (see runtime.python.calls). Elsewhere (a function that did not
collect it, or library code), `jnp.array(out)` converts it through `__jax_array__`, as it
converts a list of arrays: JAX would otherwise treat it as an unknown sequence and ask
NumPy for its traced items' values.
"""
import collections.abc
import operator

import jax
import jax.numpy as jnp


class Stacked(collections.abc.MutableSequence):
    """Its items are sliced from the array when looked at, and not kept: a staged branch
    or loop body that reads one makes the slice in its own trace (a slice kept from the
    first branch's trace would be a leaked tracer in the second). A change makes the items
    a list of their own."""

    def __init__(self, array):
        self._array = array      # the items stacked on axis 0, while unmodified
        self._items = None       # the items as a list, once modified

    def stacked(self):
        """The stacked array, or None once the list has been modified."""
        return self._array

    def _list(self):
        """The items as a list (sliced now while the list is unmodified)."""
        if self._items is not None:
            return self._items
        return [self._array[i] for i in range(self._array.shape[0])]

    def _modified(self):
        self._items = self._list()
        self._array = None

    def __len__(self):
        return len(self._items) if self._items is not None else self._array.shape[0]

    def __getitem__(self, index):
        if self._items is not None or isinstance(index, slice):
            return self._list()[index]
        position, size = operator.index(index), self._array.shape[0]
        if not -size <= position < size:
            raise IndexError('list index out of range')
        return self._array[position % size]

    def __iter__(self):
        return iter(self._list())

    def __setitem__(self, index, value):
        self._modified()
        self._items[index] = value

    def __delitem__(self, index):
        self._modified()
        del self._items[index]

    def insert(self, index, value):
        self._modified()
        self._items.insert(index, value)

    def __add__(self, other):
        return list(self) + list(other)

    def __radd__(self, other):
        return list(other) + list(self)

    def __eq__(self, other):
        return list(self) == list(other)

    def __repr__(self):
        return repr(self._list())

    def __jax_array__(self):
        """Python reference: `jnp.array(list(self))`."""
        array = self._array
        return array if isinstance(array, jax.Array) else jnp.array(self._list())


jax.tree_util.register_pytree_node(
    Stacked, lambda s: (s._list(), None), lambda _, items: list(items))


STACKERS = ('jax.numpy.stack', 'jax.numpy.array', 'jax.numpy.asarray')
"""Functions that, given a `Stacked` list (and nothing else), return its array."""
