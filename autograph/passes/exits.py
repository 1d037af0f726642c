"""`exit(code)`, `quit(code)` and `sys.exit(code)` statements -> `raise SystemExit(code)`.

Python's `sys.exit(code)` raises SystemExit(code) (the builtins `exit` and `quit`, which
the `site` module adds for the interactive prompt, do the same after closing stdin). As
a call, it would run while a staged branch is traced, ending the program on every path;
as a `raise`, passes.raises makes it a check when the program runs, as any `raise` under
a traced condition is:

    if f(a) * f(b) >= 0:                 ag.raise_if(f(a) * f(b) >= 0,
        exit(0)                   ->         lambda: SystemExit(0))

Only a statement calling the builtin (not a local or global of that name) or the `sys`
module's `exit` is rewritten; `os._exit`, which ends the process without raising, stays.
"""
import ast

from autograph.analysis.activity import scope_of
from autograph.passes.base import SCOPES, blocks
from autograph.passes.calls import Resolution

ONLY_WITH = ('exit', 'quit', 'sys')   # see analysis.census


def transform(function, ctx):
    local = scope_of(function).locals & {'exit', 'quit', 'sys'}
    if local != {'exit', 'quit', 'sys'} and _rewritten(function.body, ctx, local):
        ctx.census = ctx.census.adding(ast.Raise)   # (for passes.unreachable and raises)
    return function


def _rewritten(stmts, ctx, local):
    """Rewrite the exit statements of `stmts` and the blocks in them, in place; whether
    there was one. `local`: those of the names the function binds itself."""
    found = False
    for i, stmt in enumerate(stmts):
        if _is_exit(stmt, ctx, local):
            call = stmt.value
            stmts[i] = ast.copy_location(ast.Raise(exc=ast.copy_location(ast.Call(
                func=ast.Name(id='SystemExit', ctx=ast.Load()), args=call.args[:1],
                keywords=[]), call), cause=None), stmt)
            found = True
        elif not isinstance(stmt, SCOPES):
            for block in blocks(stmt):
                found = _rewritten(block, ctx, local) or found
    return found


def _is_exit(stmt, ctx, local):
    """`exit(...)`, `quit(...)` (the builtins) or `sys.exit(...)` as a statement, with at
    most one argument and no keywords."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return False
    call = stmt.value
    if len(call.args) > 1 or call.keywords or any(isinstance(a, ast.Starred)
                                                  for a in call.args):
        return False
    func = call.func
    if isinstance(func, ast.Name):
        return func.id in ('exit', 'quit') and func.id not in local and \
            ctx.resolver.classify(func.id) == Resolution.BUILTIN
    return (isinstance(func, ast.Attribute) and func.attr == 'exit'
            and isinstance(func.value, ast.Name) and func.value.id not in local
            and ctx.resolver.module_name(func.value.id) == 'sys')
