"""PaddlePaddle's dynamic-to-static converter tests, branch side, restated for JAX
(test/dygraph_to_static/ in the PaddlePaddle repository: ifelse_simple_func.py,
test_ifelse.py, test_return.py, test_logical.py, test_assert.py, test_cast.py,
test_closure_analysis.py). The programs are written anew in the same shapes: `if`/`elif`
on array values, variables made in one branch only, returns of different structure,
and/or/not mixing arrays with Python values, nested functions that write `nonlocal`s.

Ground truth is the function run unconverted on the same inputs. Where upstream expects
an error, or where plain Python fails on a traced value, the converted function must give
Python's value or raise the project's own named error.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, check, converted, staged


F = np.float32


def ramp(offset, n=4):
    return jnp.arange(n, dtype=jnp.float32) + offset


# --- ifelse_simple_func.py -----------------------------------------------------------

def shift_by_mean(x, label=None):
    if jnp.mean(x) > 5:
        x = x - 1
    else:
        x = x + 1
    if label is not None:
        return (x - label) ** 2
    return x


def column_against_mean(x, col=100):
    if abs(col) > x.shape[-1]:
        col = -1
    else:
        col = 1
    if jnp.mean(x) > x[0][col]:
        y = jnp.maximum(x * x, 0.0)
    else:
        y = jnp.tanh(x * x)
    return y


def names_made_in_both_branches(x):
    y = x + 1
    if jnp.mean(x) < 5:
        x = x + 1
        z = x + 2
        q = x + 3
        m = x + 2
        n = x + 3
    else:
        y = y + 1
        z = x - 2
        q = x + 3
        m = x + 2
        n = x + 3
    q = q + 1
    n = q + 2
    return n + z + m + y


def early_return_on_local_array():
    x = jnp.array([7])
    if x == 0:
        return jnp.zeros([2, 2]), jnp.zeros([3])
    elif x == 7:
        return jnp.ones([2, 2]), jnp.ones([3]) * 2
    return jnp.zeros([2, 2]) + 3, jnp.zeros([3]) + 3


def nested_branches_with_temporaries(x):
    limit = 16
    bias = jnp.ones(x.shape[-1])
    if x.shape[0] != limit:
        limit = x.shape[0]
    if jnp.mean(x) < 0:
        y = x + bias
        w = jnp.full(x.shape[-1], 10.0)
        if y[0] < 10:
            tmp = y * w
            y = jnp.maximum(tmp, 0.0)
            if jnp.mean(y) < limit:
                tmp = -jnp.ones_like(y)
                y = jnp.abs(y)
            else:
                tmp = -jnp.ones_like(y)
                y = y - tmp
        else:
            y = jnp.maximum(y * w, 0.0) - 1
    else:
        y = x - bias
        tmp = y * 10
        y = jnp.abs(jnp.maximum(tmp, 0.0))
    return y


def name_only_in_an_untaken_branch(x):
    y = x.reshape(-1, 1)
    b = 2
    if b < 1:
        z = y
    if x.shape[0] < 1:
        if y.shape[0] < 1:
            res = jnp.full(x.shape, 2)
            z = y + 1
        else:
            res = jnp.full(x.shape, 3)
    else:
        res = x
    return res


def inner_name_made_on_every_path(x):
    y = x.reshape(-1, 1)
    b = 2
    if b < 1:
        z = y
    else:
        z = x
    if b < 1:
        res = x
        out = x + 1 if b > 1 else x - 1
    elif jnp.sum(y) < 1:
        res = jnp.full(x.shape, 2.0)
        z = y + 1
        out = x - 1
    else:
        res = jnp.full(x.shape, 3.0)
        out = x + 1
        z = y - 1
    return res, out, z


def chained_and_or(x, y=None):
    n = x.shape[0]
    if x is not None and (jnp.mean(x) > 0 or y is not None) and n > 1 and True:
        x = x - 1
    else:
        x = x + 1
    if (x is not None and n > 1) or (y is not None and jnp.mean(x) > 0):
        x = x * 2
    if (x is not None or n > 1) and (y is not None or jnp.mean(x) > 0):
        x = x - 3
    if jnp.mean(x) > 0 and (x is not None and n > 1) and y:
        x = x + 5
    return x


def local_class_attributes(x):
    class Pair:
        def __init__(self):
            self.a = 1
            self.b = 2

    pair = Pair()
    if jnp.sum(x) > pair.a:
        x = x + pair.b
    else:
        x = x - pair.b
    return x


def truthiness_loops_and_not(x):
    mean = jnp.mean(x)
    if mean:
        for i in range(10):
            if i > 5:
                x += 1
                break
            x += 1
    else:
        for i in range(37):
            x += 1
            break
    if jnp.mean(x) + 1 and mean > 1 and x is not None or 2 > 1:
        x -= 1
    if not (x[0][0] and (mean * x)[0][0]):
        x += 1
    return x


def same_structure_with_python_int(x):
    index = 0
    if jnp.sum(x) > 0:
        y = x[index] + 1
        index = index + 1
        return y, index
    else:
        y = x[index] + 2
        index = index + 1
        return y, index


def int_on_one_path_array_on_other(x):
    index = 0
    if jnp.sum(x) > 0:
        index = index + 1
        return index
    else:
        return x[index] + 2


def tuple_on_one_path_array_on_other(x):
    index = 0
    if jnp.sum(x) > 0:
        return x[index] + 1, index + 1
    else:
        return x[index] + 2


def string_on_one_path(x):
    if jnp.sum(x) > 0:
        return 'positive'
    else:
        return x[0] + 2


def effect_free_statements(x):
    flag = True
    if flag:
        pass
    if jnp.mean(x) < 0:
        x + 1
    return x * 2


BRANCH_CASES = [
    (shift_by_mean, [(ramp(0.0),), (ramp(6.0),), (ramp(6.0), F(2.0)), (ramp(1.0), F(0.5))]),
    (column_against_mean, [(jnp.eye(3) * 4,), (jnp.ones((3, 3)),), (jnp.eye(3), 1)]),
    (names_made_in_both_branches, [(ramp(0.0),), (ramp(9.0),)]),
    (early_return_on_local_array, [()]),
    (nested_branches_with_temporaries, [(ramp(-5.0),), (ramp(-1.6),), (ramp(2.0),),
                                        (ramp(-30.0) * 0.1 + 0.4,)]),
    (name_only_in_an_untaken_branch, [(ramp(0.0),), (jnp.zeros(0),)]),
    (inner_name_made_on_every_path, [(ramp(-3.0),), (ramp(2.0),)]),
    (chained_and_or, [(ramp(-4.0),), (ramp(-4.0), True), (ramp(3.0),), (ramp(3.0), False),
                      (ramp(0.5, 1),), (ramp(-0.5, 1), True)]),
    (local_class_attributes, [(ramp(0.0),), (ramp(-2.0),)]),
    (truthiness_loops_and_not, [(jnp.ones((2, 2)),), (jnp.zeros((2, 2)),),
                                (jnp.full((2, 2), -1.0),), (jnp.full((2, 2), 0.5),)]),
    (same_structure_with_python_int, [(ramp(0.0),), (ramp(-9.0),)]),
    (int_on_one_path_array_on_other, [(ramp(0.0),), (ramp(-9.0),)]),
    (effect_free_statements, [(ramp(-3.0),), (ramp(1.0),)]),
]


@pytest.mark.parametrize('fn,args', [(fn, args) for fn, cases in BRANCH_CASES
                                     for args in cases],
                         ids=lambda v: getattr(v, '__name__', None))
def test_branch_programs_agree_with_python(fn, args):
    check(fn, *args)


def test_array_conditions_are_staged_as_cond():
    assert 'cond' in staged(shift_by_mean, ramp(0.0))
    assert 'cond' in staged(nested_branches_with_temporaries, ramp(-1.0))
    assert 'cond' in staged(truthiness_loops_and_not, jnp.ones((2, 2)))


@pytest.mark.parametrize('fn', [shift_by_mean, names_made_in_both_branches,
                                nested_branches_with_temporaries, chained_and_or])
def test_branch_programs_under_vmap(fn):
    xs = jnp.stack([ramp(-5.0), ramp(-1.6), ramp(2.0), ramp(7.0)])
    expected = jnp.stack([fn(x) for x in xs])
    np.testing.assert_allclose(jax.vmap(converted(fn))(xs), expected, rtol=1e-6)


@pytest.mark.parametrize('x', [ramp(-5.0), ramp(-1.6), ramp(2.0)])
def test_nested_branches_under_grad(x):
    def loss(fn):
        return lambda v: jnp.sum(fn(v))
    np.testing.assert_allclose(jax.grad(loss(converted(nested_branches_with_temporaries)))(x),
                               jax.grad(loss(nested_branches_with_temporaries))(x), rtol=1e-6)


@pytest.mark.parametrize('fn', [tuple_on_one_path_array_on_other, string_on_one_path])
@pytest.mark.parametrize('x', [ramp(0.0), ramp(-9.0)])
def test_different_structures_with_concrete_condition(fn, x):
    # outside jit the condition is concrete: each path keeps its own structure, as Python
    expected = fn(x)
    got = autograph.convert(fn, jit=False)(x)
    assert type(got) is type(expected)
    if isinstance(expected, str):
        assert got == expected
    else:
        assert_same(got, expected)


def test_different_structures_under_traced_condition_is_named():
    # upstream: "Your if/else have different number of return value"
    with pytest.raises(autograph.ControlFlowError):
        autograph.convert(tuple_on_one_path_array_on_other)(ramp(0.0))


@pytest.mark.parametrize('x', [ramp(0.0), ramp(-9.0)])
def test_a_string_on_one_path_under_a_traced_condition_is_given_back(x):
    # a constant str on one path, an array on the other: the one the run took (a Choice)
    expected, got = string_on_one_path(x), autograph.convert(string_on_one_path)(x)
    assert type(got) is type(expected) or not isinstance(expected, str)
    if isinstance(expected, str):
        assert got == expected
    else:
        assert_same(got, expected)
