"""`ag.method_fields(obj, 'add', 'acc')`: the attributes that a call `acc.add(...)` may
assign, as fields of the staged statement that makes the call (see runtime.state.mutation).

Python reference: `acc.add(x)` runs `Accumulator.add(acc, x)`, whose `self.total = ...`
changes `acc.total` for the code after the statement. A staged branch or loop body is
traced as a function, so the attributes it changes must be part of its state, like the
`acc.total = ...` it assigns itself: the converter lists the methods called on local
objects, and this asks it (through runtime.context.converter, which reads the method's
source: autograph.analysis.self_attributes) for the attributes the method assigns on its
first parameter (`self`). One the object does not have yet is carried as undefined, as a
variable first assigned in a staged statement is (see runtime.state.mutation).

`ag.item_fields(ps, 'x', 'ps')`: the same for `for p in ps: p.x = ...` inside a staged
statement: the attribute of each object the list (or tuple) holds.
"""
import types

from .. import context


def method_fields(obj, method, label):
    """{'label.attr': (obj, attr)} for the attributes of `obj` that `type(obj).method`
    assigns on `self`."""
    function = getattr(type(obj), method, None)
    if not isinstance(function, types.FunctionType) or context.converter.is_library(function):
        return {}   # (an array's `sum`, a list's `append`: no user attributes)
    attributes = context.converter.assigned_on_self(function.__code__)
    return {f'{label}.{attr}': (obj, attr) for attr in attributes}


def item_fields(items, attr, label):
    """{'label[i].attr': (item, attr)} for the objects `items` holds (those with
    attributes of their own: not numbers or arrays)."""
    if not isinstance(items, (list, tuple)):
        return {}
    return {f'{label}[{i}].{attr}': (item, attr) for i, item in enumerate(items)
            if hasattr(item, '__dict__') and not callable(item)}
