"""`Slot`: inside the body of a vectorised loop (runtime.loops.vectorized), the part of an
array the loop carries that one iteration owns. Item writes (runtime.items) update it."""
import jax


@jax.tree_util.register_pytree_node_class
class Slot:
    """The part `out[i0, ..., i(depth-1), ...]` of an array that one iteration of a
    vectorised loop owns: `value` has the array's shape less its first `depth` axes."""

    def __init__(self, value, depth):
        self.value = value
        self.depth = depth

    def tree_flatten(self):
        return (self.value,), self.depth

    @classmethod
    def tree_unflatten(cls, depth, children):
        return cls(children[0], depth)

    def key(self, key):
        """The user's key (`i`, `(i, j)`, `(i, k)`) within the part: the loop indices
        dropped (the converter proved they are this iteration's own)."""
        parts = key if isinstance(key, tuple) else (key,)
        if len(parts) < self.depth:
            raise TypeError(f'an item of a vectorised loop\'s array is indexed by '
                            f'{len(parts)} indices where {self.depth} were expected')
        return tuple(parts[self.depth:])

    def with_value(self, value):
        return Slot(value, self.depth)

    def __getitem__(self, key):
        return self.value[self.key(key)]

    def __repr__(self):
        return f'Slot(depth={self.depth}, {self.value!r})'
