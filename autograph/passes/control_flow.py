"""`if`, `while` and `for` -> small functions of the state they change + one operator call.

    if c:                      def if_true(y):
        y = y * 2                  y = y * 2
    use(y)              ->         return y
                               def if_false(y):
                                   return y
                               y = ag.if_stmt(c, if_true, if_false, (y,), names=('y',))

A branch returns the variables it writes that are live after the `if`; it takes as
parameters those of them it may read first (or pass through). A loop carries the
variables it writes that are live at the top of an iteration (or after the loop). A
variable that must be passed in but may have no value yet starts as
`ag.Undefined('name')` at the top of its scope. An `if` without `else` passes `None` for the
false branch (the state is unchanged). An `if` that returns (in tail position, see
passes.returns) becomes `return ag.if_stmt(...)`.

A variable that nested functions can see (see analysis.scopes), or that the function
declares `global`/`nonlocal`, is not passed around: the branch and loop functions declare
it `nonlocal` (or `global`) and assign it in place, and the operator gets its name in
`nonlocals=(...)` (see runtime.nonlocals), so closures see its current value.

Runs last: `break`/`continue`/`return` in loops are already lowered, so the dataflow
analysis sees structured code only. Statements are converted innermost first.
"""
import ast
import copy

from autograph import templates
from autograph.analysis.activity import scope_of
from autograph.analysis.dataflow import Dataflow
from autograph.analysis.scopes import sharing
from autograph.analysis.mutation import assigned_attributes, changed_in_place, rebound
from autograph.errors import unsupported
from autograph.passes.base import SCOPES, blocks, contains, negation
from autograph.runtime.state import RETURN_VALUE


def transform(function, ctx):
    extra_reads = {loop: [flag] for loop, flag in ctx.break_flags.items()}
    scope = scope_of(function)
    flow = Dataflow(function, extra_reads, scope.closures)
    shared = ctx.sharing.get(function) or sharing(function)
    converter = _ControlFlow(ctx, flow, scope, shared, _return_values(function),
                             ctx.assigned_before_reads.get(function, frozenset()),
                             _aliasable(function), ctx.user_objects.get(function, set()))
    body, pending = converter.block(function.body)
    params = flow.activity(function.args).writes
    docstring = body[:1] if _is_docstring(body[:1]) else []
    inits = converter.inits((pending | converter.unbound_cells) - params)
    function.body = docstring + inits + body[len(docstring):]
    return function


def _return_values(function):
    """The variables passes.returns made for the return value (`retval = ag.Undefined(
    'return')`): messages call them "the return value", and `names` says so."""
    return {target.id for node in ast.walk(function) if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute)
            and node.value.func.attr == 'Undefined' and node.value.args
            and isinstance(node.value.args[0], ast.Constant)
            and node.value.args[0].value == RETURN_VALUE
            for target in node.targets if isinstance(target, ast.Name)}


def _aliasable(function):
    """Names whose object other code may also hold: the parameters (the caller's), and
    names assigned to or from another name (`alias = out`)."""
    args = function.args
    names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    names |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name):
            names.add(node.value.id)
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def _appended_lists(body):
    """Names of the lists that `body` grows with `append`/`extend`/`insert`."""
    return {n.func.value.id for stmt in body for n in ast.walk(stmt)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr in ('append', 'extend', 'insert')
            and isinstance(n.func.value, ast.Name)}


def _is_docstring(stmts):
    return (len(stmts) == 1 and isinstance(stmts[0], ast.Expr)
            and isinstance(stmts[0].value, ast.Constant)
            and isinstance(stmts[0].value.value, str))


class _ControlFlow:
    def __init__(self, ctx, flow, scope, sharing, return_values=(), unread=frozenset(),
                 aliasable=frozenset(), user_objects=frozenset()):
        self.ctx = ctx
        self.aliasable = aliasable   # names whose object other code may hold too
        self.user_objects = user_objects   # names bound only to objects of user classes
        self.unread = unread         # variables Python never reads while unassigned
        self.return_values = return_values
        self.flow = flow
        self.locals, self.declared, self.order = scope.locals, scope.declared, scope.order
        self.sharing = sharing
        self.unbound_cells = set()   # shared locals that need a binding in the function

    # --- blocks -------------------------------------------------------------------------

    def block(self, stmts):
        """Converted statements, and the names that must start as Undefined in scope."""
        out, pending = [], set()
        for stmt in stmts:
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

    # --- if -----------------------------------------------------------------------------

    def if_statement(self, node):
        links = _chain(node)
        if len(links) > 1:
            return self.chain_statement(links)
        shared = self.shared(node)
        writes = self.modified(node.body + node.orelse) - set(shared)
        returns = contains([node], ast.Return, SCOPES)
        outs = [] if returns else self.ordered(writes & self.live_after(node))
        live_in = (self.flow.block_live_in(node.body, frozenset(outs), record=False)
                   | self.flow.block_live_in(node.orelse, frozenset(outs), record=False))
        params = self.ordered(writes & live_in)
        pending = set(params) - self.flow.defined_in[node]
        fields = self.fields(node.body + node.orelse)

        body, body_pending = self.block(node.body)
        orelse, orelse_pending = self.block(node.orelse)
        true_name = self.ctx.namer.new('if_true')
        functions = [self.function(true_name, params, body, outs, body_pending, shared)]
        if not orelse and params == outs and not returns:
            false_branch = ast.Constant(value=None)  # no else: state unchanged
        else:
            false_name = self.ctx.namer.new('if_false')
            functions.append(self.function(false_name, params, orelse, outs, orelse_pending,
                                           shared))
            false_branch = templates.name(false_name)
        names = [RETURN_VALUE] if returns else outs
        maybe_undefined = set(outs) - self.flow.defined_in[node]
        returned = self.returned_branch(node) if maybe_undefined else None
        call = self.operator('if_stmt', [node.test, templates.name(true_name), false_branch],
                             params, names, ([ast.keyword(
                                 arg='returned', value=ast.Constant(value=returned))]
                                 if returned else []) + fields, shared)
        if returns:
            result = ast.Return(value=call)
        else:
            result = self.assign(outs, call)
        return templates.set_origin(functions + [result], node), pending

    def chain_statement(self, links):
        """`if`/`elif`/.../`else` -> one function per branch + one `ag.if_chain`, the
        tests as functions of no arguments (they run before any branch does)."""
        node = links[0]
        shared = self.shared(node)
        writes = self.modified(node.body + node.orelse) - set(shared)
        returns = contains([node], ast.Return, SCOPES)
        outs = [] if returns else self.ordered(writes & self.live_after(node))
        bodies = [link.body for link in links] + [links[-1].orelse]
        live_in = frozenset().union(*[
            self.flow.block_live_in(body, frozenset(outs), record=False) for body in bodies])
        params = self.ordered(writes & live_in)
        pending = set(params) - self.flow.defined_in[node]
        fields = self.fields(node.body + node.orelse)

        functions, branches = [], []
        for i, body in enumerate(bodies):
            converted, body_pending = self.block(body)
            if i == len(links) and not converted and params == outs and not returns:
                branches.append(ast.Constant(value=None))  # no else: state unchanged
                continue
            name = self.ctx.namer.new(
                'if_true' if i == 0 else 'if_false' if i == len(links) else 'elif_true')
            functions.append(self.function(name, params, converted, outs, body_pending,
                                           shared))
            branches.append(templates.name(name))
        tests = ast.Tuple(elts=[templates.thunk(link.test) for link in links],
                          ctx=ast.Load())
        names = [RETURN_VALUE] if returns else outs
        maybe_undefined = set(outs) - self.flow.defined_in[node]
        returned = self.returned_branches(links) if maybe_undefined else []
        keywords = [ast.keyword(arg='returned', value=ast.Tuple(
            elts=[ast.Constant(value=i) for i in returned], ctx=ast.Load()))] if returned else []
        call = self.operator('if_chain', [tests, ast.Tuple(elts=branches, ctx=ast.Load())],
                             params, names, keywords + fields, shared)
        result = ast.Return(value=call) if returns else self.assign(outs, call)
        return templates.set_origin(functions + [result], node), pending

    def returned_branches(self, links):
        """The branches of a chain taken only once the function has returned (see
        `returned_branch`): those after a `not did_return` test, and those that end by
        setting `did_return`."""
        found = []
        for i, link in enumerate(links):
            kind = self.returned_branch(ast.If(test=link.test, body=link.body, orelse=[]))
            if kind == 'false':
                return found + list(range(i + 1, len(links) + 1))
            if kind == 'true':
                found.append(i)
        else_kind = self.returned_branch(ast.If(test=ast.Constant(value=True),
                                                body=links[-1].orelse, orelse=[]))
        return found + ([len(links)] if else_kind == 'true' else [])

    def returned_branch(self, node):
        """'true' or 'false' when that branch of `node` is taken only once the function
        has returned (its `did_return` flag is set: passes.returns guards every later
        statement with it), so the values it leaves undefined are never read."""
        flag = self.ctx.return_flag
        if flag is None:
            return None
        test = node.test
        if isinstance(test, ast.Call) and getattr(test.func, 'attr', None) == 'not_':
            test = test.args[0]
        elif isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test = test.operand
        else:
            test = None
        if isinstance(test, ast.Name) and test.id == flag:
            return 'false'  # `if not did_return: ...`
        for name, block in (('true', node.body), ('false', node.orelse)):
            last = block[-1] if block else None
            if (isinstance(last, ast.Assign) and isinstance(last.targets[0], ast.Name)
                    and last.targets[0].id == flag and isinstance(last.value, ast.Constant)
                    and last.value.value is True):
                return name
        return None

    # --- loops --------------------------------------------------------------------------

    def while_statement(self, node):
        if any(isinstance(n, ast.NamedExpr) for n in ast.walk(node.test)):
            raise unsupported('an assignment expression (:=) in a `while` condition cannot '
                              'be converted: assign before the loop and at the end of its '
                              'body instead', self.ctx, node.test)
        shared = self.shared(node)
        carried = self.ordered((self.modified(node.body) - set(shared)) & self.live_after(node))
        pending = set(carried) - self.flow.defined_in[node]
        fields = self.fields(node.body)
        body, body_pending = self.block(node.body)
        orelse, orelse_pending = self.block(node.orelse)
        test_name = self.ctx.namer.new('loop_test')
        body_name = self.ctx.namer.new('loop_body')
        test = templates.function(test_name, carried, [ast.Return(value=node.test)])
        functions = [test, self.function(body_name, carried, body, carried, body_pending,
                                         shared)]
        call = self.operator('while_stmt', [templates.name(test_name),
                                            templates.name(body_name)], carried, carried,
                             self.ctx.loop_options.get(node, []) + fields, shared)
        new = functions + [self.assign(carried, call)]
        return templates.set_origin(new, node) + orelse, pending | orelse_pending

    def for_statement(self, node):
        shared = self.shared(node)
        targets = self.flow.activity(node.target).writes
        carried = self.ordered(((self.modified(node.body) | targets) - set(shared))
                               & self.live_after(node))
        pending = set(carried) - self.flow.defined_in[node]
        fields = self.fields(node.body)
        body, body_pending = self.block(node.body)
        orelse, orelse_pending = self.block(node.orelse)
        if isinstance(node.target, ast.Name) and node.target.id not in carried + shared:
            item = node.target.id
        else:
            item = self.ctx.namer.new('item')
            body = templates.statements('target = item', target=node.target, item=item) + body
        body_name = self.ctx.namer.new('loop_body')
        functions = [self.function(body_name, [item] + carried, body, carried,
                                   body_pending - targets, shared)]
        keywords = []
        flag = self.ctx.break_flags.get(node)
        if flag is not None:
            test_name = self.ctx.namer.new('loop_test')
            functions.append(templates.function(
                test_name, carried, [ast.Return(value=negation(self.ctx, flag))]))
            keywords.append(ast.keyword(arg='extra_test', value=templates.name(test_name)))
            if isinstance(node.iter, ast.Name) and node.iter.id in self.live_after(node):
                # An iterator read again after a `break` (see ag.for_stmt)
                keywords.append(ast.keyword(arg='iterator',
                                            value=ast.Constant(value=node.iter.id)))
        aliased = [n for n in carried if n in self.aliasable & _appended_lists(node.body)]
        if aliased:   # lists that must stay the same object (see ag.for_stmt)
            keywords.append(ast.keyword(arg='aliased', value=templates.strings(aliased)))
        keywords += self.ctx.loop_options.get(node, [])
        call = self.operator('for_stmt', [node.iter, templates.name(body_name)], carried,
                             carried, keywords + fields, shared)
        new = functions + [self.assign(carried, call)]
        return templates.set_origin(new, node) + orelse, pending | orelse_pending

    # --- building blocks ----------------------------------------------------------------

    def function(self, name, params, body, outs, pending, shared):
        """`def name(*params): <declarations> <inits> body; return outs`."""
        declarations = [
            (ast.Global if self.declared.get(n) == 'global' else ast.Nonlocal)(names=[n])
            for n in shared]
        body = declarations + self.inits(pending - set(params)) + _deleted(body, outs, self.ctx)
        if outs:
            body.append(ast.Return(value=templates.names_tuple(outs)))
        return templates.function(name, params, body or [ast.Pass()])

    def operator(self, op, args, state, names, keywords=(), shared=()):
        """`ag.op(*args, (state,), names=(...), **keywords, nonlocals=(...))`, leaving out
        what is empty."""
        if state:
            args = args + [templates.tuple_of(state)]
        keywords = list(keywords)
        if names:
            names = [RETURN_VALUE if n in self.return_values else n for n in names]
            keywords.insert(0, ast.keyword(arg='names', value=templates.strings(names)))
        if shared:
            keywords.append(ast.keyword(arg='nonlocals', value=templates.strings(shared)))
        return ast.Call(func=self.ctx.runtime(op), args=args, keywords=keywords)

    def assign(self, outs, call):
        if not outs:
            return ast.Expr(value=call)
        return ast.Assign(targets=[templates.names_tuple(outs, ast.Store())], value=call,
                           type_comment=None)

    def inits(self, names):
        """`name = ag.Undefined('name')`; `unread=True` when Python never reads `name`
        while it is unassigned, so that staged code may fill it (see runtime.state)."""
        return [templates.statements(
            'name = ag.Undefined(label, unread=True)' if n in self.unread else
            'name = ag.Undefined(label)', name=n, ag=self.ctx.ag,
            label=ast.Constant(value=n))[0] for n in self.ordered(names)]

    def shared(self, node):
        """The variables statement `node` changes that must be assigned in place: those
        nested functions can see, and declared global/nonlocal ones, including those the
        nested functions it calls assign. (Locals that may have no value before `node`
        get one at the top of the function: a `nonlocal` declaration needs a binding.)"""
        used = self.flow.activity(node)
        names = used.writes & (self.sharing.captured | set(self.declared))
        for writer, assigned in self.sharing.writers.items():
            if writer in used.reads or (writer in self.sharing.escaped and _calls(node)):
                names |= assigned
        self.unbound_cells |= (names & self.locals) - self.flow.defined_in[node]
        return self.ordered(names)

    def live_after(self, node):
        """What must come out of `node`: the variables live after it (at a loop's head),
        and those whose objects it changes in place, which other references may see."""
        live = self.flow.loop_head[node] if node in self.flow.loop_head \
            else self.flow.live_out[node]
        return live | changed_in_place([node], self.ctx.ag)

    def fields(self, stmts):
        """`fields=lambda: {'self.count': (self, 'count')}`: the attributes `stmts` assign,
        carried as state when the statement is staged (see runtime/mutation.py)."""
        attributes = assigned_attributes(stmts, self.ctx.ag)
        calls = self.method_calls(stmts)
        if not attributes and not calls:
            return []
        table = ast.Dict(
            keys=[ast.Constant(value=label) for label in attributes] + [None] * len(calls),
            values=[ast.Tuple(elts=[copy.deepcopy(holder), ast.Constant(value=attr)],
                              ctx=ast.Load()) for holder, attr in attributes.values()]
            + [ast.Call(func=self.ctx.runtime('method_fields'),
                        args=[ast.Name(id=name, ctx=ast.Load()), ast.Constant(value=method),
                              ast.Constant(value=name)], keywords=[])
               for name, method in calls])
        return [ast.keyword(arg='fields', value=templates.thunk(table))]

    def method_calls(self, stmts):
        """(object, method) of the converted calls `obj.method(...)` in `stmts` on a local
        object they do not rebind: the method may assign `obj`'s attributes (see
        runtime/method_state.py)."""
        found = []
        skip = rebound(stmts, self.ctx.ag)
        for stmt in stmts:
            for node in ast.walk(stmt):
                if not isinstance(node, ast.Call):
                    continue
                through_ag = (isinstance(node.func, ast.Attribute) and node.func.attr == 'call'
                              and isinstance(node.func.value, ast.Name)
                              and node.func.value.id == self.ctx.ag and node.args)
                target = node.args[0] if through_ag else node.func
                if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)):
                    continue
                name = target.value.id
                known = name in self.user_objects or (through_ag and name in self.locals)
                if known and name not in skip and (name, target.attr) not in found:
                    found.append((name, target.attr))
        return found

    def modified(self, stmts):
        """Local variables that `stmts` assign or mutate (not globals, not closures)."""
        return self.flow.activity(stmts).writes & self.locals

    def ordered(self, names):
        return sorted(names, key=lambda n: (self.order.get(n, len(self.order)), n))


def _chain(node):
    """The `if` statements of an `if`/`elif` chain starting at `node`: each next one is
    the whole `else` of the one before. (A test with `:=` stays nested: it assigns a
    variable, which a test run as a function could not.)"""
    links = [node]
    while len(links[-1].orelse) == 1 and isinstance(links[-1].orelse[0], ast.If):
        links.append(links[-1].orelse[0])
    for i, link in enumerate(links):
        if any(isinstance(n, ast.NamedExpr) for n in ast.walk(link.test)):
            return links[:max(i, 1)]
    return links


def _calls(node):
    return any(isinstance(n, ast.Call) for n in ast.walk(node))


def _deleted(stmts, outs, ctx):
    """`stmts` where `del v` of a variable the function returns becomes
    `v = ag.Undefined('v')`: the variable leaves the branch or loop body without a value."""
    out = []
    for stmt in stmts:
        if isinstance(stmt, ast.Delete) and any(
                isinstance(t, ast.Name) and t.id in outs for t in stmt.targets):
            for target in stmt.targets:
                if isinstance(target, ast.Name) and target.id in outs:
                    new = templates.statements('name = ag.Undefined(label)', name=target.id,
                                               ag=ctx.ag, label=ast.Constant(value=target.id))
                else:
                    new = [ast.Delete(targets=[target])]
                out += templates.set_origin(new, stmt)
            continue
        if not isinstance(stmt, SCOPES):
            for block in blocks(stmt):
                block[:] = _deleted(block, outs, ctx)
        out.append(stmt)
    return out
