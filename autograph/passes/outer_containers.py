"""Globals and closure variables whose lists, dicts or sets the function changes by their
methods inside an `if`, `while` or `for` (`G.append(v)`, `D.update(e)`), and also reads
(`jnp.stack(G)`, `len(G)`: a list only appended to is else a log), are declared (`global G`, `nonlocal G`): a staged statement
then carries them as it carries the names the function declares (passes.control_flow:
`nonlocals=`), and the Function reads them as state and gives their new contents back
into the very objects (runtime.state), as Python's methods change them in place.

    G = []                              G = []
    def f(x):                           def f(x):
        for i in range(4):      ->          global G
            G.append(x + i)                 for i in range(4):
        return jnp.stack(G)                     G.append(x + i)
                                            return jnp.stack(G)

Without it, the traced body appended traced values to the global list (an escaped
tracer). A list the function only appends to and never reads is a log, kept out of the
call (autograph/function/logs.py), and stays as it is.
"""
import ast

from autograph.analysis.activity import scope_of
from autograph.analysis.logs import APPENDING
from autograph.analysis.walk import CHILDREN, SCOPES, children
from autograph.passes.base import walk_scope
from autograph.passes.views import declare, is_outer, outer_names

ONLY_WITH = (ast.If, ast.For, ast.While)   # see analysis.census

_SCOPES = frozenset(SCOPES)
_BRANCHING = frozenset({ast.If, ast.For, ast.While})

MUTATING = frozenset({'append', 'extend', 'insert', 'pop', 'remove', 'clear', 'sort',
                      'reverse', 'update', 'setdefault', 'popitem', 'add', 'discard'})
"""The methods of list, dict and set that change the object in place."""


def transform(function, ctx):
    if not isinstance(function, ast.FunctionDef) or ctx.census is None \
            or function is not ctx.census.scopes[-1] \
            or not ctx.census.has_attribute(MUTATING):   # (no such method is called)
        return function
    appended, changed, receivers = set(), set(), set()
    stack = [(child, False) for child in children(function)]
    while stack:   # (each node once, with whether an `if` or loop holds it)
        node, inside = stack.pop()
        cls = node.__class__
        if cls in _SCOPES:
            continue
        if cls is ast.Call:
            method, receiver = _method_call(node)
            if receiver is not None:
                receivers.add(id(receiver))
                if inside:
                    (appended if method in APPENDING else changed).add(receiver.id)
        inside = inside or cls in _BRANCHING
        stack += [(child, inside) for child in CHILDREN[cls](node)]
    if not any(is_outer(name, ctx) for name in appended | changed):
        return function   # (the function's own lists: nothing to declare)
    read = {n.id for n in walk_scope(function) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Load) and id(n) not in receivers}
    declare(function, outer_names(changed | (appended & read), scope_of(function), ctx))
    return function


def _method_call(node):
    """(`m`, `G`) of a call `G.m(...)` of a method `m` that changes `G` in place, else
    (None, None)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr in MUTATING and isinstance(node.func.value, ast.Name):
        return node.func.attr, node.func.value
    return None, None
