"""Boolean operators, conditional expressions and chained comparisons.

    a and b          -> ag.and_(a, lambda: b)
    a or b or c      -> ag.or_(a, lambda: ag.or_(b, lambda: c))
    not a            -> ag.not_(a)
    a if c else b    -> ag.if_exp(c, lambda: a, lambda: b)
    a < b < c        -> ag.and_(a < b, lambda: b < c)
    a < f(x) < c     -> ag.compare(a, '<', lambda: f(x), '<', lambda: c)
                        (a middle operand that is not a name or constant: evaluated once)
    a in (b, c)      -> ag.in_(a, (b, c))      (traced items: (a == b) | (a == c))
    a not in xs      -> ag.not_(ag.in_(a, xs))

The right operands stay lazy, so Python values keep Python's short-circuit semantics;
traced values become `jnp.logical_*` and `lax.cond`.
"""
import ast

from autograph import templates
from autograph.passes.base import ScopeTransformer


def transform(function, ctx):
    _Expressions(function, ctx).visit(function)
    return function


class _Expressions(ScopeTransformer):
    def __init__(self, root, ctx):
        super().__init__(root)
        self.ctx = ctx

    def _call(self, op, args, origin):
        return ast.copy_location(
            ast.Call(func=self.ctx.runtime(op), args=args, keywords=[]), origin)

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        op = 'and_' if isinstance(node.op, ast.And) else 'or_'
        result = node.values[-1]
        for value in reversed(node.values[:-1]):
            result = self._call(op, [value, templates.thunk(result)], node)
        return result

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return self._call('not_', [node.operand], node)
        return node

    def visit_IfExp(self, node):
        self.generic_visit(node)
        branches = [templates.thunk(node.body), templates.thunk(node.orelse)]
        return self._call('if_exp', [node.test] + branches, node)

    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) == 1 and not isinstance(node.ops[0], (ast.In, ast.NotIn)):
            return node
        operands = [node.left] + node.comparators
        if not all(isinstance(o, (ast.Name, ast.Constant)) for o in operands[1:-1]):
            return self._compare_once(node)
        parts = [self._compare(operands[i], op, operands[i + 1], node)
                 for i, op in enumerate(node.ops)]
        result = parts[-1]
        for part in reversed(parts[:-1]):
            result = self._call('and_', [part, templates.thunk(result)], node)
        return result

    def _compare_once(self, node):
        args = [node.left]
        for op, operand in zip(node.ops, node.comparators):
            args += [ast.Constant(_OPERATOR_TEXT[type(op)]), templates.thunk(operand)]
        return self._call('compare', args, node)

    def _compare(self, left, op, right, origin):
        if isinstance(op, ast.In):
            return self._call('in_', [left, right], origin)
        if isinstance(op, ast.NotIn):
            return self._call('not_', [self._call('in_', [left, right], origin)], origin)
        return ast.copy_location(ast.Compare(left=left, ops=[op], comparators=[right]), origin)


_OPERATOR_TEXT = {ast.Lt: '<', ast.LtE: '<=', ast.Gt: '>', ast.GtE: '>=', ast.Eq: '==',
                  ast.NotEq: '!=', ast.Is: 'is', ast.IsNot: 'is not', ast.In: 'in',
                  ast.NotIn: 'not in'}
