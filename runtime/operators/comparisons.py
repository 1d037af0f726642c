"""`a < f(x) < b`: a chained comparison whose middle operands are evaluated once.

Python evaluates `a < f(x) < b` as `a < t and t < b` with `t = f(x)` computed once, and
stops at the first false comparison without evaluating the operands after it. The
expressions pass writes a chain of names and constants as `ag.and_(a < x, lambda: x < b)`
(reading a name twice is harmless); other middle operands go through `compare`, which
keeps each operand lazy and evaluates it once.
"""
import operator

from .logical import and_, not_
from ..python.equality import eq, ge, gt, le, lt, ne
from ..python.membership import in_

OPERATORS = {
    '<': lt, '<=': le, '>': gt, '>=': ge,
    '==': eq, '!=': ne, 'is': operator.is_, 'is not': operator.is_not,
    'in': in_, 'not in': lambda value, container: not_(in_(value, container)),
}


def compare(left, *rest):
    """Python reference: `left op1 right1 op2 right2 ...`, where `rest` alternates an
    operator's text and a thunk giving the next operand: each operand is evaluated once, a
    false Python result stops the chain, traced results are and-ed as `and_` does."""
    op, right = rest[0], rest[1]()
    result = OPERATORS[op](left, right)
    if len(rest) == 2:
        return result
    return and_(result, lambda: compare(right, *rest[2:]))
