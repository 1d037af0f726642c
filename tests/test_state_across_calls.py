"""State that outlives a call: globals, closure cells, attributes and lists that a converted
function (or a function it calls) reads and writes, compared with plain Python over two
and more successive calls (the second call must see the first's writes)."""
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph


def holds_tracer(value, depth=4, seen=None):
    """Whether `value`, or anything reachable from it (attributes, items), is a tracer."""
    seen = set() if seen is None else seen
    if isinstance(value, jax.core.Tracer):
        return True
    if depth == 0 or id(value) in seen or isinstance(value, (str, bytes, int, float)):
        return False
    seen.add(id(value))
    if isinstance(value, dict):
        children = list(value.values())
    elif isinstance(value, (list, tuple, set)):
        children = list(value)
    elif hasattr(value, '__dict__') and not callable(value):
        children = list(vars(value).values())
    else:
        return False
    return any(holds_tracer(child, depth - 1, seen) for child in children)


def assert_no_tracers(*roots):
    module_state = {k: v for k, v in globals().items() if k.isupper()}
    for root in roots + (module_state,):
        assert not holds_tracer(root), root


def same(a, b):
    np.testing.assert_allclose(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64),
                               rtol=1e-6)


# --- a converted bound method and the object it changes --------------------------------

class Acc:
    def __init__(self, total=0.0):
        self.total = total
        self.calls = 0

    def add(self, x):
        if x > 0:
            self.total = self.total + x
        self.calls += 1
        return self.total

    deposit = add   # (`obj.add(...)` on a global reads as a set's add: see passes.calls)


@pytest.mark.parametrize('start', [0.0, jnp.float32(0.0)])
def test_bound_method_sees_its_previous_calls(start):
    a, b = Acc(start), Acc(start)
    add = autograph.convert(a.add)
    for x in (2.0, 3.0, -1.0, 4.0):
        same(add(jnp.float32(x)), b.add(x))
        same(a.total, b.total)
        assert a.calls == b.calls          # a Python counter stays a Python int
        assert isinstance(a.calls, int)
        assert_no_tracers(a)
    assert isinstance(a.total, jax.Array)


def test_converted_method_through_the_class():
    class Box(Acc):
        @autograph.convert
        def add(self, x):
            if x > 0:
                self.total = self.total + x
            return self.total
    box = Box()
    assert [float(box.add(jnp.float32(v))) for v in (1.0, 2.0, 3.0)] == [1.0, 3.0, 6.0]
    assert float(box.total) == 6.0 and not holds_tracer(box)


class Env:
    """A classic-control-like environment: `step` reads and writes `self.state`."""

    def __init__(self):
        self.state = np.array([0.1, 0.0])
        self.steps_done = 0

    def step(self, action):
        x, v = self.state
        force = 1.0 if action > 0 else -1.0
        v = v + 0.02 * force
        x = x + 0.02 * v
        self.state = jnp.stack([x, v]) if isinstance(x, jax.Array) else np.array([x, v])
        self.steps_done += 1
        done = x > 0.105
        return self.state, done


def test_environment_step_in_a_python_loop():
    env, reference = Env(), Env()
    step = autograph.convert(env.step)
    for t in range(6):
        action = t % 3
        state, done = step(jnp.int32(action))
        expected, expected_done = reference.step(action)
        same(state, expected)
        same(env.state, reference.state)
        assert bool(done) == bool(expected_done)
        assert env.steps_done == reference.steps_done
        assert_no_tracers(env)


# --- reads at call time ----------------------------------------------------------------

K = 5
SCALE = jnp.float32(2.0)


def scaled(x):
    return x * K * SCALE


def test_globals_are_read_at_call_time():
    global K, SCALE
    f = autograph.convert(scaled)
    try:
        same(f(jnp.float32(1.0)), 10.0)
        K = 50
        same(f(jnp.float32(1.0)), 100.0)      # a Python value: a new trace
        SCALE = jnp.float32(3.0)
        count = f.trace_count
        same(f(jnp.float32(1.0)), 150.0)      # an array: an input, no new trace
        assert f.trace_count == count
    finally:
        K, SCALE = 5, jnp.float32(2.0)


def test_closure_cells_are_read_at_call_time():
    offset = 1.0

    @autograph.convert
    def shifted(x):
        return x + offset
    same(shifted(jnp.float32(1.0)), 2.0)
    offset = 10.0
    same(shifted(jnp.float32(1.0)), 11.0)
    offset = jnp.float32(20.0)
    same(shifted(jnp.float32(1.0)), 21.0)


def test_retrace_warning_names_the_global():
    global K
    f = autograph.convert(scaled)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            for k in range(7):
                K = k
                same(f(jnp.float32(1.0)), k * 2.0)
        assert any("'K'" in str(w.message) for w in caught), [str(w.message) for w in caught]
    finally:
        K = 5


def test_global_array_under_grad_and_vmap():
    global SCALE
    f = autograph.convert(scaled)
    xs = jnp.arange(3.0)
    try:
        for scale in (2.0, 3.0):
            SCALE = jnp.float32(scale)
            same(jax.vmap(f)(xs), xs * K * scale)
            same(jax.grad(f)(1.0), K * scale)
    finally:
        SCALE = jnp.float32(2.0)


# --- module globals written by the function and by functions it calls -------------------

COUNT = 0
TOTAL = 0.0
HISTORY = [jnp.float32(0.0)]


def tick():
    global COUNT
    COUNT = COUNT + 1


def accumulate(v):
    global TOTAL
    TOTAL = TOTAL + v


def counts_positive(x):
    if x > 0:
        tick()
        accumulate(x)
    return x * 2


def test_helpers_writing_globals_in_a_staged_if():
    global COUNT, TOTAL
    f = autograph.convert(counts_positive)
    inputs = (1.0, -1.0, 2.0, 3.0, -5.0)
    try:
        for x in inputs:
            f(jnp.float32(x))
            assert_no_tracers()
        converted = (int(COUNT), float(TOTAL))
        COUNT, TOTAL = 0, 0.0
        for x in inputs:
            counts_positive(x)
        assert converted == (COUNT, TOTAL) == (3, 6.0)
    finally:
        COUNT, TOTAL = 0, 0.0


def records(x):
    HISTORY[0] = HISTORY[0] + x
    return HISTORY[0]


def test_a_global_list_of_arrays_is_state():
    f = autograph.convert(records)
    try:
        for expected in (1.0, 2.0, 3.0):
            same(f(jnp.float32(1.0)), expected)
            same(HISTORY[0], expected)
            assert_no_tracers(HISTORY)
    finally:
        HISTORY[0] = jnp.float32(0.0)


class Recorder:
    """Lists that start empty: they become state once they hold arrays."""
    def __init__(self):
        self.kept, self.notes = [], []

    def keep(self, x):
        self.kept.append(x)

    def step(self, x):
        if x > 0:
            self.keep(x * 2)        # (by a method called in the staged branch)
        else:
            self.kept.append(-x)
        self.notes.append('traced')
        return len(self.kept)


def test_an_empty_list_attribute_filled_with_arrays_is_state():
    reference, recorder = Recorder(), Recorder()
    step = autograph.convert(recorder.step)
    for x in (1.0, -2.0, 3.0):
        assert step(jnp.float32(x)) == reference.step(jnp.float32(x))
        same(recorder.kept, reference.kept)      # a new length retraces: one note each
        assert recorder.notes == reference.notes
        assert_no_tracers(recorder)


def test_a_list_only_appended_to_gets_its_python_values_on_every_call():
    recorder = Recorder()

    @autograph.convert
    def logs(x):
        recorder.notes.append('traced')
        return x + 1
    for _ in range(3):
        same(logs(jnp.float32(1.0)), 2.0)
    assert recorder.notes == ['traced'] * 3     # a log (see tests/test_logs.py), as Python
    assert logs.trace_count == 1


def test_a_list_changed_through_its_bound_method_is_state():
    kept = []
    store = kept.append

    @autograph.convert
    def stores(x):
        store(x + 1)
        return x
    for x in (1.0, 2.0):
        stores(jnp.float32(x))
    same(kept, [2.0, 3.0])
    assert_no_tracers(kept)


class Tally:
    """State in class attributes, as a registry or counter keeps it."""
    total = 0.0


def tally(x):
    Tally.total = Tally.total + x


def tallies_positive(xs):
    for i in range(xs.shape[0]):
        if xs[i] > 0:
            tally(xs[i])
    return Tally.total


def test_class_attributes_a_helper_writes_in_a_staged_loop_are_state():
    xs = jnp.array([1.0, -2.0, 3.0])
    expected = [tallies_positive(xs) for _ in range(2)]
    Tally.total = 0.0
    f = autograph.convert(tallies_positive)
    try:
        for want in expected:
            same(f(xs), want)
            same(Tally.total, want)
            assert_no_tracers(dict(vars(Tally)))
    finally:
        Tally.total = 0.0


# --- objects and lists given to helpers ----------------------------------------------

class Holder:
    def __init__(self):
        self.v = jnp.float32(0.0)


def bump(obj, x):
    obj.v = obj.v + x


def add_first(xs, x):
    xs[0] = xs[0] + x


def uses_helpers(obj, xs, x):
    if x > 0:
        bump(obj, x)
        add_first(xs, x)
    return x


def test_helpers_changing_objects_and_lists_they_are_given():
    f = autograph.convert(uses_helpers)
    obj, xs = Holder(), [jnp.float32(0.0), jnp.float32(5.0)]
    ref_obj, ref_xs = Holder(), [0.0, 5.0]
    for x in (1.0, -2.0, 3.0):
        f(obj, xs, jnp.float32(x))
        uses_helpers(ref_obj, ref_xs, x)
        same(obj.v, ref_obj.v)
        same(xs, ref_xs)
        assert_no_tracers(obj, xs)


def test_a_method_of_a_global_object_called_twice():
    reference = Acc()

    @autograph.convert
    def through(x):
        return ACCUMULATOR.deposit(x)
    global ACCUMULATOR
    ACCUMULATOR = Acc()
    try:
        for x in (1.0, -1.0, 2.0):
            same(through(jnp.float32(x)), reference.deposit(x))
            same(ACCUMULATOR.total, reference.total)
            assert_no_tracers(ACCUMULATOR)
    finally:
        del ACCUMULATOR


def test_a_new_attribute_retraces():
    class Thing:
        pass
    thing = Thing()

    @autograph.convert
    def read(x):
        return x + getattr(thing, 'bias', 0.0)
    same(read(jnp.float32(1.0)), 1.0)
    thing.bias = jnp.float32(2.0)   # (read by a name the code computes: every attribute
    same(read(jnp.float32(1.0)), 3.0)   # of `thing` is state, see StateFinder.dynamic)
    thing.bias = jnp.float32(4.0)
    same(read(jnp.float32(1.0)), 5.0)
    thing.__dict__.pop('bias')
    same(read(jnp.float32(1.0)), 1.0)

    @autograph.convert
    def read2(x):
        if hasattr(thing, 'bias'):
            return x + thing.bias
        return x
    same(read2(jnp.float32(1.0)), 1.0)
    thing.bias = jnp.float32(2.0)
    same(read2(jnp.float32(1.0)), 3.0)


def test_no_tracer_is_left_after_any_call():
    a = Acc()
    obj, xs = Holder(), [jnp.float32(1.0)]
    step = autograph.convert(a.add)
    helpers = autograph.convert(uses_helpers)
    for x in (1.0, 2.0, -3.0):
        step(jnp.float32(x))
        helpers(obj, xs, jnp.float32(x))
        counts_f = autograph.convert(counts_positive)
        counts_f(jnp.float32(x))
        assert_no_tracers(a, obj, xs)
    global COUNT, TOTAL
    COUNT, TOTAL = 0, 0.0


def test_under_jax_jit_the_state_is_written_in_their_trace():
    global COUNT, TOTAL
    f = autograph.convert(counts_positive, jit=False)

    @jax.jit
    def twice(x):
        f(x)
        f(x - 2.0)
        return COUNT, TOTAL
    try:
        count, total = twice(jnp.float32(3.0))
        assert (int(count), float(total)) == (2, 4.0)
    finally:
        COUNT, TOTAL = 0, 0.0


# --- arrays whose items a called function writes -----------------------------------------

def swap(a, i, j):
    a[i], a[j] = a[j], a[i]


def fill_positive(out, x):
    for i in range(out.shape[0]):
        if x[i] > 0:
            out[i] = x[i]


def uses_array_helpers(a, x):
    swap(a, 0, 1)
    if x[0] > 0:                # a helper called in a staged branch
        swap(a, 1, 2)
    fill_positive(a, x)
    return a


def double_inplace(v):
    for i in range(v.shape[0]):
        v[i] = v[i] * 2


def doubles_first_half(a):
    n = a.shape[0] // 2
    double_inplace(a[:n])       # a view: the write lands in `a`
    helper_result = a + 0
    swap(a + 1, 0, 1)           # an expression: nothing to rebind, as in Python
    return a, helper_result


def circle_sort_util(collection, low, high):
    swapped = False
    if low == high:
        return swapped
    left, right = low, high
    while left < right:
        if collection[left] > collection[right]:
            collection[left], collection[right] = collection[right], collection[left]
            swapped = True
        left += 1
        right -= 1
    if left == right and collection[left] > collection[right + 1]:
        collection[left], collection[right + 1] = collection[right + 1], collection[left]
        swapped = True
    mid = low + int((high - low) / 2)
    left_swap = circle_sort_util(collection, low, mid)
    right_swap = circle_sort_util(collection, mid + 1, high)
    return swapped or left_swap or right_swap


def circle_sort(collection):
    is_not_sorted = True
    while is_not_sorted is True:
        is_not_sorted = circle_sort_util(collection, 0, len(collection) - 1)
    return collection


@pytest.mark.parametrize('x0', [1.0, -1.0])
def test_helpers_writing_items_of_an_array_they_are_given(x0):
    a = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    x = np.array([x0, -2.0, 5.0, -1.0], np.float32)
    expected = uses_array_helpers(a.copy(), x)
    f = autograph.convert(uses_array_helpers)
    same(f(jnp.asarray(a), jnp.asarray(x)), expected)
    same(f(jnp.asarray(a), jnp.asarray(x)), expected)   # the compiled program again
    same(jax.jit(autograph.convert(uses_array_helpers, jit=False))(a, x), expected)
    batched = jax.vmap(f)(jnp.stack([a, a + 1]), jnp.stack([x, -x]))
    same(batched[1], uses_array_helpers(a.copy() + 1, -x))


def test_a_view_given_to_a_helper_is_written_into_the_array():
    a = np.arange(6.0, dtype=np.float32)
    expected = doubles_first_half(a.copy())
    result = autograph.convert(doubles_first_half)(jnp.asarray(a))
    same(result[0], expected[0])
    same(result[1], expected[1])


def test_recursive_helper_sorting_in_place():
    x = np.array([5., 3., 9., 1., 7., 2., 8.], np.float32)
    expected = circle_sort(x.copy())
    same(autograph.convert(circle_sort)(jnp.asarray(x)), expected)
    grad = jax.grad(lambda v: autograph.convert(circle_sort)(v)[0])(jnp.asarray(x))
    same(grad, np.eye(7)[3])        # the smallest item is x[3]


# --- calls that used to crash ----------------------------------------------------------

@autograph.convert
def fact(n):
    if n <= 1:
        return 1.0
    return n * fact(n - 1)


def test_recursion_on_a_traced_value_through_a_function_is_named():
    assert fact(4) == 24.0                    # a Python argument: Python recursion
    with pytest.raises(autograph.ControlFlowError, match='fact .* calls itself'):
        fact(jnp.float32(4.0))


def test_insertion_sort_on_a_list_of_traced_values():
    def insertion_sort(xs):
        for i in range(1, len(xs)):
            key = xs[i]
            j = i - 1
            while j >= 0 and xs[j] > key:
                xs[j + 1] = xs[j]
                j -= 1
            xs[j + 1] = key
        return xs

    @autograph.convert
    def sort_list(a):
        return jnp.stack(insertion_sort([a[0], a[1], a[2]]))
    # (a list of like numbers written at a traced index: each item a select)
    for xs in ([3.0, 1.0, 2.0], [1.0, 2.0, 0.5]):
        same(sort_list(jnp.array(xs)), sorted(xs))


def test_a_ufunc_is_called_as_it_is():
    with pytest.warns(UserWarning, match='no Python source code'):
        add = autograph.convert(np.add)
    same(add(jnp.float32(1.0), 2.0), 3.0)
    same(add(np.ones(2), np.ones(2)), [2.0, 2.0])


class Cached:
    """A value a property computes on first use and keeps (through a method)."""

    def __init__(self, a):
        self.a = a
        self._g = None

    @property
    def g(self):
        return self.computed()

    def computed(self):
        if self._g is None:
            self._g = self.a * 2
        return self._g

    def step(self, x):
        return x * self.g


def test_a_value_a_property_caches_is_state():
    plain, converted = Cached(jnp.float32(3.0)), Cached(jnp.float32(3.0))
    step = autograph.convert(converted.step)
    for x in (1.0, 2.0):
        same(step(jnp.float32(x)), plain.step(jnp.float32(x)))
        same(converted._g, plain._g)
        assert_no_tracers(converted)


class _Counter:
    def __init__(self):
        self.key = jnp.zeros(())

    def draw(self):
        self.key = self.key + 1.0
        return self.key


def test_objects_reached_through_a_simple_namespace_are_state():
    # `self.tools.counter.key`, set by a method called in a staged `if` test: the
    # namespace (a library type holding the user's values) is followed like an object
    import types

    class Sampler:
        def __init__(self):
            self.tools = types.SimpleNamespace(counter=_Counter(), exp=jnp.exp)

        def step(self, x):
            if self.tools.exp(self.tools.counter.draw()) > x:
                return x + 1.0
            return x - 1.0

    plain, conv = Sampler(), Sampler()
    step = autograph.convert(conv.step)
    for x in (2.0, 3.0, 100.0):
        assert float(step(jnp.asarray(x))) == plain.step(x)
        assert not isinstance(conv.tools.counter.key, jax.core.Tracer)
        assert float(conv.tools.counter.key) == float(plain.tools.counter.key)
