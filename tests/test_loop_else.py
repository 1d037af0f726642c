"""A loop's `else` clause (passes.loop_else): `return`, `break` and `continue` in it mean
what they mean in Python, and a variable every way out of the loop assigns (the for-else
search) converts even when the loop or its `if` is staged (analysis.definite)."""
import ast

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.analysis.definite import assigned_before_reads
from tests.helpers import assert_same, check, i32, staged


def batched(fn, *columns):
    """`fn` converted under vmap over the leading axis of every argument, against the
    plain function run on each row."""
    got = jax.vmap(autograph.convert(fn))(*columns)
    rows = zip(*[list(c) for c in columns])
    assert_same(got, jnp.stack([jnp.asarray(fn(*row)) for row in rows]))


# --- return in the `else` clause of a loop whose body returns too --------------------------

def while_else_return(n):
    i = 0
    while i < n:
        if i == 7:
            return i * 100
        i += 1
    else:
        return -i
    return 0


def for_else_return(n):
    total = 0
    for i in range(n):
        total += i
        if total > 20:
            return total * 10
    else:
        return -total
    return 0


def while_else_return_with_break(n):
    i = 0
    while i < n:
        if i == 7:
            return i * 100
        if i * i == n:
            break
        i += 1
    else:
        return -i
    return i + 1000


@pytest.mark.parametrize('fn', [while_else_return, for_else_return,
                                while_else_return_with_break])
def test_return_in_else(fn):
    for n in (0, 3, 5, 9, 10, 16):
        check(fn, n)          # Python values: the loop runs as Python
        check(fn, i32(n))     # a traced bound: the loop is staged
    batched(fn, jnp.array([0, 3, 5, 9, 10, 16], jnp.int32))
    assert staged(fn, i32(10)) & {'while'}


def nested_return_in_inner_else(xs, t):
    for i in range(xs.shape[0]):
        j = 0
        while j < xs.shape[1]:
            if xs[i, j] == t:
                break
            j += 1
        else:
            continue
        return i * 10 + j
    else:
        return -1
    return -2


def test_return_and_continue_in_nested_else():
    xs = jnp.arange(12).reshape(3, 4)
    for t in (0, 5, 11, 12):
        check(nested_return_in_inner_else, xs, t)
        check(nested_return_in_inner_else, xs, i32(t))
    batched(nested_return_in_inner_else, jnp.stack([xs] * 4), jnp.array([0, 5, 11, 12]))


# --- break in an inner loop's `else` breaks the outer loop --------------------------------

def break_in_inner_else(x):
    # upstream (TensorFlow): converters/control_flow_test.py, test_loop_orelse-like
    v = 0
    while x > 0:
        x -= 1
        y = x
        while y > 1:
            break
        else:
            v += 1
            break
        v += x
    return v


def for_break_in_inner_else(n, m):
    count = 0
    for i in range(n):
        for j in range(m):
            count += j
            if count > 12:
                break
        else:
            count += 100
            break
        count -= 1
    return count


def test_break_in_inner_else():
    for x in (0, 1, 2, 3, 6):
        check(break_in_inner_else, x)
        check(break_in_inner_else, i32(x))
    batched(break_in_inner_else, jnp.array([0, 1, 2, 3, 6], jnp.int32))
    for n, m in ((0, 3), (2, 3), (3, 6), (4, 2), (5, 8)):
        check(for_break_in_inner_else, n, m)
        check(for_break_in_inner_else, i32(n), i32(m))
    batched(for_break_in_inner_else, jnp.array([0, 2, 3, 4, 5]), jnp.array([3, 3, 6, 2, 8]))
    assert 'while' in staged(for_break_in_inner_else, i32(3), i32(6))


def test_generated_code_has_no_loop_else():
    code = autograph.to_code(break_in_inner_else)
    compile(code, '<generated>', 'exec')   # no `break` outside a loop
    for node in ast.walk(ast.parse(code)):
        assert not (isinstance(node, (ast.For, ast.While)) and node.orelse)


# --- the for-else search: a variable assigned before `break` and in `else` ------------------

def for_else_search(xs, t):
    for i in range(xs.shape[0]):
        if xs[i] == t:
            idx = i
            break
    else:
        idx = -1
    return idx


def for_else_search_traced_bound(xs, n, t):
    for i in range(n):
        if xs[i] == t:
            idx = i * 2
            break
    else:
        idx = -1
    return idx


def while_else_search(xs, t):
    i = 0
    while i < xs.shape[0]:
        if xs[i] == t:
            found = xs[i] * 10
            break
        i += 1
    else:
        found = -1
    return found + i


def search_return_in_else(xs, t):
    for x in xs:
        if x > t:
            first = x
            break
    else:
        return t - 1
    return first * 2


def search_endless(xs, t):
    i = 0
    while True:
        if i >= xs.shape[0] - 1 or xs[i] >= t:
            pos = i
            break
        i += 1
    return pos


def nested_search(xs, t):
    for i in range(xs.shape[0]):
        for j in range(xs.shape[1]):
            if xs[i, j] == t:
                where = i * 10 + j
                break
        else:
            continue
        break
    else:
        where = -1
    return where


@pytest.mark.parametrize('fn', [for_else_search, while_else_search, search_return_in_else,
                                search_endless])
def test_search(fn):
    xs = jnp.array([4, 5, 6, 5, 9])
    for t in (4, 5, 9, 7, 0):
        check(fn, xs, t)               # traced xs, Python t
        check(fn, xs, i32(t))          # traced t
        check(fn, np.array([4, 5, 6, 5, 9]), t)  # concrete values: Python loops
    batched(fn, jnp.stack([xs] * 5), jnp.array([4, 5, 9, 7, 0]))
    batched(fn, jnp.stack([xs, xs[::-1], xs * 2, xs, xs - 4]), jnp.array([5, 5, 8, 1, 0]))


def test_search_long_staged_loop():
    # Long enough to be staged as one loop over a traced index (see runtime.loops.loop_policy).
    xs = jnp.arange(3000) % 1000
    for t in (0, 999, 1234):
        check(for_else_search, xs, i32(t))
    assert staged(for_else_search, xs, i32(7)) & {'while', 'scan'}
    batched(for_else_search, jnp.stack([xs, xs]), jnp.array([17, 5000]))


def test_search_with_traced_bound():
    xs = jnp.array([3, 1, 4, 1, 5, 9])
    for n, t in ((6, 1), (6, 9), (2, 9), (0, 3)):
        check(for_else_search_traced_bound, xs, n, t)
        check(for_else_search_traced_bound, xs, i32(n), i32(t))
    assert 'while' in staged(for_else_search_traced_bound, xs, i32(6), i32(9))
    batched(for_else_search_traced_bound, jnp.stack([xs] * 4), jnp.array([6, 6, 2, 0]),
            jnp.array([1, 9, 9, 3]))


def test_nested_search():
    xs = jnp.arange(12).reshape(3, 4)
    for t in (0, 6, 11, 20):
        check(nested_search, xs, t)
        check(nested_search, xs, i32(t))
    batched(nested_search, jnp.stack([xs] * 4), jnp.array([0, 6, 11, 20]))


def test_search_grad():
    def weighted(xs, t):
        for i in range(xs.shape[0]):
            if xs[i] > t:
                w = xs[i] * xs[i]
                break
        else:
            w = t * 3.0
        return w
    xs = jnp.array([0.5, 2.0, 3.0])
    for t in (1.0, 5.0):
        assert_same(jax.grad(autograph.convert(weighted))(xs, t), jax.grad(weighted)(xs, t))
        assert_same(jax.grad(autograph.convert(weighted), argnums=1)(xs, t),
                    jax.grad(weighted, argnums=1)(xs, t))


# --- a path on which Python would read the variable unassigned: checked at run time ------

def search_without_else(xs, t):
    for i in range(xs.shape[0]):
        if xs[i] == t:
            idx = i
            break
    return idx


def assigned_on_one_branch(x):
    if x > 0:
        y = x
    if x > 1:
        y = y + 1   # Python never reads y unassigned here, but the analysis cannot tell
    return x


def test_a_variable_python_may_read_unassigned_is_checked_when_the_program_runs():
    xs = jnp.array([4, 5, 6])
    assert search_without_else(xs, 5) == 1
    with pytest.raises(UnboundLocalError):
        search_without_else(xs, 7)
    assert_same(autograph.convert(search_without_else)(xs, 5), search_without_else(xs, 5))
    with pytest.raises(UnboundLocalError, match="'idx'"):
        autograph.convert(search_without_else)(xs, 7)
    eager = autograph.convert(search_without_else, jit=False)   # concrete: Python loops
    assert_same(eager(np.array([4, 5, 6]), 5), search_without_else(np.array([4, 5, 6]), 5))
    with pytest.raises(UnboundLocalError):
        eager(np.array([4, 5, 6]), 7)
    for x in (-1, 1, 2):   # the read is checked only on the path that reaches it
        assert_same(autograph.convert(assigned_on_one_branch)(i32(x)),
                    assigned_on_one_branch(i32(x)))


# --- the analysis -------------------------------------------------------------------------

@pytest.mark.parametrize('code,names', [
    ('def f(x):\n    y = x\n    return y', ['x', 'y']),
    ('def f(x):\n    if x:\n        y = 1\n    return y', ['x']),
    ('def f(x):\n    if x:\n        y = 1\n    else:\n        y = 2\n    return y', ['x', 'y']),
    ('def f(xs):\n    for x in xs:\n        if x:\n            y = x\n            break\n'
     '    else:\n        y = 0\n    return y', ['x', 'xs', 'y']),
    ('def f(xs):\n    for x in xs:\n        y = x\n    return y', ['x', 'xs']),
    ('def f(c):\n    while True:\n        if c:\n            y = 1\n            break\n'
     '    return y', ['c', 'y']),
    ('def f(c):\n    while c:\n        if c:\n            y = 1\n            break\n'
     '    return y', ['c']),
    ('def f(x):\n    y = 1\n    del y\n    return y', ['x']),
    ('def f(x):\n    y = 1\n    g = lambda: y\n    return g', ['g', 'x']),
    ('def f(x):\n    try:\n        y = 1\n    except E:\n        pass\n    return y', ['x']),
    ('def f(x):\n    with c:\n        y = 1\n    return y', ['x']),
    ('def f(x):\n    if (y := x):\n        pass\n    return y', ['x']),
    ('def f(x):\n    y: int\n    return y', ['x']),
    ('def f(x):\n    for i in x:\n        if i:\n            continue\n        z = i\n'
     '        t = z\n    return x', ['i', 't', 'x', 'z']),
])
def test_assigned_before_reads(code, names):
    assert sorted(assigned_before_reads(ast.parse(code).body[0])) == names


@pytest.mark.parametrize('code,names', [
    ('def f(xs):\n    y = 1\n    for x in xs:\n        y = y + x\n        del y\n        y = 2\n'
     '    return y', ['x', 'xs']),
    ('def f(xs):\n    y = 1\n    try:\n        del y\n        y = 2\n    except E:\n'
     '        return y\n    return xs', ['xs']),
    ('def f(x):\n    def g():\n        return 1\n    y = g()\n    return y', ['g', 'x', 'y']),
])
def test_assigned_before_reads_deletions_and_nested_functions(code, names):
    assert sorted(assigned_before_reads(ast.parse(code).body[0])) == names
