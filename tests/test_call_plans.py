"""Plans (autograph/function/plans.py): a cached call served by one flat function of its
arguments. Each test a plan makes stands for something that can change between two
calls; each is changed here between calls served by a plan, and every call must give
what the same function gives as plain Python (over two and three calls, values changed
between them). `planned` checks that the calls compared were served by a plan."""
import gc

import jax.numpy as jnp
import numpy as np
import pytest

import autograph


def same(a, b):
    np.testing.assert_allclose(np.asarray(a, dtype=np.float64),
                               np.asarray(b, dtype=np.float64), rtol=1e-6)


def planned(conv):
    """Whether `conv`'s next cached call goes to a plan (its source is kept)."""
    if isinstance(conv, autograph.function.BoundFunction):
        conv = conv._function
    return hasattr(conv._cache.serve, 'source')


def check(plain, conv, *calls):
    """Each call (arguments), made three times: each time as plain Python gives it."""
    for args in calls:
        for _ in range(3):
            same(conv(*args), plain(*args))


class Env:
    def __init__(self, dt):
        self.dt = dt


def step(env, x, n):
    for _ in range(n):
        x = x - env.dt * x
    return x


def test_a_plan_serves_cached_calls_and_sees_new_python_values():
    conv = autograph.convert(step)
    env, x = Env(0.1), jnp.arange(3.0)
    check(step, conv, (env, x, 2))
    assert planned(conv)
    # a Python value: another value, another type of an equal value (True == 1), NaN
    check(step, conv, (env, x, 3), (env, x, 2), (env, x, True), (env, x, 1))
    env.dt = float('nan')
    check(step, conv, (env, x, 1))
    env.dt = 0.25   # (an attribute's Python value: the state's static part)
    check(step, conv, (env, x, 1), (env, np.arange(3.0), 1))   # (a NumPy array now)
    assert planned(conv)


def test_an_object_that_goes_and_one_made_in_its_place():
    """A plan tests objects by id: one made after an object went may have its id."""
    conv = autograph.convert(step)
    x = jnp.arange(3.0)
    for i in range(6):
        env = Env(0.1 * (i + 1))
        same(conv(env, x, 1), step(env, x, 1))
        same(conv(env, x, 1), step(env, x, 1))
        del env
        gc.collect()


def test_an_object_argument_replaced_and_given_an_attribute():
    conv = autograph.convert(step)
    a, b, x = Env(0.1), Env(0.2), jnp.arange(3.0)
    check(step, conv, (a, x, 1), (b, x, 1), (a, x, 1))
    a.dt = jnp.float32(0.5)   # (an array now: a program input)
    check(step, conv, (a, x, 1))
    a.dt = jnp.float32(0.75)
    check(step, conv, (a, x, 1))


def mean_loss(params, x):
    return jnp.sum(x * params['w'] + params['b'])


def test_a_dict_argument_whose_keys_and_leaves_change():
    conv = autograph.convert(mean_loss)
    x = jnp.arange(3.0)
    params = {'w': jnp.ones(3), 'b': jnp.zeros(3)}
    check(mean_loss, conv, (params, x))
    assert planned(conv)
    params['w'] = jnp.full(3, 2.0)   # (changed in place: the same dict)
    check(mean_loss, conv, (params, x))
    params['b'] = 5.0                # (a leaf that is a Python number now)
    check(mean_loss, conv, (params, x))
    params['b'] = jnp.ones(3)
    params['c'] = jnp.ones(3)        # (another structure)
    check(mean_loss, conv, (params, x))
    check(mean_loss, conv, ({'w': 1.0, 'b': jnp.ones(3)}, x))


SCALE = 1.0


def total(x):
    return abs(x) + SCALE


def test_a_global_that_hides_a_builtin_later():
    """Python looks a name up in the globals first: a global `abs` made between calls is
    the function the next call calls (a trace of its own), and the builtin again once
    it is deleted."""
    global SCALE
    conv = autograph.convert(total)
    x = jnp.arange(-1.0, 2.0)
    check(total, conv, (x,))
    assert planned(conv)
    SCALE = 2.0
    check(total, conv, (x,))
    try:
        globals()['abs'] = lambda x: x * 10.0
        check(total, conv, (x,))
    finally:
        del globals()['abs']
    check(total, conv, (x,))
    SCALE = jnp.float32(3.0)   # (another type: an array)
    check(total, conv, (x,))
    SCALE = 1.0


def inner(x):
    return x * 2.0


def outer(x):
    return inner(x) + 1.0


def test_a_global_function_rebound():
    global inner
    conv = autograph.convert(outer)
    x = jnp.arange(3.0)
    first = inner
    try:
        check(outer, conv, (x,))
        assert planned(conv)
        inner = lambda x: x * 3.0   # noqa: E731
        check(outer, conv, (x,))
        inner = jnp.negative
        check(outer, conv, (x,))
        inner = first
        check(outer, conv, (x,))
    finally:
        inner = first


class Agent:
    def __init__(self):
        self.w = jnp.ones(3)

    def act(self, x):
        return x * self.w


def test_a_method_whose_state_attribute_changes_kind():
    agent = Agent()
    conv = autograph.convert(agent.act)
    x = jnp.arange(3.0)
    check(agent.act, conv, (x,))
    assert planned(conv)
    agent.w = jnp.full(3, 2.0)
    check(agent.act, conv, (x,))
    agent.w = 4.0   # (a Python number: a static part of its own)
    check(agent.act, conv, (x,))
    agent.w = 5.0
    check(agent.act, conv, (x,))
    agent.w = jnp.full(3, -1.0)
    check(agent.act, conv, (x,))
    del agent.w   # (no attribute: Python's AttributeError)
    with pytest.raises(AttributeError):
        conv(x)


def counter():
    count = jnp.float32(0.0)

    def bump(x):
        nonlocal count
        count = count + x
        return count
    return bump


def test_closure_state_written_by_a_planned_call():
    plain, conv_of = counter(), counter()
    conv = autograph.convert(conv_of)
    for value in (1.0, 2.0, 3.0):
        x = jnp.float32(value)
        same(conv(x), plain(x))


def write_first(a, v):
    a[0] = v
    return a.sum()


def test_numpy_items_written_back_by_a_planned_call():
    conv = autograph.convert(write_first)
    a, b = np.zeros(3), np.zeros(3)
    for value in (1.0, 2.0, 3.0):
        same(conv(a, jnp.float32(value)), write_first(b, np.float32(value)))
        np.testing.assert_allclose(a, b)


LOG = []


def logged(x):
    LOG.append(1)
    return x + 1.0


def test_a_log_appended_by_planned_calls():
    conv = autograph.convert(logged)
    x = jnp.arange(3.0)
    LOG.clear()
    for _ in range(3):
        same(conv(x), x + 1.0)
    assert len(LOG) == 3   # (as Python: one item per call)


def test_a_keyword_call_and_another_arity_take_the_full_path():
    conv = autograph.convert(step)
    env, x = Env(0.1), jnp.arange(3.0)
    check(step, conv, (env, x, 2))
    same(conv(env, x, n=3), step(env, x, n=3))
    same(conv(env, x=x, n=1), step(env, x=x, n=1))
    with pytest.raises(TypeError):
        conv(env, x)


def kinded(x, n):
    if n is True:
        return x + 100.0
    if isinstance(n, float):
        return x - n
    return x * n


def test_equal_python_values_of_other_types():
    """1 == 1.0 == True, but a plan serves only a value of the type it was made for."""
    conv = autograph.convert(kinded)
    x = jnp.arange(3.0)
    check(kinded, conv, (x, 1), (x, True), (x, 1.0), (x, 1), (x, 2), (x, True))


EXTRA = []


def with_extra(x):
    for e in EXTRA:
        x = x + e
    return x


def test_a_global_list_that_gets_arrays_between_planned_calls():
    """A list without arrays is no state; once it holds arrays it is (the survey decides
    its fate again on each call)."""
    conv = autograph.convert(with_extra)
    x = jnp.arange(3.0)
    try:
        check(with_extra, conv, (x,))
        assert planned(conv)
        EXTRA.append(jnp.ones(3))
        check(with_extra, conv, (x,))
        EXTRA.clear()
        check(with_extra, conv, (x,))
    finally:
        EXTRA.clear()


def weighted_sum(params, x):
    total = x
    for key in sorted(params):
        total = total + (10.0 if key == 'b' else 1.0) * params[key]
    return total


def test_a_dict_argument_with_other_keys_and_as_many_leaves():
    conv = autograph.convert(weighted_sum)
    x = jnp.arange(3.0)
    check(weighted_sum, conv, ({'a': jnp.ones(3), 'b': jnp.ones(3)}, x),
          ({'a': jnp.ones(3), 'c': jnp.ones(3)}, x),
          ({'a': jnp.ones(3), 'b': jnp.ones(3)}, x))


def typed(x):
    if isinstance(x, float):
        return x - 100.0
    return x * 2.0


def test_an_array_argument_then_a_python_number():
    conv = autograph.convert(typed)
    check(typed, conv, (jnp.float32(1.0),), (1.0,), (jnp.float32(2.0),), (2.0,))
