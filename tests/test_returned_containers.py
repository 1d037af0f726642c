"""A list or dict returned from inside a staged loop (`return [x[i], x[i] * 2]` under a
traced `if`) and None (or another value) after the loop: the function's result is
chosen as a value where the paths give it. Before, a named error on a valid program:
"'return' is bound to an existing list or dict on one path" (the loop's result), from
corpus batch 7's Jacobi eigenvalue solver. Objects the user's code can name keep the
rule (runtime.state.mutation's `_aliased`)."""
import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same


def first_positive_pair(x):
    for i in range(3):
        if x[i] > 0:
            return [x[i], x[i] * 2]
    return None


def first_positive_record(x, n):
    for i in range(n):
        if x[i] > 0:
            return {'at': i, 'value': x[i]}
    return {'at': -1, 'value': x[0] * 0}


@pytest.mark.parametrize('values', [[-1.0, 2.0, 3.0], [1.0, -2.0, 3.0]])
def test_a_list_from_inside_the_loop(values):
    x = jnp.array(values)
    assert_same(autograph.convert(first_positive_pair)(x), first_positive_pair(x))


def test_none_after_the_loop():
    assert autograph.convert(first_positive_pair)(jnp.array([-1.0, -2.0, -3.0])) is None


def test_under_jit_a_result_that_is_none_on_some_paths_is_named():
    """Inside the caller's `jax.jit` the result's structure must be known: named."""
    with pytest.raises(autograph.ControlFlowError, match='returns None'):
        jax.jit(autograph.convert(first_positive_pair, jit=False))(jnp.array([1.0, 2, 3]))


def returned_existing_or_new(xs, c):
    out = [c * 2]
    return xs if c > 0 else out


@pytest.mark.parametrize('c', [1.0, -1.0])
def test_return_an_existing_list_or_another(c):
    xs = [jnp.float32(5.0)]
    assert_same(autograph.convert(returned_existing_or_new)(xs, jnp.float32(c)),
                returned_existing_or_new(xs, c))


@pytest.mark.parametrize('values', [[-1.0, 2.0, 3.0], [-1.0, -2.0, -3.0]])
@pytest.mark.parametrize('traced', [False, True])
def test_a_dict_from_inside_the_loop_or_after_it(values, traced):
    x = jnp.array(values)
    n = jnp.int32(3) if traced else 3
    assert_same(autograph.convert(first_positive_record)(x, n),
                first_positive_record(x, 3))
