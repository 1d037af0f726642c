"""Lower `return` so that every return is the last thing its function does.

1. In a loop, `return v` becomes `retval = v; break`, and after the loop
   `if did_return: return retval` (which the enclosing loop lowers in turn), where
   `did_return` is the loop's break flag. A loop with a `break` of its own sets
   `did_return = True` before breaking instead. `retval` starts as
   `ag.Undefined('return')` before the outermost such loop; staged control flow may fill
   it with zeros (the flag guards every read). After a `while True:` without `break`,
   whose only exit is a return, it is just `return retval`.
2. An `if` with a `return` inside takes the rest of its block into its branches that can
   complete normally, so returns end up in tail position:

       if c:                      if c:
           return a        ->         return a
       x = f(x)                   else:
       return x                       x = f(x)
                                      return x

   The conditional pass then turns such an `if` into `return ag.if_stmt(...)`; one whose
   branches are just `return a` and `return b` becomes `return a if c else b`.
3. A `with`, `try` or `match` (one that stays Python) with a return inside, followed by
   more code, sets the flag
   and `retval` as loops do; `if did_return: return retval` follows the block (so
   `finally` and `__exit__` run before the function returns, as in Python).
"""
import ast
import builtins

from autograph import templates
from autograph.analysis.walk import children
from autograph.passes.base import (LOOPS, SCOPES, blocks, contains, guard_exits, map_loops,
                                   may_hold)
from autograph.passes.unreachable import is_endless
from autograph.runtime.protocol import RETURN_VALUE

_NOT_IN_LOOPS = LOOPS + SCOPES


class _Flags:
    def __init__(self, ctx):
        self.ctx = ctx
        self.did_return = None
        self.retval = None

    def names(self):
        if self.did_return is None:
            self.did_return = self.ctx.return_flag = self.ctx.namer.new('did_return')
            self.retval = self.ctx.return_value = self.ctx.namer.new('retval')
        return self.did_return, self.retval


def transform(function, ctx):
    flags = _Flags(ctx)

    def visit(loop, inside_loop):
        if not contains(loop.body, ast.Return):
            return [loop]
        did_return, retval = flags.names()
        if ctx.census is not None:   # its returns become breaks (for passes.loop_exits)
            ctx.census = ctx.census.adding(ast.Break)
        # Without a `break` of its own, the loop's break flag can mean "returned".
        reuse_flag = not contains(loop.body, ast.Break)
        if reuse_flag:
            ctx.break_flag_names[loop] = did_return
        endless = is_endless(loop)
        loop.body = _replace_returns(loop.body, did_return, retval, set_flag=not reuse_flag)
        if endless:  # it ends by returning: no flag to test
            after = templates.statements('return retval', retval=retval)
        else:
            after = templates.statements('if did_return:\n    return retval',
                                         did_return=did_return, retval=retval)
        templates.set_origin(after, loop)
        if inside_loop:
            return [loop] + after
        init = templates.statements('retval = ag.Undefined(label)', retval=retval, ag=ctx.ag,
                                    label=ast.Constant(value=RETURN_VALUE))
        if not reuse_flag:
            init += templates.statements('did_return = False', did_return=did_return)
        templates.set_origin(init, loop)
        return init + [loop] + after

    if may_hold(ctx, ast.Return) and may_hold(ctx, ast.For, ast.While):
        function.body = map_loops(function.body, visit)   # (else no loop returns)
    function.body = _tail_returns(function.body, ctx, flags)
    return function


def _replace_returns(stmts, did_return, retval, set_flag):
    out = []
    for stmt in stmts:
        if isinstance(stmt, ast.Return):
            value = stmt.value or ast.Constant(value=None)
            new = [] if isinstance(value, ast.Name) and value.id == retval else \
                templates.statements('retval = value', retval=retval, value=value)
            if set_flag:
                new += templates.statements('did_return = True', did_return=did_return)
            new += [ast.Break()]
            out.extend(templates.set_origin(new, stmt))
            continue
        if not isinstance(stmt, _NOT_IN_LOOPS):
            for block in blocks(stmt):
                block[:] = _replace_returns(block, did_return, retval, set_flag)
        out.append(stmt)
    return out


def _always_returns(stmts):
    """Whether every path through `stmts` ends in a `return` or a `raise` (read without
    recursion: an `elif` chain is as deep as it is long)."""
    pending = [stmts]
    while pending:
        block = pending.pop()
        if not block:
            return False
        last = block[-1]
        if isinstance(last, ast.If):
            pending += [last.orelse, last.body]
        elif not isinstance(last, (ast.Return, ast.Raise)):
            return False
    return True


def _tail_returns(stmts, ctx, flags):
    """Move what follows an `if` containing a return into its non-returning branches.

    When more than one branch would need a copy of a long tail, the `if`'s returns set
    `retval` and `did_return` instead (as in loops), and what follows becomes
    `if did_return: return retval` + the rest, which needs no copy.
    """
    out = []
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, ast.If) and contains([stmt], ast.Return, SCOPES):
            rest = stmts[i + 1:]
            open_fields = [field for field in ('body', 'orelse')
                           if not _always_returns(getattr(stmt, field))]
            if rest and len(open_fields) > 1 and not _is_short(rest):
                return out + _flag_returns(stmt, rest, ctx, flags)
            for field in ('body', 'orelse'):
                block = getattr(stmt, field)
                if field in open_fields:   # the rest itself goes to the last open branch
                    block = block + (rest if field == open_fields[-1] else ctx.copy(rest))
                setattr(stmt, field, _tail_returns(block, ctx, flags))
            out.append(_as_conditional_expression(stmt))
            return out
        if isinstance(stmt, (ast.With, ast.Try, ast.Match)):
            rest = stmts[i + 1:]
            if rest and contains([stmt], ast.Return, SCOPES):
                # The block ends before the function does (`finally` and `__exit__` run
                # first): its returns set the flag, and the return happens after it.
                return out + _flag_returns(stmt, rest, ctx, flags)
            for block in blocks(stmt):
                block[:] = _tail_returns(block, ctx, flags)
        out.append(stmt)
    return out


def _is_short(stmts):
    """A few simple statements, cheap to copy into each branch (which, unlike a flag,
    keeps variables assigned only on the paths that reach them out of the state)."""
    return len(stmts) <= 3 and not any(isinstance(s, (ast.If, ast.With, ast.Try, ast.Match)
                                           + LOOPS + SCOPES) for s in stmts)


def _flag_returns(stmt, rest, ctx, flags):
    did_return, retval = flags.names()

    def assign_value(ret):
        value = ret.value or ast.Constant(value=None)
        return templates.statements('retval = value', retval=retval, value=value)
    init = templates.statements(
        'did_return = False\nretval = ag.Undefined(label)', did_return=did_return,
        retval=retval, ag=ctx.ag, label=ast.Constant(value=RETURN_VALUE))
    (lowered,) = guard_exits([stmt], ast.Return, did_return, assign_value)
    after = templates.statements('if did_return:\n    return retval', did_return=did_return,
                                 retval=retval)
    templates.set_origin(init + after, stmt)
    return init + [lowered] + _tail_returns(after + rest, ctx, flags)


def _as_conditional_expression(stmt):
    """`if c: return a else: return b` -> `return a if c else b`, where neither value
    calls a function by its bare name (a helper that writes items of its arguments must
    be a statement of its own for its writes to reach the caller's array, see
    passes.written_arguments: `if c: return h(a)` stays an `if`)."""
    if all(len(b) == 1 and isinstance(b[0], ast.Return) for b in (stmt.body, stmt.orelse)) \
            and not any(_calls_by_name(b[0].value) for b in (stmt.body, stmt.orelse)):
        none = ast.Constant(value=None)
        expression = ast.IfExp(test=stmt.test, body=stmt.body[0].value or none,
                                orelse=stmt.orelse[0].value or none)
        expression.calls_no_name = True   # (a chain of elifs is checked once per level)
        return ast.copy_location(ast.Return(value=ast.copy_location(expression, stmt)),
                                  stmt)
    return stmt


def _calls_by_name(node):
    """Whether expression `node` calls a name that is not a builtin (`h(a)`); the
    conditional expressions made here are known not to."""
    stack = [] if node is None else [node]
    while stack:
        node = stack.pop()
        if getattr(node, 'calls_no_name', False):
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and not hasattr(builtins, node.func.id):
            return True
        stack += children(node)
    return False
