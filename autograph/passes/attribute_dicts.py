"""Items assigned into an object's attribute dict -> items of `ag.attributes(obj)`.

    obj.__dict__[k] = v        ->   ag.attributes(obj)[k] = v
    vars(obj)[k] += v          ->   ag.attributes(obj)[k] += v
    del vars(obj)[k]           ->   del ag.attributes(obj)[k]

Python reference: the item `k` of `vars(obj)` is the attribute `obj.k`, so such a write
sets an attribute, as `setattr(obj, k, v)` does. The names are computed, so the
converter cannot list them as a statement's fields: `ag.attributes` shows each one to
the staged statement and the Function that run it (runtime.state.attributes), which
carry it and give it back after the call, as they do the attributes `setattr` sets.
Only the item of the dict itself is such a write (`vars(obj)[k][i] = v` changes the
attribute's value in place, as any item write of a value does).
"""
import ast

from autograph.analysis.activity import scope_of
from autograph.analysis.census import ATTRIBUTE_DICT
from autograph.passes.base import walk_scope

ONLY_WITH = (ATTRIBUTE_DICT,)   # see analysis.census


def transform(function, ctx):
    vars_builtin = None
    for node in walk_scope(function):
        if not (isinstance(node, ast.Subscript)
                and isinstance(node.ctx, (ast.Store, ast.Del))):
            continue
        obj = _attribute_dict(node.value)
        if obj is None:
            continue
        if isinstance(node.value, ast.Call):
            if vars_builtin is None:
                vars_builtin = 'vars' not in scope_of(function).locals and \
                    ctx.resolver.is_builtin('vars')
            if not vars_builtin:
                continue
        node.value = ast.copy_location(
            ast.Call(func=ctx.runtime('attributes'), args=[obj], keywords=[]), node.value)
    return function


def _attribute_dict(container):
    """`obj` where `container` is `obj.__dict__` or `vars(obj)`, else None."""
    if isinstance(container, ast.Attribute) and container.attr == '__dict__':
        return container.value
    if (isinstance(container, ast.Call) and isinstance(container.func, ast.Name)
            and container.func.id == 'vars' and len(container.args) == 1
            and not container.keywords and not isinstance(container.args[0], ast.Starred)):
        return container.args[0]
    return None
