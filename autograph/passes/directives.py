"""Read `autograph.set_loop_options(...)` directives: the first statement of a loop.

The directive is removed from the loop and its keywords recorded in
`ctx.loop_options[loop]`; the loop pass passes them to `while_stmt`/`for_stmt`.
`maximum_iterations` applies to `while` loops, `unroll` and `sequential_sums` to `for`
loops.
"""
import ast

from autograph.analysis.census import DIRECTIVE
from autograph.errors import unsupported
from autograph.passes.base import map_loops

ONLY_WITH = (DIRECTIVE, 'set_loop_options')   # see analysis.census

OPTIONS = {ast.While: ('maximum_iterations', 'autodiff'),
           ast.For: ('unroll', 'autodiff', 'sequential_sums')}


def _is_directive(stmt):
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return False
    func = stmt.value.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, 'id', None)
    return name == 'set_loop_options'


def transform(function, ctx):
    def visit(loop, inside_loop):
        if loop.body and _is_directive(loop.body[0]):
            call = loop.body[0].value
            known = OPTIONS.get(type(loop), ())
            kind = 'while' if isinstance(loop, ast.While) else 'for'
            for keyword in call.keywords:
                if keyword.arg not in known:
                    raise unsupported(f'unknown option {keyword.arg!r} for a `{kind}` loop; '
                                      f'known: {", ".join(known)}', ctx, call)
            ctx.loop_options[loop] = call.keywords
            loop.body = loop.body[1:] or [ast.Pass()]
        return [loop]
    function.body = map_loops(function.body, visit)
    return function
