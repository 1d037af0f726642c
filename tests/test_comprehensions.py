"""Comprehension `if` clauses and `filter`: Python's meaning on Python values (also next to
traced ones), a named error when the test itself is traced (the number of items kept would
depend on run-time values)."""
import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same, check


def scaled_by_large_weights(x):
    return [w * x for w in (1, 2, 3, 4) if w > 1 and w != 3]


def kinds_of_comprehension(x):
    listed = [w * x for w in range(6) if w % 2 if w > 1]
    as_set = {w for w in range(6) if w > 3}
    as_dict = {w: w * x for w in range(4) if w != 2}
    total = sum(w * x for w in range(5) if w > 2)
    nested = [[w * v * x for v in range(w) if v > 0] for w in range(4) if w]
    return listed, sorted(as_set), as_dict, total, nested


def kept_by_filter(x):
    evens = list(filter(lambda w: w % 2 == 0, range(7)))
    truthy = list(filter(None, [0, 1, 2, 0, 3]))
    return [w * x for w in evens + truthy]


@pytest.mark.parametrize('fn', [scaled_by_large_weights, kinds_of_comprehension, kept_by_filter])
@pytest.mark.parametrize('x', [3., jnp.float32(3.)])
def test_tests_on_python_values_keep_pythons_meaning(fn, x):
    check(fn, x)


def test_python_tests_next_to_traced_items_under_vmap_and_grad():
    def f(x):
        return sum(w * x * x for w in (1., 2., 3.) if w > 1.)
    xs = jnp.arange(3.)
    assert_same(jax.vmap(autograph.convert(f))(xs), jnp.stack([f(x) for x in xs]))
    assert_same(jax.grad(autograph.convert(f))(2.), 4. * (2. + 3.))


def above(xs):
    return [y for y in xs if y > 2]


def filtered(xs):
    return list(filter(lambda y: y > 2, xs))


def filter_as_a_value(xs, keep=filter):
    return list(keep(lambda y: y > 2, xs))


@pytest.mark.parametrize('fn, what', [(above, 'the `if` of a comprehension'),
                                      (filtered, 'filter()'), (filter_as_a_value, 'filter()')])
def test_a_traced_test_is_a_named_error_at_the_users_line(fn, what):
    xs = jnp.arange(5.)
    assert fn(list(range(5))) == [3, 4]   # Python values: Python's meaning
    assert fn.__code__.co_filename.endswith('test_comprehensions.py')
    eager = autograph.convert(fn, jit=False)
    assert_same(eager(xs), fn(xs))   # concrete arrays: Python's meaning too
    for run in (autograph.convert(fn), jax.jit(eager)):
        with pytest.raises(autograph.ControlFlowError) as info:
            run(xs)
        message = str(info.value)
        assert message.startswith(what) and 'test_comprehensions.py:' in message
        assert 'jnp.where' in message


def test_a_traced_test_in_a_converted_lambda_is_named():
    with pytest.raises(autograph.ControlFlowError, match='`if` of a comprehension'):
        autograph.convert(lambda xs: [y for y in xs if y])(jnp.ones(3))


def test_generated_code_wraps_only_the_tests():
    code = autograph.to_code(above)
    assert 'for y in xs if ag.comprehension_test(y > 2)]' in code
