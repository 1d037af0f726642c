"""The pieces every converted statement is built of (passes.control_flow): the branch and
loop functions, the operator call with its `names=`, `fields=` and `nonlocals=`, the
initial `ag.Undefined` markers, and which variables a statement takes, gives and assigns in
place.
"""
import ast

from autograph import templates
from autograph.passes.base import SCOPES, blocks, may_hold
from autograph.runtime.protocol import RETURN_VALUE


class StatementParts:
    def function(self, name, params, body, outs, pending, shared):
        """`def name(*params): <declarations> <inits> body; return outs`."""
        declarations = [
            (ast.Global if self.declared.get(n) == 'global' else ast.Nonlocal)(names=[n])
            for n in shared]
        if may_hold(self.ctx, ast.Delete, ast.ExceptHandler):   # (no pass makes them)
            body = _deleted(body, outs, self.ctx)
        body = declarations + self.inits(pending - set(params)) + body
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
        while it is unassigned, so that staged code may fill it (see runtime.values.split)."""
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
            if writer in used.reads or (writer in self.sharing.escaped
                                        and self.mutation.has_call(node)):
                names |= assigned
        self.unbound_cells |= (names & self.locals) - self.flow.defined_in[node]
        return self.ordered(names)

    def live_after(self, node):
        """What must come out of `node`: the variables live after it (at a loop's head),
        and those whose objects it changes in place, which other references may see:
        objects it had before `node` (a name live where `node` starts; not one `node`
        binds before each change, `c = Counter(); c.add(y)` in a loop's body, whose
        objects are new)."""
        live = self.flow.loop_head[node] if node in self.flow.loop_head \
            else self.flow.live_out[node]
        changed = self.mutation.changed_in_place([node])
        if changed:
            changed &= self.flow.live_in.get(node, changed)
        return (live | changed) - self.write_only

    def fields(self, stmts, targets=frozenset()):
        """`fields=lambda: {'self.count': (self, 'count')}`: the attributes `stmts` assign,
        carried as state when the statement is staged (see runtime/state/mutation.py);
        not those of a loop's `targets` (`for b in bodies: b.x += 1`: another object
        each iteration, which no state before the loop holds)."""
        items = _items_of_inner_loops(stmts) if self.mutation.any_attributes else {}
        if items:   # (a list the statement binds holds its own objects: none of the state)
            rebound = self.mutation.rebound(stmts)
            items = {p: ps for p, ps in items.items() if ps not in rebound}
        attributes = (self.mutation.assigned_attributes(stmts, keep=items)
                      if self.mutation.any_attributes else {})
        of_items = sorted({(items[holder.id], attr) for holder, attr in attributes.values()
                           if isinstance(holder, ast.Name) and holder.id in items
                           and holder.id not in targets})
        attributes = {label: (holder, attr) for label, (holder, attr) in attributes.items()
                      if _root_name(holder) not in targets and _root_name(holder) not in items}
        splats = [('method_fields', name, method) for name, method in
                  self.method_calls(stmts)] + [('item_fields', name, attr)
                                               for name, attr in of_items]
        if not attributes and not splats:
            return []
        table = ast.Dict(
            keys=[ast.Constant(value=label) for label in attributes] + [None] * len(splats),
            values=[ast.Tuple(elts=[templates.copy_tree(holder), ast.Constant(value=attr)],
                              ctx=ast.Load()) for holder, attr in attributes.values()]
            + [ast.Call(func=self.ctx.runtime(kind),
                        args=[ast.Name(id=name, ctx=ast.Load()), ast.Constant(value=part),
                              ast.Constant(value=name)], keywords=[])
               for kind, name, part in splats])
        return [ast.keyword(arg='fields', value=templates.thunk(table))]

    def method_calls(self, stmts):
        """(object, method) of the converted calls `obj.method(...)` in `stmts` on a local
        object they do not rebind: the method may assign `obj`'s attributes (see
        runtime/state/method_state.py)."""
        found = []
        if not any(name in self.user_objects or (through_ag and name in self.locals)
                   for name, through_ag in self.mutation.call_receivers):
            return found   # (none in the function: none in `stmts`)
        skip = self.mutation.rebound(stmts)
        for name, attr, through_ag in self.mutation.attribute_calls(stmts):
            known = name in self.user_objects or (through_ag and name in self.locals)
            if known and name not in skip and (name, attr) not in found:
                found.append((name, attr))
        return found

    def modified(self, stmts):
        """Local variables that `stmts` assign or mutate (not globals, not closures)."""
        return self.flow.activity(stmts).writes & self.locals

    def ordered(self, names):
        return sorted(names, key=lambda n: (self.order.get(n, len(self.order)), n))


def _items_of_inner_loops(stmts):
    """{target: the variable it iterates} of the loops `for p in ps:` inside `stmts`: the
    attributes they assign on `p` are those of the objects `ps` holds, which the state
    before an enclosing staged statement holds too (`ag.item_fields`)."""
    found, pending = {}, [stmts]
    while pending:
        for stmt in pending.pop():
            if isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name) and \
                    isinstance(stmt.iter, ast.Name):
                found[stmt.target.id] = stmt.iter.id
            if not isinstance(stmt, SCOPES):
                pending += blocks(stmt)
    return found


def _deleted(stmts, outs, ctx):
    """`stmts` where `del v` of a variable the function returns becomes
    `v = ag.Undefined('v')`: the variable leaves the branch or loop body without a value."""
    out = []
    for stmt in stmts:
        if isinstance(stmt, ast.Try):
            for handler in stmt.handlers:
                if handler.name in outs:
                    _unbound_after(handler, ctx)
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


def _unbound_after(handler, ctx):
    """`except E as e: body` unbinds `e` after `body` (Python's implicit `del e`): where
    `e` leaves a branch or loop body, the exception is caught under another name and `e`
    ends the handler as `ag.Undefined('e')`, as after a `del`."""
    name, caught = handler.name, ctx.namer.new(f'{handler.name}_caught')
    handler.name = caught
    handler.body[:0] = templates.set_origin(templates.statements(
        'name = caught', name=name, caught=ast.Name(id=caught, ctx=ast.Load())), handler)
    handler.body += templates.set_origin(templates.statements(
        'name = ag.Undefined(label)', name=name, ag=ctx.ag,
        label=ast.Constant(value=name)), handler)


def _root_name(node):
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None
