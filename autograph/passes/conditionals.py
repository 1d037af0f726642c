"""`if` and `if`/`elif`/.../`else` chains -> branch functions + one operator call (the
conditionals of passes.control_flow).

    if c:                      def if_true(y):
        y = y * 2                  y = y * 2
    use(y)              ->         return y
                               y = ag.if_stmt(lambda: c, if_true, None, (y,),
                                              names=('y',))

An `if` is a chain of one link: both take their state from `branch_state`. A chain with
`elif`s becomes one `ag.if_chain((lambda: c1, lambda: c2), (if_true, elif_true,
if_false), ...)`, its tests functions of no arguments run in order.

The `if not did_break:` guard after a lowered `break` (passes.loop_exits) names in
`unread_if_false=('prev',)` the variables it gives that are dead after its loop: its
false branch is taken only once the loop has broken, so their values there are never
read, and a staged `if` need not make them agree with the true branch's.
"""
import ast

from autograph import templates
from autograph.analysis.effects import pure
from autograph.analysis.walk import children
from autograph.passes.base import SCOPES, holds, may_hold
from autograph.runtime.protocol import RETURN_VALUE


class Conditionals:
    def if_statement(self, node):
        links = _chain(node, lambda test: pure(test, self.ctx.resolver, self.ctx.ag))
        if len(links) > 1:
            return self.chain_statement(links)
        shared, returns, outs, params, pending, fields = self.branch_state(links)

        body, body_pending = self.block(node.body)
        orelse, orelse_pending = self.block(node.orelse)
        true_name = self.ctx.namer.function('if_true')
        functions = [self.function(true_name, params, body, outs, body_pending, shared)]
        if not orelse and params[:len(outs)] == outs and not returns:
            false_branch = ast.Constant(value=None)  # no else: state unchanged (the
            # parameters after it are variables tested with None, only read)
        else:
            false_name = self.ctx.namer.function('if_false')
            functions.append(self.function(false_name, params, orelse, outs, orelse_pending,
                                           shared))
            false_branch = templates.name(false_name)
        names = [RETURN_VALUE] if returns else outs
        maybe_undefined = set(outs) - self.flow.defined_in[node]
        returned = self.returned_branch(node) if maybe_undefined else None
        test = templates.test(node.test, may_hold(self.ctx, ast.NamedExpr))
        keywords = [ast.keyword(arg='returned', value=ast.Constant(value=returned))] \
            if returned else []
        unread = [] if returns else self.unread_if_false(node, outs)
        if unread:
            keywords.append(ast.keyword(arg='unread_if_false',
                                        value=templates.strings(unread)))
        call = self.operator('if_stmt', [test, templates.name(true_name), false_branch],
                             params, names, keywords + fields, shared)
        if returns:
            result = ast.Return(value=call)
        else:
            result = self.assign(outs, call)
        return templates.set_origin(functions + [result], node), pending

    def chain_statement(self, links):
        """`if`/`elif`/.../`else` -> one function per branch + one `ag.if_chain`, the
        tests as functions of no arguments (they run before any branch does)."""
        node = links[0]
        shared, returns, outs, params, pending, fields = self.branch_state(links)
        bodies = [link.body for link in links] + [links[-1].orelse]

        functions, branches = [], []
        for i, body in enumerate(bodies):
            converted, body_pending = self.block(body)
            if i == len(links) and not converted and params == outs and not returns:
                branches.append(ast.Constant(value=None))  # no else: state unchanged
                continue
            name = self.ctx.namer.function('if_true') if i == 0 else \
                self.ctx.namer.function('if_false') if i == len(links) else \
                self.ctx.namer.function('elif_true', i - 1)
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

    def branch_state(self, links):
        """What the branches of an `if` (a chain of one link) or of an `if`/`elif` chain
        take and give: (variables in place, whether they return, the variables they
        give, those they take, those that may have no value before, fields)."""
        node = links[0]
        shared = self.shared(node)
        writes = self.modified(node.body + node.orelse) - set(shared)
        returns = holds(node, ast.Return, self.returning, SCOPES)   # (blocks unchanged)
        outs = [] if returns else self.ordered(writes & self.live_after(node))
        bodies = [link.body for link in links] + [links[-1].orelse]
        params = self.ordered(self.flow.branches_live_in(node, bodies, writes, frozenset(outs)))
        tested = (tested_for_none(node.test, self.ctx.ag) & self.flow.defined_in[node]
                  - set(params) - set(shared)) if len(links) == 1 else ()
        if tested:   # (the bodies walked only then; a free variable is not narrowed)
            params += self.ordered(_read(bodies, tested))
        pending = set(params) - self.flow.defined_in[node]
        return shared, returns, outs, params, pending, self.fields(node.body + node.orelse)

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
        if _negated_name(node.test) == flag:
            return 'false'  # `if not did_return: ...`
        for name, block in (('true', node.body), ('false', node.orelse)):
            last = block[-1] if block else None
            if (isinstance(last, ast.Assign) and isinstance(last.targets[0], ast.Name)
                    and last.targets[0].id == flag and isinstance(last.value, ast.Constant)
                    and last.value.value is True):
                return name
        return None

    def unread_if_false(self, node, outs):
        """The variables among `outs` that Python never reads after the false branch of
        `node` when it is an `if not did_break:` guard of a loop (passes.loop_exits): that
        branch is taken only once the loop has broken, which leaves them dead (not live
        after the loop, no object changed in place). They may have other types there than
        the true branch gives them (runtime.staging.branches)."""
        flag = _negated_name(node.test)
        if flag is None or node.orelse:
            return []
        for loop in reversed(self.loops):
            if self.ctx.exit_flags.get(loop) == flag:
                live = self.flow.live_out[loop] | self.mutation.changed_in_place([node])
                return [name for name in outs if name not in live]
        return []


def _negated_name(test):
    """`flag` when `test` is `not flag` (or `ag.not_(flag)`), else None."""
    if isinstance(test, ast.Call) and getattr(test.func, 'attr', None) == 'not_' \
            and len(test.args) == 1:
        test = test.args[0]
    elif isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    else:
        return None
    return test.id if isinstance(test, ast.Name) else None


def _chain(node, pure):
    """The `if` statements of an `if`/`elif` chain starting at `node`: each next one is
    the whole `else` of the one before. An `elif` whose test may have a side effect
    (`pure(test)` false, see analysis.effects) stays nested in the `else` of the chain
    before it, so that it runs only where Python runs it: one `lax.switch` would run
    every test on every path. (A test with `:=` assigns a variable: it stays nested too.)"""
    links = [node]
    while len(links[-1].orelse) == 1 and isinstance(links[-1].orelse[0], ast.If):
        links.append(links[-1].orelse[0])
    for i, link in enumerate(links[1:], 1):
        if not pure(link.test):
            return links[:i]
    return links


def tested_for_none(test, ag):
    """The variables `test` compares with None (`ag.is_(y, None)`, `ag.is_not(y, None)`,
    or `y is None` before passes.identity, in `and`/`or`/`not` too), or tests by their
    truth (`if y:`, `ag.and_(y, ...)`, `ag.not_(y)`): a branch on which such a variable
    is surely not None gets its value as a parameter (runtime.operators.conditionals
    narrows an optional one; passes.expressions does so for `x if y is not None else z`)."""
    found = {test.id} if isinstance(test, ast.Name) else set()
    stack = [test]
    while stack:
        node = stack.pop()
        stack += children(node)
        if _calls(node, ag, ('and_', 'not_')) and isinstance(node.args[0], ast.Name):
            found.add(node.args[0].id)
        pair = node.args if _calls(node, ag, ('is_', 'is_not')) else (
            [node.left, node.comparators[0]] if isinstance(node, ast.Compare)
            and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Is, ast.IsNot))
            else ())
        if len(pair) == 2:
            left, right = pair
            for name, other in ((left, right), (right, left)):
                if isinstance(name, ast.Name) and isinstance(other, ast.Constant) \
                        and other.value is None:
                    found.add(name.id)
    return found


def _calls(node, ag, names):
    """Whether `node` calls one of the runtime's operators `names` (`ag.and_(...)`)."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
        and isinstance(node.func.value, ast.Name) and node.func.value.id == ag \
        and node.func.attr in names and bool(node.args)


def _read(blocks, names):
    """Those of `names` read in `blocks` (the walk stops once all of them are found)."""
    found, stack = set(), [stmt for block in blocks for stmt in block]
    while stack and len(found) < len(names):
        node = stack.pop()
        if node.__class__ is ast.Name:
            if node.id in names and node.ctx.__class__ is ast.Load:
                found.add(node.id)
        else:
            stack += children(node)
    return found
