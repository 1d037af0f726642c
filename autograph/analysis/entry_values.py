"""Where a parameter still holds the caller's object (reaching definitions of the
parameters' own bindings, for analysis.written_parameters and passes.written_arguments).

    def fill(a, v):
        a[:2] = v           # only the parameter's binding reaches: the caller's array
        a = a * 2           # a rebinding that it reaches: the caller's array is `a` here
        a[0] = 1            # another array (no longer the caller's)
        return a

NumPy's `a[:2] = v` changes the caller's array; `a = a * 2` leaves it as it is from then
on. So a function reports, for the caller to see (passes.written_arguments), the value
its parameter had where it was rebound: `a_arg = a` just before the rebinding, and
`a=a_arg` at the `return`s that only the rebinding reaches.

`entry_values(function, resolve, ag)` follows, through branches and loops, which
bindings of each parameter reach each statement: ENTRY (the parameter's own), OTHER
(any other), or both (the parameter may or may not be the caller's object there, which
the converted code cannot follow). It records:

- `written`: the parameters written (items assigned, `a += e`, a view of it written, a
  helper writing it) where only their own binding reaches, in parameter order;
- `saves[stmt]`: the written parameters that `stmt` rebinds where only their own binding
  reaches (`a_arg = a` goes before it);
- `returns[node]`: per `return` (and `None` for falling off the end), the written
  parameters that only another binding reaches there (reported as saved);
- `flagged`: the written parameters that are the caller's object on some paths only
  (rebound under an `if`, or in a loop): the converted code follows them at run time
  with a flag, `a_is_arg` (passes.written_arguments);
- `maybe_saves[stmt]`, `maybe_returns[node]`: as `saves` and `returns`, for the flagged
  parameters that both bindings reach there (the flag says which one is the caller's);
- `parts[stmt]`: the written parameters rebound by a part of the compound statement
  `stmt` (a `for` target, `with ... as`, `:=` in a test) while they may hold the
  caller's array: the flag follows them as it follows a statement (see
  passes.argument_reports.follow);
- `problems`: (parameter, node, what) where a written parameter that no flag can follow
  is written, rebound or returned with both reaching: one rebound by an assignment
  expression that Python evaluates on some paths only (`c and (a := e)`, in a
  conditional expression, a comprehension or a lambda), or by an `except ... as` or a
  `case` pattern (bound when it matches). passes.written_arguments names it in an error;
  the other fields leave it out.
"""
import ast
import dataclasses

from autograph.analysis.activity import captures
from autograph.analysis.walk import blocks, children

ENTRY, OTHER = 'entry', 'other'
VIEW = 'view'   # state key (VIEW, name): the caller's arrays a view was taken of
_ENTRY, _OTHER = frozenset({ENTRY}), frozenset({OTHER})


@dataclasses.dataclass(frozen=True)
class EntryValues:
    written: tuple
    saves: dict
    returns: dict
    problems: tuple
    flagged: tuple = ()
    maybe_saves: dict = dataclasses.field(default_factory=dict)
    maybe_returns: dict = dataclasses.field(default_factory=dict)
    parts: dict = dataclasses.field(default_factory=dict)

    def dump(self):
        def line(node):
            return 'end' if node is None else f'line {node.lineno}'
        return ([f'written {list(self.written)}']
                + [f'save {p} before {line(s)}' for s, ps in self.saves.items() for p in ps]
                + [f'{line(r)} reports saved {p}' for r, ps in self.returns.items()
                   for p in sorted(ps)]
                + [f'{p} {what} at {line(n)}' for p, n, what in self.problems]
                + [f'flag {p}' for p in self.flagged]
                + [f'select {p} before {line(s)}' for s, ps in self.maybe_saves.items()
                   for p in ps]
                + [f'{line(r)} reports {p} or saved {p}'
                   for r, ps in self.maybe_returns.items() for p in sorted(ps)]
                + [f'{p} rebound by a part of {line(s)}' for s, ps in self.parts.items()
                   for p in ps])


def entry_values(function, params, effects, views=None):
    """EntryValues of the FunctionDef `function` for its parameters `params`.
    `effects(stmt_or_expr)` gives (names written, names rebound) by a simple statement
    or an expression (see analysis.written_parameters); `views` ({node: (view, base)})
    the statements that bind a view (a write of the view writes the array it was taken
    from: the caller's, where the base held it then, even if rebound since)."""
    if not views and not _rebinds(function, set(params)):
        return _never_rebound(function, params, effects)
    return _followed(function, params, effects, views or {})


def _followed(function, params, effects, views):
    """EntryValues found by following the bindings through the statements (`_Flow`)."""
    flow = _Flow(params, effects, views)
    end = flow.block(function.body, {p: _ENTRY for p in params})
    if end is not None:
        flow.at_return(None, end)
    problems = {p for p, _, _ in flow.problems if p in flow.written}
    flagged = problems - flow.unflaggable
    known = flow.written - (problems - flagged)
    return EntryValues(
        tuple(p for p in params if p in known), _kept(flow.saves, known),
        _kept(flow.returns, known),
        tuple(t for t in flow.problems if t[0] in problems - flagged),
        tuple(p for p in params if p in flagged), _kept(flow.maybe_saves, flagged),
        _kept(flow.maybe_returns, flagged), _kept(flow.parts, known))


def _never_rebound(function, params, effects):
    """EntryValues where no parameter is rebound and no view is taken: each parameter
    holds the caller's object everywhere, so those written anywhere are `written`, with
    nothing to save, report as saved or flag (what following the flow would find)."""
    written = set()
    for stmt in function.body:   # (an effect covers the statements inside `stmt`)
        written.update(effects(stmt)[0])
    return EntryValues(tuple(p for p in params if p in written), {}, {}, ())


def _rebinds(function, params):
    """Whether a node of `function`'s own scope may rebind one of `params` (a superset of
    the rebindings `_Flow` follows: a target, a `def`, `except ... as`, a pattern)."""
    stack = list(function.body)
    while stack:
        node = stack.pop()
        kind = node.__class__
        if kind is ast.Name:
            if node.id in params and node.ctx.__class__ is not ast.Load:
                return True
            continue
        if kind in _BINDING_NAME and getattr(node, _BINDING_NAME[kind]) in params:
            return True
        if kind is ast.MatchAs or kind is ast.MatchStar or kind is ast.MatchMapping:
            if captures(node) & params:
                return True
        if kind not in _NESTED:
            stack += children(node)
    return False


_BINDING_NAME = {ast.FunctionDef: 'name', ast.AsyncFunctionDef: 'name', ast.ClassDef: 'name',
                 ast.ExceptHandler: 'name'}
_NESTED = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda})


def _kept(by_node, names):
    """`by_node` ({node: parameters}) with only the parameters in `names`."""
    kept = {node: type(ps)(p for p in ps if p in names) for node, ps in by_node.items()}
    return {node: ps for node, ps in kept.items() if ps}


class _Flow:
    def __init__(self, params, effects, views):
        self.params, self.effects, self.views = set(params), effects, views
        self.written, self.saves, self.returns, self.problems = set(), {}, {}, []
        self.maybe_saves, self.maybe_returns, self.unflaggable = {}, {}, set()
        self.parts, self.record = {}, True
        self.known = {}   # id(node) -> (node, its effects, its `_conditional_bindings`):
        #                   a loop's nodes are analysed again until its fixed point

    def block(self, stmts, state):
        for stmt in stmts:
            if state is None:   # (after a `return`: not reached)
                return None
            state = self.statement(stmt, state)
        return state

    def statement(self, stmt, state):
        if isinstance(stmt, ast.If):
            state = self.expression(stmt.test, state, stmt)
            return _join(self.block(stmt.body, state), self.block(stmt.orelse, state))
        if isinstance(stmt, (ast.For, ast.While)):
            return self.loop(stmt, state)
        if isinstance(stmt, ast.Return):
            if stmt.value is not None:
                state = self.expression(stmt.value, state, stmt)
            self.at_return(stmt, state)
            return None
        if isinstance(stmt, (ast.With, ast.Try)) or hasattr(stmt, 'cases'):
            return self.compound(stmt, state)
        return self.simple(stmt, stmt, state)

    def loop(self, loop, state):
        if isinstance(loop, ast.For):
            state = self.expression(loop.iter, state, loop)
        head, record = state, self.record
        self.record = False
        while True:   # (the bindings that reach only grow: a fixed point)
            joined = _join(head, self.iteration(loop, head))
            if joined == head:
                break
            head = joined
        self.record = record
        self.iteration(loop, head)
        after = head if isinstance(loop, ast.For) else self.expression(loop.test, head, loop)
        return self.block(loop.orelse, after)

    def iteration(self, loop, head):
        if isinstance(loop, ast.For):
            state = self.simple(loop.target, loop, head)
        else:
            state = self.expression(loop.test, head, loop)
        return self.block(loop.body, state)

    def compound(self, stmt, state):
        """`with`, `try`, `match`: each block from what reaches the statement and what
        each block before it leaves (a block may not run, or run in part)."""
        for node in children(stmt):
            if not isinstance(node, (ast.stmt, ast.excepthandler, ast.match_case)):
                state = self.simple(node, stmt, state)
        out = state
        headed = {id(part.body): part for part in getattr(stmt, 'handlers', None)
                  or getattr(stmt, 'cases', None) or ()}
        for block in blocks(stmt):
            part = headed.get(id(block))
            entered = out if part is None else self.captured(part, stmt, out)
            out = _join(out, entered)   # (a pattern that fails may bind some names)
            end = self.block(block, entered)
            if end is not None and isinstance(part, ast.ExceptHandler) and part.name \
                    and part.name in self.params:
                end = dict(end, **{part.name: _OTHER})   # (unbound after the handler)
            out = _join(out, end)
        return out

    def captured(self, part, stmt, state):
        """`state` where the `except ... as` handler or `case` `part` begins: its names
        bound (on some paths only: the converted code cannot follow a parameter rebound
        there while it may be the caller's, see `problems`), its guard evaluated."""
        names = {part.name} if isinstance(part, ast.ExceptHandler) and part.name else \
            captures(part.pattern) if isinstance(part, ast.match_case) else set()
        state = dict(state)
        for name in sorted(names):
            origins = state.get(name)
            if origins and ENTRY in origins:
                self.unflaggable.add(name)
                self.problem(name, getattr(part, 'pattern', part), 'rebound')
            state = self.bound(name, part, stmt, state)
        guard = getattr(part, 'guard', None)
        return self.expression(guard, state, stmt) if guard is not None else state

    def expression(self, node, state, stmt):
        return self.simple(node, stmt, state)

    def simple(self, node, stmt, state):
        """The writes of `node` (part of `stmt`), then its rebindings."""
        known = self.known.get(id(node))
        if known is None:
            known = self.known[id(node)] = (node, self.effects(node),
                                            _conditional_bindings(node))
        _, (written, rebound), maybe_bound = known
        for name, sure in self.arrays_written(written, state):
            if sure is not None:   # (through a view taken of the caller's array)
                self.written.add(name)
                if not sure:
                    self.problem(name, stmt, 'written')
                continue
            origins = state.get(name)
            if origins and ENTRY in origins:
                self.written.add(name)
                if OTHER in origins:
                    self.problem(name, stmt, 'written')
        state = dict(state)
        for name in rebound:
            origins = state.get(name)
            if origins == _ENTRY and self.record:
                self.saves.setdefault(stmt, []).append(name)
            elif origins and ENTRY in origins:
                self.problem(name, stmt, 'rebound')
                if self.record:
                    self.maybe_saves.setdefault(stmt, []).append(name)
            if origins and ENTRY in origins and name in maybe_bound:
                self.unflaggable.add(name)   # (`c and (a := e)`: bound on some paths)
                self.problem(name, stmt, 'rebound')
            elif origins and ENTRY in origins and node is not stmt and self.record:
                self.parts.setdefault(stmt, [])
                if name not in self.parts[stmt]:
                    self.parts[stmt].append(name)
            state = self.bound(name, node, stmt, state)
            if name in maybe_bound and name in self.params:
                state[name] = origins | _OTHER
        return state

    def arrays_written(self, written, state):
        """(parameter, None) for each name written (checked where it is bound), and
        (parameter, sure) for each view written that was taken of the caller's array
        (surely, or on some paths only)."""
        for name in written:
            yield name, None
            yield from state.get((VIEW, name), ())

    def bound(self, name, node, stmt, state):
        """`state` after `node` (part of `stmt`) binds `name`: a parameter no longer
        holds the caller's array; a view keeps the arrays it was taken of."""
        binding = self.views.get(node) or (self.views.get(stmt) if isinstance(
            stmt, ast.For) and node is stmt.target else None)
        state.pop((VIEW, name), None)
        if binding is not None and binding[0] == name:
            base = binding[1]
            tags = set(state.get((VIEW, base), ()))
            if base in self.params and ENTRY in state[base]:
                tags.add((base, state[base] == _ENTRY))
            if tags:
                state[(VIEW, name)] = frozenset(tags)
        if name in self.params:
            state[name] = _OTHER
        return state

    def at_return(self, node, state):
        if not self.record:
            return
        params = {p: origins for p, origins in state.items() if p in self.params}
        self.returns[node] = {p for p, origins in params.items() if origins == _OTHER}
        self.maybe_returns[node] = {p for p, origins in params.items() if len(origins) > 1}
        for p in self.maybe_returns[node]:
            self.problem(p, node, 'returned')

    def problem(self, name, node, what):
        if self.record:
            self.problems.append((name, node, what))


def _conditional_bindings(node):
    """The names that `:=` binds in `node` where Python may not evaluate it: an operand
    of `and`/`or` after the first, a branch of `x if c else y`, a comprehension (not
    its first iterable, where `:=` is a syntax error), a lambda's body."""
    found, stack = set(), [(node, False)]
    while stack:
        node, maybe = stack.pop()
        if isinstance(node, ast.NamedExpr) and maybe and isinstance(node.target, ast.Name):
            found.add(node.target.id)
        if isinstance(node, ast.BoolOp):
            parts = [(v, maybe or i > 0) for i, v in enumerate(node.values)]
        elif isinstance(node, ast.IfExp):
            parts = [(node.test, maybe), (node.body, True), (node.orelse, True)]
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp,
                               ast.Lambda)):
            parts = [(c, True) for c in children(node)]
        else:
            parts = [(c, maybe) for c in children(node)]
        stack += parts
    return found


def _join(one, other):
    if one is None or other is None:
        return other if one is None else one
    return {name: one.get(name, frozenset()) | other.get(name, frozenset())
            for name in one.keys() | other.keys()}

