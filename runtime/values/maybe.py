"""`Maybe`: a value that exists on some paths only, and the flag that says where.

Its meaning, and Python's operators on it, are runtime.checks.absent's (which attaches
the operators); it lives here, below the state and checks layers, so that both can
recognise it (runtime.state.mutation: an attribute that exists on some paths only)."""
import jax


@jax.tree_util.register_pytree_node_class
class Maybe:
    """`value` where `present` holds, else `absent`: an `Undefined` marker (the variable
    has no value on that path: a read raises) or None (an optional value)."""

    __slots__ = ('value', 'present', 'absent', '__weakref__')   # (tests remember it)

    def __init__(self, value, present, absent):
        self.value, self.present, self.absent = value, present, absent

    def tree_flatten(self):
        return (self.value, self.present), self.absent

    @classmethod
    def tree_unflatten(cls, absent, children):
        return cls(*children, absent)

    def __repr__(self):
        return f'<{self.value!r} where {self.present!r}, else {self.absent!r}>'
