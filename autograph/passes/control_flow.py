"""`if`, `while` and `for` -> small functions of the state they change + one operator call.

    if c:                      def if_true(y):
        y = y * 2                  y = y * 2
    use(y)              ->         return y
                               def if_false(y):
                                   return y
                               y = ag.if_stmt(lambda: c, if_true, if_false, (y,),
                                              names=('y',))

A branch returns the variables it writes that are live after the `if`; it takes as
parameters those of them it may read first (or pass through). A loop carries the
variables it writes that are live at the top of an iteration (or after the loop). A
variable that must be passed in but may have no value yet starts as
`ag.Undefined('name')` at the top of its scope. An `if` without `else` passes `None` for the
false branch (the state is unchanged). An `if` that returns (in tail position, see
passes.returns) becomes `return ag.if_stmt(...)`.

A list that nothing reads, only appends to (`steps = [t0]`, `steps.append(t)`, and no
other use: analysis.logs.write_only_lists), comes out of none of them: its items are
never seen, so a staged loop need not carry a list of changing length.

A variable that nested functions can see (see analysis.scopes), or that the function
declares `global`/`nonlocal`, is not passed around: the branch and loop functions declare
it `nonlocal` (or `global`) and assign it in place, and the operator gets its name in
`nonlocals=(...)` (see runtime.state.nonlocals), so closures see its current value.

Runs last: `break`/`continue`/`return` in loops are already lowered, so the dataflow
analysis sees structured code only. Statements are converted innermost first.
"""
import ast

from autograph import templates
from autograph.analysis.activity import scope_of
from autograph.analysis.dataflow import Dataflow
from autograph.analysis.logs import write_only_lists
from autograph.analysis.mutation import Mutation
from autograph.analysis.scopes import sharing
from autograph.passes.base import SCOPES, blocks
from autograph.passes.conditionals import Conditionals
from autograph.passes.loops import Loops
from autograph.passes.statement_parts import StatementParts
from autograph.runtime.protocol import RETURN_VALUE


def transform(function, ctx):
    scope, flow = ctx.dataflow.pop(function, (None, None))
    if flow is None:
        extra_reads = {loop: [flag] for loop, flag in ctx.break_flags.items()}
        scope = scope_of(function)
        flow = Dataflow(function, extra_reads, scope.closures)
    shared = ctx.sharing.get(function) or sharing(function)
    mutation = Mutation(function, ctx.ag)
    converter = _ControlFlow(ctx, flow, mutation, scope, shared,
                             _return_values(mutation.assignments),
                             ctx.assigned_before_reads.get(function, frozenset()),
                             _aliasable(function, mutation.assignments),
                             ctx.user_objects.get(function, set()),
                             write_only_lists(function, mutation.assignments))
    body, pending = converter.block(function.body)
    params = flow.activity(function.args).writes
    docstring = body[:1] if _is_docstring(body[:1]) else []
    inits = converter.inits((pending | converter.unbound_cells) - params)
    function.body = docstring + inits + body[len(docstring):]
    return function


def _return_values(assignments):
    """The variables passes.returns made for the return value (`retval = ag.Undefined(
    'return')`): messages call them "the return value", and `names` says so."""
    return {target.id for node in assignments
            if isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute)
            and node.value.func.attr == 'Undefined' and node.value.args
            and isinstance(node.value.args[0], ast.Constant)
            and node.value.args[0].value == RETURN_VALUE
            for target in node.targets if isinstance(target, ast.Name)}


def _aliasable(function, assignments):
    """Names whose object other code may also hold: the parameters (the caller's), and
    names assigned to or from another name (`alias = out`), in `assignments`."""
    args = function.args
    names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    names |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    for node in assignments:
        if isinstance(node.value, ast.Name):
            names.add(node.value.id)
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names



def _is_docstring(stmts):
    return (len(stmts) == 1 and isinstance(stmts[0], ast.Expr)
            and isinstance(stmts[0].value, ast.Constant)
            and isinstance(stmts[0].value.value, str))


class _ControlFlow(Conditionals, Loops, StatementParts):
    """The converter of one function's `if`/`while`/`for` statements, innermost first:
    the statements (passes.conditionals, passes.loops) are built of the parts in
    passes.statement_parts."""

    def __init__(self, ctx, flow, mutation, scope, sharing, return_values=(),
                 unread=frozenset(), aliasable=frozenset(), user_objects=frozenset(),
                 write_only=frozenset()):
        self.ctx = ctx
        self.mutation = mutation     # in-place facts per statement (analysis.mutation)
        self.aliasable = aliasable   # names whose object other code may hold too
        self.user_objects = user_objects   # names bound only to objects of user classes
        self.write_only = write_only   # lists nothing reads (analysis.logs.write_only_lists)
        self.unread = unread         # variables Python never reads while unassigned
        self.return_values = return_values
        self.flow = flow
        self.locals, self.declared, self.order = scope.locals, scope.declared, scope.order
        self.sharing = sharing
        self.unbound_cells = set()   # shared locals that need a binding in the function
        self.loops = []              # the loops whose bodies are being converted
        self.after = {}              # statement -> (its block, the index after it)
        self.returning = {}          # statement -> whether it holds a return (`holds`)

    # --- blocks -------------------------------------------------------------------------

    def block(self, stmts):
        """Converted statements, and the names that must start as Undefined in scope."""
        out, pending = [], set()
        for i, stmt in enumerate(stmts):
            self.after[stmt] = (stmts, i + 1)   # (sliced where asked: a loop's)
            new, needs = self.statement(stmt)
            out += new
            pending |= needs
        return out, pending

    def statement(self, stmt):
        if isinstance(stmt, ast.If):
            return self.if_statement(stmt)
        if isinstance(stmt, ast.While):
            return self.while_statement(stmt)
        if isinstance(stmt, ast.For):
            return self.for_statement(stmt)
        if isinstance(stmt, ast.Delete):
            return self.delete(stmt), set()
        pending = set()
        if not isinstance(stmt, SCOPES):
            for block in blocks(stmt):
                block[:], needs = self.block(block)
                pending |= needs
        return [stmt], pending

    def delete(self, node):
        """`del v` of a local that may hold `ag.Undefined` here (a variable a loop or branch
        may leave without a value) checks it first: Python's `del` of an unbound name
        raises UnboundLocalError."""
        defined = self.flow.defined_in.get(node, frozenset())
        checks = [templates.statements('ag.check_defined(name)', ag=self.ctx.ag,
                                       name=target.id)[0]
                  for target in node.targets
                  if isinstance(target, ast.Name) and target.id in self.locals
                  and target.id not in defined]
        return templates.set_origin(checks, node) + [node]
