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
import gast

from autograph import templates
from autograph.passes.base import contains, map_loops


def transform(function, ctx):
    def visit(loop, inside_loop):
        out = [loop]
        if contains(loop.body, gast.Continue):
            flag = ctx.namer.new('did_continue')
            body = _guard(loop.body, gast.Continue, flag, ctx)
            reset = templates.set_origin(templates.statements('flag = False', flag=flag), loop)
            loop.body = reset + body
        if contains(loop.body, gast.Break):
            flag = ctx.break_flag_names.get(loop) or ctx.namer.new('did_break')
            loop.body = _guard(loop.body, gast.Break, flag, ctx)
            init = templates.set_origin(templates.statements('flag = False', flag=flag), loop)
            if isinstance(loop, gast.While):
                loop.test = gast.BoolOp(op=gast.And(), values=[
                    gast.UnaryOp(op=gast.Not(), operand=templates.name(flag)), loop.test])
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


def _guard(stmts, kind, flag, ctx):
    """`stmts` with each `kind` statement replaced by `flag = True` and what follows it
    guarded by `if not flag:`."""
    out = []
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, kind):
            out.extend(templates.set_origin(
                templates.statements('flag = True', flag=flag), stmt))
            return out
        exits = contains([stmt], kind)
        if exits:
            for field in ('body', 'orelse', 'finalbody'):
                block = getattr(stmt, field, None)
                if isinstance(block, list) and not isinstance(stmt, (gast.While, gast.For)):
                    setattr(stmt, field, _guard(block, kind, flag, ctx))
            for handler in getattr(stmt, 'handlers', []):
                handler.body = _guard(handler.body, kind, flag, ctx)
        out.append(stmt)
        rest = stmts[i + 1:]
        if exits and rest:
            out.extend(templates.set_origin(templates.statements(
                'if not flag:\n    rest', flag=flag, rest=_guard(rest, kind, flag, ctx)),
                rest[0]))
            return out
    return out


