"""Liveness and definite assignment over one function's structured statements.

Runs after `break`, `continue` and `return` inside loops have been lowered, so control
flow is structured: `if`, `while`, `for`, `with`, `try`, and `return` only outside loops.
(Liveness also follows `break` and `continue`, for the analyses of the user's code:
after a `break` is after its loop, after a `continue` its loop's head.) Results are side
tables keyed by statement node.
"""
import ast

from autograph.analysis.activity import ActivityCache, captures, scope_of


class Dataflow:
    """`live_out[stmt]`: names read after `stmt` before being written again; `live_in[stmt]`
    those read from before it on. `loop_head[loop]`: names live at the top of each
    iteration (a loop's carried state is the names it writes that are live there).
    `defined_in[stmt]`: names certainly assigned before `stmt` runs.

    `extra_reads[loop]` names what the loop reads at its head besides its test (the
    `break` flag of a `for`).
    """

    _loops = ()   # (live after, live at the head) of each loop around, innermost last

    def __init__(self, function, extra_reads=None, closures=None):
        self.activity = ActivityCache()
        self.extra_reads = extra_reads or {}
        self.live_out = {}
        self.live_in = {}
        self.loop_head = {}
        self.defined_in = {}
        # A nested function reads its free variables when it is called: wherever its
        # name is live, so are they.
        self.closures = scope_of(function).closures if closures is None else closures
        self.block_live_in(function.body, frozenset())
        params = self.activity(function.args).writes
        self._defined_block(function.body, frozenset(params))

    def dump(self, stmt):
        return (f'live_out={sorted(self.live_out[stmt])} '
                f'defined_in={sorted(self.defined_in[stmt])}')

    # --- liveness (backward) ------------------------------------------------------------

    def block_live_in(self, stmts, live, record=True):
        for stmt in reversed(stmts):
            live = self._with_closures(live)
            if record:
                self.live_out[stmt] = live
                live = self.live_in[stmt] = self._live_in(stmt, live, record)
            else:
                live = self._live_in(stmt, live, record)
        return self._with_closures(live)

    def branches_live_in(self, node, branches, names, live):
        """The names of `names` live at the top of one of `branches` (the blocks of the
        `if`, or `if` chain, `node`) when `live`, some of `names`, are live after it:
        `names & block_live_in(branch, live, record=False)` of each branch, united.

        Read from what the analysis recorded where `live` is what it found live after
        `node`, within `names`, and no nested function makes a name live with others:
        liveness is then decided name by name (each is live at the top of a block when a
        path reads it before writing it, whatever else is live after the block), so the
        recorded tops give the same names. Else computed (passes.conditionals asks this
        of every `if`, enclosing ones included: computing would walk nested ifs again)."""
        after = self.live_out.get(node)
        if (not self.closures and after is not None and live == after & names
                and all(not b or (b[0] in self.live_in and self.live_out.get(b[-1]) == after)
                        for b in branches)):
            tops = [self.live_in[b[0]] if b else live for b in branches]
        else:
            tops = [self.block_live_in(b, live, record=False) for b in branches]
        return names & frozenset().union(*tops)

    def _with_closures(self, live):
        if not self.closures:   # (most functions define no nested function)
            return live
        pending = [name for name in live if name in self.closures]
        while pending:
            added = self.closures[pending.pop()] - live
            live = live | added
            pending += [name for name in added if name in self.closures]
        return live

    def _live_in(self, stmt, out, record):
        if stmt.__class__ not in _STRUCTURED:   # a simple statement: the commonest
            a = self.activity(stmt)
            return (out - a.writes) | a.reads
        block = lambda stmts, live: self.block_live_in(stmts, live, record)  # noqa: E731
        if isinstance(stmt, ast.If):
            return self._reads(stmt.test) | block(stmt.body, out) | block(stmt.orelse, out)
        if isinstance(stmt, (ast.While, ast.For)):
            return self._loop_live_in(stmt, out, block, record)
        if isinstance(stmt, (ast.Return, ast.Raise)):
            return self.activity(stmt).reads
        if isinstance(stmt, (ast.Break, ast.Continue)):   # (live after the loop, at its
            return self._loops[-1][stmt.__class__ is ast.Continue]   # head)
        if isinstance(stmt, ast.With):
            items = self.activity(stmt.items)
            return items.reads | (block(stmt.body, out) - items.writes)
        if isinstance(stmt, ast.Try):
            final = block(stmt.finalbody, out)
            after_body = block(stmt.orelse, final)
            handlers = frozenset().union(*[   # (`as e` binds e: not live before it)
                (block(h.body, final) - {h.name}) | self._reads(h.type or [])
                for h in stmt.handlers])
            return block(stmt.body, after_body | handlers) | handlers | final
        if isinstance(stmt, ast.Match):  # one that stays Python (see passes.match)
            cases = frozenset().union(*[block(c.body, out) | self._reads(c.guard or [])
                                        for c in stmt.cases])
            return self._reads(stmt.subject) | cases | out
        a = self.activity(stmt)
        return (out - a.writes) | a.reads

    def _loop_live_in(self, loop, out, block, record):
        after = block(loop.orelse, out)
        head_reads = frozenset(self.extra_reads.get(loop, ()))
        if isinstance(loop, ast.While):
            head_reads |= self._reads(loop.test)
            targets = frozenset()
        else:
            targets = self.activity(loop.target).writes
        head = after | head_reads
        loops = self._loops
        while True:
            self._loops = loops + ((out, head),)   # (for a `break`, a `continue`)
            body_in = block(loop.body, head)
            self._loops = loops
            new = after | head_reads | (body_in - targets)
            if new == head:
                break
            head = new
        if record:
            self.loop_head[loop] = head
        return head | (self._reads(loop.iter) if isinstance(loop, ast.For) else frozenset())

    # --- definite assignment (forward) --------------------------------------------------

    def _defined_block(self, stmts, defined):
        """Names defined after `stmts`, or None when they never complete normally."""
        for stmt in stmts:
            self.defined_in[stmt] = defined
            after = self._defined_after(stmt, defined)
            if after is None:
                return None
            defined = after
        return defined

    def _defined_after(self, stmt, defined):
        if stmt.__class__ not in _STRUCTURED and stmt.__class__ is not ast.Delete:
            return defined | self.activity(stmt).writes
        if isinstance(stmt, ast.If):
            branches = [self._defined_block(b, defined) for b in (stmt.body, stmt.orelse)]
            completing = [b for b in branches if b is not None]
            return frozenset.intersection(*completing) if completing else None
        if isinstance(stmt, (ast.While, ast.For)):
            targets = self.activity(stmt.target).writes if isinstance(stmt, ast.For) else set()
            self._defined_block(stmt.body, defined | targets)
            return self._defined_block(stmt.orelse, defined)
        if isinstance(stmt, (ast.Return, ast.Raise)):
            return None
        if isinstance(stmt, ast.With):
            return self._defined_block(stmt.body, defined | self.activity(stmt.items).writes)
        if isinstance(stmt, ast.Try):
            self._defined_block(stmt.body, defined)
            for handler in stmt.handlers:   # (`as e` binds e there)
                self._defined_block(handler.body, defined | (
                    {handler.name} if handler.name else frozenset()))
            self._defined_block(stmt.orelse, defined)
            caught = {h.name for h in stmt.handlers if h.name}   # (unbound after them)
            return self._defined_block(stmt.finalbody, defined - caught)
        if isinstance(stmt, ast.Match):
            for case in stmt.cases:
                self._defined_block(case.body, defined | captures(case.pattern))
            return defined  # no case need match
        if isinstance(stmt, ast.Delete):   # `del y` unbinds y
            return defined - {t.id for t in stmt.targets if isinstance(t, ast.Name)}
        return defined | self.activity(stmt).writes

    def _reads(self, expr):
        return self.activity(expr).reads


_STRUCTURED = frozenset({ast.If, ast.While, ast.For, ast.Return, ast.Raise, ast.With, ast.Try,
                         ast.Match, ast.Break, ast.Continue})
"""The statements the analyses take apart; any other is read through its activity."""
