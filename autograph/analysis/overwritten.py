"""Attributes that the code after a statement assigns before it can read them.

Python reference: after

    while err > tol:
        self.d = jnp.diag(r)       # assigned before it is read in every iteration
        ...
    self.d = jnp.diag(r)           # ... and again after the loop, before any read

no code sees the value `self.d` holds when the loop ends (nor the one it held before the
loop, where the loop did not run): the loop need not carry it with its type before the
loop (runtime.staging.carry takes the body's).

`overwritten_after(label, holder, attr, after, ag)` tells, for the attribute `holder.attr`
(`holder` a name), whether the statements `after` (those after the statement in its
block) assign it at their top level before anything may read it. Anything that may read
it stops the search: a read of `holder.attr`, a call that is given `holder` itself (not
one of its other attributes), a method of it, or user code (`ag.call`: it may hold
`holder` another way), a rebinding of `holder`, a `return`, `raise`, `del`, `try`,
`with` or nested function. (A block that assigns it on some paths only does not end
the search.)
"""
import ast

from autograph.analysis.walk import SCOPES

_STOPS = (ast.Return, ast.Raise, ast.Delete, ast.Global, ast.Nonlocal, ast.Try,
          ast.With) + SCOPES


def overwritten_after(holder, attr, after, ag):
    """True when the statements `after` assign `holder.attr` (at their top level) before
    anything in them may read it (see the module docstring)."""
    for stmt in after:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
                and _is(stmt.targets[0], holder, attr):
            return not may_read(stmt.value, holder, attr, ag)
        if isinstance(stmt, _STOPS) or may_read(stmt, holder, attr, ag):
            return False
    return False


def _is(node, holder, attr):
    return (isinstance(node, ast.Attribute) and node.attr == attr
            and isinstance(node.value, ast.Name) and node.value.id == holder)


def may_read(tree, holder, attr, ag):
    """Whether `tree` (a node) may read `holder.attr` (`x.a += 1` does), or rebinds
    `holder`."""
    for node in ast.walk(tree):   # (into lambdas too: their reads are found as well)
        if isinstance(node, ast.Name) and node.id == holder \
                and not isinstance(node.ctx, ast.Load):
            return True
        if _is(node, holder, attr) and isinstance(node.ctx, ast.Load):
            return True
        if isinstance(node, ast.AugAssign) and _is(node.target, holder, attr):
            return True
        if isinstance(node, ast.Call) and _reads_in_call(node, holder, attr, ag):
            return True
    return False


def _reads_in_call(call, holder, attr, ag):
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
            and func.value.id == ag:
        if func.attr == 'check_field':   # `ag.check_field(o, 'x')` reads `o.x` only
            return (len(call.args) == 2 and isinstance(call.args[1], ast.Constant)
                    and call.args[1].value == attr and _named(call.args[0], holder))
        if func.attr == 'call':          # user code: it may reach `holder` another way
            return True
    if isinstance(func, ast.Attribute) and _named(func.value, holder):
        return True                      # `holder.method(...)`
    inner = [node for node in ast.walk(call)]
    parts = {id(node.value) for node in inner if isinstance(node, ast.Attribute)}
    return any(_named(node, holder) and id(node) not in parts for node in inner)


def _named(node, holder):
    return isinstance(node, ast.Name) and node.id == holder
