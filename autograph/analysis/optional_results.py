"""Where a function gives None as (part of) its result, for the message that refuses an
optional result inside someone else's trace (autograph.function.results):

    def find(xs, t):
        for i in range(len(xs)):
            if xs[i] == t:
                return i
        return None          # <- `none_returns(find)`: this `return`

`none_returns(function)` gives, in source order, the `return`s of the FunctionDef
`function` (not of the functions nested in it) that may give None: `return`, `return
None`, a tuple, list or dict with a None in it, a variable the function assigns None;
and `None` for the end of the body when Python may fall off it (its last statement is no
`return` or `raise`).
"""
import ast

from autograph.analysis.walk import SCOPES, children


def none_returns(function):
    assigned_none = set()
    returns = []
    stack = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            returns.append(node)
        elif (isinstance(node, ast.Assign) and _is_none(node.value)) or (
                isinstance(node, ast.AnnAssign) and node.value is not None
                and _is_none(node.value)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            assigned_none.update(t.id for t in targets if isinstance(t, ast.Name))
        stack += [c for c in children(node) if not isinstance(c, SCOPES)]
    found = sorted((r for r in returns if _gives_none(r.value, assigned_none)),
                   key=lambda r: (r.lineno, r.col_offset))
    last = function.body[-1]
    return found + ([None] if not isinstance(last, (ast.Return, ast.Raise)) else [])


def _gives_none(value, assigned_none):
    if value is None or _is_none(value):
        return True
    if isinstance(value, ast.Name):
        return value.id in assigned_none
    if isinstance(value, (ast.Tuple, ast.List)):
        return any(_gives_none(e, assigned_none) for e in value.elts)
    if isinstance(value, ast.Dict):
        return any(_gives_none(v, assigned_none) for v in value.values)
    return False


def _is_none(node):
    return isinstance(node, ast.Constant) and node.value is None
