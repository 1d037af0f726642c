"""`x is True`, `x is False`, `x is None`, `p is 0` (and `is not`) -> `ag.is_(x, True)`, ...

A flag that starts as a Python bool and is set under a traced condition becomes a traced
boolean; `flag is False` must then compare its value (see runtime.python.identity). A result
that is None on some paths of staged code is an optional value: `x is None` tests its
flag; a Python int carried through staged code is traced, and `p is 0` compares its
value. Only comparisons with a literal `True`/`False`/`None`/int are rewritten: `a is b`
keeps Python's `is`. Runs after the expressions pass, so comparisons are single.
"""
import ast

from autograph.passes.base import ScopeTransformer

ONLY_WITH = (ast.Is, ast.IsNot)   # see analysis.census (passes.match adds its own)


def _is_singleton_literal(node):
    """True, False, None, or an int (CPython's small ints are single objects too)."""
    return isinstance(node, ast.Constant) and (isinstance(node.value, (bool, int))
                                               or node.value is None)


class _Identity(ScopeTransformer):
    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.Is, ast.IsNot)):
            return node
        left, right = node.left, node.comparators[0]
        if not (_is_singleton_literal(left) or _is_singleton_literal(right)):
            return node
        op = 'is_' if isinstance(node.ops[0], ast.Is) else 'is_not'
        return ast.copy_location(
            ast.Call(func=self.ctx.runtime(op), args=[left, right], keywords=[]), node)


transform = _Identity.transform
