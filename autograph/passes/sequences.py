"""Python sequences read at a computed index or repeated a computed number of times,
which may be traced.

    layers[i](x)     -> ag.getitem(layers, i)(x)
    xs[k - 1]        -> ag.getitem(xs, k - 1)
    x[0], x[1:], x[:, j], x.at[i]     stay (a constant, a slice or a tuple of indices:
                                         array indexing, which JAX handles itself)
    [0] * (n + 1)    -> ag.repeat([0], n + 1)    (a list literal repeated)

`ag.getitem` is `seq[i]` unless `seq` is a Python list or tuple and `i` is traced; then it
reads the item from the items' stack (or switches between functions). Assignment targets
(`xs[i] = v`) are left to the passes that own them.
"""
import ast

from autograph.passes.base import ScopeTransformer
from autograph.runtime.indexing import computed_index


def transform(function, ctx):
    _Indexing(function, ctx).visit(function)
    return function


class _Indexing(ScopeTransformer):
    def __init__(self, root, ctx):
        super().__init__(root)
        self.ctx = ctx

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load) or not computed_index(node.slice) or (
                isinstance(node.value, ast.Attribute) and node.value.attr == 'at'):
            return node
        return ast.copy_location(ast.Call(func=self.ctx.runtime('getitem'),
                                          args=[node.value, node.slice], keywords=[]), node)

    def visit_BinOp(self, node):
        self.generic_visit(node)
        literals = (ast.List, ast.Tuple, ast.ListComp)
        if isinstance(node.op, ast.Mult) and (isinstance(node.left, literals)
                                              or isinstance(node.right, literals)):
            seq, count = ((node.left, node.right) if isinstance(node.left, literals)
                          else (node.right, node.left))
            return ast.copy_location(ast.Call(func=self.ctx.runtime('repeat'),
                                              args=[seq, count], keywords=[]), node)
        return node

    def _value_only(self, node):
        if node.value is not None:
            node.value = self.visit(node.value)
        return node

    visit_Assign = visit_AugAssign = visit_AnnAssign = _value_only

    def visit_arguments(self, node):
        return node     # annotations and defaults: evaluated where the function is defined
