"""Loop cases of TensorFlow AutoGraph's reference tests, restated for JAX.

Upstream: tensorflow/python/autograph/tests/ in the TensorFlow repository. Each group
names the file it restates. There, each function runs eagerly and under `tf.function`
with Python values, tensors and datasets; here, under `autograph.convert` with Python
values and JAX arrays (traced by `jax.jit`), against the function run as plain Python.
TensorArray/Variable/Dataset inputs have no JAX counterpart and are left out; a list
collected with `append` stands for TensorArray.
"""
import itertools

import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import check

i32 = jnp.int32


def product(*axes):
    return list(itertools.product(*axes))


def as_array(values):
    return jnp.asarray(values, i32)


# --- loop_basic_test.py -----------------------------------------------------------------

def count_up_while(n):
    i = 0
    while i < n:
        i = i * 3 + 1
    return i


def last_item(items):
    last = -1
    for last in items:
        pass
    return last


def digits_while(n):
    total, i = 0, 0
    while i < n:
        total = total * 10 + i
        i += 1
    return total


def digits_for(items):
    total = 0
    for v in items:
        total = total * 10 + v
    return total


def two_whiles_in_a_row(n1, n2):
    total, i = 0, 0
    while i < n1:
        total = total * 10 + i
        i += 1
    i = 0
    while i < n2:
        total = total * 10 + i
        i += 1
    return total


def two_fors_in_a_row(a, b):
    total = 0
    for v in a:
        total = total * 10 + v
    for v in b:
        total = total * 10 + v
    return total


def nested_whiles_collect(n1, n2):
    rows = []
    i = 0
    while i < n1:
        j, acc = 0, 0
        while j < n2:
            acc = acc * 10 + i * j
            j += 1
        rows.append(acc)
        i += 1
    return rows


def nested_fors_collect(matrix):
    rows = []
    for row in matrix:
        acc = 0
        for v in row:
            acc = acc * 10 + v
        rows.append(acc)
    return rows


def while_defines_variable(n):
    i = 0
    while i < n:
        i = n + 1
        j = i + 1
    return i, j


@pytest.mark.parametrize('n,kind', product((0, 1, 2), (int, i32)))
def test_basic_while_loops(n, kind):   # loop_basic_test.py: while_one_var, while_two_vars
    check(count_up_while, kind(n))
    check(digits_while, kind(n))


@pytest.mark.parametrize('items,kind', product(([1], [1, 2], [3, 1, 2]),
                                                         (list, as_array)))
def test_basic_for_loops(items, kind):   # loop_basic_test.py: for_one_var, for_two_vars
    check(last_item, kind(items))
    check(digits_for, kind(items))


@pytest.mark.parametrize('n1,n2,kind', product((0, 2), (0, 2), (int, i32)))
def test_successive_while_loops(n1, n2, kind):   # loop_basic_test.py
    check(two_whiles_in_a_row, kind(n1), kind(n2))


@pytest.mark.parametrize('a,b,kind', product(([1], [1, 2]), ([2], [2, 3]),
                                                       (list, as_array)))
def test_successive_for_loops(a, b, kind):   # loop_basic_test.py
    check(two_fors_in_a_row, kind(a), kind(b))


@pytest.mark.parametrize('n1,n2', product((0, 1, 3), (0, 2)))
def test_nested_while_loops_collect_python(n1, n2):   # loop_basic_test.py
    check(nested_whiles_collect, n1, n2)


@pytest.mark.parametrize('matrix,kind', product(
    ([[1]], [[1], [2]], [[1, 2], [3, 4]]), (list, as_array)))
def test_nested_for_loops_collect(matrix, kind):   # loop_basic_test.py: nested_for_loops
    check(nested_fors_collect, kind(matrix))


@pytest.mark.parametrize('n,kind', product((1, 2), (int, i32)))
def test_while_defines_variable(n, kind):   # loop_basic_test.py: while_creates_var_legal
    try:
        check(while_defines_variable, kind(n))
    except autograph.ControlFlowError as error:
        # A variable first assigned in a staged loop: a clear error naming it, until it
        # takes its type from the loop body (SPEC section 1, loop-created variables).
        assert "'j'" in str(error) and kind is i32


def test_while_defines_variable_never_runs():   # loop_basic_test.py: ..._illegal
    with pytest.raises(UnboundLocalError):
        autograph.convert(while_defines_variable)(0)


# --- loop_control_flow_test.py ----------------------------------------------------------

def skip_odd_for(items):
    total = 0
    for v in items:
        if v % 2 > 0:
            continue
        total += v
    return total


def stop_at_odd_for(items):
    total = 0
    for v in items:
        if v % 2 > 0:
            break
        total += v
    return total


def skip_odd_while(x):
    total = 0
    while x > 0:
        x -= 1
        if x % 2 > 0:
            continue
        total += x
    return total


def stop_at_odd_while(x):
    total = 0
    while x > 0:
        x -= 1
        if x % 2 > 0:
            break
        total += x
    return total


def two_breaks_while(n):
    total, i = 1, 0
    while i < n:
        i += 1
        if i > 10 * n:
            break
        if i == n:
            break
        total = total * 10 + i
    return i, total


def break_then_if_range(x, n):
    for i in range(n):
        if i == 2:
            break
        if x > 0:
            x -= 1
    return x


def break_then_if_while(x):
    while x > 0:
        if x == 2:
            break
        if x > 0:
            x -= 1
    return x


def skip_in_inner_for(matrix):
    total = 0
    for row in matrix:
        for v in row:
            if v % 2 > 0:
                continue
            total += v
    return total


def stop_in_inner_for(matrix):
    total = 0
    for row in matrix:
        for v in row:
            if v % 2 > 0:
                break
            total += v
    return total


def stop_or_skip_in_inner_for(matrix):
    total = 0
    for row in matrix:
        for v in row:
            if v % 2 > 0:
                break
            else:
                continue
            total += v   # never reached
    return total


def stop_in_inner_while(x, y):
    total = 0
    while x > 0:
        x -= 1
        while y > 0:
            y -= 1
            if (x + y) % 2 == 0:
                break
            total += x + y
    return total


def skip_in_inner_while(x, y):
    total = 0
    while x > 0:
        x -= 1
        while y > 0:
            y -= 1
            if (x + y) % 2 > 0:
                continue
            total += x + y
    return total


@pytest.mark.parametrize('items,kind,fn', product(
    ([1, 2], [2, 4, 6, 3]), (list, as_array),
    (skip_odd_for, stop_at_odd_for)))
def test_single_for(items, kind, fn):   # loop_control_flow_test.py: test_single_for
    check(fn, kind(items))


@pytest.mark.parametrize('n,kind,fn', product(
    (0, 3), (int, i32),
    (skip_odd_while, stop_at_odd_while, two_breaks_while, break_then_if_while)))
def test_single_while(n, kind, fn):   # loop_control_flow_test.py: test_single_while
    check(fn, kind(n))


@pytest.mark.parametrize('x,n,kind', product((3,), (1, 40), (int, i32)))
def test_break_followed_by_cond_over_range(x, n, kind):   # break_followed_by_cond_in_single_for
    check(break_then_if_range, kind(x), n)


@pytest.mark.parametrize('matrix,kind,fn', product(
    ([[1, 2], [3, 4]], [[2, 4, 1], [6, 8, 10]]), (list, as_array),
    (skip_in_inner_for, stop_in_inner_for, stop_or_skip_in_inner_for)))
def test_nested_for(matrix, kind, fn):   # loop_control_flow_test.py: test_nested_for
    check(fn, kind(matrix))


@pytest.mark.parametrize('m,n,kind,fn', product(
    (0, 3), (3,), (int, i32), (stop_in_inner_while, skip_in_inner_while)))
def test_nested_while(m, n, kind, fn):   # loop_control_flow_test.py: test_nested_while
    check(fn, kind(m), kind(n))
