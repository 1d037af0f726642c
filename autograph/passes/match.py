"""`match` -> an `if`/`elif` chain, so a traced subject is staged like one.

    match k:                              if k == 0 or k == 1:
        case 0 | 1:                           y = x
            y = x                 ->      elif k == 2 and x > 0:
        case 2 if x > 0:                      y = -x
            y = -x                        else:
        case n:                               n = k
            y = x * n                         y = x * n

Value patterns compare with `==`, `None`/`True`/`False` with `is`, as `match` does; a
capture (`case n:`, `... as n`) assigns the subject when its case is taken (a guard reads
the subject in its place). A subject that is not a plain name is evaluated once, into a
variable. On Python values the chain does what the `match` did.

Class, sequence and mapping patterns test a value's Python structure: such a `match`
stays as written, its subject wrapped in `ag.python_subject(...)`, which raises a
ControlFlowError naming the line when the subject is traced; the statements in its cases
are converted like those of any other block.
"""
import ast

from autograph import templates
from autograph.passes import unreachable
from autograph.passes.base import SCOPES, blocks

ONLY_WITH = (ast.Match,)   # see analysis.census


def transform(function, ctx):
    function.body = _lower(function.body, ctx)
    ctx.census = ctx.census.adding(ast.Is)   # `case None:` -> `subject is None`
    # A chain whose branches all end (`return`, `break`, ...) makes what follows it
    # unreachable.
    return unreachable.transform(function, ctx)


def _lower(stmts, ctx):
    out = []
    for stmt in stmts:
        if isinstance(stmt, SCOPES):
            out.append(stmt)
            continue
        for block in blocks(stmt):
            block[:] = _lower(block, ctx)
        if isinstance(stmt, ast.Match):
            out.extend(_lower_match(stmt, ctx))
        else:
            out.append(stmt)
    return out


def _lower_match(node, ctx):
    if not all(_is_value_pattern(case.pattern) for case in node.cases):
        node.subject = ast.copy_location(ast.Call(
            func=ctx.runtime('python_subject'), args=[node.subject], keywords=[]), node.subject)
        return [node]
    prefix = []
    subject = node.subject
    if not isinstance(subject, ast.Name):
        name = ctx.namer.new('subject')
        prefix = templates.set_origin(
            templates.statements('name = subject', name=name, subject=subject), node)
        subject = templates.name(name)
    chain = None
    for case in reversed(node.cases):
        test, binds = _test(case.pattern, subject)
        if case.guard is not None:
            guard = _Substitute(binds, subject.id).visit(case.guard)
            test = guard if test is None else ast.BoolOp(op=ast.And(), values=[test, guard])
        body = [ast.Assign(targets=[templates.name(b, ast.Store())], value=templates.name(
            subject.id), type_comment=None) for b in binds] + case.body
        templates.set_origin(body[:len(binds)], case.pattern)
        if test is None:     # always matches: what follows can never run
            chain = body
            continue
        branch = ast.If(test=test, body=body, orelse=chain or [])
        chain = templates.set_origin([branch], case.pattern)
    return prefix + (chain or [])


def _is_value_pattern(pattern):
    if isinstance(pattern, (ast.MatchValue, ast.MatchSingleton)):
        return True
    if isinstance(pattern, ast.MatchOr):
        return all(_is_value_pattern(p) for p in pattern.patterns)
    if isinstance(pattern, ast.MatchAs):
        return pattern.pattern is None or _is_value_pattern(pattern.pattern)
    return False


def _test(pattern, subject):
    """(the test of `pattern` on `subject` or None when it always matches, names bound)."""
    if isinstance(pattern, ast.MatchValue):
        return ast.Compare(left=subject, ops=[ast.Eq()], comparators=[pattern.value]), []
    if isinstance(pattern, ast.MatchSingleton):
        return ast.Compare(left=subject, ops=[ast.Is()],
                           comparators=[ast.Constant(value=pattern.value)]), []
    if isinstance(pattern, ast.MatchOr):
        tests = [_test(p, subject) for p in pattern.patterns]
        if any(t is None for t, _ in tests):
            return None, []
        return ast.BoolOp(op=ast.Or(), values=[t for t, _ in tests]), []
    # MatchAs: `case _`, `case n`, `case <value pattern> as n`
    test, binds = _test(pattern.pattern, subject) if pattern.pattern is not None else (None, [])
    return test, binds + ([pattern.name] if pattern.name else [])


class _Substitute(ast.NodeTransformer):
    """A guard reads the subject where it reads a name the case captures."""

    def __init__(self, names, subject):
        self.names, self.subject = set(names), subject

    def visit_Name(self, node):
        if node.id in self.names and isinstance(node.ctx, ast.Load):
            return ast.copy_location(templates.name(self.subject), node)
        return node
