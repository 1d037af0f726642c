"""Reads of a variable that may be unbound -> `y = ag.check_defined(y)` before them.

    if x > 0:                      if x > 0:
        y = x * 2                      y = x * 2
    return y               ->      y = ag.check_defined(y)
                                   return y

A variable that an `if`, `while` or `for` may leave without a value (assigned in one
branch only, created by a loop that may run zero times, unbound by a `del`) is carried
by staged control flow as a placeholder with a "bound" flag (runtime.checks.absent). Each
statement that reads it where it may have no value (not definitely assigned there, and
not one Python never reads unassigned: analysis.definite) is preceded by the check, which
raises Python's UnboundLocalError on the path the program takes when it is unbound, and
gives the plain value otherwise. The check sits in the innermost block of the read, so a
read under a condition is checked only on that condition's path. Variables that nested
functions see, or that are declared global/nonlocal, are left to runtime.state.nonlocals.

Runs just before passes.control_flow, on structured code, and adds nothing to functions
without such variables.
"""
import ast

from autograph import templates
from autograph.analysis.activity import scope_of
from autograph.analysis.dataflow import Dataflow
from autograph.analysis.scopes import sharing
from autograph.passes.base import SCOPES, blocks, scope_statements
from autograph.passes.control_flow import _return_values


def transform(function, ctx):
    scope = scope_of(function)
    extra_reads = {loop: [flag] for loop, flag in ctx.break_flags.items()}
    flow = Dataflow(function, extra_reads, scope.closures)
    shared = (ctx.sharing.get(function) or sharing(function)).captured | set(scope.declared)
    unread = ctx.assigned_before_reads.get(function, frozenset())
    maybe = (_unbound_after_statements(function, flow) & scope.locals) - unread - shared
    if maybe:
        maybe -= _return_values([n for n in scope_statements(function)
                                 if isinstance(n, ast.Assign)])
    if maybe:
        function.body = _checked(function.body, flow, maybe, scope.order, ctx)
    else:   # nothing changed: passes.control_flow takes the same analyses
        ctx.dataflow[function] = (scope, flow)
    return function


def _unbound_after_statements(function, flow):
    """The names that an `if`/`while`/`for` may leave unbound while code after it reads
    them, and the names a `del` (or an `except ... as`) unbinds. (Where its test or
    iterable writes nothing, the statement's own activity, which passes.control_flow asks
    for too, says what its blocks write.)"""
    names = set()
    for node in scope_statements(function):
        if isinstance(node, (ast.If, ast.While, ast.For)) and node in flow.defined_in:
            head = node.iter if isinstance(node, ast.For) else node.test
            writes = (flow.activity(node.body + node.orelse) if flow.activity(head).writes
                      else flow.activity(node)).writes
            if isinstance(node, ast.For):
                writes |= flow.activity(node.target).writes
            live = flow.loop_head.get(node) or flow.live_out.get(node, frozenset())
            names |= (writes & live) - flow.defined_in[node]
        elif isinstance(node, ast.Delete):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.Try):   # (`except E as e` unbinds e after the handler)
            names |= {h.name for h in node.handlers if h.name}
    return frozenset(names)


def _checked(stmts, flow, maybe, order, ctx):
    out = []
    for stmt in stmts:
        defined = flow.defined_in.get(stmt)
        if defined is not None:
            deferred = _check_in_lambdas(stmt, maybe - defined, ctx)
            names = (_own_reads(stmt, flow) & maybe) - defined - deferred
            if len(names) > 1:   # (the first one Python reads is checked first)
                first = _first_reads(stmt)
                names = sorted(names, key=lambda n: (first.get(n, _LAST),
                                                     order.get(n, len(order)), n))
            out += templates.set_origin([templates.statements(
                'name = ag.check_defined(name)', name=n, ag=ctx.ag)[0] for n in names], stmt)
        if not isinstance(stmt, SCOPES):
            for block in blocks(stmt):
                block[:] = _checked(block, flow, maybe, order, ctx)
        out.append(stmt)
    return out


_LAST = (2, 1 << 30, 0)   # (names read by generated code, which has no lines)


def _first_reads(stmt):
    """{name: a key that orders the names `stmt` reads (outside lambdas) as Python reads
    them}: an assignment's value before its targets, else left to right. (The checks go
    in that order, so the UnboundLocalError names the variable Python's would.)"""
    first = {}
    value = getattr(stmt, 'value', None) if isinstance(
        stmt, (ast.Assign, ast.AnnAssign)) else None
    in_value = set(ast.walk(value)) if value is not None else set()
    in_lambdas = _in_lambdas(stmt)
    for node in _own_nodes(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) \
                and node not in in_lambdas:
            key = (0 if node in in_value or value is None else 1,
                   getattr(node, 'lineno', _LAST[1]), getattr(node, 'col_offset', 0))
            first[node.id] = min(first.get(node.id, key), key)
    return first


def _check_in_lambdas(stmt, names, ctx):
    """The `names` that `stmt` reads only inside lambdas (`return ag.if_exp(lambda: did_return,
    lambda: retval, lambda: y + 1)`, made by passes.returns): those reads become
    `ag.check_defined(y)` inside the lambda, so the check runs only where the lambda does
    (Python reads `y` only on that path)."""
    inside, outside, in_lambdas = set(), set(), _in_lambdas(stmt)
    for node in _own_nodes(stmt):
        if isinstance(node, ast.Lambda):
            inside |= {n.id for n in ast.walk(node.body) if isinstance(n, ast.Name)
                       and isinstance(n.ctx, ast.Load) and n.id in names}
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) \
                and node.id in names and node not in in_lambdas:
            outside.add(node.id)
    deferred = inside - outside
    if deferred:
        _Checks(deferred, ctx).visit(stmt)
    return deferred


def _own_nodes(stmt):
    """The nodes of `stmt`'s own expressions (not of the statements in its blocks)."""
    stack = [c for c in ast.iter_child_nodes(stmt) if not isinstance(c, ast.stmt)]
    while stack:
        node = stack.pop()
        yield node
        stack += [c for c in ast.iter_child_nodes(node) if not isinstance(c, ast.stmt)]


def _in_lambdas(stmt):
    """The nodes inside the lambdas of `stmt`'s own expressions."""
    return {n for node in _own_nodes(stmt) if isinstance(node, ast.Lambda)
            for n in ast.walk(node)}


class _Checks(ast.NodeTransformer):
    """`y` -> `ag.check_defined(y)` inside the lambdas of a statement."""

    def __init__(self, names, ctx):
        self.names, self.ctx, self.depth = names, ctx, 0

    def visit_Lambda(self, node):
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1
        return node

    def visit_Name(self, node):
        if self.depth and isinstance(node.ctx, ast.Load) and node.id in self.names:
            return ast.copy_location(ast.Call(func=self.ctx.runtime('check_defined'),
                                              args=[node], keywords=[]), node)
        return node


def _own_reads(stmt, flow):
    """The names `stmt` reads itself: a compound statement's test, iterable or context
    managers (its blocks are checked statement by statement), a simple one's all. (A
    `del` checks its own targets, see passes.control_flow.)"""
    if isinstance(stmt, (ast.If, ast.While)):
        return flow.activity(stmt.test).reads
    if isinstance(stmt, ast.For):
        return flow.activity(stmt.iter).reads
    if isinstance(stmt, ast.With):
        return flow.activity(stmt.items).reads
    if isinstance(stmt, ast.Match):
        return flow.activity(stmt.subject).reads
    if isinstance(stmt, (ast.Try, ast.Delete) + SCOPES):
        return frozenset()
    return flow.activity(stmt).reads
