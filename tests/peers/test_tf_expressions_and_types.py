"""TensorFlow AutoGraph's reference tests for conditional and logical expressions and for
loops whose variables change type, restated for JAX.

Upstream: tensorflow/tensorflow, tensorflow/python/autograph/tests/ — basic_ifexp_test.py,
logical_expression_test.py, loop_with_variable_type_test.py,
loop_with_variable_type_illegal_cases_test.py. TF's shape invariants have no JAX
equivalent (a staged loop carries fixed shapes): those loops give Python's result with a
Python trip count and a named error with a traced one.
"""
import itertools

import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same


def matches(fn, *args, traced=True):
    expected = fn(*args)
    assert_same(autograph.convert(fn)(*args), expected)
    if traced:
        arrays = [jnp.asarray(a) for a in args]
        assert_same(autograph.convert(fn)(*arrays), fn(*arrays))


# --- basic_ifexp_test.py ------------------------------------------------------------------

def consecutive_conds(x):
    if x > 0:
        x = -x if x < 5 else x
    else:
        x = -2 * x if x < 5 else 1
    if x > 0:
        x = -x if x < 5 else x
    else:
        x = (3 * x) if x < 5 else x
    return x


def cond_with_multiple_values(x):
    if x > 0:
        x = -x if x < 5 else x
        y = 2 * x if x < 5 else x
        z = -y if y < 5 else y
    else:
        x = 2 * x if x < 5 else x
        y = -x if x < 5 else x
        z = -y if y < 5 else y
    return x, y, z


@pytest.mark.parametrize('target,x', list(itertools.product(
    (consecutive_conds, cond_with_multiple_values), (-1, 1, 5))))
def test_ifexp_basic(target, x):
    matches(target, x)


def ifexp_with_imbalanced_structure(x):
    parts = list(x) if jnp.size(x) > x[0] else []
    return len(parts)


def test_imbalanced_conditional_expression_is_a_named_error():
    with pytest.raises(autograph.ControlFlowError, match='conditional expression'):
        autograph.convert(ifexp_with_imbalanced_structure)(jnp.array([1.0]))


# --- logical_expression_test.py -----------------------------------------------------------

def composite_ors_with_callable(x, y, z):
    z1 = lambda: z  # noqa: E731
    return x or y or z1()


def composite_ors(x, y, z):
    return x or y or z


def composite_ands(x, y, z):
    return x and y and z


def composite_mixed(x, y, z):
    return x or y or z and y and z


def comparison(x, y, z):
    return x < y and y < z


def equality(x, y):
    return x == y


def inequality(x, y):
    return x != y


def multiple_equality(x, y, z):
    return x == y == z


@pytest.mark.parametrize('target,args', [
    (composite_ors, (False, True, False)), (composite_ors, (False, False, False)),
    (composite_ands, (True, True, True)), (composite_ands, (True, False, True)),
    (composite_mixed, (False, True, True)),
    (composite_ors_with_callable, (False, True, False)),
    (composite_ors_with_callable, (False, False, True)),
    (composite_ors_with_callable, (False, False, False)),
    *[(comparison, p) for p in itertools.permutations((1, 2, 3))],
    (equality, (1, 1)), (equality, (1, 2)), (inequality, (1, 1)), (inequality, (1, 2)),
    (multiple_equality, (1, 1, 2)), (multiple_equality, (1, 1, 1)),
])
def test_logical_expressions(target, args):
    matches(target, *args)


# --- loop_with_variable_type_test.py ------------------------------------------------------

def while_with_variable_shape_growing_vector(n):
    v = jnp.array([0, 0])
    i = 0
    while i < n:
        v = jnp.concatenate((v, jnp.array([i])), 0)
        i += 1
    return v


def for_with_variable_shape_growing_matrix_rows(l):
    m = jnp.array([[0]])
    for i in l:
        m = jnp.concatenate((m, jnp.array([[i]])), 0)
    return m


def while_with_variable_shape_growing_matrix(n):
    m = jnp.array([[0, 0], [0, 0]])
    i = 0
    while i < n:
        m = jnp.pad(m, [[1, 1], [1, 1]], constant_values=i)
        i += 1
    return m


def for_with_variable_shape_and_break(n):
    v = jnp.array([0, 0])
    if n > 1:
        for i in range(n):
            v = jnp.concatenate((v, jnp.array([i])), 0)
            i += 1
            if i > 3:
                break
    else:
        v = jnp.array([1, 2, 3])
    return v


@pytest.mark.parametrize('target,n', list(itertools.product(
    (while_with_variable_shape_growing_vector, while_with_variable_shape_growing_matrix,
     for_with_variable_shape_and_break), (0, 1, 2, 5))))
def test_growing_shape_with_python_trip_count(target, n):
    matches(target, n, traced=False)


@pytest.mark.parametrize('n', (0, 1, 2))
def test_growing_rows_over_python_range(n):
    matches(for_with_variable_shape_growing_matrix_rows, range(n), traced=False)


@pytest.mark.parametrize('target,name', [(while_with_variable_shape_growing_vector, 'v'),
                                         (while_with_variable_shape_growing_matrix, 'm')])
def test_growing_shape_with_traced_trip_count_is_a_named_error(target, name):
    # JAX cannot carry an array whose shape changes (no shape invariants).
    with pytest.raises(autograph.ControlFlowError, match=f"'{name}' .*shape"):
        autograph.convert(target)(jnp.int32(2))


# --- loop_with_variable_type_illegal_cases_test.py ----------------------------------------

def while_with_variable_dtype(c):
    n = jnp.int32(0)
    while c:
        n = jnp.float32(0)
    return n


def while_with_variable_dtype_and_early_stopping(c):
    n = jnp.int32(0)
    while c:
        n = jnp.float32(0)
        break
    return n


def for_with_variable_dtype(l):
    n = jnp.int32(0)
    for _ in l:
        n = jnp.float32(0)
    return n


def for_with_variable_dtype_and_early_stopping(l):
    n = jnp.int32(0)
    for _ in l:
        n = jnp.float32(0)
        break
    return n


@pytest.mark.parametrize('target', (while_with_variable_dtype,
                                    while_with_variable_dtype_and_early_stopping))
def test_while_with_variable_dtype(target):
    with pytest.raises(autograph.ControlFlowError, match="'n' is int32.* but float32"):
        autograph.convert(target)(jnp.bool_(True))


def test_for_with_variable_dtype():
    """TF refuses it; the loop surely runs and overwrites `n` before reading it, so
    Python's value (the last one assigned, float32) is what the program gives."""
    out = autograph.convert(for_with_variable_dtype)(jnp.array([1, 2, 3]))
    assert out.dtype == jnp.float32 and out == for_with_variable_dtype(jnp.array([1, 2, 3]))


def test_for_with_variable_dtype_and_early_stopping():
    """TF refuses it; staged with a done flag, `n` would keep one type, so the loop over
    the array's rows (of a length known while tracing) runs as Python, as a loop over a
    range does: Python's value (float32)."""
    xs = jnp.array([1, 2, 3])
    out = autograph.convert(for_with_variable_dtype_and_early_stopping)(xs)
    expected = for_with_variable_dtype_and_early_stopping(xs)
    assert out.dtype == expected.dtype == jnp.float32 and out == expected


def while_with_variable_shape(c):
    t = jnp.array([1])
    while c:
        t = jnp.array([1, 1])
    return t


def for_with_variable_shape(l):
    t = jnp.array([1])
    for _ in l:
        t = jnp.array([1, 1])
    return t


def test_while_with_variable_shape():
    with pytest.raises(autograph.ControlFlowError, match=r"'t' is int32\[1\].* int32\[2\]"):
        autograph.convert(while_with_variable_shape)(jnp.bool_(True))


def test_for_with_variable_shape():
    """TF refuses it; `t` is overwritten in every iteration of a loop that surely runs:
    Python's value, of the body's shape."""
    assert_same(autograph.convert(for_with_variable_shape)(jnp.array([1, 2, 3])),
                for_with_variable_shape(jnp.array([1, 2, 3])))


def while_with_variable_structure(c):
    s = {'a': jnp.int32(0)}
    while c:
        s = jnp.float32(7.0)
    return s


def for_with_variable_structure(l):
    s = [jnp.int32(0)]
    for _ in l:
        s = s + [jnp.int32(0)]
    return s


def test_while_with_variable_structure():
    with pytest.raises(autograph.ControlFlowError, match="'s' is dict"):
        autograph.convert(while_with_variable_structure)(jnp.bool_(True))


def test_for_with_variable_structure():
    """TF refuses it; the list grows on each row, so the loop over the array's rows runs
    as Python (as a loop over a range does): Python's list of 4."""
    assert_same(autograph.convert(for_with_variable_structure)(jnp.array([1, 2, 3])),
                for_with_variable_structure(jnp.array([1, 2, 3])))


def test_while_condition_that_becomes_traced():
    # upstream: test_while_with_variable_py_type (TF: NotImplementedError, "condition of
    # while loop started as non-Tensor, then changed to Tensor"). Ours stages the loop
    # from the iteration whose condition is traced: the program is valid.
    def f(x):
        n = 0
        c = True
        while c:
            c = x > n
            n += 1
        return n
    for x in (0, 3):
        assert int(autograph.convert(f)(jnp.int32(x))) == f(x)
