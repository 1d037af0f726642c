"""Views the converted code cannot follow, checked to be no views when the program runs.

    root = x                          root = x
    while parent[root] != root:       while parent[root] != root:
        root = parent[root]       ->      root = ag.unviewed(parent, root)
    parent[x] = root                  parent[x] = root
    return root                       return root

analysis.views follows which binding of a name reaches each statement: where a name is
a NumPy view of one array on some paths and of another, or no view, on others, and the
array or the name changes in place, NumPy's result depends on the path, which the
converted code cannot follow (an UnsupportedSyntax). But `parent[root]` is a view only
where `parent` has more dimensions than the key has indices: of a vector of indices (a
union-find's `find` with path compression, a linked list's `next` array) it is a
number. The converter cannot tell which.

Where the analysis fails so, it is made again without the bindings `v = b[key]`, and
each of those binds `ag.unviewed(b, key)` instead: Python's `b[key]`, and a named error
where NumPy's result is a view, which the converted code would take for a copy. Where
every such binding gives a number, a copy or a JAX array's item when the program runs,
Python's result is the converted code's. The first error stands where the analysis
fails without them too (the views bound otherwise: `v = b`, a loop's rows, a reshape).
"""
import ast

from autograph.analysis.views import Views
from autograph.errors import UnsupportedSyntax
from autograph.passes.sequences import key_expression


def views_or_guards(function, bindings, resolve, ctx, known):
    """(analysis.views' `Views` of `bindings` ({statement: (view, base)}), the bindings
    it leaves to `guard`): none where it follows them all; else, where they are views on
    some paths only (analysis.view_errors' `some_paths_error`), the items and slices `v =
    b[key]`, where it follows the others without them."""
    try:
        return _analysis(function, bindings, resolve, ctx, known), {}
    except UnsupportedSyntax as error:
        guarded = {stmt: pair for stmt, pair in bindings.items() if guardable(stmt)}
        if not getattr(error, 'views_on_some_paths', False) or not guarded:
            raise
        rest = {stmt: pair for stmt, pair in bindings.items() if stmt not in guarded}
        try:
            return _analysis(function, rest, resolve, ctx, known), guarded
        except UnsupportedSyntax:
            raise error from None


def _analysis(function, bindings, resolve, ctx, known):
    analysis = Views(function, bindings, resolve, ctx, known)
    analysis.check_view_flags()
    return analysis


def guardable(stmt):
    """Whether view binding `stmt` is `v = b[key]` (`b` a name)."""
    return isinstance(stmt, ast.Assign) and stmt.value.__class__ is ast.Subscript and \
        stmt.value.value.__class__ is ast.Name


def guard(bindings, ctx):
    """Bind `ag.unviewed(b, key)` in each statement `v = b[key]` of `bindings`."""
    for stmt in bindings:
        value = stmt.value
        stmt.value = ast.copy_location(ast.Call(
            func=ctx.runtime('unviewed'), args=[value.value, key_expression(value.slice, ctx)],
            keywords=[]), value)
