"""A test of an `if` (or `elif`) that changes in place, through a helper writing its
argument, an array with views or aliases (`w = v; if clip_first(w, x):`): the change
reaches the other names before the branches run, as in Python (passes.views computes
such a test first, `test = clip_first(w, x)`). Silent before: the caller's array kept
its old items. A `while` test's calls are computed so already."""
import copy

import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def clip_first(arr, lim):
    if arr[0] > lim:
        arr[0] = lim
        return True
    arr[1] = arr[1] * 0.5
    return False


def alias_in_the_test(v, x):
    w = v
    a = 0.0
    if clip_first(w, x):
        a = a + v[0]
    else:
        a = a - v[1]
    return a, w


def view_in_an_elif(v, x):
    r = v[1:]
    a = 0.0
    if x > 10:
        a = 1.0
    elif clip_first(r, x):
        a = a + v[1]
    return a


def in_a_loop(v, x, n):
    w = v
    a = 0.0
    for i in range(n):
        if clip_first(w, x * i):
            a = a + v[1]
    return a


CASES = [(alias_in_the_test, ()), (view_in_an_elif, ()), (in_a_loop, (3,))]


@pytest.mark.parametrize('x', [0.5, 5.0])
@pytest.mark.parametrize('traced', [False, True])
@pytest.mark.parametrize('fn, more', CASES, ids=[fn.__name__ for fn, _ in CASES])
def test_the_change_reaches_the_caller_and_the_branches(fn, more, x, traced):
    plain = np.arange(1.0, 4.0)
    expected = fn(plain, x, *more)
    given = np.arange(1.0, 4.0)
    converted = autograph.convert(fn)
    assert_same(converted(given, jnp.float32(x) if traced else x, *copy.deepcopy(more)),
                expected)
    np.testing.assert_allclose(given, plain)


def test_jax_arrays():
    """A JAX array given: the helper's writes rebind its argument (JAX arrays' items are
    assigned as new arrays by converted code), and the alias sees them (`w is v`)."""
    out = autograph.convert(alias_in_the_test)(jnp.arange(1.0, 4.0), 0.5)
    assert_same(out, alias_in_the_test(np.arange(1.0, 4.0), 0.5))


def in_a_while_test(v, x):
    w = v
    n = 0
    while clip_first(w, x):   # (True once: the first call clips)
        n += 1
    return n, w


@pytest.mark.parametrize('x', [0.5, 5.0])
def test_a_while_test_that_changes_an_alias(x):
    plain, given = np.arange(1.0, 4.0), np.arange(1.0, 4.0)
    expected = in_a_while_test(plain, x)
    assert_same(autograph.convert(in_a_while_test)(given, x), expected)
    np.testing.assert_allclose(given, plain)
