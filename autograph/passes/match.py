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
the subject in its place), or, when the case has a guard, as soon as its pattern matches:
Python binds it before the guard runs, and it stays bound when the guard fails. A
subject that is not a plain name is evaluated once, into a variable. On Python values
the chain does what the `match` did.

Class, sequence and mapping patterns test a value's Python structure: such a `match`
stays as written, its subject wrapped in `ag.python_subject(...)`, which raises a
ControlFlowError naming the line when the subject is traced; the statements in its cases
are converted like those of any other block. A guard of such a case may still be traced
(`case Point(x, y) if x > y:` on a Point of arrays): the `match` is split at the first
guarded case, the guard becomes an `if`, and a flag tells whether the cases after it run
(`_split_at_guard`).
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
    structural = not all(_is_value_pattern(case.pattern) for case in node.cases)
    guarded = [i for i, case in enumerate(node.cases) if case.guard is not None]
    if structural and not guarded:
        node.subject = ast.copy_location(ast.Call(
            func=ctx.runtime('python_subject'), args=[node.subject], keywords=[]), node.subject)
        return [node]
    prefix, subject = _subject_name(node, ctx)
    if structural:
        return prefix + _split_at_guard(node, subject, guarded[0], ctx)
    chain = None
    for case in reversed(node.cases):
        test, binds = _test(case.pattern, subject)
        captures = templates.set_origin([ast.Assign(
            targets=[templates.name(b, ast.Store())], value=templates.name(subject.id),
            type_comment=None) for b in binds], case.pattern)
        before = []
        if case.guard is not None:
            guard = _Substitute(binds, subject.id).visit(case.guard)
            if captures:   # (Python binds them when the pattern matches, guard or not)
                before = captures if test is None else templates.set_origin(
                    [ast.If(test=test, body=captures, orelse=[])], case.pattern)
                captures = []
            test = guard if test is None else ast.BoolOp(op=ast.And(), values=[test, guard])
        body = captures + case.body
        if test is None:     # always matches: what follows can never run
            chain = body
            continue
        branch = ast.If(test=test, body=body, orelse=chain or [])
        chain = before + templates.set_origin([branch], case.pattern)
    return prefix + (chain or [])


def _subject_name(node, ctx):
    """(statements that evaluate the subject once, the Name that holds it)."""
    if isinstance(node.subject, ast.Name):
        return [], node.subject
    name = ctx.namer.new('subject')
    prefix = templates.set_origin(
        templates.statements('name = subject', name=name, subject=node.subject), node)
    return prefix, templates.name(name)


def _split_at_guard(node, subject, first, ctx):
    """A structural `match` whose case `first` has a guard, which may be traced:

        matched = False
        match subject:                        # the cases up to `first`, each
            case P:                           # recording that it was taken
                matched = True
                ...
            case Q:
                if guard:
                    matched = True
                    ...
        if not matched:
            match subject: ...                # the cases after `first`, lowered again

    The patterns test Python structure (the match stays Python); the guard becomes an
    `if`, staged when traced. Names a failed case bound stay bound, as in Python."""
    flag = ctx.namer.new('matched')
    ctx.census = ctx.census.adding(flag, ast.If, ast.UnaryOp, ast.Not, ast.Assign)
    cases = node.cases[:first + 1]
    for case in cases:
        mark = templates.set_origin(templates.statements('flag = True', flag=flag), case.pattern)
        case.body = mark + case.body
    guarded = cases[-1]
    guarded.body = templates.set_origin(
        [ast.If(test=guarded.guard, body=guarded.body, orelse=[])], guarded.guard)
    guarded.guard = None
    head = ast.Match(subject=ast.Call(func=ctx.runtime('python_subject'),
                                      args=[subject], keywords=[]), cases=cases)
    out = templates.statements('flag = False', flag=flag) + [head]
    rest = node.cases[first + 1:]
    if rest:
        tail = _lower_match(ast.copy_location(
            ast.Match(subject=templates.name(subject.id), cases=rest), rest[0].pattern), ctx)
        out.append(ast.If(test=ast.UnaryOp(op=ast.Not(), operand=templates.name(flag)),
                          body=tail, orelse=[]))
    return templates.set_origin(out, node)


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
