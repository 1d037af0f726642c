"""A defaultdict's item read inside a branch or loop body -> the item made first:

    d = collections.defaultdict(float)      d = collections.defaultdict(float)
    for y in w:                             for y in w:
        if y > 0:                               if y > 0:
            total = total + d[k]      ->            d[k] = d[k]
                                                    total = total + d[k]

Python's `d[k]` adds `k` to a defaultdict that lacks it, on the path that reads it. Read
where the dict is not the branch's (or body's) state, that key could not be given on
one path only (runtime.checks.keys: the named error default_read_elsewhere); written
as its own item assignment first, the read is a change of the dict in place, which the
staged statement carries as it carries `d[k] += 1` (passes.item_assignments).

Only for the names the function binds to `defaultdict(...)` alone and uses in no nested
function, lambda or comprehension, and the reads Python surely makes when the statement
runs (not in `x if c else y`, `and`/`or`) of a key that is a name or a constant, in a
simple statement inside an `if`, `while` or `for` (the guards `if not did_return:` of
passes.returns among them) that uses the dict in no other way (`'k' in d` before the
read would see the key made first).
"""
import ast

from autograph.analysis.walk import SCOPES, blocks, children

_COMPOUND = (ast.If, ast.For, ast.While)
_SIMPLE = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Return)
_VALUED = (ast.Assign, ast.AnnAssign, ast.Expr, ast.Return)
"""The simple statements whose expression is their `value` (an augmented assignment's
target is read before it)."""
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_CONDITIONAL = (ast.IfExp, ast.BoolOp, ast.NamedExpr) + _COMPREHENSIONS + SCOPES
"""Expressions whose parts Python may not evaluate (or evaluates elsewhere)."""


def transform(function, ctx):
    if not (ctx.census.has_any(('defaultdict',)) or ctx.census.has_attribute({'defaultdict'})):
        return function
    names = _defaultdicts(function)
    if names:
        for stmt in function.body:
            _made_first(stmt, names, False)
    return function


def _defaultdicts(function):
    """The names `function` binds to `defaultdict(...)` (or `collections.defaultdict`)
    and nothing else, and that no function, lambda or comprehension in it uses (one
    called would see the key made first)."""
    made, other = set(), set()
    stack = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, SCOPES + _COMPREHENSIONS):
            other.update(n.id for n in ast.walk(node) if isinstance(n, ast.Name))
            continue
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name) and _makes_defaultdict(node.value):
            made.add(node.targets[0].id)
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            other.add(node.id)
        stack += children(node)
    return made - other - {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}


def _makes_defaultdict(value):
    func = value.func if isinstance(value, ast.Call) else None
    return (isinstance(func, ast.Name) and func.id == 'defaultdict') or (
        isinstance(func, ast.Attribute) and func.attr == 'defaultdict')


def _made_first(stmt, names, nested):
    """Put `d[k] = d[k]` before the simple statements (inside a compound one: `nested`)
    that surely read `d[k]`, in the blocks of `stmt`."""
    if isinstance(stmt, SCOPES):
        return
    inside = nested or isinstance(stmt, _COMPOUND)
    for block in blocks(stmt):
        out = []
        for inner in block:
            if inside and isinstance(inner, _SIMPLE):
                out += [ast.copy_location(_made(read), inner) for read in _reads(inner, names)]
            _made_first(inner, names, inside)
            out.append(inner)
        block[:] = out


def _reads(stmt, names):
    """The distinct reads `d[k]` that `stmt` surely makes, of the names it uses in no
    other way before them: made first, a key would change what `'k' in d`, `len(d)` or a
    call given `d` see, which Python computes before the read (or without it). (Python
    computes an expression left to right, an assignment's value before its targets: a
    use after the last read in the value, `d['a'] + ('a' in d)`, sees the key.)"""
    found = _sure_reads(stmt, names)
    value = getattr(stmt, 'value', None) if isinstance(stmt, _VALUED) else None
    in_value = {id(n) for n in ast.walk(value)} if value is not None else set()
    used = [n for c in children(stmt) if not isinstance(c, ast.stmt) for n in ast.walk(c)
            if isinstance(n, ast.Name) and n.id in names]
    read = {id(r.value) for r in found}
    last = {}   # name -> the position of its last read (`_NOWHERE`: none is after it)
    for r in found:
        last[r.value.id] = max(last.get(r.value.id, (0, 0)), _position(r) or _NOWHERE)
    other = {n.id for n in used if id(n) not in read and not (
        id(n) in in_value and n.id in last and (_position(n) or (0, 0)) > last[n.id])}
    out, seen = [], set()
    for r in found:
        key = (r.value.id, ast.dump(r.slice))
        if r.value.id not in other and key not in seen:
            seen.add(key)
            out.append(r)
    return out


def _position(node):
    """(line, column) of `node`, or None where it has none (a use placed nowhere is taken
    for one before every read, a read for one after every use)."""
    line, column = getattr(node, 'lineno', None), getattr(node, 'col_offset', None)
    return None if line is None or column is None else (line, column)


_NOWHERE = (float('inf'), 0)


def _sure_reads(stmt, names):
    """Every read `d[k]` of `names` that `stmt` surely makes (a name or constant `k`)."""
    found = []
    stack = [c for c in children(stmt) if not isinstance(c, ast.stmt)][::-1]
    while stack:
        node = stack.pop()
        if isinstance(node, _CONDITIONAL):
            continue
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and \
                isinstance(node.value, ast.Name) and node.value.id in names and \
                isinstance(node.slice, (ast.Name, ast.Constant)):
            found.append(node)
        stack += children(node)[::-1]
    return found


def _made(read):
    """`d[k] = d[k]` for the read `d[k]`."""
    def item(ctx):
        return ast.Subscript(value=ast.Name(id=read.value.id, ctx=ast.Load()),
                             slice=_copy(read.slice), ctx=ctx)
    return ast.fix_missing_locations(ast.copy_location(
        ast.Assign(targets=[item(ast.Store())], value=item(ast.Load())), read))


def _copy(key):
    return ast.Name(id=key.id, ctx=ast.Load()) if isinstance(key, ast.Name) \
        else ast.Constant(value=key.value)
