"""Which objects a block changes in place, as opposed to variables it rebinds.

    xs = ag.setitem(xs, 0, v)     (from `xs[0] = v`, see passes/item_assignments.py)
    xs.append(v)                  changes the object in `xs`
    self.count = self.count + 1   changes the object in `self`: attribute `self.count`

Such a change is visible through every other reference to the object (the caller's), so
a converted `if`/loop must hand the object on even where the variable is not read again.
"""
import ast

from autograph.analysis.activity import MUTATING_METHODS, base_name
from autograph.passes.base import SCOPES

_ITEM_OPERATORS = ('setitem', 'update_item')


def _own_nodes(stmts):
    stack = list(stmts)
    while stack:
        node = stack.pop()
        yield node
        stack += [c for c in ast.iter_child_nodes(node) if not isinstance(c, SCOPES)]


def _store_targets(stmts):
    for node in _own_nodes(stmts):
        if isinstance(node, (ast.Attribute, ast.Subscript)) \
                and isinstance(node.ctx, ast.Store):
            yield node
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in MUTATING_METHODS):
            yield node.func.value


def _item_update(node, ag):
    """`x` for `x = ag.setitem(x, ...)` / `ag.update_item(x, ...)`, else None."""
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call)):
        return None
    func, args = node.value.func, node.value.args
    if (isinstance(func, ast.Attribute) and func.attr in _ITEM_OPERATORS
            and isinstance(func.value, ast.Name) and func.value.id == ag and args
            and isinstance(args[0], ast.Name) and args[0].id == node.targets[0].id):
        return node.targets[0].id
    return None


def changed_in_place(stmts, ag):
    """Names of the variables whose objects `stmts` may change in place."""
    names = {base_name(target) for target in _store_targets(stmts)}
    names |= {_item_update(node, ag) for node in _own_nodes(stmts)}
    return names - {None}


def rebound(stmts, ag):
    """Names `stmts` assign a new object to (not counting `x = ag.setitem(x, ...)`)."""
    names = set()
    for node in _own_nodes(stmts):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names - {_item_update(node, ag) for node in _own_nodes(stmts)}


def assigned_attributes(stmts, ag):
    """{label: (holder, attribute)} for the attributes `stmts` assign, or change the
    object of, outer ones first: `self.a.b = v` gives 'self.a' -> (`self`, 'a') and
    'self.a.b' -> (`self.a`, 'b'). Objects of variables that `stmts` rebind are left
    out (they are new objects, not state)."""
    found = {}
    skip = rebound(stmts, ag)
    for target in _store_targets(stmts):
        base = base_name(target)
        if base is None or base in skip:
            continue
        node, chain = target, []
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            chain.append(node)
            node = node.value
        for step in reversed(chain):   # from the base outwards
            if isinstance(step, ast.Subscript):
                if not isinstance(step.slice, ast.Constant):
                    break   # `self.items[i].x`: which object depends on `i`
                continue
            found.setdefault(ast.unparse(step), (step.value, step.attr))
    return dict(sorted(found.items(), key=lambda item: (len(item[0]), item[0])))
