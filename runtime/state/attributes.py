"""Attributes set or deleted by name (`setattr(obj, name, value)`, `delattr`): shown to
what watches the state that calls change, as an attribute a called method sets is.

Python reference: `setattr(obj, 'w', v)` is `obj.w = v`. Converted code carries the
attributes it assigns (`obj.w = v`) through staged branches and loops as fields; one
set by a name the code computes is found while the code runs instead: before it is set,
the attribute is shown to the staged statement running (runtime.state.watches), which
then carries it, and to the Function's trace, which gives it back after the call.
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
