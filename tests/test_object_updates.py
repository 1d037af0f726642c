"""`a += e` where `a` holds an object of a user class: Python calls the class's
`__iadd__` with no call in sight, which the converted code makes a call of user code
(`a = ag.object_update(a, '+=', e)`): converted, and what it changes in the object carried
through staged statements (before, inside a staged loop, its attribute writes leaked a
tracer: a raw UnexpectedTracerError). Ground truth: the same function run as plain
Python."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


class Running:
    """A running mean whose `+=` records a value (and counts, under a Python `if`)."""

    def __init__(self):
        self.total, self.count = 0.0, 0

    def __iadd__(self, value):
        if value > 2.0:            # (a traced test in converted code: staged)
            self.total = self.total + value
            self.count += 1
        return self

    def __isub__(self, value):
        self.total = self.total - value
        return self


def running_sum(x, n):
    stats = Running()
    for i in range(n):
        stats += x * i
    stats -= 1.0
    return stats.total, stats.count


def running_under_a_traced_test(x, n):
    stats = Running()
    i = 0
    while i < n:
        if x * i > 1.0:
            stats += x * i
        i += 1
    return stats.total, stats.count


@pytest.mark.parametrize('fn', [running_sum, running_under_a_traced_test])
@pytest.mark.parametrize('n', [4, 0])
def test_an_objects_in_place_operator_in_staged_loops(fn, n):
    expected = fn(1.5, n)
    converted = autograph.convert(fn)
    assert_same(converted(1.5, n), expected)
    assert_same(jax.jit(converted)(1.5, n), expected)                 # (n traced)
    out = jax.vmap(converted, in_axes=(0, None))(jnp.array([1.5, 0.5]), n)
    assert_same([o[0] for o in out], list(expected))
    assert_same([o[1] for o in out], list(fn(0.5, n)))


def test_generated_code_calls_the_objects_method():
    code = autograph.to_code(running_sum)
    assert "stats = ag.object_update(stats, '+=', x * i)" in code
    assert "stats = ag.object_update(stats, '-=', 1.0)" in code
    assert 'reductions=' not in code   # (the object's changes come in Python's order)


def numbers_and_arrays(x, v):
    t = 0.0
    w = v * 1.0
    for e in v:
        t += e
        w += x
    return t, w


def head(p):
    return p[:2]


def view_from_a_helper(v):
    h = head(v)        # (a user function's result: a view of `v`, which `+=` changes)
    h += 1.0
    return v


def test_numbers_and_arrays_keep_their_operators():
    assert 'object_update' not in autograph.to_code(numbers_and_arrays)
    v = np.arange(3.0, dtype=np.float32)
    assert_same(autograph.convert(numbers_and_arrays)(1.5, v), numbers_and_arrays(1.5, v))
    # (Only instances of user classes: a helper's array result stays an in-place `+=`,
    # which passes.views writes back into `v`.)
    assert 'object_update' not in autograph.to_code(view_from_a_helper)
    expected = view_from_a_helper(np.arange(4.0))
    assert_same(autograph.convert(view_from_a_helper)(np.arange(4.0)), expected)


def made_in_a_staged_branch(x, n, v):
    a = x * 1.0
    if n > 1:                  # (traced: the object is the branch's own)
        stats = Running()
        for y in v:            # (a staged loop carrying it)
            stats += y * a
        a = a + stats.total * 0.1 + stats.count
    return a


class Chained:
    def __init__(self):
        self.total = 0.0

    def add(self, value):
        self.total = self.total + value
        return self


def rebound_by_a_method_in_a_staged_loop_body(x, n, v):
    a = x * 1.0
    i = 0
    while i < n:
        acc = Chained()
        for y in v:
            acc = acc.add(y * a)
        a = a * 0.5 + acc.total * 0.1
        i += 1
    return a


@pytest.mark.parametrize('fn', [made_in_a_staged_branch,
                                rebound_by_a_method_in_a_staged_loop_body])
def test_an_object_made_inside_a_staged_statement_and_carried_by_a_loop_there(fn):
    # (A raw error before, idiom fuzzer seeds 97380, 97445: the statement around took the
    # attributes of the object its branch or body makes for its own state, found anew
    # with each staging, and gave back more values than its variables.)
    v = np.array([1.0, 3.0, 2.5], np.float32)
    for n in (3, 0):
        expected = fn(1.5, n, v)
        assert_same(autograph.convert(fn)(1.5, n, v), expected)
        assert_same(jax.jit(autograph.convert(fn))(1.5, n, v), expected)
