"""`and`, `or`, `not`, `bool()`, conditional expressions, `while` tests and comprehension
filters on a value that is None on some paths (issue 32): a variable that a traced `if`
leaves None on some paths is an optional value; each of these takes its Python truth,
and `a and b` / `a or b` give Python's value (one of the operands: None, a str, a number
or an array, given back after the run). Each case compares with the same function run
as plain Python, for x < 0, x > 0 and x == 0, as Python floats and as jnp arrays."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.errors import ControlFlowError
from tests.helpers import assert_same, converted

POINTS = (-1.0, 1.0, 0.0)


def doubled_if_positive(x):
    s = None
    if x > 0:
        s = x * 2.0
    return s


def and_in_an_if(x):
    s = None
    if x > 0:
        s = x * 2.0
    if s and x > -5:   # (at x = -1 Python takes the else branch)
        return s
    return x * 2.0


def and_in_an_if_from_a_helper(x):
    s = doubled_if_positive(x)
    if s and x > -5:
        return s
    return x * 3.0


def and_assigns(x):
    s = None
    if x > 0:
        s = x - 1.0
    y = x * 3.0
    if s and x > -5:
        y = s + 1.0
    elif not s and x < 0.5:
        y = y - 1.0
    return y


def narrowed(x):
    s = None
    if x > 0:
        s = x - 1.0
    y, z, w = -1.0, -2.0, -3.0
    if s:            # (the branch taken knows `s` is not None: a plain value after it)
        y = s
    if s and x > 1.5:
        z = s
    if not s:
        w = x
    else:
        w = s
    return y, z, w


def or_default(x):
    s = None
    if x > 0:
        s = x * 2.0
    t = s or 'default'
    return t


def and_plus_one(x):
    s = None
    if x > 0:
        s = x * 2.0
    u = s and s + 1
    return u


def or_number(x):
    s = None
    if x > 0:
        s = x - 1.0   # (0.0, a false value, at x == 1)
    return s or 0.5


def truths(x):
    s = None
    if x > 0:
        s = x - 1.0
    return (not s), bool(s), (1.0 if s else -1.0)


def is_none_or(x):
    s = None
    if x > 0:
        s = x - 1.0
    return (s is None or s < 0), (s is not None and s > 0 or x < -0.5)


def kinds_differ(x):
    s = None
    if x > 0:
        s = x - 1.0
    return (s and x > -5), (s or x > -5)


def two_optionals(x):
    s = None
    if x > 0:
        s = x - 1.0
    t = None
    if x > 0.5:
        t = x
    return s or t, s and t, t and s


def text_or_value(x):
    r = 'none'
    if x > 0:
        r = x
    return r or 'empty', r and 'full', (r == 'none') or r


def while_optional(x):
    s = None
    if x > 0:
        s = x + 1.0
    i = 0
    while s and i < 3:
        i += 1
        s = s - 1.0
    return i


def filtered_sum(x):
    s = None
    if x > 0:
        s = x * 2.0
    return sum([v for v in (1.0, 2.0) if s]) + sum(v for v in (4.0,) if not s)


@pytest.mark.parametrize('fn', [and_in_an_if, and_in_an_if_from_a_helper, and_assigns,
                                narrowed, or_default, and_plus_one, or_number, truths, is_none_or,
                                kinds_differ, two_optionals, text_or_value, while_optional,
                                filtered_sum])
def test_same_as_python(fn):
    _same_as_python(fn)


@pytest.mark.parametrize('fn', [and_assigns, narrowed, or_number, truths, is_none_or, while_optional,
                                filtered_sum])
def test_under_vmap(fn):
    xs = jnp.array([-1.0, 1.0, 0.0, 2.0, 0.5])
    expected = [fn(x) for x in xs]
    expected = jax.tree_util.tree_map(lambda *leaves: np.stack(leaves), *expected)
    assert_same(jax.vmap(converted(fn))(xs), expected)


def listed(x):
    s = None
    if x > 0:
        s = x * 2.0
    return [v for v in (1.0, 2.0) if s]


def test_a_list_kept_by_an_optional_test_is_a_named_error():
    assert listed(1.0) == [1.0, 2.0] and listed(-1.0) == []
    assert autograph.convert(listed)(1.0) == [1.0, 2.0]   # (a Python x: Python's list)
    with pytest.raises(ControlFlowError, match='comprehension'):
        autograph.convert(listed)(jnp.float32(1.0))


@autograph.do_not_convert
def python_truth(value):
    return 1.0 if value else 0.0


def asks_python(x):
    s = None
    if x > 0:
        s = x * 2.0
    return python_truth(s)


def test_truth_asked_by_code_not_converted_is_a_named_error():
    assert autograph.convert(asks_python)(2.0) == asks_python(2.0)
    with pytest.raises(ControlFlowError, match='None on some paths'):
        autograph.convert(asks_python)(jnp.float32(2.0))


def _same_as_python(fn):
    """`fn` converted, called twice on each point (Python floats, then jnp arrays),
    against `fn` run as plain Python."""
    function = autograph.convert(fn)
    for x in POINTS + tuple(jnp.float32(p) for p in POINTS):
        expected = fn(x)
        for _ in range(2):
            got = function(x)
            assert_same(got, expected)
            _same_kinds(got, expected)


def _same_kinds(got, expected):
    """None where Python gives None, text where it gives text, a bool where a bool."""
    if isinstance(expected, (tuple, list)):
        for g, e in zip(got, expected):
            _same_kinds(g, e)
        return
    assert (got is None) == (expected is None), (got, expected)
    assert isinstance(got, str) == isinstance(expected, str), (got, expected)
    if expected is not None and not isinstance(expected, str):
        assert (np.asarray(got).dtype == bool) == (np.asarray(expected).dtype == bool), (
            got, expected)


def truth_of_an_optional_array(xs):
    s = None
    if xs[0] > 0:
        s = xs * 2.0
    return 1.0 if s else 0.0


def test_the_truth_of_an_optional_array_is_a_named_error():
    with pytest.raises(ValueError):   # (Python's, where it is an array)
        truth_of_an_optional_array(jnp.array([1.0, 2.0]))
    with pytest.raises(ControlFlowError, match=r'shape \(2,\)'):
        autograph.convert(truth_of_an_optional_array)(jnp.array([1.0, 2.0]))


def closure_tested_by_truth(x, callback=None):
    """A free variable tested by its truth in a nested function is read, not narrowed
    (a parameter of the branch would make it a local of `step`, unbound there)."""
    seen = []

    def step(t):
        if callback:
            callback(t)
        if seen is not None and not seen:
            t = t + 1.0
        return t * 2.0
    return step(x)


def test_a_closure_tested_by_truth_is_read_from_the_closure():
    for callback in (None, lambda t: None):
        for x in (-1.0, 1.0):
            np.testing.assert_allclose(
                autograph.convert(closure_tested_by_truth)(jnp.float32(x), callback),
                closure_tested_by_truth(x, callback))
