"""What every pass shares: the conversion context and the loop-walking helpers."""
import ast
import dataclasses

from autograph import templates
from autograph.analysis.walk import (CHILDREN, LOOPS, SCOPES, Transformer, blocks, children,
                                     statements_in)
from autograph.naming import Namer


@dataclasses.dataclass
class Context:
    """One function's conversion: where it came from and what the passes tell each other.

    `return_flag` (and `return_value`) are set when a `return` is lowered to a flag (see
    passes.returns).
    `break_flag_names[loop]` names the flag a lowered `break` will set (when the returns
    pass wants it to be its `did_return`); `break_flags[for_loop]` is the flag a lowered
    `break` sets (the `for` stops when it is true), `exit_flags[loop]` that flag for every
    kind of loop (the `if not flag:` guards after a `break` are its); `loop_options[loop]`
    are the keywords of an `autograph.set_loop_options` directive. `sharing[scope]` tells
    which variables of each scope nested functions see, from the user's code before any
    pass ran;
    `assigned_before_reads[scope]` the variables Python never reads unassigned (see
    analysis.definite), also from the user's code, and `own_arrays[scope]` the NumPy
    arrays it makes and keeps to itself (analysis.own_arrays); `independent_loops[for_loop]` the
    verdict of analysis.independence on the user's loop. `dataflow[scope]` are the
    analyses a pass made and left valid (it changed nothing), for the next pass to take.
    """
    file: str
    namer: Namer
    ag: str               # the name generated code uses for the runtime module
    resolver: object      # tells which called names are library code (see passes.calls)
    break_flag_names: dict = dataclasses.field(default_factory=dict)
    break_flags: dict = dataclasses.field(default_factory=dict)
    exit_flags: dict = dataclasses.field(default_factory=dict)
    loop_options: dict = dataclasses.field(default_factory=dict)
    sharing: dict = dataclasses.field(default_factory=dict)  # scope -> analysis.scopes
    assigned_before_reads: dict = dataclasses.field(default_factory=dict)  # scope -> names
    user_objects: dict = dataclasses.field(default_factory=dict)  # scope -> names (calls)
    independent_loops: dict = dataclasses.field(default_factory=dict)  # loop -> verdict
    return_flag: str = None  # the `did_return` flag of passes.returns, if it made one
    return_value: str = None  # its `retval` (returned as soon as it is set: never a view)
    dataflow: dict = dataclasses.field(default_factory=dict)  # scope -> (Scope, Dataflow)
    census: object = None    # what the function's tree holds (analysis.census)
    kept_arrays: dict = dataclasses.field(default_factory=dict)  # see passes.views
    own_arrays: dict = dataclasses.field(default_factory=dict)  # scope -> names (user's)
    live_loops: dict = dataclasses.field(default_factory=dict)  # see passes.live_iteration
    kind_flags: dict = dataclasses.field(default_factory=dict)  # see passes.kind_flags

    def copy(self, nodes):
        """A deep copy of `nodes` whose loops keep their entries in the side tables."""
        memo = {}
        copied = templates.copy_tree(nodes, memo)
        for table in (self.break_flag_names, self.break_flags, self.exit_flags,
                      self.loop_options, self.independent_loops, self.live_loops):
            for node, value in list(table.items()):
                if id(node) in memo:
                    table[memo[id(node)]] = value
        return copied

    def runtime(self, attr):
        """`ag.attr` as an expression."""
        return ast.Attribute(value=ast.Name(id=self.ag, ctx=ast.Load()), attr=attr,
                             ctx=ast.Load())


def contains(stmts, kinds, stop=LOOPS + SCOPES):
    """True when a statement of `kinds` is in `stmts`, not looking inside `stop` nodes."""
    for stmt in stmts:
        if isinstance(stmt, kinds):
            return True
        if not isinstance(stmt, stop):
            for block in blocks(stmt):   # (a loop, not `any`: Python 3.12 limits recursion
                if contains(block, kinds, stop):   # through C calls to ~1,500 frames)
                    return True
    return False


def map_loops(stmts, visit):
    """Apply `visit(loop, inside_loop)` to every loop in `stmts`, innermost first, not
    entering nested functions. `visit` returns the statements that replace the loop."""
    return _map_loops(stmts, visit, False)


def _map_loops(stmts, visit, inside_loop):
    out = []
    for stmt in stmts:
        if isinstance(stmt, SCOPES):
            out.append(stmt)
            continue
        is_loop = isinstance(stmt, LOOPS)
        for field in ('body', 'orelse', 'finalbody'):
            block = getattr(stmt, field, None)
            if isinstance(block, list):
                setattr(stmt, field, _map_loops(block, visit, inside_loop or is_loop))
        for handler in getattr(stmt, 'handlers', []):
            handler.body = _map_loops(handler.body, visit, inside_loop or is_loop)
        out.extend(visit(stmt, inside_loop) if is_loop else [stmt])
    return out


def guard_exits(stmts, kind, flag, replacement=None):
    """`stmts` with each `kind` statement (break, continue, return) replaced by
    `replacement(stmt)` (default: nothing) followed by `flag = True`, and the statements
    after it guarded by `if not flag:`, so the block runs straight through."""
    return _guard_exits(stmts, kind, flag, replacement, {})


def _guard_exits(stmts, kind, flag, replacement, memo):
    """`guard_exits`, asking `holds` with `memo` about each statement before it changes
    that statement's blocks."""
    out = []
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, kind):
            new = replacement(stmt) if replacement else []
            new += templates.statements('flag = True', flag=flag)
            out.extend(templates.set_origin(new, stmt))
            return out
        exits = holds(stmt, kind, memo)
        if exits:
            for block in blocks(stmt):
                block[:] = _guard_exits(block, kind, flag, replacement, memo)
        out.append(stmt)
        rest = stmts[i + 1:]
        if exits and rest:
            guarded = _guard_exits(rest, kind, flag, replacement, memo)
            out.extend(templates.set_origin(templates.statements(
                'if not flag:\n    rest', flag=flag, rest=guarded), rest[0]))
            return out
    return out


def holds(stmt, kind, memo, stop=LOOPS + SCOPES):
    """`contains([stmt], kind, stop)`, kept in `memo` (for one `kind` and `stop`) for
    `stmt` and for the statements in it that the walk answered for on the way: a pass
    that asks about each statement before it changes that statement's blocks, and
    changes no other statement's, gets true answers from it in one walk of the tree (a
    walk per question is quadratic in the depth)."""
    found = memo.get(stmt)
    if found is None:
        found = memo[stmt] = isinstance(stmt, kind) or (
            not isinstance(stmt, stop) and _blocks_hold(stmt, kind, memo, stop))
    return found


def _blocks_hold(stmt, kind, memo, stop):
    """`holds` for some statement in `stmt`'s blocks (loops, not `any`: see `contains`)."""
    for block in blocks(stmt):
        for inner in block:
            if holds(inner, kind, memo, stop):
                return True
    return False


def negation(ctx, flag):
    """`ag.not_(flag)`."""
    return ast.Call(func=ctx.runtime('not_'), args=[ast.Name(id=flag, ctx=ast.Load())],
                    keywords=[])


def fix_missing_locations(tree):
    """`ast.fix_missing_locations(tree)`: each node without a location takes its
    parent's (the root's default: line 1, column 0); the same nodes in the same order,
    without walking contexts and operators (which have no location) and recursing."""
    stack = [(tree, 1, 0, 1, 0)]
    while stack:
        node, line, column, end_line, end_column = stack.pop()
        attributes = node._attributes
        if 'lineno' in attributes:
            if hasattr(node, 'lineno'):
                line = node.lineno
            else:
                node.lineno = line
        if 'end_lineno' in attributes:
            if getattr(node, 'end_lineno', None) is None:
                node.end_lineno = end_line
            else:
                end_line = node.end_lineno
        if 'col_offset' in attributes:
            if hasattr(node, 'col_offset'):
                column = node.col_offset
            else:
                node.col_offset = column
        if 'end_col_offset' in attributes:
            if getattr(node, 'end_col_offset', None) is None:
                node.end_col_offset = end_column
            else:
                end_column = node.end_col_offset
        stack += [(child, line, column, end_line, end_column)
                  for child in reversed(children(node))]   # (in the order of ast's walk)
    return tree


def may_hold(ctx, *kinds):
    """Whether the function being converted may hold one of `kinds` (node classes or
    names): the census's answer (see analysis.census), or True without a census. For a
    construct no pass creates, the walk looking for it can be skipped when it is false."""
    return ctx.census is None or ctx.census.has_any(kinds)


def walk_scope(function):
    """Every node of `function`'s own scope, parents before children, as a list (not
    entering nested functions, which are scopes of their own)."""
    out = []
    stack = [function]
    table = CHILDREN
    while stack:
        node = stack.pop()
        if node.__class__ in _FUNCTIONS and node is not function:
            continue   # (skipped when it comes up: the others keep their order)
        out.append(node)
        if node.__class__ is not ast.Name and node.__class__ is not ast.Constant:
            stack += table[node.__class__](node)   # (those two have no children)
    return out


_FUNCTIONS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef})


def scope_statements(function):
    """Every statement of `function`'s own scope, parents before children, as a list: the
    statements in the blocks of its compound statements, not those in the bodies of
    nested functions and classes (which are scopes of their own)."""
    return statements_in([function.body])


def statements_and_class_bodies(function):
    """The statements of `function`'s own scope (a nested `def` itself, not its body) and
    of the class bodies in it: the statements `walk_scope` finds, and the nested `def`s,
    without walking the expressions (which hold no statements)."""
    out, pending = [], [function.body]
    while pending:
        for stmt in pending.pop():
            out.append(stmt)
            if stmt.__class__ not in _FUNCTIONS:
                pending += blocks(stmt)
    return out


class ScopeTransformer(Transformer):
    """A transformer over one function scope: it does not enter nested functions, which
    the pipeline converts as scopes of their own. A pass made of one is just its class:
    `transform = _MyPass.transform` (the pipeline calls `transform(function, ctx)`)."""

    def __init__(self, root, ctx):
        self.root = root
        self.ctx = ctx

    @classmethod
    def transform(cls, function, ctx):
        """Run the pass on `function` (a FunctionDef or a Lambda) in place."""
        cls(function, ctx).visit(function)
        return function

    def visit_FunctionDef(self, node):
        if node is self.root:
            self.generic_visit(node)
        return node

    visit_AsyncFunctionDef = visit_FunctionDef


class StatementRewriter:
    """A pass that replaces statements, innermost blocks first: `rewrite(stmt)` gives
    the statements that stand for `stmt` (its blocks already rewritten); nested
    functions and classes are left to their own conversion."""

    def __init__(self, ctx):
        self.ctx = ctx

    def block(self, stmts):
        stmts[:] = [new for stmt in stmts for new in self.statement(stmt)]

    def statement(self, stmt):
        if isinstance(stmt, SCOPES):
            return [stmt]
        for block in blocks(stmt):
            self.block(block)
        return self.rewrite(stmt)

    def rewrite(self, stmt):
        return [stmt]
