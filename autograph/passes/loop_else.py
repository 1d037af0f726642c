"""Lower a loop's `else` clause to code after the loop, so no later pass sees one.

Python runs a loop's `else` when the loop ends without `break`. A loop without a
`break` of its own always runs it, so it simply follows the loop; otherwise the `break`
flag guards it (passes.loop_exits sets the flag named in `ctx.break_flag_names`):

    for x in xs:                     for x in xs:
        if x == t:                       if x == t:
            i = x                            i = x
            break            ->              break
    else:                            if not did_break:
        i = -1                           i = -1

The clause is then part of the enclosing block, as it is in Python: a `return` in it
returns from the function, a `break` or `continue` in it exits or continues the
enclosing loop. Runs before passes.returns (whose returns in the loop body are breaks
that skip the clause too, and leave the function first).
"""
import ast

from autograph import templates
from autograph.analysis.census import LOOP_ELSE
from autograph.passes import unreachable
from autograph.passes.base import contains, map_loops

ONLY_WITH = (LOOP_ELSE,)   # see analysis.census


def transform(function, ctx):
    lowered = []
    function.body = map_loops(function.body,
                              lambda loop, inside_loop: _lower(loop, ctx, lowered))
    # A clause that ends with `return`/`raise` makes what follows the loop unreachable.
    return unreachable.transform(function, ctx) if lowered else function


def _lower(loop, ctx, lowered):
    orelse, loop.orelse = loop.orelse, []
    if not orelse:
        return [loop]
    lowered.append(loop)
    if not contains(loop.body, ast.Break):
        return [loop] + orelse
    flag = ctx.namer.new('did_break')
    ctx.break_flag_names[loop] = flag
    guarded = templates.statements('if not flag:\n    orelse', flag=flag, orelse=orelse)
    return [loop] + templates.set_origin(guarded, loop)
