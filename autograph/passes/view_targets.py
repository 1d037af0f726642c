"""Item writes through a chain of views as writes to a view bound to a name first, which
passes.views then follows as it follows any view binding (its writes reach the base):

    m.T[0, 1] = e            ->   m_view = m.T
                                  m_view[0, 1] = e
    m.reshape(4)[k] += e     ->   m_view = m.reshape(4)
                                  m_view[k] += e

Python evaluates `e` before the view, the converted code after: a view shows its base's
items as they are when read, so only an `e` that rebinds the base tells the two apart.
Targets that are a basic index of a name's basic index (`m[1:][0] = e`) are written back
as they are (analysis.view_chains: a view binding of one step); others stay as written.

A ternary that may bind a view, where the name or the array it reads is changed in place,
is written as the `if` statement it means, whose bindings passes.views follows:

    r = M[i] if c else e     ->   if c:
                                      r = M[i]
                                  else:
                                      r = e

(Python evaluates `c`, then one branch, then binds `r`: so does the statement.)
"""
import ast

from autograph.analysis.view_chains import chain_of
from autograph.analysis.walk import blocks


def split_view_targets(function, ctx, resolve):
    """Bind the views that `function`'s own item writes write through (see the module
    docstring), in place; `resolve`: the resolver of called functions (for helpers that
    return a view, analysis.view_chains)."""
    stack = [function.body]
    while stack:
        statements = stack.pop()
        rewritten = []
        for stmt in statements:
            if stmt.__class__ not in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                stack += blocks(stmt)
            target = _item_target(stmt)
            chain = chain_of(target.value, ctx.ag, resolve) if target is not None else None
            if chain is not None and (chain[1] is None or
                                      any(kind != 'item' for kind, _ in chain[1])):
                name = ctx.namer.new(f'{chain[0]}_view')
                rewritten.append(ast.copy_location(ast.Assign(
                    targets=[ast.Name(id=name, ctx=ast.Store())], value=target.value), stmt))
                target.value = ast.copy_location(ast.Name(id=name, ctx=ast.Load()),
                                                 target.value)
            rewritten.append(stmt)
        statements[:] = rewritten


def _item_target(stmt):
    """The item that `stmt` writes, `x[k] = e` or `x[k] op= e` (one target), or None."""
    if stmt.__class__ is ast.Assign and len(stmt.targets) == 1:
        target = stmt.targets[0]
    elif stmt.__class__ is ast.AugAssign:
        target = stmt.target
    else:
        return None
    return target if target.__class__ is ast.Subscript else None


def split_view_ternaries(function, changed):
    """Write `name = a if c else b` as an `if` statement (see the module docstring) where
    `name`, or the variable a branch reads items or attributes of, is in `changed` (the
    names changed in place), in place."""
    stack = [function.body]
    while stack:
        statements = stack.pop()
        for index, stmt in enumerate(statements):
            if stmt.__class__ in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                continue
            if _ternary_binding(stmt, changed):
                target, value = stmt.targets[0], stmt.value
                stmt = statements[index] = ast.copy_location(ast.If(
                    test=value.test,
                    body=[_bind(target, value.body, stmt)],
                    orelse=[_bind(target, value.orelse, stmt)]), stmt)
            stack += blocks(stmt)


def _ternary_binding(stmt, changed):
    if stmt.__class__ is not ast.Assign or len(stmt.targets) != 1 or \
            stmt.targets[0].__class__ is not ast.Name or stmt.value.__class__ is not ast.IfExp:
        return False
    names = {stmt.targets[0].id, _root(stmt.value.body), _root(stmt.value.orelse)}
    return not names.isdisjoint(changed)


def _root(expr):
    """The variable an item, attribute or method result of `expr` is taken from (`M` of
    `M[i]`, `M.T`, `M.reshape(3)`), or None."""
    while expr.__class__ in (ast.Subscript, ast.Attribute, ast.Call):
        expr = expr.func if expr.__class__ is ast.Call else expr.value
    return expr.id if expr.__class__ is ast.Name else None


def _bind(target, value, stmt):
    return ast.copy_location(ast.Assign(targets=[ast.Name(id=target.id, ctx=ast.Store())],
                                        value=value), stmt)
