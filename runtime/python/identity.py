"""`x is True` / `x is False` when `x` is a traced flag.

    done = False
    if x > y:            # traced: `done` comes out of lax.cond as a traced bool
        done = True
    while done is False: ...

In Python `done` is the bool `True` or `False`; staging turned it into a traced boolean
scalar that stands for that bool. An identity test against the tracer object would be
`False` whatever its value, so a traced boolean scalar compared with `True`/`False` by
`is` compares values instead. Likewise `x is None` on an optional value (None on some
paths of staged code, runtime.checks.absent) tests its presence flag, and `p is 0` on a
traced Python int compares its value (CPython makes each small int once). Everything else
keeps Python's identity test (a traced number or array is never the object `True`, and
`x is None` needs no help).
"""
import collections
import weakref

import jax.numpy as jnp

from ..checks.absent import Maybe
from ..values.choice import Choice
from ..values.split import is_traced

_TESTS = collections.OrderedDict()   # id(test) -> (weakref to it, optional, None when true)
_KEPT = 64                           # (the latest tests: an `if` asks right after its test)


def is_(left, right):
    """Python reference: `left is right` (`right` or `left` is a literal True/False,
    None or an int). An optional value (a result that is None on some paths, see runtime.checks.absent)
    is None where its flag is false; a Choice (runtime.values.choice) is its option."""
    for optional, literal in ((left, right), (right, left)):
        if literal is None and isinstance(optional, Maybe) and optional.absent is None:
            return _remembered(jnp.logical_not(optional.present), optional, True)
        if isinstance(optional, Choice) and any(literal is c for c in (None, True, False)):
            return optional.picked([o is literal for o in optional.options])
    for flag, literal in ((left, right), (right, left)):
        if (literal is True or literal is False) and is_traced(flag) \
                and _is_bool_scalar(flag):
            return flag if literal else jnp.logical_not(flag)
        if type(literal) is int and _CACHED[0] <= literal <= _CACHED[1] and \
                is_traced(flag) and _is_python_int(flag):
            return flag == literal
    return left is right


_CACHED = (-5, 256)
"""The ints CPython makes once (every `0` is the same object): `p is 0` is `p == 0`
for a Python int `p` in that range."""


def _is_python_int(value):
    """Whether traced `value` stands for a Python int: an integer scalar, weakly typed
    as JAX types Python's numbers (a JAX array's integer is not: `jnp.int32(0) is 0`
    is False)."""
    aval = getattr(value, 'aval', None)
    return aval is not None and getattr(aval, 'weak_type', False) and \
        jnp.ndim(value) == 0 and jnp.issubdtype(value.dtype, jnp.integer)


def is_not(left, right):
    """Python reference: `left is not right` (`right` or `left` is a literal True/False)."""
    result = is_(left, right)
    if not is_traced(result):
        return not result
    return negated(result)


def negated(test):
    """`not test` of a traced bool, remembered as the opposite test of the optional
    value `test` tests, if any (see `tested_optional`)."""
    tested = tested_optional(test)
    result = jnp.logical_not(test)
    return result if tested is None else _remembered(result, tested[0], not tested[1])


def tested_optional(test):
    """(optional, whether it may be None where `test` is true) when `test` is the result
    of `optional is None` or `optional is not None` (an optional value, runtime.checks.absent),
    or of an `or`/`and` of such a test (see `combined`), else None: the branch on which
    the value is certainly there knows it (see if_stmt)."""
    entry = _TESTS.get(id(test))
    if entry is None or entry[0]() is not test:
        return None
    return entry[1], entry[2]


def combined(result, operands, conjunction):
    """`result`, the traced `operands[0] and operands[1]` (`conjunction`) or `... or ...`,
    remembered as a test of an optional value one of the operands tests: where an `or` is
    false each operand is false (so `y is None or y > hi` false: `y` is there), where an
    `and` is true each is true (`y is not None and y > 0`)."""
    for operand in operands:
        tested = tested_optional(operand)
        if tested is not None and tested[1] != conjunction:
            return _remembered(result, *tested)
    return result


def truth_of(value, cond):
    """`cond`, the truth of `value` (runtime.checks.absent.truth), remembered as a test of
    the optional value that `value` tests (see `tested_optional`): where an optional
    value is true it is not None, and so is the `left` of a true `left and ...` (see
    `present_where_true`)."""
    if cond is value or not is_traced(cond):
        return cond
    if isinstance(value, Maybe) and value.absent is None:
        return _remembered(cond, value, False)
    tested = tested_optional(value)
    return cond if tested is None else _remembered(cond, *tested)


def present_where_true(result, optional):
    """`result`, of `optional and ...` (an optional value), remembered as a test that
    `optional` is not None where it is true."""
    if isinstance(result, (Maybe, Choice)) or is_traced(result):
        return _remembered(result, optional, False)
    return result


def _remembered(test, optional, none_when_true):
    _TESTS[id(test)] = (weakref.ref(test), optional, none_when_true)
    while len(_TESTS) > _KEPT:
        _TESTS.popitem(last=False)
    return test


def _is_bool_scalar(value):
    return jnp.shape(value) == () and jnp.result_type(value) == jnp.bool_
