"""`assert test, message` -> `ag.assert_(test, lambda: message)`.

A traced test is checked when the compiled program runs; a Python one right away. The
message stays lazy, as in Python.
"""
import ast

from autograph import templates
from autograph.passes.base import SCOPES, blocks


def transform(function, ctx):
    function.body = _lower(function.body, ctx)
    return function


def _lower(stmts, ctx):
    """Asserts are statements: only statement lists need looking at."""
    out = []
    for stmt in stmts:
        if isinstance(stmt, ast.Assert):
            args = [stmt.test] + ([templates.thunk(stmt.msg)] if stmt.msg is not None else [])
            call = ast.Call(func=ctx.runtime('assert_'), args=args, keywords=[])
            stmt = ast.copy_location(ast.Expr(value=call), stmt)
        elif not isinstance(stmt, SCOPES):
            for block in blocks(stmt):
                block[:] = _lower(block, ctx)
        out.append(stmt)
    return out
