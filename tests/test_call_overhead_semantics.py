"""Cached calls (autograph/function/calls.py) against plain Python over several calls:
each thing that can change between two calls of a converted function, and that decides
what the call reads, is changed between calls, and every call must give what the same
function gives as plain Python. A cache that kept the places, the objects or the
program of an earlier call would give an earlier call's value."""
import gc
import weakref

import jax.numpy as jnp
import numpy as np

import autograph


def same(a, b):
    np.testing.assert_allclose(np.asarray(a, dtype=np.float64),
                               np.asarray(b, dtype=np.float64), rtol=1e-6)


def both(fn):
    """(plain, converted) of `fn`."""
    return fn, autograph.convert(fn)


class Env:
    scale = 1.0   # (a class attribute: an instance's own `scale` may come later)

    def __init__(self, dt=0.1):
        self.dt = dt


def step(env, x):
    return x - env.dt * x * env.scale


def test_an_attribute_changed_between_calls():
    plain, conv = both(step)
    env, x = Env(), jnp.arange(3.0)
    for dt in (0.1, 0.1, 0.25, jnp.float32(0.5), jnp.float32(0.75), 0.1):
        env.dt = dt
        same(conv(env, x), plain(env, x))


def test_an_attribute_added_later_and_deleted_again():
    plain, conv = both(step)
    env, x = Env(), jnp.arange(3.0)
    same(conv(env, x), plain(env, x))
    same(conv(env, x), plain(env, x))
    env.scale = 3.0   # the instance's own now: state of the calls from here on
    same(conv(env, x), plain(env, x))
    env.scale = jnp.float32(5.0)
    same(conv(env, x), plain(env, x))
    del env.scale     # the class's again
    same(conv(env, x), plain(env, x))


def test_an_argument_object_replaced_by_another_of_the_same_class():
    plain, conv = both(step)
    envs = [Env(0.1), Env(0.2), Env(0.3)]
    x = jnp.arange(3.0)
    envs[1].scale = 2.0
    for env in envs + envs[::-1]:
        same(conv(env, x), plain(env, x))


K = 2.0
TABLE = None


class Table:
    def __init__(self, w):
        self.w = w


def scaled(x):
    return x * K + TABLE.w


def test_a_global_changed_and_rebound_to_another_object():
    global K, TABLE
    plain, conv = both(scaled)
    x = jnp.arange(3.0)
    TABLE = Table(jnp.ones(3))
    same(conv(x), plain(x))
    K = 3.0
    same(conv(x), plain(x))
    TABLE.w = jnp.full(3, 5.0)              # an attribute of the object a global names
    same(conv(x), plain(x))
    TABLE = Table(jnp.full(3, -1.0))        # the global rebound: another object
    same(conv(x), plain(x))
    old = TABLE
    TABLE = Table(jnp.full(3, 7.0))
    old.w = jnp.zeros(3)                    # (the old object is no state any more)
    same(conv(x), plain(x))
    K = jnp.float32(0.5)
    same(conv(x), plain(x))


WEIGHTS = []


def weighted(x):
    total = x
    for w in WEIGHTS:
        total = total + w * x
    return total


def test_a_list_mutated_between_calls():
    plain, conv = both(weighted)
    x = jnp.arange(3.0)
    WEIGHTS[:] = [jnp.float32(1.0)]
    same(conv(x), plain(x))
    same(conv(x), plain(x))
    WEIGHTS.append(jnp.float32(2.0))          # longer
    same(conv(x), plain(x))
    WEIGHTS[0] = jnp.float32(-3.0)            # an item replaced
    same(conv(x), plain(x))
    WEIGHTS.clear()                           # no arrays: no state
    same(conv(x), plain(x))
    WEIGHTS.append(jnp.float32(4.0))          # arrays again
    same(conv(x), plain(x))


def counter_and_scale():
    scale = 1.0

    def apply(x):
        return x * scale

    def set_scale(value):
        nonlocal scale
        scale = value
    return apply, set_scale


def test_a_closure_cell_changed_between_calls():
    apply, set_scale = counter_and_scale()
    conv = autograph.convert(apply)
    x = jnp.arange(3.0)
    for value in (1.0, 1.0, 2.0, jnp.float32(3.0), jnp.float32(4.0), -1.0):
        set_scale(value)
        same(conv(x), apply(x))


class Agent:
    def __init__(self, w):
        self.w = w

    def act(self, x):
        if x.sum() > 0:
            return x * self.w
        return -x

    converted_act = autograph.convert(act)


def test_a_converted_method_of_two_instances():
    a, b = Agent(jnp.full(3, 2.0)), Agent(jnp.full(3, -5.0))
    x = jnp.arange(3.0)
    for agent in (a, b, a, b):
        same(agent.converted_act(x), agent.act(x))
    a.w = jnp.full(3, 7.0)
    for agent in (a, b, a):
        same(agent.converted_act(x), agent.act(x))


def apply_twice(f, x):
    return f(f(x))


def double(x):
    return x * 2.0


def negate(x):
    return -x


def test_a_callable_argument_swapped_for_another():
    plain, conv = both(apply_twice)
    x = jnp.arange(3.0)
    for f in (double, double, negate, double, negate):
        same(conv(f, x), plain(f, x))


def test_bound_methods_of_two_instances_as_arguments():
    plain, conv = both(apply_twice)
    a, b = Agent(jnp.full(3, 2.0)), Agent(jnp.full(3, 3.0))
    x = jnp.arange(1.0, 4.0)
    for agent in (a, b, a, b):
        same(conv(agent.act, x), plain(agent.act, x))


def mixed(params, x):
    return x * params['w'] + params['b']


def test_a_dict_of_arrays_whose_keys_and_values_change():
    plain, conv = both(mixed)
    x = jnp.arange(3.0)
    for params in ({'w': jnp.ones(3), 'b': jnp.zeros(3)},
                   {'w': jnp.full(3, 2.0), 'b': jnp.ones(3)},
                   {'w': jnp.full(3, 2.0), 'b': 1.5},
                   {'w': jnp.full(3, 2.0), 'b': jnp.ones(3), 'c': 0}):
        same(conv(params, x), plain(params, x))


LOG = []


def logged(x):
    LOG.append(x.sum())
    return x + 1


def test_a_log_keeps_its_items_over_cached_calls():
    plain, conv = both(logged)
    LOG.clear()
    expected = [plain(jnp.full(3, float(i))) for i in range(4)]
    want = [float(v) for v in LOG]
    LOG.clear()
    got = [conv(jnp.full(3, float(i))) for i in range(4)]
    for g, e in zip(got, expected):
        same(g, e)
    assert [float(v) for v in LOG] == want


def test_a_cached_call_does_not_keep_its_argument_objects_alive():
    conv = autograph.convert(step)
    env, x = Env(0.5), jnp.arange(3.0)
    conv(env, x)
    conv(env, x)
    ref = weakref.ref(env)
    del env
    gc.collect()
    assert ref() is None
    same(conv(Env(0.25), x), step(Env(0.25), x))


def test_shapes_and_dtypes_still_key_the_program():
    plain, conv = both(step)
    env = Env(0.5)
    for x in (jnp.arange(3.0), jnp.arange(5.0), jnp.arange(3), jnp.arange(3.0)):
        same(conv(env, x), plain(env, x))


HISTORY = []


def record(x, seen):
    total = x * len(seen)
    HISTORY.append(x.sum())
    return total


def test_a_log_given_as_an_argument_is_state_of_that_call():
    x = jnp.arange(3.0)
    expected, got = [], []
    for convert in (False, True):
        fn = autograph.convert(record) if convert else record
        HISTORY.clear()
        out = expected if not convert else got
        other = [jnp.ones(2), jnp.ones(2)]
        out.append(fn(x, other))
        out.append(fn(x, other))
        out.append(fn(x, HISTORY))   # the log itself, as long as `other`: read here
        out.append(fn(x, other))
        out.append([float(v) for v in HISTORY])
    for g, e in zip(got[:-1], expected[:-1]):
        same(g, e)
    assert got[-1] == expected[-1]
