"""An error raised in an `elif` test, or in a branch, of an `if` chain that converts to
one `ag.if_exp_chain(...)` statement names that test's (branch's) line, not the line of
the chain's first `if`: the line map keeps, per lambda of a generated line that holds
code of another user line, its columns (autograph.unparsing, runtime.origin). (`np.unique`
of a traced array, whose size only the values decide, is the error these raise.)"""
import ast
import inspect
import math
import sys

import jax.numpy as jnp
import numpy as np
import pytest

from autograph import convert, to_code
from autograph import unparsing
from autograph.errors import TracedValueNeeded
from autograph.runtime import origin

pytestmark = pytest.mark.skipif(sys.version_info < (3, 11),
                                reason='Python 3.10 code keeps no columns (co_positions)')


def _line_of(fn, text):
    """The file line of the first line of `fn`'s source holding `text`."""
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def numpy_in_elif(cost, u):
    if cost < 0:
        return 1.0
    elif u < np.unique(-cost)[0]:
        return 2.0
    else:
        return 3.0


def numpy_in_elif_after_text(cost, u, tag):
    if cost < 0 and tag == 'éééééééééééééééééééééééééééééééé':   # (columns: UTF-8 bytes)
        return 1.0
    elif u < np.unique(-cost)[0]:
        return 2.0
    return 3.0


def numpy_in_branch(cost, u):
    if cost < 0:
        return 1.0
    elif u > 0:
        return np.unique(u)[0]
    return 3.0


def domain_error_in_elif(cost, u):
    if cost < 0:
        return 1.0
    elif u < math.log(cost - 5.0):
        return 2.0
    return 3.0


def _chain_of(fn):
    assert 'ag.if_exp_chain(' in to_code(fn)   # (one statement: what this file tests)


@pytest.mark.parametrize('fn, text', [
    (numpy_in_elif, 'elif u < np.unique'),
    (numpy_in_branch, 'return np.unique'),
])
def test_traced_value_needed_names_the_line_inside_the_chain(fn, text):
    _chain_of(fn)
    with pytest.raises(TracedValueNeeded) as raised:
        convert(fn)(jnp.float32(1.0), jnp.float32(0.5))
    assert f':{_line_of(fn, text)} (`' in str(raised.value)
    assert f':{_line_of(fn, "if cost < 0")} (' not in str(raised.value)


def test_columns_count_bytes_after_non_ascii_text():
    _chain_of(numpy_in_elif_after_text)
    with pytest.raises(TracedValueNeeded) as raised:
        convert(numpy_in_elif_after_text)(jnp.float32(1.0), jnp.float32(0.5), 'x')
    line = _line_of(numpy_in_elif_after_text, 'elif u < np.unique')
    assert f':{line} (`elif u < np.unique(-cost)[0]:`)' in str(raised.value)


def test_a_run_time_check_in_an_elif_test_names_its_line():
    _chain_of(domain_error_in_elif)
    with pytest.raises(ValueError, match='math domain error') as raised:
        convert(domain_error_in_elif)(jnp.float32(1.0), jnp.float32(0.5))
    line = _line_of(domain_error_in_elif, 'elif u < math.log')
    assert f':{line}' in ' '.join(getattr(raised.value, '__notes__', ()))
    # Python's own: the same error where the test runs, none where it does not.
    with pytest.raises(ValueError, match='math domain error'):
        domain_error_in_elif(1.0, 0.5)
    assert convert(domain_error_in_elif)(jnp.float32(-1.0), jnp.float32(0.5)) == 1.0


def test_the_statement_keeps_its_own_line_outside_its_lambdas():
    location = origin.Location('user.py', 5, parts=(
        (10, 30, origin.Location('user.py', 7)), (15, 20, origin.Location('user.py', 8))))
    assert location.at(None).line == 5
    assert location.at(3).line == 5
    assert location.at(30).line == 5
    assert location.at(10).line == 7
    assert location.at(16).line == 8   # (the innermost part holding the column)


def test_parts_recorded_while_unparsing_are_the_lambdas_columns():
    node = ast.parse('x = f(lambda: a, lambda: b)').body[0]
    first, second = node.value.args
    for name, line in ((first.body, 4), (second.body, 6)):
        name.lineno = line
    text, old_lines, parts = unparsing.unparse_lines(node, 1)
    assert [(line, text[a:b], old) for line, a, b, old in parts] == [
        (1, 'lambda: a', 4), (1, 'lambda: b', 6)]
    assert old_lines == [(1, 1)]
