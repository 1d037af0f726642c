"""Values formatted into text, which must not be traced (see runtime.text).

    f'layer{i}'       -> f'layer{ag.text(i)}'
    '%d items' % n    -> '%d items' % ag.text(n)
    print(f'x={x}')   stays: print shows JAX's placeholder for a traced value, while
                      tracing (as do messages of `assert` and `raise`)

`str`, `repr` and `format` go to `ag.str`, ... with the other builtins (passes.calls).
"""
import ast

from autograph.passes.base import ScopeTransformer


class _Text(ScopeTransformer):
    def __init__(self, root, ctx):
        super().__init__(root, ctx)
        self.displayed = 0     # > 0 inside print(...), assert and raise messages

    def _checked(self, value):
        return ast.copy_location(ast.Call(func=self.ctx.runtime('text'), args=[value],
                                          keywords=[]), value)

    def visit_FormattedValue(self, node):
        self.generic_visit(node)
        if not self.displayed:
            node.value = self._checked(node.value)
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if (not self.displayed and isinstance(node.op, ast.Mod)
                and isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)):
            node.right = self._checked(node.right)
        return node

    def _displayed(self, node):
        self.displayed += 1
        try:
            self.generic_visit(node)
        finally:
            self.displayed -= 1
        return node

    visit_Raise = visit_Assert = _displayed

    def visit_Call(self, node):
        if _is_display(node.func, self.ctx.ag):
            return self._displayed(node)
        self.generic_visit(node)
        return node


def _is_display(func, ag):
    """`print(...)`, and the runtime's checks that earlier passes made of `assert` and
    `raise` statements (`ag.assert_(...)`, ...): their messages are text to show."""
    if isinstance(func, ast.Name):
        return func.id == 'print'
    return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id == ag and ('assert' in func.attr or 'raise' in func.attr))


transform = _Text.transform
