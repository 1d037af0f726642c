"""A NumPy array the function makes and keeps to itself (`d = np.zeros(...)`, analysis.
own_arrays), written with a traced value: NumPy cannot hold it, and no other object holds
the array, so the write makes `d` a traced array (Python's values, whatever the loops
around it). Where another object may hold the array (a list, an attribute, a helper given
it), the write stays the named error. Ground truth: the same function run as plain
Python on NumPy arrays."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def edit_distance(a, b):
    n, m = len(a), len(b)
    d = np.zeros((n + 1, m + 1))
    for i in range(n + 1):
        d[i, 0] = i
    for j in range(m + 1):
        d[0, j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = 0.0 if a[i - 1] == b[j - 1] else 1.0
            d[i, j] = min(d[i - 1, j] + 1, d[i, j - 1] + 1, d[i - 1, j - 1] + cost)
    return d[n, m]


def doubled(a):
    out = np.zeros(3)
    for i in range(3):
        out[i] = a[i] * 2
        if out[i] > 100:
            break
    return out


def first_of(a):
    out = np.ones(3)
    out[0] = a[0]
    out[1] += a[1]
    out[2], out[0] = a[0], a[2]
    return out, out.sum()


def counted(a, n):
    out = np.zeros(3)
    i = 0
    while i < n:
        out[i] = a[i] * 2
        i += 1
    return out


def min_cost_path(cost):
    """Rows written as `tc[i][j]` (a chain: the row, a view, then its item), as the
    classic DP tables are."""
    rows, cols = cost.shape
    tc = np.zeros((rows, cols))
    tc[0][0] = cost[0][0]
    for i in range(1, rows):
        tc[i][0] = tc[i - 1][0] + cost[i][0]
    for j in range(1, cols):
        tc[0][j] = tc[0][j - 1] + cost[0][j]
    for i in range(1, rows):
        for j in range(1, cols):
            tc[i][j] = min(tc[i - 1][j - 1], tc[i - 1][j], tc[i][j - 1]) + cost[i][j]
    return tc[rows - 1][cols - 1], tc


def givens_rotated(A, c):
    """A rotation built in an own array with a traced entry, used through its views
    (`J.T`, a reshape) and one bound to a name that a later write is seen through."""
    J = np.eye(2)
    J[0, 0] = c
    J[1, 1] = c
    s = np.sqrt(1.0 - c * c)
    J[0, 1] = s
    J[1, 0] = -s
    flat = J.reshape(-1)
    J[0, 0] = c * 1.5              # (seen through the view `flat`)
    return J.T @ A @ J, flat, np.transpose(J).sum()


def jacobi(a, b, steps):
    """Jacobi iteration into a new vector, copied into `x` (`x[:] = x_new`) each step."""
    n = len(b)
    x = np.zeros(n)
    for _ in range(steps):
        x_new = np.zeros(n)
        for i in range(n):
            x_new[i] = (b[i] - a[i] @ x + a[i, i] * x[i]) / a[i, i]
        x[:] = x_new
    return x

A = np.array([1.0, 2.0, 3.0, 2.0])
B = np.array([1.0, 3.0, 2.0])
C = np.array([[1.0, 2.0, 3.0], [4.0, 8.0, 2.0], [1.0, 5.0, 3.0]])


@pytest.mark.parametrize('fn, args', [
    (edit_distance, (A, B)), (edit_distance, (B, B)), (doubled, (A[:3],)),
    (first_of, (A[:3],)), (counted, (A[:3], 2)), (counted, (A[:3], 0)),
    (min_cost_path, (C,)), (givens_rotated, (C[:2, :2], 0.6)),
    (jacobi, (C + 9 * np.eye(3), A[:3], 4))])
def test_a_traced_write_makes_the_own_array_traced(fn, args):
    """(`jacobi`: a named error before, `x[:] = x_new` took `x` for a holder of `x_new`)"""
    expected = fn(*args)
    converted = autograph.convert(fn)
    for _ in range(2):
        assert_same(converted(*args), expected)
    jax_args = tuple(jnp.asarray(x) if isinstance(x, np.ndarray) else x for x in args)
    assert_same(jax.jit(converted)(*jax_args), expected)


def test_under_vmap_and_grad():
    batch = jax.vmap(autograph.convert(doubled))(jnp.stack([A[:3], -A[:3]]))
    assert_same(batch[1], doubled(-A[:3]))
    grad = jax.grad(lambda a: autograph.convert(first_of)(a)[1])(jnp.asarray(A[:3]))
    np.testing.assert_allclose(grad, [1.0, 1.0, 1.0])


def test_the_generated_code_says_own():
    assert 'own=True' in autograph.to_code(doubled)


class Box:
    pass


def kept_in_a_list(a):
    out = np.zeros(3)
    keep = [out]
    out[0] = a[0]
    return keep[0]


def kept_by_an_attribute(a):
    out = np.zeros(3)
    box = Box()
    box.arr = out
    out[0] = a[0]
    return box.arr


def copied_into_a_list(a):
    rows = [np.zeros(2), np.zeros(2)]
    out = np.zeros((2, 2))
    rows[:] = out          # (the list holds views of the rows of `out`)
    out[0, 0] = a[0]
    return rows[0]


def given_to_a_helper(a):
    out = np.zeros(3)
    remember(out)
    out[0] = a[0]
    return out


KEPT = []


def remember(x):
    KEPT.append(x)


@pytest.mark.parametrize('fn', [kept_in_a_list, kept_by_an_attribute, given_to_a_helper,
                                copied_into_a_list])
def test_an_array_another_object_may_hold_stays_a_named_error(fn):
    assert 'own=True' not in autograph.to_code(fn)
    with pytest.raises(autograph.ControlFlowError, match='NumPy array is written with a '
                                                         'traced value'):
        autograph.convert(fn)(jnp.asarray(A[:3]))
    KEPT.clear()


# --- a NumPy array another object holds, changed in place once traced -----------------

def held_by_a_list_in_a_staged_loop(a, n):
    out = np.zeros(3)
    keep = [out]
    i = 0
    while i < n:
        out[i] = a[i] * 2
        i += 1
    return keep[0], out


def argument_held_by_a_list(a, n):
    keep = [a]
    i = 0
    while i < n:
        a[i] = a[i] * 2
        i += 1
    return keep[0], a


def held_by_a_dict_under_a_traced_if(a, c):
    out = np.zeros(3)
    keep = {'o': out}
    if c > 0:
        out[0] = a[0] + 1
    return keep['o'], out


def held_by_an_attribute(a, n):
    out = np.zeros(3)
    box = Box()
    box.arr = out
    for i in range(n):
        out[i] = a[i] * 2
        if a[i] > 10:
            break
    return box.arr


@pytest.mark.parametrize('fn, args', [
    (held_by_a_list_in_a_staged_loop, (A[:3], jnp.int32(2))),
    (argument_held_by_a_list, (A[:3].copy(), jnp.int32(2))),
    (held_by_a_dict_under_a_traced_if, (A[:3], jnp.float32(1.0))),
    (held_by_an_attribute, (jnp.asarray(A[:3]), 3))])
def test_a_traced_write_of_an_array_a_holder_keeps_is_a_named_error(fn, args):
    # (Python's holder sees the write; a traced array would leave it the old one. A
    # concrete one given a traced value in a loop run in Python: numpy_traced_write)
    with pytest.raises(autograph.ControlFlowError,
                       match='also holds is changed in place|written with a traced value'):
        autograph.convert(fn)(*args)


def test_with_python_values_the_holder_sees_the_write():
    def concrete(n):
        out = np.zeros(3)
        keep = [out]
        for i in range(n):
            out[i] = i + 1.0
        return keep[0]
    assert_same(autograph.convert(concrete)(3), concrete(3))
    assert 'held=True' in autograph.to_code(concrete)


def bump(x, v):
    x[0] = v


def written_by_a_helper(a, n):
    keep = [a]
    i = 0
    while i < n:
        bump(a, a[1] + i)
        i += 1
    return keep[0], a


def changed_by_plus_equals(a, n):
    keep = [a]
    i = 0
    while i < n:
        a += 1.0
        i += 1
    return keep[0], a


def changed_through_a_view(a, n):
    keep = {'a': a}
    for i in range(n):
        row = a[0:2]
        row += a[2]
        if a[2] > 100:
            break
    return keep['a'], a


@pytest.mark.parametrize('fn', [written_by_a_helper, changed_by_plus_equals,
                                changed_through_a_view])
def test_other_changes_in_place_of_a_held_traced_array_are_named_errors(fn):
    with pytest.raises(autograph.ControlFlowError, match='also holds is changed in place'):
        autograph.convert(fn)(A[:3].copy(), jnp.int32(2))


@pytest.mark.parametrize('fn', [written_by_a_helper, changed_by_plus_equals,
                                changed_through_a_view])
def test_with_python_values_they_change_the_held_array(fn):
    expected = fn(A[:3].copy(), 2)   # (jit=False: Python values run as Python)
    assert_same(autograph.convert(fn, jit=False)(A[:3].copy(), 2), expected)


def written_through_the_dict(a, x):
    d = {'a': a}
    d['a'][0] = x
    return a


def test_a_write_through_a_container_that_holds_an_argument_is_a_named_error():
    """(`a` is that dict's array too, and a NumPy argument is traced: the write would
    leave `a` the old one, a silent wrong value before)"""
    for x in (5.0, jnp.float32(5.0)):
        with pytest.raises(autograph.ControlFlowError, match='also holds is changed in'):
            autograph.convert(written_through_the_dict)(A[:3].copy(), x)


def changed_through_the_holder(x):
    w = np.zeros(2)
    keep = [w]
    table = {'w': w}
    keep[0] -= x             # (NumPy: in place, so `w` and `table['w']` change too)
    table['w'] *= 2.0
    return w, keep[0], table['w']


def test_an_array_changed_through_its_holder():
    """`keep[0] -= x` of `keep = [w]`: Python's in-place change reaches `w`; with a traced
    `x` a named error (the new array would reach the list only: `w` was left unchanged,
    a silent wrong value); with Python values, the change in place, as in Python."""
    with pytest.raises(autograph.ControlFlowError, match='also holds is changed in place'):
        autograph.convert(changed_through_the_holder)(jnp.float32(1.0))
    assert_same(autograph.convert(changed_through_the_holder, jit=False)(1.0),
                changed_through_the_holder(1.0))
    assert 'holder=True' in autograph.to_code(changed_through_the_holder)


def jax_items_of_a_list(w, x):
    keep = [w, w * 2.0]
    keep[0] -= x             # (a JAX array's `-=` makes a new one: `w` keeps its value)
    return w, keep[0], keep[1]


def test_jax_arrays_a_list_holds_are_replaced_as_in_python():
    w = jnp.asarray([1.0, 2.0])
    assert_same(autograph.convert(jax_items_of_a_list)(w, jnp.float32(1.0)),
                jax_items_of_a_list(w, jnp.float32(1.0)))
