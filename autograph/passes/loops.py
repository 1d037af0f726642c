"""`while` and `for` -> a loop body (and test) function + one operator call (the loops of
passes.control_flow).

    while n > 0:               def loop_test(n, total):
        total += n                 return n > 0
        n -= 1          ->     def loop_body(n, total):
                                   total += n
                                   n -= 1
                                   return (n, total)
                               n, total = ag.while_stmt(loop_test, loop_body, (n, total),
                                                        names=('n', 'total'))

A loop carries the variables it writes that are live at the top of an iteration or after
it; a `for` with a `break` gets the negated flag as `extra_test`, a loop `else` was
already lowered (passes.loop_else). The attributes it assigns are carried too
(`fields=`); those that the code after it assigns before reading them are named in
`overwritten_after=('self.d',)` (analysis.overwritten): where each iteration assigns
them before reading them, their values before and after the loop are never seen, and a
staged loop may carry them with the body's types (runtime.staging.carry).

A `for` whose iterations analysis.independence found independent, and which carries
exactly the arrays it writes items of (so every other variable it assigns is a
temporary of one iteration, assigned before it is read and not read after the loop,
the loop variable included), gets `independent_axis=k`: the runtime may then run it as
one vectorised computation along axis k of those arrays (runtime.loops.vectorized).
A loop that also carries accumulators (`s += e` where the body reads `s` nowhere else,
see analysis.accumulators) gets `reductions={'s': 'sum'}` too: the runtime reduces
their iterations' contributions at once. A loop that also carries an array whose only
bindings in it are the write-backs of its views (`n = ag.write_view(n, k_key, k)`,
passes.views: `k = n[i]; k -= 1`) gets `unchanged=('n',)`: vectorised only where the
iterations give it back unchanged when the program is traced (`n[i]` was a copy). One
that reads arrays at its own index (`x[i]`, never assigning `x`) gets `reads=('x',)`:
the runtime cuts them as it cuts the arrays the loop writes, instead of reading at the
batched index (runtime.items.parts); passes.sequences routes such reads through
`ag.getitem`.

    for i in range(n):                 def loop_body(i, out):
        out[i] = jnp.sin(x[i])     ->      out = ag.setitem(out, i, jnp.sin(x[i]))
                                           return out
                                       out = ag.for_stmt(ag.range(n), loop_body, (out,),
                                                         names=('out',), independent_axis=0,
                                                         reads=('x',))
"""
import ast

from autograph import templates
from autograph.analysis.overwritten import may_read, overwritten_after
from autograph.analysis.walk import nodes
from autograph.errors import unsupported
from autograph.passes.base import may_hold, negation


class Loops:
    def while_statement(self, node):
        if may_hold(self.ctx, ast.NamedExpr) and any(isinstance(n, ast.NamedExpr)
                                                     for n in ast.walk(node.test)):
            raise unsupported('an assignment expression (:=) in a `while` condition cannot '
                              'be converted: assign before the loop and at the end of its '
                              'body instead', self.ctx, node.test)
        shared = self.shared(node)
        carried = self.ordered((self.modified(node.body) - set(shared)) & self.live_after(node))
        pending = set(carried) - self.flow.defined_in[node]
        fields = self.fields(node.body)
        body, body_pending = self.loop_block(node)
        orelse, orelse_pending = self.block(node.orelse)
        test_name = self.ctx.namer.function('loop_test')
        body_name = self.ctx.namer.function('loop_body')
        test = templates.function(test_name, carried, [ast.Return(value=node.test)])
        functions = [test, self.function(body_name, carried, body, carried, body_pending,
                                         shared)]
        call = self.operator('while_stmt', [templates.name(test_name),
                                            templates.name(body_name)], carried, carried,
                             self.ctx.loop_options.get(node, [])
                             + self.overwritten_fields(node, node.test) + fields, shared)
        new = functions + [self.assign(carried, call)]
        return templates.set_origin(new, node) + orelse, pending | orelse_pending

    def for_statement(self, node):
        shared = self.shared(node)
        targets = self.flow.activity(node.target).writes
        carried = self.ordered(((self.modified(node.body) | targets) - set(shared))
                               & self.live_after(node))
        pending = set(carried) - self.flow.defined_in[node]
        fields = self.fields(node.body, targets)   # (not `item.x`: each iteration's own)
        verdict = self.ctx.independent_loops.get(node)   # (see `independence`)
        through_views = (_written_through_views(node.body, self.ctx.ag)
                         if verdict is not None and verdict.axis is not None else set())
        steps = _counter_steps(node.body, carried, targets)   # (before the body is converted)
        body, body_pending = self.loop_block(node)
        orelse, orelse_pending = self.block(node.orelse)
        if isinstance(node.target, ast.Name) and node.target.id not in carried + shared:
            item = node.target.id
        else:
            item = self.ctx.namer.new('item')
            body = templates.statements('target = item', target=node.target, item=item) + body
        body_name = self.ctx.namer.function('loop_body')
        functions = [self.function(body_name, [item] + carried, body, carried,
                                   body_pending - targets, shared)]
        keywords = []
        flag = self.ctx.break_flags.get(node)
        if flag is not None:
            test_name = self.ctx.namer.function('loop_test')
            functions.append(templates.function(
                test_name, carried, [ast.Return(value=negation(self.ctx, flag))]))
            keywords.append(ast.keyword(arg='extra_test', value=templates.name(test_name)))
            if isinstance(node.iter, ast.Name) and node.iter.id in self.live_after(node):
                # An iterator read again after a `break` (see ag.for_stmt)
                keywords.append(ast.keyword(arg='iterator',
                                            value=ast.Constant(value=node.iter.id)))
        appended = self.aliasable & self.mutation.appended(node.body)
        aliased = [n for n in carried if n in appended]
        if aliased:   # lists that must stay the same object (see ag.for_stmt)
            keywords.append(ast.keyword(arg='aliased', value=templates.strings(aliased)))
        keywords += self.ctx.loop_options.get(node, [])
        keywords += self.independence(node, carried, shared, fields, keywords,
                                      through_views)
        keywords += self.overwritten_fields(node)
        keywords += _live(self.ctx.live_loops.get(node), carried + shared)
        if flag is None:   # (no `break` or `return`: every iteration runs to its end)
            keywords += steps
        call = self.operator('for_stmt', [node.iter, templates.name(body_name)], carried,
                             carried, keywords + fields, shared)
        new = functions + [self.assign(carried, call)]
        return templates.set_origin(new, node) + orelse, pending | orelse_pending

    def loop_block(self, node):
        """`self.block(node.body)`, knowing that it is `node`'s body (see
        `Conditionals.unread_if_false`)."""
        self.loops.append(node)
        try:
            return self.block(node.body)
        finally:
            self.loops.pop()

    def overwritten_fields(self, node, test=None):
        """`overwritten_after=('self.d', ...)`: the attributes that loop `node` assigns,
        its `test` does not read, and the code after it assigns before reading them
        (analysis.overwritten): no code sees their values after the loop, so a staged
        loop whose body assigns them before reading them need not carry them with their
        types before it (runtime.staging.carry)."""
        if not self.mutation.any_attributes:
            return []
        block, start = self.after.get(node, ((), 0))
        ag, after = self.ctx.ag, block[start:]
        labels = [label for label, (holder, attr)
                  in self.mutation.assigned_attributes(node.body).items()
                  if isinstance(holder, ast.Name)
                  and not (test is not None and may_read(test, holder.id, attr, ag))
                  and overwritten_after(holder.id, attr, after, ag)]
        return [ast.keyword(arg='overwritten_after', value=templates.strings(labels))] \
            if labels else []

    def independence(self, node, carried, shared, fields, keywords, through_views):
        """The keywords `independent_axis=k` (the axis along which the loop's iterations
        are independent), `reductions={name: kind}` (its accumulators that it carries)
        `unchanged=(name, ...)` (the bases of views it carries, `through_views`) and
        `reads=(name, ...)` (the arrays it reads at its index), or none."""
        verdict = self.ctx.independent_loops.get(node)
        if verdict is None or verdict.axis is None:
            return []
        kinds = dict(verdict.reductions)
        reduced = [(name, kinds[name]) for name in carried if name in kinds]
        unchanged = [name for name in carried if name in through_views
                     and name not in kinds and name not in verdict.written]
        if shared or fields or set(carried) - {n for n, _ in reduced} - set(unchanged) \
                != set(verdict.written) \
                or any(k.arg in ('extra_test', 'aliased', 'iterator') for k in keywords):
            return []
        marks = [ast.keyword(arg='independent_axis', value=ast.Constant(verdict.axis))]
        if unchanged:
            marks.append(ast.keyword(arg='unchanged', value=templates.strings(unchanged)))
        if reduced:
            marks.append(ast.keyword(arg='reductions', value=ast.Dict(
                keys=[ast.Constant(n) for n, _ in reduced],
                values=[ast.Constant(k) for _, k in reduced])))
        if verdict.reads:
            marks.append(ast.keyword(arg='reads', value=templates.strings(verdict.reads)))
        return marks


def _counter_steps(stmts, carried, targets):
    """`counters={'n': 1}`: the carried names whose only bindings in the loop body
    `stmts` are statements `n += k` / `n -= k` (`k` an int literal) at its top level, so
    that each iteration that runs to its end (the loop has no `break` or `return`; a
    `continue` guards the statements after it, which are then not at the top level)
    changes `n` by the same Python int: after a loop of a known number of iterations,
    started from a Python int, `n` is that Python int plus the sum of the steps
    (runtime: ag.for_stmt). Not the loop's `targets`, which each iteration rebinds."""
    steps, tops = {}, set()
    for stmt in stmts:
        if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) \
                and isinstance(stmt.op, (ast.Add, ast.Sub)) \
                and isinstance(stmt.value, ast.Constant) and type(stmt.value.value) is int:
            step = stmt.value.value if isinstance(stmt.op, ast.Add) else -stmt.value.value
            steps[stmt.target.id] = steps.get(stmt.target.id, 0) + step
            tops.add(id(stmt.target))   # (any other binding of the name disqualifies it:
    steps = {name: step for name, step in steps.items()   # `n *= 2`, `n += v > 0`)
             if step and name in carried and name not in targets}
    if not steps:   # (most loops: the body is not walked)
        return []
    for stmt in stmts:
        for sub in nodes(stmt):
            if sub.__class__ is ast.Name:
                if sub.ctx.__class__ is not ast.Load and id(sub) not in tops:
                    steps.pop(sub.id, None)
            else:
                for name in _bound_names(sub):
                    steps.pop(name, None)
    counted = [name for name in carried if name in steps]
    if not counted:
        return []
    return [ast.keyword(arg='counters', value=ast.Dict(
        keys=[ast.Constant(n) for n in counted],
        values=[ast.Constant(steps[n]) for n in counted]))]


def _bound_names(node):
    """The names that `node` binds (or declares global or nonlocal) other than as an
    `ast.Name`."""
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return node.names
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.alias):
        return [(node.asname or node.name).split('.')[0]]
    name = getattr(node, 'rest' if isinstance(node, ast.MatchMapping) else 'name', None) \
        if isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar,
                             ast.MatchMapping)) else None
    return [name] if name else []


def _written_through_views(stmts, ag):
    """The names that `stmts` bind only as `x = ag.write_view(x, ...)` (passes.views: a
    view's write-back into its base `x`, which leaves `x` as it is where the view was a
    copy)."""
    found = [n for stmt in stmts for n in nodes(stmt)]
    backs = {id(n.targets[0]): n.targets[0].id for n in found
             if isinstance(n, ast.Assign) and _is_write_back(n, ag)}
    other = {n.id for n in found if isinstance(n, ast.Name)
             and not isinstance(n.ctx, ast.Load) and id(n) not in backs}
    return set(backs.values()) - other


def _is_write_back(node, ag):
    call, (target, *more) = node.value, node.targets
    return (not more and isinstance(target, ast.Name) and isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute) and call.func.attr == 'write_view'
            and isinstance(call.func.value, ast.Name) and call.func.value.id == ag
            and call.args and isinstance(call.args[0], ast.Name)
            and call.args[0].id == target.id)


def _live(found, carried):
    """`live={'v': v_is_numpy}` (and `rebound=('v',)`): the iterated variables that the
    body changes in place, where the loop carries them (see passes.live_iteration)."""
    if found is None:
        return []
    live, rebound = found
    names = [name for name in live if name in carried]
    if not names:
        return []
    marks = [ast.keyword(arg='live', value=ast.Dict(
        keys=[ast.Constant(n) for n in names],
        values=[live[n] if live[n] is not None else ast.Constant(None) for n in names]))]
    rebound = [name for name in rebound if name in names]
    if rebound:
        marks.append(ast.keyword(arg='rebound', value=templates.strings(rebound)))
    return marks
