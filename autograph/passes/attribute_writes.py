"""Changes in place through an attribute, checked against the arrays the Function was given:

    self.W -= lr * g        ->    ag.check_attribute_write(self.W)
                                  self.W -= lr * g
    box.w[i] = v            ->    ag.check_attribute_write(box.w)
                                  box.w[i] = v          (then passes.item_assignments)

Python reference: an object holding an array (`Linear(W)` whose `__init__` does `self.W =
W`) holds the very array its caller gave: `self.W -= e` changes it in place, and the
caller's array with it. While a converted Function is traced, an array it was given as a
NumPy argument is a traced stand-in, and a change through the attribute makes a new
array that neither the argument nor the caller's array sees. The check stops such a
program with a named error (runtime.items.items `check_attribute_write`); the stand-ins of
an object the Function was given, whose attributes it gives back in place, and arrays the
function made itself pass it. Only attributes of names and attribute chains are checked
(read again without effects).
"""
import ast

from autograph.analysis.census import ATTRIBUTE_STORE, ITEM_STORE
from autograph import templates
from autograph.analysis.walk import SCOPES, blocks

ONLY_WITH = (ATTRIBUTE_STORE, ITEM_STORE)   # see analysis.census


def transform(function, ctx):
    pending = [function.body]
    while pending:
        stmts = pending.pop()
        checked = []
        for stmt in stmts:
            checked += [_check(attribute, stmt, ctx) for attribute in _written(stmt)]
            checked.append(stmt)
            if not isinstance(stmt, SCOPES):
                pending += blocks(stmt)
        if len(checked) > len(stmts):
            stmts[:] = checked
    return function


def _written(stmt):
    """The attributes `stmt` changes in place: the target of `o.a op= e`, the attribute
    whose items `o.a[i] = e` or `o.a[i] op= e` assigns."""
    cls = stmt.__class__
    if cls is ast.AugAssign:
        if stmt.value.__class__ in _NOT_ARRAYS:
            return []   # (`self.history += [x]`: a list grows; a log stays one, unread)
        targets = [stmt.target]
    elif cls is ast.Assign:
        targets = stmt.targets
    else:
        return []
    found = []
    for target in targets:
        node = target
        while node.__class__ is ast.Subscript:
            node = node.value
        if node.__class__ is ast.Attribute and (node is not target or cls is ast.AugAssign) \
                and _plain_chain(node.value):
            found.append(node)
    return found


_NOT_ARRAYS = frozenset({ast.List, ast.Tuple, ast.ListComp, ast.JoinedStr})
"""Values of `o.a op= value` that make it no change of an array (a list extended, text)."""


def _plain_chain(node):
    """Whether `node` is a name or an attribute chain of one (`self`, `self.layer`)."""
    while node.__class__ is ast.Attribute:
        node = node.value
    return node.__class__ is ast.Name


def _check(attribute, stmt, ctx):
    call = ast.Call(func=ctx.runtime('check_attribute_write'),
                    args=[templates.load_copy(attribute)], keywords=[])
    return ast.fix_missing_locations(ast.copy_location(ast.Expr(value=call), stmt))

