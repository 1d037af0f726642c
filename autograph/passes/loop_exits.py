"""Lower `break` and `continue` to flags, so loop bodies run straight through.

    while c:                          did_break = False
        x = f(x)                      while ag.not_(did_break) and c:
        if x > 9:              ->         x = f(x)
            break                         if x > 9:
        y = g(x)                              did_break = True
                                          if not did_break:
                                              y = g(x)

The statements after a (possibly nested) `break` are guarded by the flag; a `while`
tests it before its condition, and a `for` stops when it is set (`ctx.break_flags`).
A loop `else` is already code after the loop that tests the flag (passes.loop_else).
A `while` whose body starts with `if stop: break` needs no flag: it becomes
`while cond and not stop:`. `continue` works the same way with a flag that is reset at
the top of every iteration.
"""
import ast

from autograph import templates
from autograph.passes.base import contains, guard_exits, map_loops

ONLY_WITH = (ast.Break, ast.Continue)   # see analysis.census (passes.returns adds breaks)


def transform(function, ctx):
    def visit(loop, inside_loop):
        _fold_leading_break(loop, ctx)
        out = [loop]
        if contains(loop.body, ast.Continue):
            flag = ctx.namer.new('did_continue')
            body = guard_exits(loop.body, ast.Continue, flag)
            reset = templates.set_origin(templates.statements('flag = False', flag=flag), loop)
            loop.body = reset + body
        if contains(loop.body, ast.Break):
            flag = ctx.break_flag_names.get(loop) or ctx.namer.new('did_break')
            loop.body = guard_exits(loop.body, ast.Break, flag)
            init = templates.set_origin(templates.statements('flag = False', flag=flag), loop)
            ctx.exit_flags[loop] = flag
            if isinstance(loop, ast.While):
                loop.test = ast.BoolOp(op=ast.And(), values=[
                    ast.UnaryOp(op=ast.Not(), operand=templates.name(flag)), loop.test])
                templates.set_origin([loop.test], loop)
            else:
                ctx.break_flags[loop] = flag
            out = init + out
        return out

    function.body = map_loops(function.body, visit)
    return function


def _fold_leading_break(loop, ctx):
    """`while c: if stop: break ...` -> `while c and not stop: ...` (no flag needed).

    Only for a `while` whose break flag nothing reads after it (passes.loop_else and
    passes.returns name the flags they read in `ctx.break_flag_names`) and whose body
    starts with the `if ...: break`, so `stop` is evaluated exactly when Python would.
    """
    while (isinstance(loop, ast.While) and loop not in ctx.break_flag_names and loop.body
           and isinstance(loop.body[0], ast.If) and not loop.body[0].orelse
           and len(loop.body[0].body) == 1 and isinstance(loop.body[0].body[0], ast.Break)):
        stop = loop.body.pop(0).test
        loop.test = ast.copy_location(ast.BoolOp(op=ast.And(), values=[
            loop.test, ast.UnaryOp(op=ast.Not(), operand=stop)]), loop.test)
        loop.body = loop.body or [ast.Pass()]
