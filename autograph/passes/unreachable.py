"""Drop the statements Python never runs: those after a `return`, `raise`, `break` or
`continue` in the same block (or an `if` all of whose branches end so), and after a
`while True:` loop that has no `break` (its only exits are `return` and `raise`). A
`while` test made of constants only (`while 1 == 1:`, `while 1:`) is that `True`.

    while True:                    while True:
        x = f(x)                       x = f(x)
        if x > 9:          ->          if x > 9:
            return x                       return x
        continue
        x = 0
    return -1

Later passes then never see code that would need state it cannot have.
"""
import ast

from autograph.passes.base import LOOPS, SCOPES, blocks, contains

_ENDS_BLOCK = (ast.Return, ast.Raise, ast.Break, ast.Continue)


def transform(function, ctx):
    function.body = _reachable(function.body, {})
    return function


def _reachable(stmts, ending):
    """`stmts` up to the first that ends the block, each block inside them first (so
    `ending`, {id(if): whether it ends its block}, answers for the `if`s inside)."""
    out = []
    for stmt in stmts:
        if not isinstance(stmt, SCOPES):
            for block in blocks(stmt):
                block[:] = _reachable(block, ending)
        if isinstance(stmt, ast.While) and _constant_truth(stmt.test):
            stmt.test = ast.copy_location(ast.Constant(value=True), stmt.test)
        out.append(stmt)
        if _ends(stmt, ending):
            break
    return out


def _ends(stmt, ending):
    """True when nothing after `stmt` in its block can run. (An `if` is answered once,
    in `ending`: an `elif` chain of n branches is read in n steps, not n * n / 2.)"""
    if isinstance(stmt, ast.If):   # (no `all(...)`: see limits, Python 3.12)
        found = ending.get(id(stmt))
        if found is None:
            found = ending[id(stmt)] = bool(stmt.orelse) and _ends(
                stmt.body[-1], ending) and _ends(stmt.orelse[-1], ending)
        return found
    return isinstance(stmt, _ENDS_BLOCK) or is_endless(stmt)


def is_endless(stmt):
    """A `while` with a true constant condition and no `break` of its own: the code after
    it runs only if the loop `return`s... which leaves the function. (Its `else` never
    runs either.)"""
    return (isinstance(stmt, ast.While) and isinstance(stmt.test, ast.Constant)
            and bool(stmt.test.value) and not contains(stmt.body, ast.Break, LOOPS + SCOPES))


_CONSTANT_PARTS = (ast.Constant, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.unaryop,
                   ast.boolop, ast.cmpop, ast.expr_context)
"""(No arithmetic: `10 ** 10 ** 10` would take forever to compute here.)"""


def _constant_truth(test):
    """Whether `test` is made of constants only and is true (Python's truth of it)."""
    if isinstance(test, ast.Constant) or not all(
            isinstance(n, _CONSTANT_PARTS) for n in ast.walk(test)):
        return False
    try:
        return bool(eval(compile(ast.Expression(body=test), '<test>', 'eval'), {}))
    except Exception:   # (`1 < 'a'`: Python raises it when the loop starts; left to run)
        return False
