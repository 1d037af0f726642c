"""Zero-argument `super()` -> `super(__class__, self)`.

Python fills in `super()` from the function it is written in: the class being defined
(the `__class__` cell) and the function's first argument. Converted code moves statements
into small branch and loop functions, whose first argument is something else, so the
call names both explicitly (`self` being the method's own first parameter):

    def step(self, x):                      def step(self, x):
        if x > 0:                               def if_true(x):
            x = super().step(x)      ->             x = super(__class__, self).step(x)
        return x                                    return x
                                                ...
"""
import ast

from autograph import templates
from autograph.passes.base import walk_scope

ONLY_WITH = ('super',)   # see analysis.census


def transform(function, ctx):
    params = function.args.posonlyargs + function.args.args
    if not params:
        return function   # `super()` fails here in Python too
    for node in walk_scope(function):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == 'super' and not node.args and not node.keywords):
            node.args = [templates.name('__class__'), templates.name(params[0].arg)]
    return function
