"""Index expressions as sums of terms with integer coefficients, to find a slice's width.

    i - 2           ->  {i: 1} - 2
    i + r + 1       ->  {i: 1, r: 1} + 1
    2 * (i + 1)     ->  {i: 2} + 2

Terms are the sub-expressions that are not `+`, `-` or a product with an integer
literal, compared by their syntax tree. Two slice bounds `lower`, `upper` that share
terms (same coefficients) are `start + shift` and `start + shift + width`, `start` being
the shared terms: `x[i - 2:i + 3]` has start `i`, shift `-2` and width `5`, and
`x[i - r:i + r + 1]` start `i`, shift `-r` and width `2 * r + 1`. For Python integers
that is exact arithmetic, so the slice is the same.
"""
import ast
import copy


def difference(lower, upper):
    """(start, width, shift) as new expressions (shift None for 0), or None when the
    bounds share no term."""
    low, high = _terms(lower), _terms(upper)
    shared = {k: v for k, v in low.items()
              if k is not None and k in high and high[k][1] == v[1]}
    if not shared:
        return None
    width = _combine(high, _scaled(low, -1), shared)
    shift = {k: v for k, v in low.items() if k not in shared}
    return (_expression(shared), _expression(width),
            _expression(shift) if any(c for _, c in shift.values()) else None)


def _terms(node):
    """{ast.dump(term): (term, coefficient)}, the constant under the key None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return {None: (None, node.value)}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        terms = _terms(node.operand)
        return _scaled(terms, -1) if isinstance(node.op, ast.USub) else terms
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        right = _terms(node.right)
        return _combine(_terms(node.left),
                        _scaled(right, -1) if isinstance(node.op, ast.Sub) else right, {})
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        for factor, other in ((node.left, node.right), (node.right, node.left)):
            if isinstance(factor, ast.Constant) and type(factor.value) is int:
                return _scaled(_terms(other), factor.value)
    return {ast.dump(node): (node, 1)}


def _scaled(terms, factor):
    return {k: (node, c * factor) for k, (node, c) in terms.items()}


def _combine(first, second, skipped):
    """first + second (second already signed), without the keys in `skipped`."""
    out = {k: v for k, v in first.items() if k not in skipped}
    for k, (node, c) in second.items():
        if k in skipped:
            continue
        total = out[k][1] + c if k in out else c
        out[k] = (out[k][0] if k in out else node, total)
    return out


def _expression(terms):
    """The sum `c1 * t1 + c2 * t2 + ... + constant` as an expression, without the terms
    whose coefficient is 0."""
    constant = terms.get(None, (None, 0))[1]
    parts = [(copy.deepcopy(node), c) for k, (node, c) in terms.items()
             if k is not None and c]
    if not parts:
        return ast.Constant(value=constant)
    out = None
    for node, c in parts:
        term = node if abs(c) == 1 else ast.BinOp(ast.Constant(value=abs(c)), ast.Mult(), node)
        if out is None:
            out = term if c > 0 else ast.UnaryOp(ast.USub(), term)
        else:
            out = ast.BinOp(out, ast.Add() if c > 0 else ast.Sub(), term)
    if constant:
        out = ast.BinOp(out, ast.Add() if constant > 0 else ast.Sub(),
                        ast.Constant(value=abs(constant)))
    return out
