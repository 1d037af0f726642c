"""The `if` clauses of comprehensions -> `ag.comprehension_test(...)`.

    [y for y in ys if y > 2]   ->   [y for y in ys if ag.comprehension_test(y > 2)]

Which items a comprehension keeps decides how many it has, and a compiled program's
arrays have static shapes: a test on a traced value cannot be staged. The runtime check
passes Python values through (Python's meaning) and names the traced case with the user's
line, instead of JAX's TracerBoolConversionError. Runs after the expressions pass, so the
test is a single expression.
"""
import ast

from autograph.passes.base import ScopeTransformer

ONLY_WITH = (ast.comprehension,)   # see analysis.census


class _Tests(ScopeTransformer):
    def visit_comprehension(self, node):
        self.generic_visit(node)
        node.ifs = [ast.copy_location(ast.Call(func=self.ctx.runtime('comprehension_test'),
                                               args=[test], keywords=[]), test)
                    for test in node.ifs]
        return node


transform = _Tests.transform
