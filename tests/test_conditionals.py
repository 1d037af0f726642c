"""if / elif / else, returns in branches, ternaries, and/or/not, assert: converted vs
plain Python, with the jaxpr showing `cond` exactly when the condition is traced."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import check, primitives, staged


def if_else(x):
    if jnp.sum(x) > 0:
        y = x * x
    else:
        y = -x // 2
    return y


def if_no_else(x):
    y = x
    if x > 0:
        y = x * 2
    return y


def elif_chain(x):
    if x > 10:
        r = 1
    elif x > 5:
        r = 2
    elif x > 0:
        r = 3
    else:
        r = 4
    return r


def several_variables(x):
    a, b = x, x + 1
    if x > 0:
        a = a * 2
        b = b - a
        c = a + b
    else:
        c = x
    return a, b, c


def nested(x, y):
    if x > 0:
        if y > 0:
            z = x + y
        else:
            z = x - y
    else:
        if y > 0:
            z = y - x
        else:
            z = -x - y
    return z


def pytree_values(x):
    state = {'a': x, 'b': (x, x * 2)}
    if x > 1:
        state = {'a': x * 3, 'b': (x - 1, x)}
    return state


def early_return(x):
    if x > 0:
        return x * 2
    x = x - 1
    if x < -5:
        return x
    return -x


def return_in_both(x):
    if x > 0:
        return x + 1
    else:
        return x - 1


def return_then_more(x):
    y = x * 2
    if y > 4:
        y = y + 1
        if y > 10:
            return y
        y = y * 3
    return y - 1


def ternary(x):
    return x * 2 if x > 0 else (x - 1 if x > -3 else x * 0)


def boolean_ops(x, y):
    if x > 0 and y > 0 or not (x < -5):
        r = x
    else:
        r = y
    return r


def chained_comparison(x):
    if 0 < x < 10:
        r = x
    else:
        r = -x
    return r


def read_then_write(x):
    y = x
    if x > 0:
        y = y + 1
        y = y * 2
    return y


def only_used_inside(x):
    if x > 0:
        tmp = x * 2
        x = tmp + 1
    return x


def python_value_cond(x, flag):
    if flag:
        y = x + 1
    else:
        y = x - 1
    return y


CASES = [
    (if_else, [jnp.array([1., 2.]), jnp.array([-1., -2.])]),
    (if_no_else, [jnp.float32(2.), jnp.float32(-2.)]),
    (elif_chain, [jnp.int32(v) for v in (12, 7, 3, -1)]),
    (several_variables, [jnp.float32(2.), jnp.float32(-2.)]),
    (pytree_values, [jnp.float32(2.), jnp.float32(0.)]),
    (early_return, [jnp.float32(v) for v in (3., -2., -9.)]),
    (return_in_both, [jnp.float32(1.), jnp.float32(-1.)]),
    (return_then_more, [jnp.float32(v) for v in (1., 2.5, 6.)]),
    (ternary, [jnp.float32(v) for v in (2., -1., -5.)]),
    (chained_comparison, [jnp.float32(v) for v in (5., 15., -1.)]),
    (read_then_write, [jnp.float32(1.), jnp.float32(-1.)]),
    (only_used_inside, [jnp.float32(1.), jnp.float32(-1.)]),
]


@pytest.mark.parametrize('fn,inputs', CASES, ids=[c[0].__name__ for c in CASES])
def test_matches_python_and_stages_cond(fn, inputs):
    for x in inputs:
        check(fn, x)
    # (branches that only pick values or constants are a select: see lowering.switch)
    assert {'cond', 'select_n'} & primitives(fn, inputs[0])


@pytest.mark.parametrize('x,y', [(1., 1.), (1., -1.), (-1., 1.), (-1., -1.), (-9., 2.)])
def test_two_argument_functions(x, y):
    for fn in (nested, boolean_ops):
        check(fn, jnp.float32(x), jnp.float32(y))


def test_python_condition_runs_only_the_taken_branch():
    calls = []

    def f(x, flag):
        if flag:
            calls.append('true')
            y = x + 1
        else:
            calls.append('false')
            y = x - 1
        return y
    converted = autograph.convert(f, jit=False)
    assert float(converted(jnp.float32(1.), True)) == 2.
    assert calls == ['true']
    assert staged(python_value_cond, jnp.float32(1.), True) == set()


def test_traced_condition_traces_each_branch_once():
    traced = []

    def fizz(x):
        if x % 3 == 0:
            traced.append('fizz')
            y = x
        else:
            traced.append('other')
            y = x + 1
        return y
    f = autograph.convert(fizz)
    f(jnp.int32(3))
    f(jnp.int32(4))
    assert traced == ['fizz', 'other']


def test_numpy_condition_is_python():
    def f(x, threshold):
        if threshold > 0:
            x = x + 1
        return x
    assert staged(f, jnp.float32(1.), np.float32(2.)) == set()
    check(f, jnp.float32(1.), np.float32(2.))


def test_and_or_short_circuit_on_python_values():
    called = []

    def side(v):
        called.append(v)
        return v

    def f(x):
        a = False and side(1)
        b = True or side(2)
        c = x > 0 and side(3)
        return a, b, c
    out = autograph.convert(f, jit=False)(5)
    assert out == (False, True, 3)
    assert called == [3]


def test_and_or_on_traced_values_become_logical_ops():
    def f(x, y):
        return (x > 0) and (y > 0), (x > 0) or (y > 0), not (x > 0)
    for x, y in [(1., 1.), (1., -1.), (-1., -1.)]:
        out = autograph.convert(f)(jnp.float32(x), jnp.float32(y))
        assert [bool(v) for v in out] == [x > 0 and y > 0, x > 0 or y > 0, not x > 0]


def test_user_variable_names_that_clash_with_generated_ones():
    def f(x):
        ag = 1
        if_true = 2
        retval = 3
        loop_body = 4
        if x > 0:
            y = x + ag + if_true
        else:
            y = x - retval - loop_body
        return y
    check(f, jnp.float32(1.))
    check(f, jnp.float32(-1.))


def test_assert_python_and_traced():
    def f(x, limit):
        assert limit > 0, 'limit must be positive'
        assert x < limit, 'x too large'
        return x * 2
    g = autograph.convert(f)
    assert float(g(jnp.float32(1.), 5)) == 2.
    with pytest.raises(AssertionError, match='limit must be positive'):
        g(jnp.float32(1.), -1)
    with pytest.raises(AssertionError, match='x too large'):
        g(jnp.float32(9.), 5)


def test_if_under_jit_grad_vmap():
    f = autograph.convert(if_else, jit=False)
    x = jnp.array([1., 2.])
    np.testing.assert_allclose(jax.jit(f)(x), if_else(x))
    g = jax.grad(lambda x: autograph.convert(early_return)(x))
    assert float(g(jnp.float32(3.))) == 2.
    assert float(g(jnp.float32(-9.))) == 1.
    xs = jnp.array([3., -2., -9.])
    np.testing.assert_allclose(jax.vmap(autograph.convert(early_return))(xs),
                               [early_return(x) for x in xs])


def test_and_or_on_traced_numbers_select_like_python():
    def f(x, y):
        return x or y, x and y
    for x, y in [(0., 2.), (3., 2.), (3., 0.)]:
        check(f, jnp.float32(x), jnp.float32(y))
