"""`ag.method_fields(obj, 'add', 'acc')`: the attributes that a call `acc.add(...)` may
assign, as fields of the staged statement that makes the call (see runtime.mutation).

Python reference: `acc.add(x)` runs `Accumulator.add(acc, x)`, whose `self.total = ...`
changes `acc.total` for the code after the statement. A staged branch or loop body is
traced as a function, so the attributes it changes must be part of its state, like the
`acc.total = ...` it assigns itself: the converter lists the methods called on local
objects, and this reads, from the method's source, the attributes it assigns on its
first parameter (`self`). One the object does not have yet is carried as undefined, as
a variable first assigned in a staged statement is (see runtime.mutation).
"""
import ast
import functools
import types


def method_fields(obj, method, label):
    """{'label.attr': (obj, attr)} for the attributes of `obj` that `type(obj).method`
    assigns on `self`."""
    function = getattr(type(obj), method, None)
    if not isinstance(function, types.FunctionType):
        return {}
    return {f'{label}.{attr}': (obj, attr) for attr in _assigned_on_self(function.__code__)}


@functools.lru_cache(maxsize=512)
def _assigned_on_self(code):
    """The attributes a function assigns on its first parameter, by name, in its own body
    (not in functions nested in it)."""
    from autograph import parsing   # the converter reads sources; the runtime rarely does
    from autograph.errors import ConversionError
    if not code.co_varnames[:code.co_argcount]:
        return ()
    this = code.co_varnames[0]
    try:
        node = parsing.parse_function(types.FunctionType(code, {})).node
    except (ConversionError, OSError, TypeError):
        return ()
    found = []
    for child in ast.walk(node):
        targets = (child.targets if isinstance(child, ast.Assign) else
                   [child.target] if isinstance(child, (ast.AugAssign, ast.AnnAssign)) else [])
        for target in targets:
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                    and target.value.id == this and target.attr not in found:
                found.append(target.attr)
    return tuple(found)
