"""Augmented assignments of objects of user classes, for passes.calls:

    stats = Running()
    stats += x              ->    stats = ag.object_update(stats, '+=', x)

Python calls the class's `__iadd__` with no call in sight: as a call of user code it is
converted, and what it changes in the object is carried through staged statements
(runtime.python.calls.object_update). Only names that every binding (`a += e` aside)
binds to an instance of a class of user code, a global: a name the function changes in
place as an array (`h = head(v); h += 1.0`, a view) is left to passes.views.
"""
import ast

from autograph.analysis.walk import SCOPES, blocks
from autograph.passes.item_assignments import AUGMENTED


def object_updates(function, nodes, ctx):
    """Rewrite `function`'s `a op= e` of instances of user classes (see the module
    docstring; `nodes`: those of its own scope), in place. A loop that
    analysis.independence found to reduce such a name is sequential: the method's
    changes to the object come in Python's order."""
    instances = _class_instances(nodes, ctx.resolver)
    if not instances:
        return
    updated = set()
    pending = [function.body]
    while pending:
        stmts = pending.pop()
        for i, stmt in enumerate(stmts):
            if not isinstance(stmt, SCOPES):
                pending += blocks(stmt)
            if stmt.__class__ is ast.AugAssign and stmt.target.__class__ is ast.Name \
                    and stmt.target.id in instances:
                name = stmt.target.id
                updated.add(name)
                stmts[i] = ast.copy_location(ast.Assign(
                    targets=[ast.Name(id=name, ctx=ast.Store())],
                    value=ast.Call(func=ctx.runtime('object_update'), args=[
                        ast.Name(id=name, ctx=ast.Load()),
                        ast.Constant(AUGMENTED[type(stmt.op)]), stmt.value], keywords=[])),
                    stmt)
    ast.fix_missing_locations(function)
    for loop, verdict in list(ctx.independent_loops.items()):
        if any(name in updated for name, _ in verdict.reductions):
            del ctx.independent_loops[loop]


def _class_instances(nodes, resolver):
    """The local names that every binding (`a += e` aside) binds to `C(...)`, `C` a global
    holding a class of user code (the resolver's `is_user_class`)."""
    is_class = getattr(resolver, 'is_user_class', None)
    if is_class is None or not any(n.__class__ is ast.AugAssign for n in nodes):
        return set()
    updated = {id(n.target) for n in nodes if n.__class__ is ast.AugAssign}
    stores, made = {}, {}
    for node in nodes:
        if node.__class__ is ast.Name and node.ctx.__class__ is not ast.Load \
                and id(node) not in updated:
            stores[node.id] = stores.get(node.id, 0) + 1
        elif node.__class__ is ast.Assign and node.value.__class__ is ast.Call \
                and node.value.func.__class__ is ast.Name and is_class(node.value.func.id):
            for target in node.targets:
                if target.__class__ is ast.Name:
                    made[target.id] = made.get(target.id, 0) + 1
    return {name for name, count in made.items() if stores.get(name) == count}
