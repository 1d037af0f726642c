"""The attributes a method assigns on `self`, read from its source.

Python reference: `acc.add(x)` runs `Accumulator.add(acc, x)`, whose `self.total = ...`
changes `acc.total` for the code after the call. When converted code calls such a method
inside a staged branch or loop body, those attributes are state of the statement (see
runtime.state.method_state), and the runtime asks the converter for them through its hook.
"""
import ast
import functools
import types

from autograph import parsing
from autograph.errors import ConversionError


@functools.lru_cache(maxsize=512)
def assigned_on_self(code):
    """The attributes a function assigns on its first parameter, by name, in its own body
    (not in functions nested in it), also by an item write (`self.items[i] = v`, which
    converted code makes `self.items = ag.setitem(self.items, i, v)`); () when its source
    cannot be read."""
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
            while isinstance(target, ast.Subscript):   # (`self.items[i] = v`: converted,
                target = target.value                  # `self.items = ag.setitem(...)`)
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                    and target.value.id == this and target.attr not in found:
                found.append(target.attr)
    return tuple(found)
