"""Two arguments of a call that share NumPy's items, where the function writes one:
`ag.check_apart(...)` before the call (passes.written_arguments; the run-time check is
runtime.python.argument_aliases'). In NumPy the other argument sees each write at once;
the converted code writes a new array, so reads through it would give the values from
before the writes."""
import ast

from autograph.analysis.written_parameters import argument_base


def apart_checks(func, args, positions, ag):
    """`ag.check_apart(a, f, 0, 'a', 'a[0]')` before `f(a, a[0])` that writes the
    argument at 0 (`_shared`: the variable `a` and a view of it, or two slices of it
    that overlap, `f(x[:3], x[1:])`): NumPy's writes through one are seen through the
    other (runtime.python.argument_aliases). `items=k` where the view is `a[i]` or
    `a[i, j]`, k plain indices: a view only where `a` has more dimensions (else a
    number, a copy)."""
    checks = []
    for p in positions:
        base = argument_base(args[p])
        for q, other in enumerate(args):
            if q != p and base is not None and argument_base(other) == base \
                    and _shared(args[p], other):
                texts = ', '.join(repr(ast.unparse(args[k])) for k in sorted((p, q)))
                items = _plain_indices(other if isinstance(args[p], ast.Name)
                                       else args[p])
                texts += f', items={items}' if items else ''
                checks.append(ast.parse(f'{ag}.check_apart({base}, '
                                        f'{ast.unparse(func)}, {p}, {texts})').body[0])
    return checks


def _plain_indices(view):
    """k for `a[i]`, `a[i, j]` (k plain indices: no slice, `None` or `...`), else
    None."""
    if not isinstance(view, ast.Subscript):
        return None
    key = view.slice
    parts = key.elts if isinstance(key, ast.Tuple) else [key]
    if any(isinstance(part, (ast.Slice, ast.Starred)) or (
            isinstance(part, ast.Constant) and part.value in (None, ...)) for part in parts):
        return None
    return len(parts)


def _shared(first, second):
    """Whether two arguments of one variable share items: the variable and a view of it
    (the variable twice is runtime.python.calls' check), or two slices of literal bounds,
    at least 0, that overlap."""
    if isinstance(first, ast.Name) or isinstance(second, ast.Name):
        return not (isinstance(first, ast.Name) and isinstance(second, ast.Name))
    bounds = []
    for key in (first.slice, second.slice):
        if not isinstance(key, ast.Slice) or key.step is not None or not all(
                b is None or (isinstance(b, ast.Constant) and type(b.value) is int
                              and b.value >= 0) for b in (key.lower, key.upper)):
            return False
        bounds.append((key.lower.value if key.lower else 0,
                       key.upper.value if key.upper else float('inf')))
    (a, b), (c, d) = bounds
    return max(a, c) < min(b, d)
