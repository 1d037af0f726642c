"""`and`/`or` and `x if c else y` whose later parts have effects -> statements that run
them where Python does.

Python evaluates `b()` in `a and b()` only when `a` is true, and only one of `f()` and
`g()` in `f() if c else g()`. The expression forms (`ag.and_(a, lambda: b())`,
`ag.if_exp(...)`, passes.expressions) give Python's result for any `a` or `c`, but under
a traced one every operand runs while tracing, on every path: a counter ticked, a random
key split or an item logged there would change where Python's would not. Where a part
Python may skip has an effect (analysis.effects), the expression becomes statements,
each such part under an `if` on what decides it, as Python evaluates it:

    if x > 0 and c.tick() > 1:         test = x > 0
        y = 1.0                ->      if test:
                                           test = c.tick() > 1
                                       if test:
                                           y = 1.0

    r = c.tick() if x > 0 else -x  ->  if x > 0:
                                           value = c.tick()
                                       else:
                                           value = -x
                                       r = value

A staged `if` then runs the part only on the path where Python runs it. The same for
`elif` tests (the statements go into the `else` of the tests before), `while` tests
(evaluated again at the end of the body: break and continue are flags by then, see
passes.loop_exits, so the body always reaches its end; a test that may have an effect
at all, `while not c.done():`, is computed so too: a staged loop's test gives only
its truth, so its effects are made by the body, which carries them), the value of an
assignment,
`return` and an expression statement, and a `for`'s iterable. Such an expression inside
a larger one (`return (c.n, x > 0 and c.tick())`, `f(a, b if c else g())`) is computed
first, by statements of its own, and so is what Python computes before it there (`c.n`
into a temporary: the tick must not change it); what Python computes after it stays in
place. Expressions without such effects keep the expression form.

`any(e for v in vs if t)` and `all(...)` stop at the first item that decides them; where
`e` or `t` may have an effect, the call becomes a loop whose body runs them only while
the result is undecided (a fresh name for `v`: the generator's variable is its own):

    found = any(c.tick(v) > 2 for v in xs)  ->  value = False
                                                for v_1 in xs:
                                                    if not value:
                                                        if c.tick(v_1) > 2:
                                                            value = True
                                                found = value

(the loop still walks the rest of `xs`, doing nothing: only an iterable that is itself
a generator with effects would tell; a generator of several `for` clauses stays as it is).
"""
import ast

from autograph import templates
from autograph.analysis.activity import scope_of
from autograph.analysis.effects import pure
from autograph.analysis.walk import children
from autograph.passes.base import StatementRewriter

ONLY_WITH = (ast.BoolOp, ast.IfExp, ast.While, ast.GeneratorExp)   # see analysis.census
#                                               (passes.loop_exits makes `and`s)
_DEFERRED = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def transform(function, ctx):
    _ShortCircuits(ctx, function).block(function.body)
    return function


class _ShortCircuits(StatementRewriter):
    def __init__(self, ctx, function):
        super().__init__(ctx)
        self.function = function

    def rewrite(self, stmt):
        if isinstance(stmt, ast.While) and not self._has_effect(stmt.test) and not pure(
                stmt.test, self.ctx.resolver, self.ctx.ag):   # (`while not done(x):`)
            name = self.ctx.namer.new('test')
            before = templates.set_origin([ast.Assign(
                targets=[templates.name(name, ast.Store())], value=stmt.test)], stmt)
            stmt.test = templates.name(name)
            stmt.body = stmt.body + self.ctx.copy(before)
            return before + [stmt]
        if isinstance(stmt, (ast.If, ast.While)) and self._has_effect(stmt.test):
            name = self.ctx.namer.new('test')
            before = self._lower(stmt.test, name, stmt)
            stmt.test = templates.name(name)
            if isinstance(stmt, ast.While):
                stmt.body = stmt.body + self.ctx.copy(before)
            return before + [stmt]
        if isinstance(stmt, ast.Expr) and self._effectful(stmt.value):
            return self._lower(stmt.value, self.ctx.namer.new('value'), stmt)
        field = _EVALUATED_FIRST.get(type(stmt))
        value = getattr(stmt, field, None) if field else None
        if value is None or not self._has_effect(value) or (
                isinstance(stmt, ast.AugAssign) and not isinstance(stmt.target, ast.Name)):
            return [stmt]   # (`c.n += e` reads `c.n` before `e`: kept as it is)
        out = []
        setattr(stmt, field, self._hoisted(value, out, stmt))
        return out + [stmt]

    def _effectful(self, expr):
        """Whether `expr` is an `and`/`or` with a later operand, or a conditional
        expression with a branch, or an `any`/`all` of a generator with an item or a
        test, that may have an effect."""
        if self._deciding(expr):
            generator = expr.args[0].generators[0]
            later = [expr.args[0].elt, *generator.ifs]
        elif isinstance(expr, ast.BoolOp):
            later = expr.values[1:]
        elif isinstance(expr, ast.IfExp):
            later = [expr.body, expr.orelse]
        else:
            return False
        if any(isinstance(part, ast.NamedExpr) for part in later):
            return False   # (a part that is `x := e`: a temporary given its value would be
            #               a second name for what `x` holds; see passes.written_arguments)
        return not all(pure(value, self.ctx.resolver, self.ctx.ag) for value in later)

    def _has_effect(self, expr):
        """Whether `expr` holds an `_effectful` expression that Python surely reaches."""
        return _may_decide(expr) and self._reaches_effect(expr)

    def _reaches_effect(self, expr):
        if self._effectful(expr):
            return True
        for field, index in _evaluated(expr):   # (no `any`: see autograph.limits)
            if self._reaches_effect(_get(expr, field, index)):
                return True
        return False

    def _lower(self, expr, name, origin):
        """Statements that give `name` the value of `expr`, its parts evaluated as Python
        evaluates them."""
        out = []
        if self._deciding(expr) and self._effectful(expr):
            return self._decided(expr, name, origin)
        if isinstance(expr, ast.IfExp) and self._effectful(expr):
            test = self._hoisted(expr.test, out, origin)
            out += templates.set_origin([ast.If(
                test=test, body=self._lower(expr.body, name, origin),
                orelse=self._lower(expr.orelse, name, origin))], origin)
            return out
        if not (isinstance(expr, ast.BoolOp) and self._effectful(expr)):
            value = self._hoisted(expr, out, origin)
            return out + templates.set_origin(
                [ast.Assign(targets=[templates.name(name, ast.Store())], value=value)], origin)
        first, *rest = expr.values
        out = self._lower(first, name, origin)
        for value in rest:
            test = templates.name(name)
            if isinstance(expr.op, ast.Or):
                test = ast.UnaryOp(op=ast.Not(), operand=test)
            out += templates.set_origin(
                [ast.If(test=test, body=self._lower(value, name, origin), orelse=[])], origin)
        return out

    def _deciding(self, expr):
        """Whether `expr` is `any(...)` or `all(...)` (the builtins) of a generator of
        one `for` clause."""
        if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name)
                and expr.func.id in ('any', 'all') and len(expr.args) == 1
                and not expr.keywords and isinstance(expr.args[0], ast.GeneratorExp)
                and len(expr.args[0].generators) == 1
                and not expr.args[0].generators[0].is_async):
            return False
        if not hasattr(self, '_builtins'):
            self._builtins = {n for n in ('any', 'all') if n not in scope_of(
                self.function).locals and self.ctx.resolver.is_builtin(n)}
        return expr.func.id in self._builtins

    def _decided(self, call, name, origin):
        """`name = any(e for v in vs if t)` (or `all`) as a loop that evaluates `t` and
        `e` only while the result is undecided (see the module docstring)."""
        generator, stop = call.args[0].generators[0], call.func.id == 'any'
        fresh = {n.id: self.ctx.namer.new(n.id) for n in ast.walk(generator.target)
                 if isinstance(n, ast.Name)}
        target, elt, *tests = [_renamed(part, fresh) for part in
                               (generator.target, call.args[0].elt, *generator.ifs)]
        flag = templates.name(name)
        decide = ast.If(test=elt if stop else ast.UnaryOp(op=ast.Not(), operand=elt),
                        body=[ast.Assign(targets=[templates.name(name, ast.Store())],
                                         value=ast.Constant(value=stop))], orelse=[])
        for test in reversed(tests):
            decide = ast.If(test=test, body=[decide], orelse=[])
        undecided = ast.UnaryOp(op=ast.Not(), operand=flag) if stop else flag
        out = templates.set_origin([
            ast.Assign(targets=[templates.name(name, ast.Store())],
                       value=ast.Constant(value=not stop)),
            ast.For(target=target, iter=generator.iter, body=[
                ast.If(test=undecided, body=[decide], orelse=[])], orelse=[])], origin)
        templates.set_origin([n for n in ast.walk(out[1]) if isinstance(n, ast.stmt)], origin)
        self.block(out)   # (effects inside `e` and `t` where Python has them, in turn)
        return out

    def _hoisted(self, expr, out, origin):
        """`expr` with each `_effectful` part Python surely reaches computed first by
        statements added to `out` (a name in its place), after what Python computes
        before it (into temporaries, but for constants and names)."""
        if self._effectful(expr):
            name = self.ctx.namer.new('value')
            out += self._lower(expr, name, origin)
            return templates.name(name)
        parts = _evaluated(expr)
        last = max((k for k, (f, i) in enumerate(parts) if self._has_effect(_get(expr, f, i))),
                   default=None)
        for k, (f, i) in enumerate(parts[:last + 1] if last is not None else ()):
            part = self._hoisted(_get(expr, f, i), out, origin)
            if k < last and not _stays(part, expr, f):
                inner = part.value if isinstance(part, ast.Starred) else part   # (`*xs`)
                temporary = self.ctx.namer.new('value')
                out += templates.set_origin([ast.Assign(
                    targets=[templates.name(temporary, ast.Store())], value=inner)], origin)
                if isinstance(part, ast.Starred):
                    part.value = templates.name(temporary)
                else:
                    part = templates.name(temporary)
            _set(expr, f, i, part)
        return expr


_EVALUATED_FIRST = {ast.Assign: 'value', ast.AnnAssign: 'value', ast.AugAssign: 'value',
                    ast.Return: 'value', ast.Expr: 'value', ast.For: 'iter'}


def _may_decide(expr):
    """Whether `expr` holds an `and`/`or`, a conditional expression or a generator: an
    expression without one holds nothing `_effectful` (most statements; this walk is a
    few times cheaper than the one of `_has_effect`)."""
    stack = [expr]
    while stack:
        node = stack.pop()
        if node.__class__ in _DECIDING:
            return True
        stack += children(node)
    return False


_DECIDING = frozenset({ast.BoolOp, ast.IfExp, ast.GeneratorExp})


def _evaluated(expr):
    """(field, index or None) of the parts of `expr` that Python surely evaluates, in
    its order (not the later operands of `and`/`or`, the branches of `x if c else y`,
    the bodies of lambdas and comprehensions)."""
    if isinstance(expr, _DEFERRED):
        return []
    if isinstance(expr, ast.BoolOp):
        return [('values', 0)]
    if isinstance(expr, ast.IfExp):
        return [('test', None)]
    if isinstance(expr, ast.Call):
        return ([('func', None)] + [('args', i) for i in range(len(expr.args))]
                + [('keywords', i) for i in range(len(expr.keywords))])
    if isinstance(expr, ast.Dict):
        return [pair for i in range(len(expr.keys)) for pair in
                ([('keys', i)] if expr.keys[i] is not None else []) + [('values', i)]]
    parts = []
    for field, value in ast.iter_fields(expr):
        if isinstance(value, ast.expr):
            parts.append((field, None))
        elif isinstance(value, list):
            parts += [(field, i) for i, v in enumerate(value) if isinstance(v, ast.expr)]
    return parts


def _renamed(expr, names):
    """`expr` with the variables of `names` renamed (the generator's own variables)."""
    for node in ast.walk(expr):
        if isinstance(node, ast.Name) and node.id in names:
            node.id = names[node.id]
    return expr


def _get(expr, field, index):
    value = getattr(expr, field) if index is None else getattr(expr, field)[index]
    return value.value if isinstance(value, ast.keyword) else value


def _set(expr, field, index, part):
    if index is None:
        setattr(expr, field, part)
    elif isinstance(getattr(expr, field)[index], ast.keyword):
        getattr(expr, field)[index].value = part
    else:
        getattr(expr, field)[index] = part


def _stays(part, expr, field):
    """Whether `part`, computed by Python before an effect in `expr`, may stay in place:
    a constant, a name, or the function of a call named by a dotted name (`c.tick`)."""
    if isinstance(part, (ast.Constant, ast.Name)):
        return True
    if isinstance(expr, ast.Call) and field == 'func':
        while isinstance(part, ast.Attribute):
            part = part.value
        return isinstance(part, ast.Name)
    return False
