"""`raise` inside `if`, loops and `with` -> `ag.raise_if` / `ag.raise_`.

    if exponent < 0:                         ag.raise_if(exponent < 0,
        raise ValueError('negative')   ->        lambda: ValueError('negative'))

    if x < 0:                                ag.raise_if(x < 0,
        raise ValueError(f'bad {x}')   ->        lambda x: ValueError(f'bad {x}'), (x,))

An `if` whose only statement is a `raise` (its `else`, if any, follows as plain code)
becomes `ag.raise_if`; any other such `raise` becomes `ag.raise_(...)`, which ends the
branch it is in. With a traced condition the compiled program checks it when it runs
(see runtime.raises); with a Python one it raises right away, as Python does. The
exception is built lazily from the local variables its expression reads, passed in as
arguments, so a failing check formats their run-time values.

Left as Python: a `raise` at the top of the function (nothing can stage it), a bare
`raise` and `raise ... from ...` (re-raising belongs to Python's `except`), and a `raise`
inside a `try` that has handlers (Python code may catch it).
"""
import ast

from autograph import templates
from autograph.analysis.activity import activity, scope_of
from autograph.passes.base import SCOPES, blocks


def transform(function, ctx):
    lowering = _Lowering(ctx, scope_of(function).locals)
    function.body = [new for stmt in function.body
                     for new in lowering.statement(stmt, nested=False)]
    return function


class _Lowering:
    def __init__(self, ctx, local):
        self.ctx = ctx
        self.locals = local

    def block(self, stmts):
        return [new for stmt in stmts for new in self.statement(stmt, nested=True)]

    def statement(self, stmt, nested):
        if isinstance(stmt, SCOPES) or (isinstance(stmt, ast.Try) and stmt.handlers):
            return [stmt]
        if isinstance(stmt, ast.Raise):
            if nested and _convertible(stmt):
                return [self.call('raise_', [], stmt)]
            return [stmt]
        if isinstance(stmt, ast.If):
            for body, orelse, test in ((stmt.body, stmt.orelse, stmt.test),
                                       (stmt.orelse, stmt.body, _negated(self.ctx, stmt.test))):
                if len(body) == 1 and isinstance(body[0], ast.Raise) and \
                        _convertible(body[0]) and not _is_raise(orelse):
                    check = self.call('raise_if', [test], body[0])
                    return [templates.set_origin([check], stmt)[0]] + self.block(orelse)
        for block in blocks(stmt):
            block[:] = self.block(block)
        return [stmt]

    def call(self, op, args, node):
        """`ag.op(*args, lambda *reads: exc, (reads,))` at `node`'s line."""
        reads = sorted(activity(node.exc).reads & self.locals)
        maker = ast.Lambda(args=templates.arguments(reads), body=node.exc)
        args = args + [maker] + ([templates.tuple_of(reads)] if reads else [])
        call = ast.Call(func=self.ctx.runtime(op), args=args, keywords=[])
        return ast.copy_location(ast.Expr(value=call), node)


def _convertible(node):
    return node.exc is not None and node.cause is None


def _is_raise(stmts):
    return len(stmts) == 1 and isinstance(stmts[0], ast.Raise)


def _negated(ctx, test):
    return ast.Call(func=ctx.runtime('not_'), args=[test], keywords=[])
