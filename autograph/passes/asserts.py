"""`assert test, message` -> `ag.assert_(test, lambda *reads: message, (reads,))`.

    assert x > 0, f'got {x}'    ->    ag.assert_(x > 0, lambda x: f'got {x}', (x,))

A traced test is checked when the compiled program runs; a Python one right away. The
message stays lazy, as in Python, and reads the run-time values of the local variables
it names (passed in as arguments), so a failed check shows numbers, not tracers.
"""
import ast

from autograph import templates
from autograph.analysis.activity import activity, scope_of
from autograph.passes.base import SCOPES, blocks, contains

ONLY_WITH = (ast.Assert,)   # see analysis.census


def transform(function, ctx):
    if contains(function.body, ast.Assert, SCOPES):
        function.body = _lower(function.body, ctx, scope_of(function).locals)
    return function


def _lower(stmts, ctx, local):
    """Asserts are statements: only statement lists need looking at."""
    out = []
    for stmt in stmts:
        if isinstance(stmt, ast.Assert):
            args = [stmt.test]
            if stmt.msg is not None:
                reads = sorted(activity(stmt.msg).reads & local)
                args.append(ast.Lambda(args=templates.arguments(reads), body=stmt.msg))
                if reads:
                    args.append(templates.tuple_of(reads))
            call = ast.Call(func=ctx.runtime('assert_'), args=args, keywords=[])
            stmt = ast.copy_location(ast.Expr(value=call), stmt)
        elif not isinstance(stmt, SCOPES):
            for block in blocks(stmt):
                block[:] = _lower(block, ctx, local)
        out.append(stmt)
    return out
