"""Which variables Python never reads before assigning them, on any path.

A staged `if` must give each variable it passes on a value on both paths. When one path
leaves a variable unassigned but Python would never read it there (every read of the
variable, on every path of the user's code, follows an assignment), the staged code may
fill it with zeros: no read ever sees them. The for-else search is the common case:

    for i in range(n):
        if xs[i] == t:
            idx = i          # the `if` leaves idx unassigned when xs[i] != t...
            break
    else:
        idx = -1             # ...but every way out of the loop assigns it
    return idx

The analysis is a forward "definitely assigned" pass over the user's code as written,
before any pass lowers `break`, `continue`, `return` or a loop's `else` (flags would hide
which paths are possible). It is conservative: a name read inside a nested function or
lambda, declared global/nonlocal, bound by `:=`, a `case` pattern or an `except ... as`,
or assigned only inside a `try` body or a `with` block (an exception may skip it, and
`__exit__` may swallow it) is not counted as assigned there.
"""
import ast

from autograph.analysis.activity import activity, captures, scope_of
from autograph.analysis.scopes import sharing
from autograph.analysis.walk import nodes


def assigned_before_reads(function, shared=None, scope=None, kinds=None):
    """The local names of `function` (a FunctionDef) that Python always assigns before
    reading: on every path, no read of them can raise UnboundLocalError. `shared` and
    `scope` are `function`'s analysis.scopes.Sharing and activity.Scope when the caller
    has them; `kinds`, node classes that include those in `function` (a census's)."""
    scope = scope or scope_of(function)
    if kinds is None:
        kinds = {type(node) for node in nodes(function)}
    walker = _Walker(ast.Delete in kinds or ast.ExceptHandler in kinds, ast.NamedExpr in kinds)
    walker.block(function.body, frozenset(activity(function.args).writes))
    shared = shared or sharing(function)
    return frozenset(scope.locals - walker.unsafe - shared.captured)


def dump(function):
    """`assigned_before_reads(function)` as one line, for tests: `safe=['a', 'i']`."""
    return f'safe={sorted(assigned_before_reads(function))}'


class _Walker:
    def __init__(self, deletes=True, walrus=True):
        self.unsafe = set()   # names read somewhere they may have no value
        self.loops = []       # per enclosing loop: the states at its `break`s
        self.deletes = deletes   # whether the function has `del` statements
        self.walrus = walrus     # whether it has `:=`

    def read(self, node, defined):
        if defined is not None and node is not None:
            self.unsafe |= activity(node).reads - defined

    def block(self, stmts, defined):
        """The names assigned after `stmts`, or None when they never complete normally."""
        for stmt in stmts:
            if defined is None:
                return None
            defined = self.statement(stmt, defined)
        return defined

    def statement(self, stmt, defined):
        if isinstance(stmt, ast.If):
            self.read(stmt.test, defined)
            return _join(self.block(stmt.body, defined), self.block(stmt.orelse, defined))
        if isinstance(stmt, (ast.While, ast.For)):
            return self.loop(stmt, defined)
        if isinstance(stmt, ast.Break):
            self.loops[-1].append(defined)
            return None
        if isinstance(stmt, ast.Continue):
            return None   # the loop's head needs no more than before the loop (see loop)
        if isinstance(stmt, (ast.Return, ast.Raise)):
            self.read(stmt, defined)
            return None
        if isinstance(stmt, ast.With):
            self.read(stmt.items, defined)
            entered = defined | self.assigned(stmt.items)
            return _join(self.block(stmt.body, entered), entered - self.deleted(stmt.body))
        if isinstance(stmt, ast.Try):
            # An exception may come before any assignment of the body (or after a `del`).
            raised = defined - self.deleted(stmt.body + stmt.orelse
                                        + [s for h in stmt.handlers for s in h.body])
            body = self.block(stmt.body, defined)
            ends = [self.block(stmt.orelse, body)]
            for handler in stmt.handlers:   # (`as e` binds e, unbound at the end)
                self.read(handler.type, raised)
                bound = {handler.name} if handler.name else set()
                end = self.block(handler.body, raised | bound)
                ends.append(None if end is None else end - bound)
            after = _join(*ends)
            final = self.block(stmt.finalbody, _join(after, raised))
            return None if after is None or final is None else after | final
        if isinstance(stmt, ast.Match):
            self.read(stmt.subject, defined)
            for case in stmt.cases:   # (a pattern that fails may bind some names)
                bound = defined | captures(case.pattern)
                self.read(case.guard, bound)
                self.block(case.body, bound)
            return defined
        used = activity(stmt)
        self.unsafe |= used.reads - defined
        if isinstance(stmt, ast.AnnAssign) and stmt.value is None:
            return defined   # `x: int` binds nothing
        if isinstance(stmt, ast.Delete):
            return defined - {t.id for t in stmt.targets if isinstance(t, ast.Name)}
        return defined | self.assigned(stmt, used)

    def loop(self, loop, defined):
        """A loop runs its `else` when its test fails or its items run out, and skips it
        on `break`. Its head is reached from before the loop and from the end of each
        iteration, which has what the head had less what the body may `del`."""
        is_for = isinstance(loop, ast.For)
        self.read(loop.iter if is_for else None, defined)
        head = defined - self.deleted(loop.body)
        if not is_for:
            self.read(loop.test, head)
        self.loops.append([])
        self.block(loop.body, head | (self.assigned(loop.target) if is_for else frozenset()))
        breaks = self.loops.pop()
        endless = not is_for and isinstance(loop.test, ast.Constant) and bool(loop.test.value)
        done = None if endless else self.block(loop.orelse, head)
        return _join(done, *breaks)

    def assigned(self, node, used=None):
        """Names a simple statement (or a target) binds, leaving out `:=` targets, which
        may sit in a part of an expression that does not run. (`used`: its activity.)"""
        walrus = {n.target.id for n in ast.walk(node) if isinstance(n, ast.NamedExpr)} \
            if self.walrus and not isinstance(node, list) else set()
        return frozenset((used or activity(node)).writes - walrus)

    def deleted(self, stmts):
        """Names that `del` statements (and `except ... as e`) anywhere in `stmts` unbind."""
        if not self.deletes:
            return set()
        return {t.id for stmt in stmts for n in ast.walk(stmt) if isinstance(n, ast.Delete)
                for t in n.targets if isinstance(t, ast.Name)} | {
            n.name for stmt in stmts for n in ast.walk(stmt)
            if isinstance(n, ast.ExceptHandler) and n.name}


def _join(*states):
    """Names assigned on every path that reaches this point (None: no path does)."""
    reaching = [s for s in states if s is not None]
    return frozenset.intersection(*map(frozenset, reaching)) if reaching else None
