"""State that lives in objects: attributes, nested subscripts, array items, containers the
caller passed in, and variables a staged loop creates. Each case runs converted against
the same function run as plain Python (for JAX array items: on a NumPy copy)."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from flax import nnx

import autograph
from tests.helpers import assert_same, check, converted, site, staged


# --- attributes as state ------------------------------------------------------------------

class Counter:
    def __init__(self, start=0.0):
        self.count = start
        self.total = start

    def step(self, x):
        if x > 0:
            self.count = self.count + 1
        i = 0
        while i < 3:
            if x < i:
                self.total += x
            i += 1
        for v in (x, x * 2):
            if v > 1:
                self.total = self.total * 0.5
        return self.count


def count_and_total(x):
    c = Counter()
    c.step(x)
    c.step(x - 1.0)
    return c.count, c.total


@pytest.mark.parametrize('x', [2.5, -1.5, 0.5])
def test_attributes_assigned_under_staged_if_and_loops(x):
    check(count_and_total, jnp.float32(x))
    check(count_and_total, x)    # Python values: plain Python control flow
    assert 'cond' in staged(count_and_total, jnp.float32(x))


def test_attributes_under_vmap_and_grad():
    xs = jnp.array([2.5, -1.5, 0.5], jnp.float32)
    expected = [count_and_total(x) for x in xs]
    actual = jax.vmap(converted(count_and_total))(xs)
    for k, e in enumerate(expected):
        assert_same((actual[0][k], actual[1][k]), e)
    total = lambda x: count_and_total(x)[1]   # noqa: E731
    for x in xs:
        assert_same(jax.grad(converted(total))(x), jax.grad(total)(x))


def test_method_mutates_self_of_object_passed_in():
    # The object comes from outside the converted function; the method is converted too.
    def run(c, x):
        c.step(x)
        return c.count + c.total

    for x in (2.5, -1.5):
        expected_obj, actual_obj = Counter(jnp.float32(1)), Counter(jnp.float32(1))
        expected = run(expected_obj, jnp.float32(x))
        actual = jax.jit(lambda x: (converted(run)(actual_obj, x),
                                    actual_obj.count, actual_obj.total))(jnp.float32(x))
        assert_same(actual, (expected, expected_obj.count, expected_obj.total))


class Box:
    pass


def nested_attributes(x):
    outer = Box()
    outer.inner = Box()
    outer.inner.value = jnp.zeros(3)
    outer.inner.steps = 0
    n = 0
    while n < x:
        outer.inner.value = outer.inner.value + n
        outer.inner.steps += 1
        n += 1
    return outer.inner.value, outer.inner.steps


def test_nested_attribute_in_staged_while():
    check(nested_attributes, jnp.int32(3))
    check(nested_attributes, jnp.int32(0))
    assert 'while' in staged(nested_attributes, jnp.int32(3))


GLOBAL_BOX = Box()


def accumulate_into_global(xs):
    GLOBAL_BOX.total = jnp.float32(0)
    for x in xs:
        if x > 0:
            GLOBAL_BOX.total += x
    return GLOBAL_BOX.total


def test_attribute_of_a_global_object():
    xs = jnp.array([1.0, -2.0, 3.0], jnp.float32)
    expected = accumulate_into_global(xs)
    assert_same(jax.jit(converted(accumulate_into_global))(xs), expected)
    assert {'scan', 'cond'} <= staged(accumulate_into_global, xs)


def test_attribute_beside_branch_outputs_that_are_not_inputs():
    # The branches take (b,) but give (b, y): attributes follow the outputs.
    def f(x):
        b = Box()
        b.f = x
        if x > 0:
            b.f += 1.0
            y = jnp.ones(4) * x
        else:
            y = -jnp.ones(4)
        return b.f, y
    check(f, jnp.float32(2))
    check(f, jnp.float32(-2))


def test_attribute_assigned_in_one_branch_only_names_it():
    def f(x):
        b = Box()
        b.ready = jnp.float32(0)
        if x > 0:
            b.ready = jnp.ones(3)
        return b.ready
    with pytest.raises(autograph.ControlFlowError) as info:
        autograph.convert(f)(jnp.float32(1))
    message = str(info.value)
    assert "'b.ready' is float32[3] in the true branch" in message
    assert site(f, "if x > 0") in message


def test_attribute_generated_code_is_readable():
    code = autograph.to_code(Counter.step)
    assert "fields=lambda: {'self.count': (self, 'count')}" in code
    assert "names=('self',)" in code


# --- nested subscripts as state -----------------------------------------------------------

def nested_dict(x):
    d = {'a': {'b': x * 0, 'c': 1.0}, 'n': 0}
    if x > 1:
        d['a']['b'] = x * 2
    k = 'n'
    i = 0
    while i < x:
        d['a']['c'] += x
        d[k] = d[k] + i
        i += 1
    for j in range(2):
        d['a']['b'] = d['a']['b'] - j
    return d


@pytest.mark.parametrize('x', [2.0, 0.5])
def test_nested_subscripts_in_staged_if_and_loops(x):
    check(nested_dict, jnp.float32(x))
    check(nested_dict, x)
    assert {'cond', 'while'} <= staged(nested_dict, jnp.float32(x))


def test_nested_subscripts_under_vmap_and_grad():
    xs = jnp.array([2.0, 0.5], jnp.float32)
    actual = jax.vmap(converted(nested_dict))(xs)
    for k, x in enumerate(xs):
        assert_same(jax.tree_util.tree_map(lambda a: a[k], actual), nested_dict(x))

    def loss(x):
        d = {'a': {'b': x, 'c': 1.0}}
        if x > 1:
            d['a']['b'] = x * 2
        for j in range(3):
            d['a']['c'] = d['a']['c'] * x
        return d['a']['b'] * d['a']['c']
    for x in xs:
        assert_same(jax.grad(converted(loss))(x), jax.grad(loss)(x))
    assert 'cond' in staged(loss, xs[0])


def test_dict_key_added_in_one_branch_exists_where_python_has_it():
    # (runtime.checks.keys; more in tests/test_dict_keys_presence.py)
    def f(x):
        d = {'a': {'b': 0.0}}
        if x > 0:
            d['a']['c'] = x
        return d
    for x in (jnp.float32(1), jnp.float32(-1)):
        assert_same(autograph.convert(f)(x), f(x))


def test_nested_item_changing_type_in_loop_names_it():
    def f(n):
        d = {'a': {'b': jnp.int32(0)}}
        for i in range(n):
            d['a']['b'] = d['a']['b'] + jnp.ones(2)
        return d
    with pytest.raises(autograph.ControlFlowError) as info:
        autograph.convert(f)(jnp.int32(3))
    message = str(info.value)
    assert "'d['a']['b']' is int32[] before the staged loop" in message
    assert site(f, "for i in range(n)") in message


# --- item and slice assignment on JAX arrays ----------------------------------------------

def items(x, i, j):
    x[i] = 5.0
    x[1:4] += 1.0
    x[0:4:2] *= 2
    x[-1] -= x[0]
    x[i], x[j] = x[j], x[i]
    x[::3] /= 2.0
    x[j] **= 2
    x[2] %= 3.0
    return x


def items_2d(m, i):
    m[0, 1] = 7.0
    m[i, :] += 1.0
    m[:, 0] *= -1.0
    m[1][2] = 3.0
    m[..., -1] -= 0.5
    return m


def test_array_items_match_numpy():
    x = np.arange(6, dtype=np.float32)
    expected = items(x.copy(), 1, 4)
    assert_same(converted(items)(jnp.asarray(x), 1, 4), expected)
    assert_same(jax.jit(converted(items))(jnp.asarray(x), 1, 4), expected)
    assert_same(jax.jit(converted(items))(jnp.asarray(x), jnp.int32(1), jnp.int32(4)),
                expected)
    m = np.arange(12, dtype=np.float32).reshape(3, 4)
    assert_same(jax.jit(converted(items_2d))(jnp.asarray(m), jnp.int32(2)),
                items_2d(m.copy(), 2))


def test_array_items_under_vmap_and_grad():
    xs = np.arange(12, dtype=np.float32).reshape(2, 6)
    actual = jax.vmap(converted(items), in_axes=(0, None, None))(jnp.asarray(xs), 1, 4)
    assert_same(actual, np.stack([items(row.copy(), 1, 4) for row in xs]))

    def loss(x):
        y = x * 1.0
        y[0] = y[1] * y[2]
        y[1:3] *= y[3]
        return jnp.sum(y * y)

    def loss_at(x):   # the same with .at[], the reference for the gradient
        y = x * 1.0
        y = y.at[0].set(y[1] * y[2])
        y = y.at[1:3].set(y[1:3] * y[3])
        return jnp.sum(y * y)
    x = jnp.arange(1.0, 5.0)
    assert_same(jax.grad(converted(loss))(x), jax.grad(loss_at)(x))


def test_repeated_index_updates_once_as_in_numpy():
    def f(x, idx):
        x[idx] += 1.0
        return x
    x, idx = np.zeros(3, np.float32), np.array([0, 0, 2])
    assert_same(jax.jit(converted(f))(jnp.asarray(x), jnp.asarray(idx)), f(x.copy(), idx))


def test_item_dtype_follows_the_array_as_in_numpy():
    def f(x):
        x[0] = 2.7
        x[1] += 1.5
        return x
    x = np.array([1, 2, 3], np.int32)
    actual = converted(f)(jnp.asarray(x))
    assert actual.dtype == jnp.int32
    assert_same(actual, f(x.copy()))


def fill_loop(x, n):
    out = x * 0.0
    for i in range(n):
        out[i] = x[i] * 2
        if x[i] > 1:
            out[i] += 10.0
    k = 0
    while k < n:
        out[1:3] *= 2
        k += 1
    return out


def test_array_items_in_staged_loops():
    x = np.array([0.5, 2.0, 1.5, -1.0, 3.0], np.float32)
    for n in (0, 3, 5):
        expected = fill_loop(x, n)   # NumPy x: plain Python works with NumPy items
        actual = autograph.convert(fill_loop)(jnp.asarray(x), jnp.int32(n))
        assert_same(actual, expected)
    assert {'while', 'cond'} <= staged(fill_loop, jnp.asarray(x), jnp.int32(3))


def test_lists_dicts_numpy_keep_setitem_and_aliases():
    def f(xs, d, a):
        alias_xs, alias_d, alias_a = xs, d, a
        xs[0] = 9
        xs[1:3] = [7]
        d['k'] = 1
        d['k'] += 2
        a[0] += 5
        return alias_xs, alias_d, alias_a, xs is alias_xs, a is alias_a

    def fresh():
        return [1, 2, 3, 4], {}, np.zeros(2)
    expected = f(*fresh())
    actual = autograph.convert(f, jit=False)(*fresh())
    assert actual[3:] == (True, True)
    assert actual[0] == expected[0] and actual[1] == expected[1]
    np.testing.assert_array_equal(actual[2], expected[2])


def test_item_assignment_generated_code():
    code = autograph.to_code(items)
    assert 'x = ag.setitem(x, i, 5.0)' in code
    assert "x = ag.update_item(x, slice(1, 4), '+=', 1.0)" in code
    assert 'x = ag.setitems(x, (i, j), (item, item_1), reads=(j, i), numpy=x_is_numpy)' in code


def test_item_evaluation_order_with_calls_in_keys():
    calls = []

    def key(k):
        calls.append(k)
        return k

    def f(d):
        d[key('a')][key('b')] = len(calls)
        return d
    expected, expected_calls = f({'a': {}}), list(calls)
    calls.clear()
    assert converted(f)({'a': {}}) == expected
    assert calls == expected_calls


# --- in-place changes the caller sees -----------------------------------------------------

def swap(xs):
    if xs[0] > xs[1]:
        xs[0], xs[1] = xs[1], xs[0]


def sort_two(xs):
    swap(xs)
    return xs


def bump(d, x):
    while d['n'] < x:
        d['n'] = d['n'] + 1
        d['hist'][0] += d['n']


def call_bump(x):
    d = {'n': 0, 'hist': [jnp.float32(0)]}
    bump(d, x)
    return d


@pytest.mark.parametrize('a,b', [(2.0, 1.0), (1.0, 2.0)])
def test_list_changed_by_callee_under_staged_if(a, b):
    check(sort_two, [jnp.float32(a), jnp.float32(b)])
    check(sort_two, [a, b])
    batched = jax.vmap(converted(sort_two))([jnp.array([a, b]), jnp.array([b, a])])
    assert_same(batched, [jnp.array([min(a, b)] * 2), jnp.array([max(a, b)] * 2)])


def test_same_list_object_is_changed():
    def outer(xs):
        alias = xs
        swap(xs)
        return alias
    check(outer, [jnp.float32(2), jnp.float32(1)])


def test_dict_changed_by_callee_in_staged_while():
    check(call_bump, jnp.int32(3))
    assert 'while' in staged(call_bump, jnp.int32(3))


def test_changed_in_place_on_one_path_replaced_on_other_is_an_error():
    def f(xs, x):
        if x > 0:
            xs[0] = x
        else:
            xs = [x, x]
        return xs
    with pytest.raises(autograph.ControlFlowError) as info:
        autograph.convert(f)([jnp.float32(0), jnp.float32(0)], jnp.float32(1))
    assert "'xs' is changed in place on one path" in str(info.value)
    assert site(f, "if x > 0") in str(info.value)


# --- variables a staged loop creates ------------------------------------------------------

def created_in_while(n):
    i = 0
    while i < n:
        j = i * 2
        i += 1
    return j


def created_in_for(xs):
    for x in xs:
        last = x * 2
        pair = (x, -x)
    return last, pair


def dict_gains_key(n):
    d = {'base': 1.0}
    i = 0
    while i < n:
        d['last'] = i * 1.5
        i += 1
    return d


@pytest.mark.parametrize('n', [1, 4])
def test_variable_created_in_staged_loop(n):
    check(created_in_while, jnp.int32(n))
    check(dict_gains_key, jnp.int32(n))
    assert 'while' in staged(created_in_while, jnp.int32(n))
    xs = jnp.arange(1.0, n + 1.0)
    check(created_in_for, xs)
    assert 'scan' in staged(created_in_for, xs)


def test_variable_created_in_loop_under_vmap_and_grad():
    ns = jnp.array([1, 4], jnp.int32)
    assert_same(jax.vmap(converted(created_in_while))(ns),
                jnp.array([created_in_while(n) for n in ns]))
    last = lambda xs: created_in_for(xs)[0] ** 2  # noqa: E731
    xs = jnp.arange(1.0, 4.0)
    assert_same(jax.grad(converted(last))(xs), jax.grad(last)(xs))


def test_variable_read_before_the_loop_creates_it_on_paths_where_it_is_bound():
    def f(n):
        i = 0
        while i < n:
            if i > 0:
                total = total + i     # from the iteration before: bound here
            total = i
            i += 1
        return total
    for n in (1, 3):
        assert_same(autograph.convert(f)(jnp.int32(n)), f(jnp.int32(n)))
    with pytest.raises(UnboundLocalError, match="'total'"):   # zero trips
        autograph.convert(f)(jnp.int32(0))


# --- objects that are pytrees, changed in place ------------------------------------------

class NNXCounter(nnx.Module):
    """NNX Variables changed in place (`v[...] += 1`, `v.value = ...`) in staged code."""

    def __init__(self):
        self.count = nnx.Variable(jnp.array(0))
        self.total = nnx.Variable(jnp.array(0.0))
        self.linear = nnx.Linear(2, 2, rngs=nnx.Rngs(0))

    def run(self, xs):
        for x in xs:
            if x > 0:
                self.count[...] += 1
                self.total.value = self.total.value + x
        i = 0
        while i < xs.shape[0] and self.total[...] > 1.0:
            self.total[...] = self.total[...] * 0.5
            i += 1
        return self.linear(xs[:2]) * self.total[...]


def nnx_state(model):
    return jax.tree_util.tree_map(jnp.asarray, nnx.state(model))


@pytest.mark.filterwarnings('ignore::DeprecationWarning')
@pytest.mark.parametrize('scale', [1.0, -1.0])
def test_nnx_module_changed_in_place_under_nnx_jit(scale):
    xs = jnp.array([1., -2., 3., 0.5]) * scale
    reference = NNXCounter()
    expected = reference.run(xs)   # plain Python, concrete values
    model = NNXCounter()
    out = nnx.jit(lambda m, xs: converted(m.run)(xs))(model, xs)
    assert_same(out, expected)
    assert_same(nnx_state(model), nnx_state(reference))
    # the same through jax.jit with the state split off and merged back
    model = NNXCounter()
    graphdef, state = nnx.split(model)

    def step(state, xs):
        inner = nnx.merge(graphdef, state)
        return converted(NNXCounter.run)(inner, xs), nnx.state(inner)
    out, state = jax.jit(step)(state, xs)
    nnx.update(model, state)
    assert_same(out, expected)
    assert_same(nnx_state(model), nnx_state(reference))
    assert staged(lambda xs: NNXCounter().run(xs), xs) >= {'scan', 'cond', 'while'}


@pytest.mark.filterwarnings('ignore::DeprecationWarning')
def test_nnx_gradient_through_in_place_changes():
    xs = jnp.array([1., -2., 3., 0.5])

    def loss(model, xs):
        return jnp.sum(model.run(xs))
    expected = nnx.grad(loss)(NNXCounter(), xs)
    actual = nnx.jit(nnx.grad(lambda m, xs: jnp.sum(converted(m.run)(xs))))(NNXCounter(), xs)
    assert_same(nnx_state(actual), nnx_state(expected))


def test_a_static_nnx_attribute_set_under_a_traced_condition_is_named():
    class Steps(nnx.Module):
        def __init__(self):
            self.count = 0   # a Python int: static in NNX

        def step(self, x):
            if x > 0:
                self.count = self.count + 1
            return x
    model = Steps()
    model.step(1.0)
    assert model.count == 1   # Python
    with pytest.raises(autograph.ControlFlowError) as info:
        nnx.jit(lambda m, x: converted(m.step)(x))(Steps(), jnp.float32(1.))
    message = str(info.value)
    assert "'self' is Steps in the true branch but Steps" in message
    assert 'non-array parts differ' in message


@jax.tree_util.register_pytree_node_class
class PytreeBox:
    """A mutable object registered as a pytree (JAX copies it through lax)."""

    def __init__(self, v):
        self.v = v

    def tree_flatten(self):
        return (self.v,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


def test_other_pytree_objects_changed_in_place_are_named():
    def f(box, x):
        if x > 0:
            box.v = box.v + x
        return x
    box = PytreeBox(1.0)
    assert converted(f)(box, 2.0) == 2.0 and box.v == 3.0   # Python: the object changes
    with pytest.raises(autograph.ControlFlowError) as info:
        jax.jit(converted(f))(PytreeBox(jnp.float32(1.)), jnp.float32(2.))
    message = str(info.value)
    assert "'box' (PytreeBox, a pytree) is changed in place" in message
    assert site(f, "if x > 0") in message


# --- lists changed in place inside a staged loop over an array ---------------------------

def count_above(x, v):
    xs = [x, 0.0]
    for e in v:
        if x > e:
            xs[1] = xs[1] + 1.0
    return xs[0] + xs[1]


def signed_items(x, v):
    out = []
    for e in v:
        if x > e:
            out.append(e)
        else:
            out.append(-e)
    return jnp.stack(out)


def test_list_item_set_in_a_staged_if_inside_a_scan():
    v = jnp.arange(5.)
    for x in (2., 4.):
        check(count_above, jnp.float32(x), v)
        check(signed_items, jnp.float32(x), v)
    assert staged(count_above, jnp.float32(2.), v) == {'scan', 'cond'}
    xs = jnp.array([2., 4.])
    assert_same(jax.vmap(converted(count_above), (0, None))(xs, v),
                jnp.array([count_above(2., v), count_above(4., v)]))
    assert_same(jax.grad(converted(signed_items_sum))(2., v), jax.grad(signed_items_sum)(2., v))


def signed_items_sum(x, v):
    return jnp.sum(signed_items(x, v * x))


def test_appending_under_a_staged_if_in_a_scan_is_named():
    def f(x, v):
        out = []
        for e in v:
            if x > e:
                out.append(e)
        return len(out)
    assert converted(f)(2., [0., 1., 2., 3.]) == f(2., [0., 1., 2., 3.])
    with pytest.raises(autograph.ControlFlowError) as info:
        autograph.convert(f)(jnp.float32(2.), jnp.arange(4.))
    assert "'out' is list of 1 in the true branch but list of 0" in str(info.value)
    assert site(f, "if x > e") in str(info.value)
    assert 'length known only when the program runs' in str(info.value)


def test_a_list_grown_in_a_loop_a_traced_break_stops_is_named():
    def decode(table, token):
        out = [token]
        for _ in range(4):
            token = jnp.argmax(table[token])
            out.append(token)
            if token == 2:
                break
        return out
    table = jnp.eye(4)[jnp.array([1, 2, 3, 3])]
    with pytest.raises(autograph.ControlFlowError) as info:
        autograph.convert(decode)(table, jnp.int32(0))
    assert "'out' is list of" in str(info.value)
    assert 'a loop a traced `break` may stop' in str(info.value)


# --- attributes that methods called in staged code assign --------------------------------

class Tally:
    def __init__(self):
        self.count = 0.
        self.total = 0.

    def add(self, value):          # named like set.add: still the user's method
        self.count = self.count + 1
        self.total += value

    def accumulate(self, value):
        if value > 1:
            self.add(value * 2)
        else:
            self.add(value)


def counts_through_methods(x, v):
    counter = Tally()
    for e in v:
        if x > e:
            counter.add(e)
    i = 0
    while i < 3:
        counter.accumulate(x - i)
        i += 1
    return counter.count, counter.total


def test_attributes_set_by_methods_called_in_staged_code_are_state():
    v = jnp.arange(4.)
    for x in (0.5, 2.5):
        check(counts_through_methods, jnp.float32(x), v)
    xs = jnp.array([0.5, 2.5])
    assert_same(jax.vmap(converted(counts_through_methods), (0, None))(xs, v),
                jax.tree_util.tree_map(lambda *r: jnp.stack(r),
                                       *[counts_through_methods(x, v) for x in xs]))
    total = lambda x: counts_through_methods(x, v)[1]   # noqa: E731
    assert_same(jax.grad(converted(total))(2.5), jax.grad(total)(2.5))
    assert "ag.method_fields(counter, 'add', 'counter')" in autograph.to_code(
        counts_through_methods)


class KeyedSampler:
    """A user object whose attributes are named like the converter's own (`key`: a JAX
    random key, an array of two items; `value`)."""

    def __init__(self, key):
        self.key = key
        self.value = jnp.float32(0.0)

    def step(self, x):
        self.key, k = jax.random.split(self.key)
        if x > 0:
            self.value = self.value + jax.random.uniform(k)


def sample_made_here(xs, key):
    s = KeyedSampler(key)
    for x in xs:
        s.step(x)
    return s.value, s.key


def sample_given(xs, s):
    for x in xs:
        s.step(x)
    return s.value


def test_attributes_named_key_and_value_are_carried_as_any_other():
    xs = jnp.array([1.0, -1.0, 2.0, 0.5])
    for seed in (0, 1):
        check(sample_made_here, xs, jax.random.PRNGKey(seed))
        mine = KeyedSampler(jax.random.PRNGKey(seed))
        theirs = KeyedSampler(jax.random.PRNGKey(seed))
        assert_same(autograph.convert(sample_given)(xs, mine), sample_given(xs, theirs))
        assert_same((mine.value, mine.key), (theirs.value, theirs.key))
