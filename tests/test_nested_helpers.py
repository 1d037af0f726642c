"""Helpers defined inside the converted function (`def h(b):` in its body) that write
items of their parameters: NumPy's `b[0] = 7` writes into the caller's array, also when
the helper returns early from under an `if` or a loop, when it is reached through
another nested helper, and when the write is before a `return` in a loop. The caller's
variable is rebound (passes.written_arguments); the caller of the converted function
sees its NumPy array written, as Python's does."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def early_return(a):
    def h(b):
        b[0] = 7.0
        if b[1] > 0:
            return 1.0
        b[2] = 9.0
        return 0.0
    r = h(a)
    return r, a


def return_in_loop(a):
    def first_negative(b):
        for i in range(3):
            if b[i] < 0:
                b[i] = 0.0
                return i
        b[0] = -1.0
        return -1
    k = first_negative(a)
    return k, a


def helper_of_helper(a):
    def inner(b):
        b[1] += 5.0
        if b[0] > 100:
            return b[0]
        return b[1]

    def outer(b):
        v = inner(b)
        b[0] = 2.0
        return v
    v = outer(a)
    return v, a.sum()


def writes_only_the_caller_sees(a):
    def h(b):
        b[2] = b[0] + b[1]
        if b[2] > 3:
            return
        b[1] = 0.0
    h(a)
    return 0.0


CASES = [early_return, return_in_loop, helper_of_helper, writes_only_the_caller_sees]
ARGS = [np.array([1.0, 2.0, 3.0], np.float32), np.array([1.0, -2.0, 3.0], np.float32),
        np.array([0.5, 0.25, -1.0], np.float32)]


@pytest.mark.parametrize('fn', CASES)
@pytest.mark.parametrize('arg', ARGS, ids=['positive', 'negative-second', 'small'])
def test_a_numpy_array_written_by_a_nested_helper_is_pythons(fn, arg):
    expected_arg = arg.copy()
    expected = fn(expected_arg)
    converted = autograph.convert(fn)
    for _ in range(2):   # (the second call runs the compiled program)
        given = arg.copy()
        assert_same(converted(given), expected)
        np.testing.assert_allclose(given, expected_arg)


@pytest.mark.parametrize('fn', CASES)
def test_jax_arrays_under_jit_and_vmap_give_the_written_values(fn):
    """A JAX array cannot be written in place: the function's results are Python's run
    on a NumPy copy (what the function returns reads the written array)."""
    rows = np.stack(ARGS)
    expected = [fn(row.copy()) for row in rows]
    converted = autograph.convert(fn)
    assert_same(jax.jit(converted)(jnp.asarray(rows[0])), expected[0])
    batched = jax.vmap(converted)(jnp.asarray(rows))
    for i, want in enumerate(expected):
        assert_same(jax.tree_util.tree_map(lambda v: v[i], batched), want)


def test_the_caller_rebinds_its_variable():
    code = autograph.to_code(early_return)
    assert 'call_writing' in code, code


def halved(p):
    return p * 0.5


def return_never_taken(x, n):
    """A `return` in a branch that a Python flag never takes, in a staged loop, in a
    function that reports an argument it may write (`ag.written`: `a += v` writes `x`
    where `x` is a NumPy array; fuzzer seeds 10014, 10083): Python never returns by
    it, so the value it would return is undefined on that path."""
    flag = False
    a = x

    def unused():   # (with a nested function, the report is made)
        pass
    i = 0
    while i < n:
        i += 1
        for _ in range(2):
            if not flag:
                a += halved(x)
            else:
                return a, 0.0
    a = a * 1.0
    return a, 1.0


@pytest.mark.parametrize('n', [0, 3])
def test_a_return_python_never_takes_leaves_the_others(n):
    expected = return_never_taken(np.float32(0.5), n)
    converted = autograph.convert(return_never_taken)
    for _ in range(2):
        assert_same(converted(jnp.float32(0.5), jnp.int32(n)), expected)
    assert_same(jax.jit(converted)(jnp.float32(0.5), jnp.int32(n)), expected)
    batched = jax.vmap(converted)(jnp.float32([0.5, 2.0]), jnp.int32([n, 1]))
    assert_same(jax.tree_util.tree_map(lambda v: v[0], batched), expected)
    assert_same(jax.tree_util.tree_map(lambda v: v[1], batched),
                return_never_taken(np.float32(2.0), 1))


def through_a_sibling_in_nested_loops(v, n):
    """(the fuzzer's seed 1) `hv` calls its sibling `hw`, which writes its argument's
    item, inside two nested staged loops: hv writes its parameter too."""
    b = jnp.sum(v) * 0.5
    w = v * 1.0

    def hw(a, f):
        a[1] = a[1] - f
        return f

    def hv(a, f):
        r = hw(a, f * 0.5)
        return r
    for _ in range(n):
        for _ in range(1, n, 2):
            b = b + hv(w, b) * 0.1
    return b, jnp.sum(w)


@pytest.mark.parametrize('make', [np.asarray, jnp.asarray])
def test_a_helper_writing_through_its_sibling_in_nested_loops(make):
    v = np.array([0.33, -1.3, 0.9, 0.45], np.float32)
    want = through_a_sibling_in_nested_loops(v.copy(), 5)
    got = autograph.convert(through_a_sibling_in_nested_loops)(make(v), jnp.int32(5))
    assert_same(got, want)
