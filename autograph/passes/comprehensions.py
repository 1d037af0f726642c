"""The `if` clauses of comprehensions -> `ag.comprehension_test(...)`, or, in a
comprehension reduced at once, -> loops over `ag.keep(...)`.

    [y for y in ys if y > 2]   ->   [y for y in ys if ag.comprehension_test(y > 2)]

Which items a comprehension keeps decides how many it has, and a compiled program's
arrays have static shapes: a test on a traced value cannot be staged. The runtime check
passes Python values through (Python's meaning) and names the traced case with the user's
line, instead of JAX's TracerBoolConversionError.

A list comprehension or generator expression that is the argument of the builtin `min`,
`max`, `sum`, `len`, `any` or `all` (or a generator expression given to `next`, whose
tests and items have no effect: its first kept item) is reduced at once: its value needs
no list of the kept items, and a traced test becomes a mask (see
runtime.python.selections):

    sum(x for x in xs if x > 0)
        ->   ag.sum(ag.selection(((x, kept) for x in xs for kept in ag.keep(x > 0))))

An item that may have an effect (`sum(c.tick(x) for x in xs if x > 0)`) is computed
only where it is kept, as Python computes it: `ag.kept_item(kept, lambda: c.tick(x))`.

Runs after the calls pass (the builtins are `ag.min`, `ag.len`, ...)
and the expressions pass, so each test is a single expression.
"""
import ast

from autograph import templates
from autograph.analysis.activity import scope_of
from autograph.analysis.effects import pure
from autograph.passes.base import ScopeTransformer

ONLY_WITH = (ast.comprehension,)   # see analysis.census

_REDUCTIONS = {'min': {'key', 'default'}, 'max': {'key', 'default'}, 'sum': {'start'},
               'any': set(), 'all': set(), 'len': set()}


class _Tests(ScopeTransformer):
    def visit_comprehension(self, node):
        self.generic_visit(node)
        node.ifs = [ast.copy_location(ast.Call(func=self.ctx.runtime('comprehension_test'),
                                               args=[test], keywords=[]), test)
                    for test in node.ifs]
        return node

    def visit_Call(self, node):
        over_range = self._sum_over_range(node)
        if over_range is not None:
            self.generic_visit(over_range)
            return over_range
        if self._first_kept(node):
            node.func = ast.copy_location(self.ctx.runtime('next'), node.func)
            node.args[0] = self._selection(node.args[0])
            self.generic_visit(node)
            return node
        reduction = self._reduction(node)
        if reduction is not None:
            node.args[0] = self._selection(node.args[0])
            if reduction == 'len':
                node.func = ast.copy_location(self.ctx.runtime('len'), node.func)
        self.generic_visit(node)
        return node

    def _reduction(self, node):
        """The builtin reduction `node` calls on a filtered list comprehension or
        generator expression, or None."""
        if not node.args or not isinstance(node.args[0], (ast.ListComp, ast.GeneratorExp)) \
                or not any(g.ifs for g in node.args[0].generators):
            return None
        func, keywords = node.func, {k.arg for k in node.keywords}
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and func.value.id == self.ctx.ag and func.attr in _REDUCTIONS:
            allowed = _REDUCTIONS[func.attr]
            positional = 2 if func.attr == 'sum' else 1
            if func.attr == 'len' and not isinstance(node.args[0], ast.ListComp):
                return None   # (`len` of a generator: Python's TypeError)
            if len(node.args) <= positional and keywords <= allowed:
                return func.attr
        elif isinstance(func, ast.Name) and func.id == 'len' and len(node.args) == 1 \
                and not keywords and isinstance(node.args[0], ast.ListComp) \
                and self._builtin_len():
            return 'len'
        return None

    def _sum_over_range(self, node):
        """`ag.sum(elt for k in ag.range(...) if t)` (one `for` over a range, a name for
        its target, items and tests without effects, `start` given or not) ->
        `ag.sum_over_range(ag.range(...), lambda k: elt, lambda k: t, start)`: a range
        with a traced bound is summed by a staged loop (runtime.operators.sums), which a
        generator, iterated by Python, cannot be. None for any other call."""
        func, args = node.func, node.args
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                and func.value.id == self.ctx.ag and func.attr == 'sum'
                and 1 <= len(args) <= 2 and not node.keywords
                and isinstance(args[0], (ast.GeneratorExp, ast.ListComp))
                and len(args[0].generators) == 1):
            return None
        generator = args[0].generators[0]
        iterable = generator.iter
        if not (isinstance(generator.target, ast.Name) and not generator.is_async
                and isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute)
                and isinstance(iterable.func.value, ast.Name)
                and iterable.func.value.id == self.ctx.ag and iterable.func.attr == 'range'
                and len(generator.ifs) <= 1 and pure(args[0], self.ctx.resolver, self.ctx.ag)):
            return None
        name = generator.target.id
        item = ast.Lambda(args=templates.arguments([name]), body=args[0].elt)
        test = ast.Lambda(args=templates.arguments([name]), body=generator.ifs[0]) \
            if generator.ifs else ast.Constant(None)
        start = args[1:] or [ast.Constant(0)]
        return ast.copy_location(ast.Call(
            func=self.ctx.runtime('sum_over_range'), args=[iterable, item, test] + start,
            keywords=[]), node)

    def _first_kept(self, node):
        """Whether `node` is the builtin `next` of a filtered generator expression
        (`next((i for i, e in enumerate(v) if e > t), -1)`) with no effect in its tests
        or items: Python stops at the first kept item, a traced test cannot."""
        func, args = node.func, node.args
        return isinstance(func, ast.Name) and func.id == 'next' and 1 <= len(args) <= 2 \
            and not node.keywords and isinstance(args[0], ast.GeneratorExp) \
            and any(g.ifs for g in args[0].generators) \
            and pure(args[0], self.ctx.resolver, self.ctx.ag) \
            and 'next' not in scope_of(self.root).locals and self.ctx.resolver.is_builtin('next')

    def _builtin_len(self):
        if not hasattr(self, '_len_is_builtin'):
            self._len_is_builtin = 'len' not in scope_of(self.root).locals and \
                self.ctx.resolver.is_builtin('len')
        return self._len_is_builtin

    def _selection(self, comprehension):
        """`[elt for v in vs if t1 if t2]` ->
        `ag.selection([(elt, kept_1) for v in vs for kept in ag.keep(t1)
                                               for kept_1 in ag.keep(t2, kept)])`."""
        kept, generators = None, []
        for generator in comprehension.generators:
            tests, generator.ifs = generator.ifs, []
            generators.append(generator)
            for test in tests:   # (a name per test: an inner loop must not rebind it)
                previous = [ast.Name(id=kept, ctx=ast.Load())] if kept else []
                kept = self.ctx.namer.new('kept')
                call = ast.Call(func=self.ctx.runtime('keep'), args=[test] + previous,
                                keywords=[])
                generators.append(ast.comprehension(
                    target=ast.Name(id=kept, ctx=ast.Store()),
                    iter=ast.copy_location(call, test), ifs=[], is_async=0))
        comprehension.generators = generators
        elt = comprehension.elt
        if not pure(elt, self.ctx.resolver, self.ctx.ag):   # (computed where it is kept)
            elt = ast.copy_location(ast.Call(
                func=self.ctx.runtime('kept_item'),
                args=[ast.Name(id=kept, ctx=ast.Load()), templates.thunk(elt)],
                keywords=[]), elt)
        comprehension.elt = ast.Tuple(elts=[elt, ast.Name(id=kept, ctx=ast.Load())],
                                      ctx=ast.Load())
        return ast.copy_location(ast.Call(func=self.ctx.runtime('selection'),
                                          args=[comprehension], keywords=[]),
                                 comprehension)


transform = _Tests.transform
