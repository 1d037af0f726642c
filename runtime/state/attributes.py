"""Attributes set or deleted by name (`setattr(obj, name, value)`, `delattr`): shown to
what watches the state that calls change, as an attribute a called method sets is.

Python reference: `setattr(obj, 'w', v)` is `obj.w = v`. Converted code carries the
attributes it assigns (`obj.w = v`) through staged branches and loops as fields; one
set by a name the code computes is found while the code runs instead: before it is set,
the attribute is shown to the staged statement running (runtime.state.watches), which
then carries it, and to the Function's trace, which gives it back after the call.
An item assigned into an object's attribute dict (`vars(obj)[name] = v`,
`obj.__dict__[name] = v`, `+=`, `del`) is such an attribute too (`attributes`).
"""
import builtins

from .. import context
from .places import attribute


def setattr_(obj, name, value, /):
    """Python reference: `setattr(obj, name, value)`. While a trace runs, the attribute
    is first shown to what watches the state calls change (runtime.state.watches: a
    staged branch or loop body, the Function's trace), as an attribute a called method
    sets is: a staged statement then carries it, as it carries `obj.name = value`."""
    _shown(obj, name)
    builtins.setattr(obj, name, value)


def delattr_(obj, name, /):
    """Python reference: `delattr(obj, name)` (shown first, as by `setattr_`)."""
    _shown(obj, name)
    builtins.delattr(obj, name)


def _shown(obj, name):
    on_call = context.current().on_call
    if on_call is not None and isinstance(name, str) and hasattr(obj, '__dict__'):
        on_call(None, (), [attribute(f'{type(obj).__name__}.{name}', obj, name)])


def attributes(obj):
    """Python reference: `vars(obj)`, as the container of an item assignment
    (`vars(obj)[name] = v`, `obj.__dict__[name] += v`, `del vars(obj)[name]`): the item
    is the attribute `name`, written into the dict itself as Python's item assignment
    writes it (no `__setattr__`, no descriptor), shown first as by `setattr_`."""
    return _Attributes(obj, builtins.vars(obj))


class _Attributes:
    """An object's attribute dict whose item writes are shown as attributes set."""

    def __init__(self, obj, table):
        self.obj, self.table = obj, table

    def __getitem__(self, name):
        return self.table[name]

    def __setitem__(self, name, value):
        _shown(self.obj, name)
        self.table[name] = value

    def __delitem__(self, name):
        _shown(self.obj, name)
        del self.table[name]
