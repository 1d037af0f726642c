"""PaddlePaddle's dynamic-to-static idioms that need a Python value of an array, and
its checks, restated for JAX (test/dygraph_to_static/ in the PaddlePaddle repository:
ifelse_simple_func.py's `x.numpy()` in conditions, test_assert.py). The programs are
written anew: `.item()`, int(), np.asarray() and tolist() of traced values in conditions
and loop bounds; assert and raise inside staged loops and branches.

Ground truth is the function run unconverted on the same inputs.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, check, converted, line_of


# --- upstream's `.numpy()` in conditions (ifelse_simple_func.py) ---------------------

def condition_on_item(x):
    if jnp.mean(x).item() > 5:
        return x - 1
    return x + 1


def range_of_an_int(x):
    t = 0
    for i in range(int(x[0])):
        t = t + i
    return t


def loop_on_item(x):
    n = 0
    while x.item() < 5:
        x = x + 1
        n += 1
    return n


def condition_on_numpy_value(x):
    if np.asarray(jnp.mean(x)) > 5:
        return x - 1
    return x + 1


def condition_on_tolist(x):
    if x.tolist()[0] > 5:
        return x - 1
    return x + 1


@pytest.mark.parametrize('fn,x', [
    (condition_on_item, jnp.array([6.0, 7.0])), (condition_on_item, jnp.array([1.0, 2.0])),
    (range_of_an_int, jnp.array([4])), (range_of_an_int, jnp.array([0])),
    (loop_on_item, jnp.float32(2.0)), (loop_on_item, jnp.float32(9.0)),
])
def test_python_values_of_traced_arrays(fn, x):
    check(fn, x)
    assert_same(jax.vmap(converted(fn))(x[None]), jnp.asarray(fn(x))[None])


@pytest.mark.parametrize('fn,text', [(condition_on_numpy_value, 'np.asarray'),
                                     (condition_on_tolist, 'x.tolist()')])
def test_numpy_value_of_a_traced_array_in_a_condition(fn, text):
    # The JAX spelling of upstream's `x.numpy()`: NumPy needs the value, which is traced
    # under jit. A named error at the user's line (was JAX's raw error); `.item()`,
    # float() and int() of the same value give Python's result (above).
    x = jnp.array([6.0, 7.0])
    assert_same(autograph.convert(fn, jit=False)(x), fn(x))   # eager: Python's value
    with pytest.raises(autograph.ControlFlowError,
                       match=rf'a traced array at \S+checks.py:{line_of(fn, text)} '
                             rf'\(`.*`\) is given to Python code that needs its value'):
        autograph.convert(fn)(x)


# --- assert and raise in staged loops (test_assert.py) -------------------------------

def assert_in_range_loop(x, n):
    for i in range(n):
        assert x + i < 5, 'too big'
        x = x + 1
    return x


def assert_in_while_loop(x):
    while x < 10:
        assert x != 7, 'hit seven'
        x = x + 2
    return x


def raise_in_branch(x):
    if x > 3:
        raise ValueError('x too large')
    return x


@pytest.mark.parametrize('fn,args', [
    (assert_in_range_loop, (0, 3)), (assert_in_while_loop, (0,)), (raise_in_branch, (1,))])
def test_checks_that_pass(fn, args):
    check(fn, *args)
    check(fn, *[jnp.int32(a) for a in args])


@pytest.mark.parametrize('fn,args,error', [
    (assert_in_range_loop, (2, 3), AssertionError), (assert_in_while_loop, (1,), AssertionError),
    (raise_in_branch, (5,), ValueError)])
def test_checks_that_fail_when_the_program_runs(fn, args, error):
    with pytest.raises(error):
        fn(*args)
    with pytest.raises(error):
        jax.block_until_ready(autograph.convert(fn)(*[jnp.int32(a) for a in args]))


def test_assert_in_staged_loop_under_vmap():
    run = jax.vmap(converted(assert_in_while_loop))
    xs = jnp.array([0, 2])
    assert_same(run(xs), jnp.stack([assert_in_while_loop(x) for x in xs]))
    with pytest.raises(AssertionError, match='hit seven'):
        jax.block_until_ready(run(jnp.array([0, 1])))
