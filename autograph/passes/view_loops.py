"""The loops whose item is a NumPy view (for passes.views): Python's `for row in M`
gives row k of `M` as a view, whose writes reach `M` and which sees what is written to
`M`; so does a loop over a part of `M` (`M[1:]`, `reversed(M)`, `iter(M)`, `M.T`), also
as an item of `enumerate` or `zip` (see analysis.view_bindings.iterated_row):

    for row in M[1:]:            for index, row in ag.enumerate(M[1:]):
        row *= 2          ->         row, row_key = ag.view(M, ag.chain(slice(1, None),
                                                                    index), row)
                                     row *= 2
                                     M = ag.write_view(M, row_key, row)
"""
import ast
import copy

from autograph.analysis.view_bindings import iterated_part, iterated_row, shadowed_builtin
from autograph.passes.view_keys import reshapes, view_key


def rewrite_loop(loop, view, ctx, resolve, keywords, start):
    """`for row in M:` -> `for index, row in ag.enumerate(M):` with `row, row_key =
    ag.view(M, index, row)` first in the body (a view of the array's row as it is now;
    the item itself when M is no array); `ag.view(M, ag.chain(slice(1, None), index),
    row)` for `for row in M[1:]`, `for i, row in ag.enumerate(M[1:])`... `view`: (the
    loop variable, its base, the name of its key, whether the base is laid out in C
    order); `keywords`: `ag.view`'s `numpy=`; `start`: the statements after it."""
    name, base, key_name, c_order = view
    index = ctx.namer.new('index')
    part = iterated_part(iterated_row(loop, ctx.ag)[2])   # (`M[1:]`; `M.T`; `reversed(M)`:
    row = None if isinstance(part, ast.Name) else ast.Subscript(   # `M[::-1]`)
        value=copy.deepcopy(part), slice=_load(index), ctx=ast.Load())
    loop.target = ast.Tuple(elts=[_store(index), loop.target], ctx=ast.Store())
    loop.iter = ast.Call(func=ctx.runtime('enumerate'), args=[loop.iter], keywords=[])
    key = _load(index) if row is None else view_key(row, ctx, resolve)[0]
    if row is not None and not c_order and reshapes(row, ctx, resolve):
        keywords = keywords + [ast.keyword(arg='c_order', value=ast.Constant(False))]
    call = ast.Call(func=ctx.runtime('view'), args=[_load(base), key, _load(name)],
                    keywords=keywords)
    first = [ast.Assign(targets=[ast.Tuple(elts=[_store(name), _store(key_name)],
                                           ctx=ast.Store())], value=call)] + start
    loop.body[:0] = [ast.fix_missing_locations(ast.copy_location(s, loop.body[0]))
                     for s in first]


def shadowed(stmt, scope, ctx):
    """Whether view binding `stmt` is a loop over `reversed(...)` or `iter(...)` where
    that name is not the builtin in the function of `scope`."""
    return shadowed_builtin(stmt, ctx.ag, lambda name: name not in scope.locals
                            and ctx.resolver.is_builtin(name))


def _load(name):
    return ast.Name(id=name, ctx=ast.Load())


def _store(name):
    return ast.Name(id=name, ctx=ast.Store())
