"""`if` tests that change an array with views or aliases in place (for passes.views):

    if clip_first(w, x):      ->    test = clip_first(w, x)
        ...                         if test:
                                        ...
"""
import ast

from autograph.analysis.view_bindings import effects
from autograph.passes.unpacked_aliases import statement_lists


def hoist_changing_tests(function, names, resolve, ctx):
    """`test = clip(w, x)` before `if test:` for an `if` whose test changes one of
    `names` in place (a helper writing its argument), so that what follows the change
    (analysis.views: the write-back of a view, reads of the views of a base) comes
    between the test and the branches, where Python makes it. (Python computes the test
    once, first: the same meaning. A `while` test that calls something is computed so
    already, before the loop and at the end of its body: passes.short_circuits.)"""
    for stmts in statement_lists(function.body):
        for i in range(len(stmts) - 1, -1, -1):
            stmt = stmts[i]
            if stmt.__class__ is ast.If and set(effects(
                    ast.Expr(value=stmt.test), ctx.ag, resolve)[2]) & names:
                test = ctx.namer.new('test')
                stmts.insert(i, ast.copy_location(ast.Assign(
                    targets=[ast.Name(id=test, ctx=ast.Store())], value=stmt.test), stmt))
                stmt.test = ast.copy_location(ast.Name(id=test, ctx=ast.Load()), stmt.test)
