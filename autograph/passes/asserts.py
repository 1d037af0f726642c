"""`assert test, message` -> `ag.assert_(test, lambda: message)`.

A traced test is checked when the compiled program runs; a Python one right away. The
message stays lazy, as in Python.
"""
import ast

from autograph import templates

from autograph.passes.base import ScopeTransformer


def transform(function, ctx):
    _Asserts(function, ctx).visit(function)
    return function


class _Asserts(ScopeTransformer):
    def __init__(self, root, ctx):
        super().__init__(root)
        self.ctx = ctx

    def visit_Assert(self, node):
        args = [node.test]
        if node.msg is not None:
            args.append(templates.thunk(node.msg))
        call = ast.Call(func=self.ctx.runtime('assert_'), args=args, keywords=[])
        return ast.copy_location(ast.Expr(value=call), node)
