"""Python sequences read at a computed index or repeated a computed number of times,
which may be traced.

    layers[i](x)     -> ag.getitem(layers, i)(x)
    xs[k - 1]        -> ag.getitem(xs, k - 1)
    xs[i:i + 3]      -> ag.window(xs, i, 3)      (a slice of a fixed width)
    xs[a:b], xs[:n]  -> ag.getslice(xs, a, b), ag.getslice(xs, None, n)
    x[:, j:j + 3]    -> ag.windows(x, (slice(None, None, None), ag.span(j, 3)))
    x[0], x[1:], x[:, j], x.at[i]     stay (a constant, a literal slice or a tuple of
                                         indices: array indexing, which JAX handles itself)
    [0] * (n + 1)    -> ag.repeat([0], n + 1)    (a list literal repeated)

`ag.getitem` is `seq[i]` unless `seq` is a Python list or tuple and `i` is traced; then it
reads the item from the items' stack (or switches between functions). `ag.window` and
`ag.getslice` are the slice unless a bound is traced (see runtime.slicing). Assignment targets
(`xs[i] = v`) are left to the passes that own them.
"""
import ast

from autograph import templates
from autograph.passes.base import ScopeTransformer
from autograph.site_facts import computed_index, traced_bounds


class _Indexing(ScopeTransformer):
    def visit_Subscript(self, node):
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load) or (
                isinstance(node.value, ast.Attribute) and node.value.attr == 'at'):
            return node
        if traced_bounds(node.slice):
            return ast.copy_location(self._slice(node.value, node.slice), node)
        if isinstance(node.slice, ast.Tuple) and any(traced_bounds(e) for e in node.slice.elts):
            return ast.copy_location(self._slices(node.value, node.slice), node)
        if not computed_index(node.slice):
            return node
        return ast.copy_location(ast.Call(func=self.ctx.runtime('getitem'),
                                          args=[node.value, node.slice], keywords=[]), node)

    def _slice(self, value, index):
        """`ag.window(x, i, k)` for `x[i:i + k]`, else `ag.getslice(x, lower, upper, step)`."""
        width = _width(index)
        if width is not None:
            return ast.Call(func=self.ctx.runtime('window'),
                            args=[value, index.lower, width], keywords=[])
        bounds = [b if b is not None else ast.Constant(value=None)
                  for b in (index.lower, index.upper, index.step)]
        while len(bounds) > 1 and isinstance(bounds[-1], ast.Constant) and \
                bounds[-1].value is None:
            bounds.pop()
        return ast.Call(func=self.ctx.runtime('getslice'), args=[value, *bounds], keywords=[])

    def _slices(self, value, index):
        """`ag.windows(x, (ag.span(i, k), slice(a, b), ...))` for `x[i:i + k, a:b, ...]`."""
        items = []
        for item in index.elts:
            if isinstance(item, ast.Slice):
                width = _width(item)
                item = (ast.Call(func=self.ctx.runtime('span'), args=[item.lower, width],
                                 keywords=[]) if width is not None else
                        ast.Call(func=templates.name('slice'), args=[
                            b if b is not None else ast.Constant(value=None)
                            for b in (item.lower, item.upper, item.step)], keywords=[]))
            items.append(item)
        return ast.Call(func=self.ctx.runtime('windows'),
                        args=[value, ast.Tuple(elts=items, ctx=ast.Load())], keywords=[])

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


def _width(index):
    """`k` for the slice `i:i + k` (or `i:k + i`) whose start `i` has no calls, else None."""
    upper, lower = index.upper, index.lower
    if (index.step is not None or lower is None or not isinstance(upper, ast.BinOp)
            or not isinstance(upper.op, ast.Add)
            or any(isinstance(n, (ast.Call, ast.NamedExpr, ast.Await)) for n in ast.walk(lower))):
        return None
    for start, width in ((upper.left, upper.right), (upper.right, upper.left)):
        if ast.dump(start) == ast.dump(lower):
            return width
    return None


transform = _Indexing.transform
