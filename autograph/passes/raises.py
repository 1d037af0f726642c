"""`raise` inside `if`, loops, `with` and `try` -> `ag.raise_if` / `ag.raise_`.

    if exponent < 0:                         ag.raise_if(exponent < 0,
        raise ValueError('negative')   ->        lambda: ValueError('negative'))

    if x < 0:                                ag.raise_if(x < 0,
        raise ValueError(f'bad {x}')   ->        lambda x: ValueError(f'bad {x}'), (x,))

    if x < 0:                                ag.raise_if(x < 0,
        raise E('bad') from err        ->        lambda err: ag.caused(E('bad'), err), (err,))

An `if` whose only statement is a `raise` (its `else`, if any, follows as plain code)
becomes `ag.raise_if`; any other such `raise` becomes `ag.raise_(...)`, which ends the
branch it is in. With a traced condition the compiled program checks it when it runs
(see runtime.checks.raises); with a Python one it raises right away, as Python does. The
exception is built lazily from the local variables its expression reads, passed in as
arguments, so a failing check formats their run-time values.

A `try` with `except` clauses is wrapped in `with ag.handlers(<their types>) as body:`,
and its body in `with body:`, so that a run-time `raise` the `except` would catch in
Python is an error naming it rather than an exception that escapes it (see
runtime.checks.handlers).

    if x < 0:                                ag.raise_if(x < 0, ag.reraise())
        raise                          ->    (in an `except`: the exception it handles)

Left as Python: a `raise` at the top of the function (nothing can stage it).
"""
import ast
import functools

from autograph import templates
from autograph.analysis.activity import activity, scope_of
from autograph.passes.base import SCOPES, blocks

ONLY_WITH = (ast.Raise, ast.Try, ast.TryStar)   # see analysis.census


def transform(function, ctx):
    lowering = _Lowering(ctx, function)
    function.body = [new for stmt in function.body
                     for new in lowering.statement(stmt, nested=False)]
    return function


class _Lowering:
    def __init__(self, ctx, function):
        self.ctx = ctx
        self.function = function

    @functools.cached_property
    def locals(self):
        """The function's local names (found once, when a raise first needs them)."""
        return scope_of(self.function).locals

    def block(self, stmts):
        return [new for stmt in stmts for new in self.statement(stmt, nested=True)]

    def statement(self, stmt, nested):
        if isinstance(stmt, SCOPES):
            return [stmt]
        if isinstance(stmt, ast.Raise):
            if nested:
                return [self.call('raise_', [], stmt)]
            return [stmt]
        if isinstance(stmt, ast.If):
            for body, orelse, test in ((stmt.body, stmt.orelse, stmt.test),
                                       (stmt.orelse, stmt.body, _negated(self.ctx, stmt.test))):
                if len(body) == 1 and isinstance(body[0], ast.Raise) and not _is_raise(orelse):
                    check = self.call('raise_if', [test], body[0])
                    return [templates.set_origin([check], stmt)[0]] + self.block(orelse)
                if _builds_then_raises(body) and not _is_raise(orelse):
                    return [*templates.set_origin(self.built('raise_if', test, body), stmt),
                            *self.block(orelse)]
        for block in blocks(stmt):
            block[:] = self.block(block)
        if isinstance(stmt, (ast.Try, ast.TryStar)) and stmt.handlers:
            return [self.handled(stmt)]
        return [stmt]

    def call(self, op, args, node):
        """`ag.op(*args, lambda *reads: exc, (reads,))` at `node`'s line; a bare `raise`
        is `ag.op(*args, ag.reraise())` (the exception being handled)."""
        if node.exc is None:
            reraise = ast.Call(func=self.ctx.runtime('reraise'), args=[], keywords=[])
            call = ast.Call(func=self.ctx.runtime(op), args=args + [reraise], keywords=[])
            return ast.copy_location(ast.Expr(value=call), node)
        exc = node.exc
        if node.cause is not None:
            exc = ast.Call(func=self.ctx.runtime('caused'), args=[exc, node.cause], keywords=[])
        reads = sorted(activity(exc).reads & self.locals)
        maker = ast.Lambda(args=templates.arguments(reads), body=exc)
        args = args + [maker] + ([templates.tuple_of(reads)] if reads else [])
        call = ast.Call(func=self.ctx.runtime(op), args=args, keywords=[])
        return ast.copy_location(ast.Expr(value=call), node)

    def built(self, op, test, body):
        """`ag.op(test, make_error, (reads,))` for a block that builds its exception before
        raising it (`err = E(msg); err.x = x; raise err`): the block becomes the function
        `make_error`, which the check calls only when it fails, as `raise E(...)`'s lambda."""
        *steps, last = body
        exc = last.exc if last.cause is None else ast.Call(
            func=self.ctx.runtime('caused'), args=[last.exc, last.cause], keywords=[])
        reads, bound = set(), set()
        for step in steps + [ast.Expr(value=exc)]:
            found = activity(step)
            reads |= (found.reads - bound) & self.locals
            bound |= found.writes
        reads = sorted(reads)
        name = self.ctx.namer.new('make_error')
        maker = ast.FunctionDef(name=name, args=templates.arguments(reads),
                                body=steps + [ast.Return(value=exc)], decorator_list=[],
                                returns=None, type_params=[])
        args = [test, templates.name(name)] + ([templates.tuple_of(reads)] if reads else [])
        call = ast.Call(func=self.ctx.runtime(op), args=args, keywords=[])
        return [maker, ast.Expr(value=call)]

    def handled(self, stmt):
        """`with ag.handlers(E1, E2) as body: try: with body: ...` (see runtime.checks.handlers;
        a bare `except` catches BaseException)."""
        types = [h.type if h.type is not None else templates.name('BaseException')
                 for h in stmt.handlers]
        name = self.ctx.namer.new('try_body')
        call = ast.Call(func=self.ctx.runtime('handlers'), args=types, keywords=[])
        inner = ast.With(items=[ast.withitem(context_expr=templates.name(name))],
                         body=stmt.body)
        stmt.body = [ast.copy_location(inner, stmt.body[0])]
        outer = ast.With(items=[ast.withitem(context_expr=call, optional_vars=templates.name(
            name, ast.Store()))], body=[stmt])
        return ast.copy_location(outer, stmt)


def _builds_then_raises(stmts):
    """Whether `stmts` only build an exception and raise it: assignments to names and to
    their attributes, then `raise name` (nothing they do outlives the raise)."""
    *steps, last = stmts or [None]
    if not (isinstance(last, ast.Raise) and isinstance(last.exc, ast.Name) and steps):
        return False
    return all(isinstance(step, ast.Assign) and all(
        isinstance(t, ast.Name) or (isinstance(t, ast.Attribute)
                                    and isinstance(t.value, ast.Name)) for t in step.targets)
        for step in steps)


def _is_raise(stmts):
    return len(stmts) == 1 and isinstance(stmts[0], ast.Raise)


def _negated(ctx, test):
    return ast.Call(func=ctx.runtime('not_'), args=[test], keywords=[])
