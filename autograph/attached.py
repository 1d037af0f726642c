"""Values cached on the object they were made from (a function's converted version, a JAX
wrapper's rebuilt version), so that they live exactly as long as it does.

A global table weakly keyed by the object cannot hold them: the value refers back to its
key (a converted function holds the original's globals and closure, which usually hold
the original), so the table would keep both alive for ever. Kept in the object's own
`__dict__`, the two form a cycle that the garbage collector frees with the object.

`functools.wraps` copies a function's `__dict__` onto its wrapper, so an entry names the
object it was made for and is ignored on any other; pickled (cloudpickle saves a
function's `__dict__`), it becomes an empty entry.
"""
import weakref


class _Entry:
    __slots__ = ('owner', 'value')

    def __init__(self, owner=None, value=None):
        self.owner = weakref.ref(owner) if owner is not None else None
        self.value = value

    def __reduce__(self):
        return _Entry, ()


def get(obj, name):
    """The value attached to `obj` under `name`, or None."""
    entry = getattr(obj, '__dict__', {}).get(name)
    if isinstance(entry, _Entry) and entry.owner is not None and entry.owner() is obj:
        return entry.value
    return None


def attach(obj, name, value):
    """Attach `value` to `obj` under `name`; False when `obj` takes no attributes or
    weak references (the caller then keeps nothing)."""
    try:
        setattr(obj, name, _Entry(obj, value))
    except (AttributeError, TypeError):
        return False
    return True
