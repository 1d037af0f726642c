"""Cached calls (autograph/function/calls.py) against plain Python over several calls:
each thing that can change between two calls of a converted function, and that decides
what the call reads, is changed between calls, and every call must give what the same
function gives as plain Python. A cache that kept the places, the objects or the
program of an earlier call would give an earlier call's value."""
import gc
import warnings
import weakref

import jax
import jax.numpy as jnp
import numpy as np

import autograph
from autograph.function import calls


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


def total(items, y):
    s = y
    for item in (items.values() if type(items) is dict else items):
        s = s + item
    return s


def test_an_empty_container_does_not_make_its_type_an_object():
    # An empty list, dict or tuple is a pytree without leaves; a call seeing one first
    # must not key every later container of its type by identity (a mutated list would
    # keep its old items' program and values).
    calls._KINDS.clear()   # (what earlier tests taught it: as in a fresh process)
    plain, conv = both(total)
    y = jnp.ones(3)
    for empty, items in (([], [1.0, 2.0]), ({}, {'a': 1.0}), ((), (1.0, 2.0))):
        same(conv(empty, y), plain(empty, y))
        same(conv(items, y), plain(items, y))
        same(conv(items, y), plain(items, y))
    items = []
    same(conv(items, y), plain(items, y))
    items += [1.0, 2.0]
    same(conv(items, y), plain(items, y))
    items[0] = 10.0
    same(conv(items, y), plain(items, y))
    items[:] = [jnp.full(3, 2.0), jnp.full(3, 3.0)]
    same(conv(items, y), plain(items, y))
    same(conv(items, y), plain(items, y))


@jax.tree_util.register_pytree_node_class
class Bag:
    """A pytree node type of this test's own: the first one a call sees is empty (what
    the cache learns of the type comes from this test alone, in any order of tests)."""

    def __init__(self, items):
        self.items = list(items)

    def tree_flatten(self):
        return self.items, None

    @classmethod
    def tree_unflatten(cls, _, items):
        return cls(items)


def bag_total(bag, y):
    return total(bag.items, y)


def test_a_pytree_node_seen_empty_first_keys_its_leaves():
    plain, conv = both(bag_total)
    y, bag = jnp.ones(3), Bag([])
    same(conv(bag, y), plain(bag, y))
    bag.items += [1.0, 2.0]
    same(conv(bag, y), plain(bag, y))
    bag.items[0] = 10.0
    same(conv(bag, y), plain(bag, y))
    bag.items[:] = [jnp.full(3, 2.0)]
    same(conv(bag, y), plain(bag, y))
    same(conv(bag, y), plain(bag, y))


def scaler(k, offset=None):
    def scale(v):
        return v * k if offset is None else v * k + offset
    return scale


def test_functions_and_objects_made_in_a_loop():
    # Each is dropped before the next is made, which may then have the same address:
    # a cache by id() without identity would serve the old one's program.
    plain, conv = both(apply_twice)
    x = jnp.arange(3.0)
    for i in range(6):
        f = scaler(float(i), jnp.full(3, float(i)) if i % 2 else None)
        same(conv(f, x), plain(f, x))
        same(conv(f, x), plain(f, x))
        del f
        gc.collect()
    plain, conv = both(step)
    for i in range(6):
        env = Env(0.1 * i)
        if i % 3 == 0:
            env.scale = jnp.full(3, float(i))
        same(conv(env, x), plain(env, x))
        same(conv(env, x), plain(env, x))
        del env
        gc.collect()


def test_library_verdicts_changed_between_calls_make_the_places_again(monkeypatch):
    conv = autograph.convert(step)
    env, x = Env(0.5), jnp.arange(3.0)
    conv(env, x)
    surveyed = []
    original = conv._state.surveyed
    monkeypatch.setattr(conv._state, 'surveyed',
                        lambda args: surveyed.append(1) or original(args))
    same(conv(env, x), step(env, x))
    assert not surveyed   # (cached: nothing changed)
    autograph.do_not_convert_modules('a_module_no_test_imports')
    same(conv(env, x), step(env, x))
    assert surveyed       # (the verdicts may have changed: searched again)


class Later:
    """A class registered as a pytree node only after a call has seen one of its
    objects (then an object keyed by identity; after, a container of its leaves)."""

    def __init__(self, w):
        self.w = w


def times_w(obj, y):
    return y * obj.w


def test_a_class_registered_as_a_pytree_node_after_a_call():
    plain, conv = both(times_w)
    y = jnp.ones(3)
    a = Later(2.0)
    same(conv(a, y), plain(a, y))
    same(conv(a, y), plain(a, y))
    jax.tree_util.register_pytree_node(Later, lambda o: ((o.w,), None),
                                       lambda _, children: Later(*children))
    b = Later(jnp.full(3, 3.0))
    for w in (jnp.full(3, 3.0), jnp.full(3, -1.0), jnp.full(3, 4.0)):
        b.w = w
        same(conv(b, y), plain(b, y))
    same(conv(a, y), plain(a, y))


# --- what a cached call writes back to its caller, over two and three calls -------------

def put_first(a, x):
    a[0] = a[1] + x
    return a.sum()


def test_numpy_argument_items_written_over_cached_calls():
    plain, conv = both(put_first)
    mine, theirs = np.arange(4.0), np.arange(4.0)
    for k, x in enumerate((1.0, 1.0, 2.5, 2.5)):
        mine[1] = theirs[1] = 10.0 * k   # the caller's new values, seen by the next call
        same(conv(mine, x), plain(theirs, x))
        same(mine, theirs)
    for x in (jnp.float32(1.0), jnp.float32(-2.0), jnp.float32(3.0)):
        mine[2] = theirs[2] = mine[0]
        same(conv(mine, x), plain(theirs, x))
        same(mine, theirs)


def bump_row(m, i, dx):
    row = m[i]   # a NumPy view: its update reaches the caller's `m`
    row += dx
    return m.sum()


def test_a_view_of_a_numpy_argument_written_over_cached_calls():
    plain, conv = both(bump_row)
    mine, theirs = np.zeros((3, 2)), np.zeros((3, 2))
    for i, dx in ((1, 1.0), (1, 1.0), (2, 0.5), (1, 1.0)):
        mine[0, 0] = theirs[0, 0] = mine[1, 1] * 2.0
        same(conv(mine, i, jnp.float32(dx)), plain(theirs, i, np.float32(dx)))
        same(mine, theirs)


def sort_and_scale(xs, y):
    xs.sort()
    return y * xs[0]


def test_a_list_of_python_values_sorted_in_place_over_cached_calls():
    plain, conv = both(sort_and_scale)
    mine, theirs = [3.0, 1.0, 2.0], [3.0, 1.0, 2.0]
    y = jnp.arange(3.0)
    for items in ([3.0, 1.0, 2.0], None, [3.0, 1.0, 2.0], [3.0, 1.0, 2.0], [5.0, 4.0]):
        if items is not None:   # the caller refills it: the first call's fingerprint again
            mine[:], theirs[:] = items, list(items)
        same(conv(mine, y), plain(theirs, y))
        assert mine == theirs


def push(xs, y):
    xs.append(len(xs))
    return y + len(xs)


def test_a_list_appended_to_in_place_over_cached_calls():
    plain, conv = both(push)
    mine, theirs = [], []
    y = jnp.ones(2)
    for _ in range(3):
        same(conv(mine, y), plain(theirs, y))
        assert mine == theirs
    del mine[1:], theirs[1:]   # back to a length seen before: its entry again
    for _ in range(2):
        same(conv(mine, y), plain(theirs, y))
        assert mine == theirs


def accumulate(d, x):
    d['total'] = d['total'] + x
    d['count'] = d['count'] + 1
    return d['total'] / d['count']


def test_a_dict_of_arrays_changed_in_place_over_cached_calls():
    plain, conv = both(accumulate)
    mine = {'total': jnp.zeros(3), 'count': jnp.zeros((), jnp.int32)}
    theirs = dict(mine)
    for k in range(4):
        x = jnp.arange(3.0) + k
        same(conv(mine, x), plain(theirs, x))
        assert sorted(mine) == sorted(theirs)
        for key in theirs:
            same(mine[key], theirs[key])
        if k == 1:   # the caller's own change, seen by the next call
            mine['total'] = theirs['total'] = jnp.full(3, -1.0)


def take(d, key):
    return d.pop(key) * 2.0


def test_a_dict_of_python_values_popped_over_cached_calls():
    plain, conv = both(take)
    mine, theirs = {'a': 1.0, 'b': 2.0}, {'a': 1.0, 'b': 2.0}
    for value in (1.0, 1.0, 5.0):
        mine['a'] = theirs['a'] = value   # refilled: the first call's fingerprint again
        same(conv(mine, 'a'), plain(theirs, 'a'))
        assert mine == theirs


def fill(d, n):
    while n > 0:   # a traced test: 'a' is in `d` on some paths only
        d['a'] = n
        n = n - 1
    return 'a' in d


def test_a_dict_given_keys_on_some_paths_over_cached_calls():
    plain, conv = both(fill)
    for n in (0, 2, 0, 3, 0):   # a new empty dict each time: one entry, cached
        mine, theirs = {}, {}
        assert bool(conv(mine, jnp.int32(n))) == plain(theirs, n)
        assert {k: int(v) for k, v in mine.items()} == theirs
    mine, theirs = {}, {}   # one dict over the calls
    for n in (2, 0, 0, 3):
        assert bool(conv(mine, jnp.int32(n))) == plain(theirs, n)
        assert {k: int(v) for k, v in mine.items()} == theirs


class Holder:
    pass


def maybe_keep(holder, x):
    if x.sum() > 0:   # a traced test: `last` is created on some paths only
        holder.last = x
    return x * 2.0


def test_an_attribute_created_on_some_paths_over_cached_calls():
    plain, conv = both(maybe_keep)
    mine, theirs = Holder(), Holder()
    for sign in (-1.0, -1.0, 1.0, -1.0, 1.0):
        x = jnp.arange(1.0, 4.0) * sign
        same(conv(mine, x), plain(theirs, x))
        assert hasattr(mine, 'last') == hasattr(theirs, 'last')
        if hasattr(theirs, 'last'):
            same(mine.last, theirs.last)


# --- code rebound between calls ---------------------------------------------------------

def helper(x):
    return x + 1.0


def calls_helper(x):
    return helper(x) * 3.0


def test_a_global_function_rebound_between_calls():
    global helper
    original = helper
    plain, conv = both(calls_helper)
    x = jnp.arange(3.0)
    try:
        for fn in (original, original, lambda x: x * 2.0, None, original, jnp.sin, jnp.cos):
            if fn is not None:
                helper = fn
            same(conv(x), plain(x))
            same(conv(x), plain(x))
    finally:
        helper = original


def test_the_retrace_warning_names_a_function_rebound_before_each_call():
    global helper
    original = helper
    conv = autograph.convert(calls_helper)
    x = jnp.arange(3.0)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            for k in range(6):
                helper = (lambda k: lambda x: x * k)(float(k))
                same(conv(x), calls_helper(x))
    finally:
        helper = original
    assert any("'helper' (function object -> function object)" in str(w.message)
               for w in caught), [str(w.message) for w in caught]


def inner(x):
    return x - 1.0


def outer(x):
    return inner(x) * 2.0


def calls_outer(x):
    return outer(x) + 1.0


def test_a_function_a_callee_calls_rebound_and_no_retrace_without_it():
    global inner
    original = inner
    plain, conv = both(calls_outer)
    x = jnp.arange(3.0)
    try:
        for _ in range(3):
            same(conv(x), plain(x))
        assert conv.trace_count == 1   # (nothing rebound: the first trace serves)
        inner = lambda x: x * 10.0   # noqa: E731  (found only by tracing `outer`)
        same(conv(x), plain(x))
        same(conv(x), plain(x))
        inner = original
        same(conv(x), plain(x))
        assert conv.trace_count == 2
    finally:
        inner = original


class Policy:
    def __init__(self, act):
        self.act = act


class Greedy:
    def __call__(self, x):
        return x * 4.0


class Cautious:
    def __call__(self, x):
        return x / 4.0


def run_policy(policy, x):
    return policy.act(x) + 1.0


def test_a_callable_attribute_and_a_closure_function_swapped_between_calls():
    plain, conv = both(run_policy)
    policy, x = Policy(double), jnp.arange(3.0)
    for act in (double, double, negate, jnp.tanh, jnp.sin, Greedy(), Cautious(), double):
        policy.act = act
        same(conv(policy, x), plain(policy, x))
        same(conv(policy, x), plain(policy, x))
    fn = double

    def closure(x):
        return fn(x) - 1.0
    conv_closure = autograph.convert(closure)
    for fn in (double, negate, double):
        same(conv_closure(x), closure(x))
