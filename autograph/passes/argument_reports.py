"""What a function that writes items of its parameters reports to its caller: the
array each written parameter's caller holds now (for passes.written_arguments, from
analysis.entry_values).

A parameter rebound after it was written reports the array it held before the
rebinding, kept as `a_arg`. Where it is the caller's array on some paths only (rebound
under an `if`, or in a loop), a flag follows it: `a_is_arg`, True at entry and False
after each rebinding, a Python bool where the paths are Python's and a traced one
where a staged `if` or loop merges them; `ag.given` picks the caller's array:

    def rebound_on_some_paths(a, c):       def rebound_on_some_paths(a, c):
        if c > 0:                              a_arg, a_is_arg = (a, True)
            a = a * 2                          if c > 0:
        a[0] = -1.0                                a_arg = a
        return a                                   a = a * 2
                                                   a_is_arg = False
                                               a[0] = -1.0
                                               return ag.written(a, a=ag.given(a_is_arg, a, a_arg))

(where both may reach a rebinding, in a loop: `a_arg = ag.given(a_is_arg, a, a_arg)`
before it). A function whose parameters are the caller's on every path or on none has
no flag.
"""
import ast

from autograph.analysis.walk import blocks
from autograph.analysis.written_parameters import positions_written, split_call
from autograph.passes.base import SCOPES, fix_missing_locations, scope_statements


def names_kept(entry, namer, given=None):
    """({parameter: the variable keeping the caller's array}, {parameter: its flag}).
    `given`: {parameter: (variable, flag)} named already (passes.views writes the views
    of a rebound parameter into the caller's array: the same variable)."""
    given = given or {}
    kept = set().union(*entry.returns.values()) | set(entry.flagged)
    saved = {name: given[name][0] if name in given else namer.new(f'{name}_arg')
             for name in sorted(kept)}
    return saved, {name: given[name][1] if name in given else namer.new(f'{name}_is_arg')
                   for name in entry.flagged}


def kept_by_calls(function, entry, resolve, ag):
    """{statement: parameters} of the statements `a = f(a)` where `f` writes `a` while
    `a` may be the caller's array: the call itself gives its write to `a_arg`
    (passes.written_arguments)."""
    return {stmt: {n for n in entry.saves.get(stmt, []) + entry.maybe_saves.get(stmt, [])
                   if written_by_call(stmt, n, resolve, ag)}
            for stmt in scope_statements(function)
            if stmt in entry.saves or stmt in entry.maybe_saves}


def follow(function, entry, saved, flags, by_call, ctx):
    """`a_arg = a` (or `ag.given(...)`) before each statement that rebinds a written
    parameter `a` while it may hold the caller's array, and `a_is_arg = False` after it
    for a flagged `a` (none where `by_call`: see `kept_by_calls`); both set at entry.
    Rebound by a part of a compound statement (`if (a := e):`, `with f() as a:`), the
    flag is unset before it, as the part runs first; by a `for` target, first in the
    loop's body (a loop that runs no iteration leaves the caller's array)."""
    def assign(name, value, stmt):
        return ast.fix_missing_locations(ast.copy_location(
            ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=value), stmt))

    def around(stmt):
        own, parts = by_call.get(stmt, ()), entry.parts.get(stmt, ())
        sure = [n for n in entry.saves.get(stmt, []) if n not in own]
        maybe = [n for n in entry.maybe_saves.get(stmt, []) if n not in own and n not in sure]
        before = [assign(saved[n], ast.Name(id=n, ctx=ast.Load()), stmt) for n in sure
                  if n in saved]
        before += [assign(saved[n], given(n, saved, flags, ctx), stmt) for n in maybe]
        unset = [n for n in sure + maybe if n in flags]
        targets = bound(stmt.target) if isinstance(stmt, ast.For) else ()
        stmt_body = getattr(stmt, 'body', [])
        stmt_body[:0] = [assign(flags[n], ast.Constant(False), stmt_body[0])
                         for n in unset if n in parts and n in targets]
        return (before + [assign(flags[n], ast.Constant(False), stmt) for n in unset
                          if n in parts and n not in targets]
                + [stmt] + [assign(flags[n], ast.Constant(False), stmt) for n in unset
                            if n not in parts])
    for block in [function.body] + [block for node in scope_statements(function)
                                    if not isinstance(node, SCOPES) for block in blocks(node)]:
        block[:] = [new for stmt in block for new in around(stmt)]
    body = function.body
    start = int(isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str))   # (after a docstring)
    body[start:start] = [ast.fix_missing_locations(ast.copy_location(ast.Assign(
        targets=[ast.Tuple(elts=[ast.Name(id=saved[n], ctx=ast.Store()),
                                 ast.Name(id=flags[n], ctx=ast.Store())], ctx=ast.Store())],
        value=ast.Tuple(elts=[ast.Name(id=n, ctx=ast.Load()), ast.Constant(True)],
                        ctx=ast.Load())), body[start])) for n in entry.flagged]


def given(name, saved, flags, ctx, value=None):
    """`ag.given(a_is_arg, a, a_arg)`: the caller's array now (`value` for `a`)."""
    return ast.Call(func=ctx.runtime('given'), args=[
        ast.Name(id=flags[name], ctx=ast.Load()), ast.Name(id=value or name, ctx=ast.Load()),
        ast.Name(id=saved[name], ctx=ast.Load())], keywords=[])


def written_by_call(stmt, name, resolve, ag):
    """Whether `stmt` is `name = f(..., name, ...)` (or `name, b = ...`) with `f` writing
    that argument."""
    if not (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call)
            and len(stmt.targets) == 1 and name in bound(stmt.targets[0])):
        return False
    func, args = split_call(stmt.value, ag)
    return any(isinstance(args[p], ast.Name) and args[p].id == name
               for p in positions_written(func, args, resolve))


def bound(target):
    """The names an assignment to `target` binds (`a`, `a, (b, c)`; not `a[i]`, `a.x`)."""
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, (ast.Tuple, ast.List)):
        return set().union(*map(bound, target.elts))
    if isinstance(target, ast.Starred):
        return bound(target.value)
    return set()


def report(function, entry, ctx, saved, flags):
    """`return v` -> `return ag.written(v, a=a)`; the same at the end of the body. A
    parameter rebound before a `return` reports the array it held before (`a=a_arg`),
    one rebound on some paths only the flag's choice (`a=ag.given(a_is_arg, a, a_arg)`)."""
    def reported(value, node):
        kept, maybe = entry.returns.get(node, ()), entry.maybe_returns.get(node, ())
        return ast.Call(func=ctx.runtime('written'), args=[value or ast.Constant(None)],
                        keywords=[ast.keyword(arg=name, value=given(name, saved, flags, ctx)
                                              if name in maybe else ast.Name(
                                                  id=saved[name] if name in kept else name,
                                                  ctx=ast.Load()))
                                  for name in entry.written])
    for node in scope_statements(function):   # (a `return` is a statement: no need to
        if isinstance(node, ast.Return):        # look inside expressions)
            node.value = ast.copy_location(reported(node.value, node), node)
    _fall_off(function.body, lambda last: ast.fix_missing_locations(ast.copy_location(
        ast.Return(value=reported(None, None)), last)))
    fix_missing_locations(function)


def _fall_off(body, make):
    """Every path through `body` that falls off its end returns `make(last statement)`.
    An `if` in tail position whose branches return (passes.returns puts them there) gets
    it in each branch: the control-flow pass reads what follows such an `if` as dead."""
    last = body[-1]
    if isinstance(last, ast.Return):
        return
    if isinstance(last, ast.If) and any(isinstance(n, ast.Return)
                                        for n in scope_statements(last)):
        _fall_off(last.body, make)
        if last.orelse:
            _fall_off(last.orelse, make)
        else:
            last.orelse = [make(last)]
        return
    body.append(make(last))
