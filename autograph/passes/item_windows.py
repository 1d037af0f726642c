"""Which items `x[k1], x[k2], ... = ...` stores lie in one small box of `x`, for
`ag.setitems(..., window=)` (see passes.item_assignments and runtime/items/item_writes.py):
keys that are one expression plus integer constants (`x[j], x[j + 1]`), where along an
axis on which they differ none can be negative (`j` a counter of a `range` from 0)."""
import ast

from autograph import templates
from autograph.analysis.walk import nodes

WINDOW_ITEMS = 64
"""The most items the box of `ag.setitems(..., window=)` holds (it is read and written
whole)."""


def counters(function, scope, ctx):
    """The names that only ever hold items of a `range` counting up from 0 or another
    non-negative constant: each is assigned only as the target of such `for` loops
    (`range` is `ag.range` by now, see passes.calls)."""
    ranges = {ast.dump(ctx.runtime('range'))}
    if 'range' not in scope.locals:
        ranges.add(ast.dump(templates.name('range')))
    stored, counting = {}, {}
    for node in nodes(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stored[node.id] = stored.get(node.id, 0) + 1
        for name in _bound_otherwise(node):   # (never a counter)
            stored[name] = stored.get(name, 0) + 2
        if (isinstance(node, ast.For) and isinstance(node.target, ast.Name)
                and _counts_up(node.iter, ranges)):
            counting[node.target.id] = counting.get(node.target.id, 0) + 1
    return {name for name, n in counting.items()
            if stored.get(name) == n and name not in scope.declared}


def _bound_otherwise(node):
    """Names `node` binds other than by assignment: parameters (of nested functions
    too), imports, `match` captures."""
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.alias):
        return [(node.asname or node.name).split('.')[0]]
    if isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
        return [node.name]
    if isinstance(node, ast.MatchMapping) and node.rest:
        return [node.rest]
    return []


def _counts_up(call, ranges):
    """`range(n)`, `range(a, n)`, `range(a, n, s)` with constants a >= 0, s > 0."""
    if not (isinstance(call, ast.Call) and ast.dump(call.func) in ranges
            and not call.keywords and 1 <= len(call.args) <= 3):
        return False
    start = call.args[0] if len(call.args) > 1 else ast.Constant(value=0)
    step = call.args[2] if len(call.args) > 2 else ast.Constant(value=1)
    return all(isinstance(c, ast.Constant) and type(c.value) is int
               for c in (start, step)) and start.value >= 0 and step.value > 0


def window(keys, counters):
    """The shape of the box that the keys lie in when, axis by axis, they are one
    expression plus integer constants (`j`, `j + 1`: (2,)) and, along an axis where
    they differ, none can be negative (a counter of `range` plus constants >= 0: a
    negative index next to a non-negative one would name items at both ends); else
    None."""
    parts = [k.elts if isinstance(k, ast.Tuple) else [k] for k in keys]
    if len({len(p) for p in parts}) != 1:
        return None
    window = []
    for axis in zip(*parts):
        terms = [_offset(expr) for expr in axis]
        if len({base for base, _ in terms}) != 1:
            return None
        offsets = [offset for _, offset in terms]
        base = terms[0][0]
        if max(offsets) != min(offsets) and (min(offsets) < 0 or base is not None and (
                not isinstance(axis[0], (ast.Name, ast.BinOp))
                or _base_name(axis[0]) not in counters)):
            return None
        window.append(max(offsets) - min(offsets) + 1)
    size = 1
    for w in window:
        size *= w
    return tuple(window) if size <= WINDOW_ITEMS else None


def _base_name(expr):
    """The variable of `j` or `j + c` / `c + j` / `j - c`."""
    if isinstance(expr, ast.BinOp):
        expr = expr.right if isinstance(expr.left, ast.Constant) else expr.left
    return expr.id if isinstance(expr, ast.Name) else None


def _offset(expr):
    """`expr` as (its variable part as text, an integer constant): `j + 1` -> ('j', 1)."""
    def constant(node):
        return (isinstance(node, ast.Constant) and type(node.value) is int) or (
            isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and constant(node.operand))

    def value(node):
        return -value(node.operand) if isinstance(node, ast.UnaryOp) else node.value
    if constant(expr):
        return None, value(expr)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub)):
        sign = 1 if isinstance(expr.op, ast.Add) else -1
        if constant(expr.right):
            return ast.dump(expr.left), sign * value(expr.right)
        if constant(expr.left) and sign == 1:
            return ast.dump(expr.right), value(expr.left)
    return ast.dump(expr), 0
