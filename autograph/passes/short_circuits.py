"""`and`/`or` whose later operands have effects -> statements that run them where Python does.

Python evaluates `b()` in `a and b()` only when `a` is true. The expression form
(`ag.and_(a, lambda: b())`, passes.expressions) gives Python's result for any `a`, but
under a traced `a` the operand `b()` runs while tracing, on every path: a counter ticked,
a random key split or an item logged there would change where Python's would not. Where
a later operand may have an effect (analysis.effects), the test becomes statements, each
operand under an `if` on the value so far, as Python evaluates it:

    if x > 0 and c.tick() > 1:         test = x > 0
        y = 1.0                ->      if test:
                                           test = c.tick() > 1
                                       if test:
                                           y = 1.0

A staged `if` then runs the operand only on the path where Python runs it. The same for
`elif` tests (the statements go into the `else` of the tests before), `while` tests
(evaluated again at the end of the body: break and continue are flags by then, see
passes.loop_exits, so the body always reaches its end), `x = a or b()`, `return ...` and
an expression statement. Operands without effects keep the expression form.
"""
import ast

from autograph import templates
from autograph.analysis.effects import pure
from autograph.passes.base import StatementRewriter

ONLY_WITH = (ast.BoolOp, ast.While)   # see analysis.census (passes.loop_exits makes `and`s)


def transform(function, ctx):
    _ShortCircuits(ctx).block(function.body)
    return function


class _ShortCircuits(StatementRewriter):
    def rewrite(self, stmt):
        if isinstance(stmt, (ast.If, ast.While)) and self._effectful(stmt.test):
            name = self.ctx.namer.new('test')
            before = self._lower(stmt.test, name, stmt)
            stmt.test = templates.name(name)
            if isinstance(stmt, ast.While):
                stmt.body = stmt.body + self.ctx.copy(before)
            return before + [stmt]
        if isinstance(stmt, (ast.Assign, ast.Return, ast.Expr)) and \
                self._effectful(stmt.value):
            if isinstance(stmt, ast.Assign) and not (
                    len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
                return [stmt]   # (other targets are evaluated after the value: keep it)
            name = self.ctx.namer.new('value')   # (the operands may read the target)
            out = self._lower(stmt.value, name, stmt)
            if not isinstance(stmt, ast.Expr):
                stmt.value = templates.name(name)
                out.append(stmt)
            return out
        return [stmt]

    def _effectful(self, expr):
        """Whether `expr` is an `and`/`or` with a later operand that may have an effect."""
        return isinstance(expr, ast.BoolOp) and not all(
            pure(value, self.ctx.resolver, self.ctx.ag) for value in expr.values[1:])

    def _lower(self, expr, name, origin):
        """Statements that give `name` the value of `expr`, its operands evaluated as
        Python evaluates them."""
        if not self._effectful(expr):
            out = [ast.Assign(targets=[templates.name(name, ast.Store())], value=expr)]
            return templates.set_origin(out, origin)
        first, *rest = expr.values
        out = self._lower(first, name, origin)
        for value in rest:
            test = templates.name(name)
            if isinstance(expr.op, ast.Or):
                test = ast.UnaryOp(op=ast.Not(), operand=test)
            out += templates.set_origin(
                [ast.If(test=test, body=self._lower(value, name, origin), orelse=[])], origin)
        return out
