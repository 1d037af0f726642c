"""The accumulators of a loop: variables its body only updates by one reduction operator,
never reading them otherwise (analysis.independence lets such a loop run vectorised, its
accumulators reduced once over the iterations).

    for j in range(n):
        if i != j:
            ax += dx[j] * inv[j]        # ax: a sum over the iterations
            top = max(top, dx[j])       # top: a maximum

A variable `s` accumulates in a loop when each occurrence of `s` in the body is in an
update of one kind whose other operand `e` does not read `s`:

- sum: `s += e`, `s -= e`, `s = s + e`, `s = e + s`, `s = s - e` (and chains such as
  `s = s + a - b`);
- prod: `s *= e`, `s = s * e`, `s = e * s` (and chains `s * a * b`);
- max / min: `s = max(s, e)`, `s = min(s, e)` (Python's builtins, which keep `s` unless
  `e` compares greater (smaller): a NaN `e` is skipped. Not `max(e, s)`: a NaN `e` would
  become `s`, and which later items are kept would depend on their order);
- maximum / minimum: `s = jnp.maximum(s, e)`, `jnp.maximum(e, s)` and NumPy's (a NaN
  propagates either way).

The updates may sit anywhere in the body: under `if`s (whose tests cannot read `s`),
in inner loops. Python's result is `s` before the loop combined by the operator with
each iteration's contribution: what that iteration's updates make of the operator's
identity (0, 1, -inf, +inf), the iterations being independent otherwise.
"""
import ast

from autograph.analysis.walk import nodes

_OPERATORS = {ast.Add: 'sum', ast.Sub: 'sum', ast.Mult: 'prod'}
_COMMUTATIVE = (ast.Add, ast.Mult)
_EXTREMA = {'max': 'max', 'min': 'min'}                    # builtins
_ARRAY_EXTREMA = {'maximum': 'maximum', 'minimum': 'minimum'}   # jax.numpy, numpy

KINDS = ('sum', 'prod', 'max', 'min', 'maximum', 'minimum')


def accumulators(stmts, analysis):
    """{name: kind} of the variables that the statements `stmts` (a loop body) only
    update by one kind of reduction (see the module docstring). `analysis` tells which
    calls are the builtins and library functions (an independence._Analysis)."""
    kinds, covered, uses = {}, set(), {}
    for stmt in stmts:
        for node in nodes(stmt):
            if isinstance(node, ast.Name):
                uses.setdefault(node.id, []).append(node)
                continue
            found = _update(node, analysis)
            if found is not None:
                name, kind, occurrences = found
                kinds.setdefault(name, set()).add(kind)
                covered.update(map(id, occurrences))
    return {name: next(iter(found)) for name, found in sorted(kinds.items())
            if len(found) == 1 and all(id(n) in covered for n in uses[name])}


def _update(node, analysis):
    """(name, kind, the Name nodes of `name` it holds) when `node` is one update of an
    accumulator, else None."""
    if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
        kind = _OPERATORS.get(type(node.op))
        name = node.target.id
        if kind is not None and not _reads(node.value, name):
            return name, kind, [node.target]
        return None
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)):
        return None
    target, value = node.targets[0], node.value
    found = (_chain(value, target.id) if isinstance(value, ast.BinOp)
             else _extremum(value, target.id, analysis) if isinstance(value, ast.Call)
             else None)
    if found is None:
        return None
    kind, read = found
    return target.id, kind, [target, read]


def _chain(value, name):
    """(kind, the Name read) for `name op e op ...` (operators of one kind, `name`
    leftmost) or `e + name` / `e * name`, where no `e` reads `name`; else None."""
    kind = _OPERATORS.get(type(value.op))
    if kind is None:
        return None
    if isinstance(value.right, ast.Name) and value.right.id == name \
            and isinstance(value.op, _COMMUTATIVE) and not _reads(value.left, name):
        return kind, value.right
    operands, left = [value.right], value.left
    while isinstance(left, ast.BinOp) and _OPERATORS.get(type(left.op)) == kind:
        operands.append(left.right)
        left = left.left
    if isinstance(left, ast.Name) and left.id == name \
            and not any(_reads(e, name) for e in operands):
        return kind, left
    return None


def _extremum(call, name, analysis):
    """(kind, the Name read) for `max(name, e)`, `jnp.maximum(name, e)`,
    `jnp.maximum(e, name)` (and min, minimum) where `e` does not read `name`; else None."""
    if len(call.args) != 2 or call.keywords:
        return None
    func = call.func
    if analysis.is_builtin_call(call):
        kind = _EXTREMA.get(func.id)
    elif isinstance(func, ast.Attribute) and func.attr in _ARRAY_EXTREMA \
            and analysis.pure_function(func) and _module(func, analysis) in (
                'jax.numpy', 'numpy'):
        kind = _ARRAY_EXTREMA[func.attr]
    else:
        return None
    orders = (call.args,) if kind in _EXTREMA else (call.args, call.args[::-1])
    for read, other in orders:
        if kind is not None and isinstance(read, ast.Name) and read.id == name \
                and not _reads(other, name):
            return kind, read
    return None


def _module(func, analysis):
    """The module `func` (`jnp.maximum`) is an attribute of, by the resolver."""
    return analysis.resolver.module_name(func.value.id) \
        if isinstance(func.value, ast.Name) else None


def _reads(tree, name):
    return any(isinstance(n, ast.Name) and n.id == name for n in nodes(tree))
