"""Lower `break` and `continue` to flags, so loop bodies run straight through.

    while c:                          did_break = False
        x = f(x)                      while ag.not_(did_break) and c:
        if x > 9:              ->         x = f(x)
            break                         if x > 9:
        y = g(x)                              did_break = True
                                          if not did_break:
                                              y = g(x)

The statements after a (possibly nested) `break` are guarded by the flag; a `while`
tests it before its condition, a `for` stops when it is set (`ctx.break_flags`), and a
loop `else` runs only when it is not set. `continue` works the same way with a flag that
is reset at the top of every iteration.
"""
import ast

from autograph import templates
from autograph.passes.base import contains, guard_exits, map_loops


def transform(function, ctx):
    def visit(loop, inside_loop):
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
            if isinstance(loop, ast.While):
                loop.test = ast.BoolOp(op=ast.And(), values=[
                    ast.UnaryOp(op=ast.Not(), operand=templates.name(flag)), loop.test])
                templates.set_origin([loop.test], loop)
            else:
                ctx.break_flags[loop] = flag
            if loop.orelse:
                loop.orelse = templates.set_origin(templates.statements(
                    'if not flag:\n    orelse', flag=flag, orelse=loop.orelse), loop)
            out = init + out
        return out

    function.body = map_loops(function.body, visit)
    return function
