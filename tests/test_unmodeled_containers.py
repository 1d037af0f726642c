"""A set, a `collections.deque` or a `queue.Queue` changed in place by a staged branch
or loop body (runtime.state.unmodeled): the body is traced once, so the change would be
made once on every path, where Python makes it only where the code runs (SILENT before:
`q.put(1)` under a traced `if x > 0` counted at x = -1). A named error; with Python values
the code runs as Python and gives Python's result. One given a traced value while the
Function is traced, at its top level, is a named error too (it would keep the tracer)."""
import collections
import queue

import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same


def put_under_a_test(x):
    q = queue.Queue()
    if x > 0:
        q.put(1)
    return q.qsize()


def append_under_a_test(x):
    d = collections.deque()
    if x > 0:
        d.append(1)
    return len(d)


def add_under_a_test(x):
    s = set()
    if x > 0:
        s.add(1)
    return len(s)


def add_in_a_staged_loop(n):
    seen = set()
    i = 0
    while i < n:
        seen.add(2)
        i += 1
    return len(seen)


def made_in_each_iteration(xs):
    total = 0.0
    for x in xs:
        s = {1, 2}
        s.add(3)
        total = total + x * len(s)
    return total


CHANGING = [put_under_a_test, append_under_a_test, add_under_a_test]


@pytest.mark.parametrize('fn', CHANGING)
def test_a_change_under_a_traced_test_is_a_named_error(fn):
    with pytest.raises(autograph.ControlFlowError, match='is changed in place by a staged'):
        autograph.convert(fn)(jnp.float32(-1.0))
    with pytest.raises(autograph.ControlFlowError, match='is changed in place by a staged'):
        jax.vmap(autograph.convert(fn))(jnp.array([1.0, -1.0]))


def test_a_change_in_a_staged_loop_is_a_named_error():
    with pytest.raises(autograph.ControlFlowError, match='a set .* is changed in place'):
        autograph.convert(add_in_a_staged_loop)(jnp.int32(4))


@pytest.mark.parametrize('fn', CHANGING)
@pytest.mark.parametrize('x', [1.0, -1.0])
def test_with_python_values_the_code_runs_as_python(fn, x):
    assert autograph.convert(fn)(x) == fn(x)


def test_python_bounds_and_sets_made_in_the_body():
    assert autograph.convert(add_in_a_staged_loop)(4) == add_in_a_staged_loop(4)
    xs = jnp.array([1.0, 2.0, 3.0])
    assert_same(autograph.convert(made_in_each_iteration)(xs), made_in_each_iteration(xs))


def moving_average(x):
    window = collections.deque(maxlen=3)
    out = []
    for v in x:
        window.append(v)
        out.append(sum(window) / len(window))
    return out


def test_a_deque_a_loop_of_known_length_changes_runs_as_python():
    """A `deque(maxlen=3)` window over a traced array's items: the staged body's change
    is refused and the loop runs as Python, from the deque's own items (its traced items
    were left in it before: an EscapedTracer, raw under the caller's jit)."""
    x = jnp.arange(6.0)
    expected = moving_average(list(range(6)))
    assert_same(autograph.convert(moving_average)(x), expected)
    assert_same(jax.jit(autograph.convert(moving_average, jit=False))(x), expected)


SEEN = set()
TALLY = collections.Counter()


def add_to_a_global_in_a_loop(w):
    for y in w:
        SEEN.add(len(SEEN))
        TALLY['n'] += 1
    return w


def count_a_global_under_a_test(w):
    for y in w:
        if y > 0:
            TALLY['pos'] += 1
    return w


def test_a_global_set_or_counter_changed_by_a_loop_over_a_traced_array_is_pythons():
    # (SILENT before: the trial staging of the loop's body changed the global once
    # and left it changed, `SEEN` {0} where Python's is {0, 1, 2}, `TALLY` 4 where 3)
    w = jnp.asarray([1.0, -2.0, 0.5])
    SEEN.clear()
    TALLY.clear()
    autograph.convert(add_to_a_global_in_a_loop)(w)   # (a Python side effect: made
    assert (SEEN, TALLY) == ({0, 1, 2}, {'n': 3})    # while tracing, see SPEC section 3)


def test_a_global_counter_changed_under_a_traced_test_is_named():
    TALLY.clear()
    with pytest.raises(autograph.ControlFlowError, match='Counter'):
        autograph.convert(count_a_global_under_a_test)(jnp.asarray([1.0, -2.0, 0.5]))
    assert TALLY == {}   # (its items put back)


HISTORY = collections.deque(maxlen=4)


def push_given(q, x):
    q.append(x * 2.0)
    return x


def push_global(x):
    HISTORY.append(x + 1.0)
    return x


def push_a_python_value(q, x):
    q.append(len(q))   # (a Python value: a side effect of the trace, SPEC section 3)
    return x * 2.0


def test_a_traced_value_given_to_a_deque_the_function_is_given_is_named():
    # (before: the caller's deque kept the trace's tracer, `deque([1.0, JitTracer(...)])`)
    q = collections.deque([1.0])
    with pytest.raises(autograph.ControlFlowError, match='a deque that push_given'):
        autograph.convert(push_given)(q, jnp.float32(3.0))
    assert list(q) == [1.0]   # (its items put back)


def test_a_traced_value_given_to_a_global_deque_is_named():
    HISTORY.clear()
    HISTORY.append(0.0)
    with pytest.raises(autograph.ControlFlowError, match='a deque that push_global'):
        autograph.convert(push_global)(jnp.float32(3.0))
    assert list(HISTORY) == [0.0]


def test_a_python_value_given_to_a_deque_while_tracing_stays():
    q = collections.deque()
    assert_same(autograph.convert(push_a_python_value)(q, jnp.float32(3.0)), 6.0)
    assert list(q) == [0]


def read_the_deque(q, x):
    return x * q[0]


def test_a_deque_of_the_callers_traced_values_is_not_the_traces():
    q = collections.deque()

    def caller(x):
        q.append(x + 1.0)   # (the caller's own traced value, under its jit)
        return autograph.convert(read_the_deque)(q, x)
    assert_same(jax.jit(caller)(jnp.float32(2.0)), 6.0)
