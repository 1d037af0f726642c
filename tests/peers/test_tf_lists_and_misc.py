"""TensorFlow AutoGraph's reference tests for lists, loop exits on staged conditions inside
Python loops, extended slices and annotations, restated for JAX.

Upstream: tensorflow/tensorflow, tensorflow/python/autograph/tests/ — basic_list_test.py,
loop_control_flow_illegal_cases_test.py, ext_slice_test.py, type_annotations_test.py.
TF's `ag.stack(l)` is `jnp.stack(l)`; `set_element_type` has no equivalent (not needed).
Where TF raises NotImplementedError for a valid program (a staged `break` or `return`
inside a Python loop), we give Python's result.
"""
import itertools

import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same


# --- basic_list_test.py -------------------------------------------------------------------

def type_not_annotated(n):
    l = []  # noqa: E741
    for i in range(n):
        l.append(i)
    return jnp.stack(l)


def element_access():
    l = []  # noqa: E741
    l.append(1)
    l.append(2)
    l.append(3)
    return 2 * l[1]


def element_update():
    l = []  # noqa: E741
    l.append(1)
    l.append(2)
    l.append(3)
    l[1] = 5
    return jnp.stack(l)


def nested_fill(m, n):
    mat = []
    for _ in range(m):
        l = []  # noqa: E741
        for j in range(n):
            l.append(j)
        mat.append(jnp.stack(l))
    return jnp.stack(mat)


def read_write_loop(n):
    l = []  # noqa: E741
    l.append(1)
    l.append(1)
    for i in range(2, n):
        l.append(l[i - 1] + l[i - 2])
        l[i - 2] = -l[i - 2]
    return jnp.stack(l)


def simple_empty(n):
    l = [1, 2, 3, 4]  # noqa: E741
    s = 0
    for _ in range(n):
        s += l.pop()
    return tuple(l), s


def mutation(t, n):
    for i in range(n):
        t[i] = i
    return t


def test_lists_of_python_values():
    for fn, args in [(type_not_annotated, (3,)), (element_access, ()), (element_update, ()),
                     (nested_fill, (5, 3)), (read_write_loop, (4,)), (read_write_loop, (30,)),
                     (simple_empty, (0,)), (simple_empty, (2,)), (simple_empty, (4,))]:
        assert_same(autograph.convert(fn)(*args), fn(*args))


def test_list_mutation_visible_to_the_caller():
    # upstream: test_tensor_mutation
    expected = mutation([0] * 10, 10)
    t = [0] * 10
    result = autograph.convert(mutation, jit=False)(t, 10)
    assert result == expected and t == expected


def test_list_filled_from_array_items():
    def fill(xs):
        l = []  # noqa: E741
        for x in xs:
            l.append(x * 2)
        return jnp.stack(l)
    xs = jnp.arange(5.0)
    assert_same(autograph.convert(fill)(xs), fill(xs))


def test_list_appended_in_loop_with_traced_bound_is_a_named_error():
    # upstream: the empty-list cases (TF: ValueError at run time). A list whose length
    # is only known when the program runs cannot be built while tracing.
    with pytest.raises(autograph.ControlFlowError, match="'l'"):
        autograph.convert(type_not_annotated)(jnp.int32(3))


# --- loop_control_flow_illegal_cases_test.py ----------------------------------------------

def staged_break_in_py_for(l):
    s = 0
    for c in l:
        if jnp.greater(c % 2, 0):
            break
        s += c
    return s


def staged_return_in_py_for(l):
    s = 0
    for c in l:
        if jnp.greater(c % 2, 0):
            return s
        else:
            return s
        s += c
    return s


def staged_break_in_py_while(x):
    s = 0
    while x > 0:
        x -= 1
        if jnp.greater(x % 2, 0):
            break
        s += x
    return s


def staged_return_in_py_while(x):
    s = 0
    while x > 0:
        x -= 1
        if jnp.greater(x % 2, 0):
            return s
        else:
            return s
        s += x
    return s


@pytest.mark.parametrize('l,target', list(itertools.product(
    ([1], [2, 1], [2, 4, 3], [2, 4, 6]), (staged_break_in_py_for, staged_return_in_py_for))))
def test_staged_exit_in_python_for(l, target):
    assert_same(autograph.convert(target)(l), target(l))


@pytest.mark.parametrize('n,target', list(itertools.product(
    (1, 2, 3, 6), (staged_break_in_py_while, staged_return_in_py_while))))
def test_staged_exit_in_python_while(n, target):
    assert_same(autograph.convert(target)(n), target(n))


# --- ext_slice_test.py --------------------------------------------------------------------

def basic_ext_slice(n):
    return n[:, :], n[0, :], n[:, 0]


def basic_expand_dims(n):
    return n[:, jnp.newaxis] - n[jnp.newaxis, :]


def slice_of_application(n, x):
    return n(x)[:, jnp.newaxis] - n(x)[jnp.newaxis, :]


def test_ext_slices():
    eye = jnp.eye(3)
    assert_same(autograph.convert(basic_ext_slice)(eye), basic_ext_slice(eye))
    assert_same(autograph.convert(basic_expand_dims)(eye), basic_expand_dims(eye))
    identity = lambda x: x  # noqa: E731
    assert_same(autograph.convert(slice_of_application)(identity, eye),
                slice_of_application(identity, eye))
    assert 'n[:, 0]' in autograph.to_code(basic_ext_slice)


# --- type_annotations_test.py -------------------------------------------------------------

def pure_declaration():
    n: int  # noqa: F842
    return 1


def annotated_state(x):
    total: float = 0.0
    for v in x:
        total: float = total + v
    return total


def test_annotations():
    assert autograph.convert(pure_declaration)() == 1
    xs = jnp.arange(4.0)
    assert_same(autograph.convert(annotated_state)(xs), annotated_state(xs))
