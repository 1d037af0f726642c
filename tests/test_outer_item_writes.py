"""Items of a global or closure variable written by converted code (`G[i] = v` with no
`global G`): Python's `__setitem__` changes the object the name holds. A Function reads
such a global as state (a traced value while it traces), so the write is rebound and
given back like a declared global's (passes/item_assignments.py `_outer_items`): the
values after each call equal plain Python's. A helper's global is found while tracing,
and the call starts again with it as state (function/state.py `NumpyFoundLate`). A NumPy
array the function makes itself cannot take a traced value: a named error."""
import re

import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, site

G = np.zeros(4)
L = [np.zeros(3)]
CACHE = {}


def write_first(x):
    G[0] = x
    return x + 1


def accumulate(x, n):
    for i in range(n):
        G[i] += x * i
    return x


def write_in_list(x):
    L[0][1] = x
    return x * 2


def fill_cache(x):
    CACHE['seen'] = True
    return x


def write_through_helper(x):
    return write_first(x) * 3


def _fresh():
    global G, L
    G, L = np.zeros(4), [np.zeros(3)]
    CACHE.clear()


def _state():
    return np.array(G), [np.array(v) for v in L], dict(CACHE)


def _same_as_python(fn, calls):
    """Runs `calls` (argument tuples) plain, then converted, from fresh state: results and
    the state after every call agree."""
    _fresh()
    plain = [(fn(*args), _state()) for args in calls]
    _fresh()
    converted = autograph.convert(fn)
    for (want, (g, l, c)), args in zip(plain, calls):
        got = converted(*args)
        gg, gl, gc = _state()
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)
        np.testing.assert_allclose(gg, g, rtol=1e-6)
        for a, b in zip(gl, l):
            np.testing.assert_allclose(a, b, rtol=1e-6)
        assert gc == c


@pytest.mark.parametrize('wrap', [float, jnp.asarray], ids=['python', 'array'])
def test_a_global_array_item(wrap):
    _same_as_python(write_first, [(wrap(2.0),), (wrap(5.0),)])


@pytest.mark.parametrize('staged', [False, True])
def test_a_global_array_accumulated_in_a_loop(staged):
    n = jnp.asarray(3) if staged else 3
    _same_as_python(accumulate, [(jnp.asarray(2.0), n), (jnp.asarray(1.5), n)])


def test_an_array_in_a_global_list():
    _same_as_python(write_in_list, [(jnp.asarray(2.0),), (jnp.asarray(4.0),)])


def test_a_global_dict_of_python_values():
    _same_as_python(fill_cache, [(jnp.asarray(1.0),)])


def test_a_helper_writes_a_global():
    _same_as_python(write_through_helper, [(jnp.asarray(2.0),), (jnp.asarray(3.0),)])


def test_the_global_is_declared_in_the_generated_code():
    code = autograph.to_code(accumulate)
    assert code.splitlines()[1].strip() == 'global G'
    assert "G = ag.update_item(G, i, '+=', x * i)" in code


def _closure():
    buffer = np.zeros(3)

    def write(x):
        buffer[0] = x
        return buffer.sum()
    return write, buffer


def test_a_closure_array_item():
    plain, plain_buffer = _closure()
    write, _ = _closure()
    converted = autograph.convert(write)
    for x in (2.0, 3.0):
        want = plain(x)
        np.testing.assert_allclose(converted(jnp.asarray(x)), want)
        np.testing.assert_allclose(np.asarray(converted.python_function.__closure__[0]
                                              .cell_contents), plain_buffer)


# --- a NumPy array written through its items keeps its identity ---------------------

def rebind_global(x):
    global G
    G = G * 2
    G[0] = x
    return x


class Buffer:
    def __init__(self):
        self.data = np.zeros(3)

    def fill(self, x):
        self.data[1] = x
        return x

    def replace(self, x):
        self.data = self.data + x
        return x


def _closure_writer():
    buf = np.zeros(2)

    def write(x):
        buf[0] = x + 1
        return x
    return write, buf


def test_a_global_array_keeps_its_identity():
    """`G[0] = x`: the very array `G` held gets the write (`before is G`), also when a
    helper writes it and on the compiled path of a second call."""
    for fn in (write_first, write_through_helper):
        _fresh()
        before = G
        converted = autograph.convert(fn)
        converted(jnp.asarray(2.0))
        assert G is before and before[0] == 2.0
        converted(jnp.asarray(3.0))
        assert G is before and before[0] == 3.0


def test_a_global_rebound_is_a_new_array_as_in_python():
    """`global G; G = G * 2; G[0] = x`: Python's G is a new array and the old one keeps
    its values."""
    _fresh()
    before = G
    before[1] = 1.0
    autograph.convert(rebind_global)(jnp.asarray(5.0))
    assert G is not before
    np.testing.assert_allclose(before, [0.0, 1.0, 0.0, 0.0])
    np.testing.assert_allclose(G, [5.0, 2.0, 0.0, 0.0])


def test_attribute_and_closure_arrays_keep_their_identity():
    buffer = Buffer()
    data = buffer.data
    autograph.convert(buffer.fill)(jnp.asarray(4.0))
    assert buffer.data is data and data[1] == 4.0
    autograph.convert(buffer.replace)(jnp.asarray(1.0))   # rebinds: a new array
    assert buffer.data is not data
    np.testing.assert_allclose(data, [0.0, 4.0, 0.0])
    np.testing.assert_allclose(buffer.data, [1.0, 5.0, 1.0])
    write, buf = _closure_writer()
    converted = autograph.convert(write)
    converted(jnp.asarray(1.0))
    converted(jnp.asarray(6.0))
    assert write.__closure__[0].cell_contents is buf and buf[0] == 7.0


def shrink_global(x):
    global G
    G -= x
    return G.sum()


class Weights:
    def __init__(self, w):
        self.w = w

    def step(self, g):
        self.w -= 0.5 * g


def _closure_shrinker():
    buf = np.ones(2)

    def shrink(x):
        nonlocal buf
        buf -= x
        return buf.sum()
    return shrink, lambda: buf


def test_an_augmented_assignment_changes_the_array_itself():
    """`G -= x`, `self.w -= e`, `nonlocal b; b -= x` on NumPy arrays: NumPy changes the
    array, so every other name for it sees the change (not a new array, as
    `G = G - x` makes)."""
    _fresh()
    before = G
    autograph.convert(shrink_global)(jnp.asarray(2.0))
    assert G is before
    np.testing.assert_allclose(before, [-2.0] * 4)
    w = np.ones(2)
    model = Weights(w)
    autograph.convert(lambda m, g: m.step(g))(model, jnp.asarray([1.0, 2.0]))
    assert model.w is w
    np.testing.assert_allclose(w, [0.5, 0.0])
    shrink, current = _closure_shrinker()
    buf = current()
    autograph.convert(shrink)(jnp.asarray(3.0))
    assert current() is buf
    np.testing.assert_allclose(buf, [-2.0, -2.0])


def location(fn, text):
    return r'\S*' + re.escape(site(fn, text)) + r'\b'


# --- a NumPy array the function makes: traced where only it holds it ---------------------

def numpy_buffer(x, n):
    b = np.zeros(3)
    for i in range(n):
        b[i] = x * i
    return b


def numpy_buffer_traced_index(i):
    b = np.zeros(3)
    b[i] += 1.0
    return b


def numpy_buffer_listed(x, n):
    b = np.zeros(3)
    listed = [b]
    for i in range(n):
        b[i] = x * i
    return listed


@pytest.mark.parametrize('fn, args, traced', [
    (numpy_buffer, (2.0, 3), (jnp.asarray(2.0), 3)),
    (numpy_buffer_traced_index, (1,), (jnp.asarray(1),))])
def test_a_numpy_array_the_function_keeps_takes_a_traced_value(fn, args, traced):
    """Python stores the number; under a trace it is known only when the program runs,
    and the array only the function holds becomes a traced one (analysis.own_arrays)."""
    assert_same(autograph.convert(fn)(*traced), fn(*args))


def test_a_numpy_array_a_list_holds_given_a_traced_value_is_a_named_error():
    """Where a list holds the array too, a traced copy would leave the list the old
    one: NumPy cannot hold the traced value (JAX's own jit refuses it too)."""
    with pytest.raises(autograph.ControlFlowError, match=(
            r"'b': a NumPy array is written with a traced value at "
            + location(numpy_buffer_listed, 'b[i] = x * i') + r'.*jnp\.zeros')):
        autograph.convert(numpy_buffer_listed)(jnp.asarray(2.0), 3)


def test_the_suggested_jax_array_gives_pythons_values():
    def suggested(x, n):
        b = jnp.zeros(3)
        for i in range(n):
            b[i] = x * i
        return b
    np.testing.assert_allclose(autograph.convert(suggested)(jnp.asarray(2.0), 3),
                               numpy_buffer(2.0, 3))
    np.testing.assert_allclose(autograph.convert(numpy_buffer)(2.0, 3), numpy_buffer(2.0, 3))


# --- a global dict given a key on some paths only, and written by a helper too ----------

SEEN = {'s': 0.0}


def add_seen(val):
    SEEN['s'] = SEEN['s'] + val


def add_seen_if_low(val):
    if val > 0:
        return 1.0
    add_seen(val)
    return 0.0


def key_in_loop_then_helper(x, n):
    i = 0
    while i < n:
        if n % 3 == 0:
            return x
        SEEN['t'] = x * 0.5
        i += 1
    add_seen(x)
    return x


def helper_then_key_in_branch(x, v):
    for j in v:
        if j > x:
            add_seen_if_low(x - 0.5)
            SEEN['t'] = x * 0.5
    return x


@pytest.mark.parametrize('fn, args, kind', [
    (key_in_loop_then_helper, [(1.5, n) for n in range(5)], np.int32),
    (helper_then_key_in_branch, [(x, [1.0, -2.0, 3.0, 0.25]) for x in (0.25, 0.75, 5.0)],
     np.float32),
])
def test_a_key_on_some_paths_and_a_helpers_write_reach_the_global_dict(fn, args, kind):
    """The dict holding a key that staged code set on some paths only (with its flag) is
    state like the plain dict: a helper's write to it under a staged statement is carried
    (was an EscapedTracer, or "changed in place on one path but replaced on another")."""
    converted = autograph.convert(fn)
    for x, second in args:
        SEEN.clear()
        SEEN['s'] = 0.0
        want = fn(jnp.float32(x), np.asarray(second, dtype=kind)), dict(SEEN)
        SEEN.clear()
        SEEN['s'] = 0.0
        got = converted(jnp.float32(x), jnp.asarray(second, dtype=kind))
        np.testing.assert_allclose(got, want[0], rtol=1e-6)
        assert SEEN.keys() == want[1].keys()
        for key, value in want[1].items():
            np.testing.assert_allclose(SEEN[key], value, rtol=1e-6)


def _closure_after_return():
    buffer, seen = np.zeros(4), {'s': 0.0}

    def put(val):
        buffer[1] = val
        seen['s'] = seen['s'] + val

    def after_return(x):
        if x > 5.0:
            return x
        put(x)
        return x + jnp.sum(buffer) + seen['s']
    return after_return, buffer, seen


@pytest.mark.parametrize('x', [1.0, 6.0])
def test_a_closure_helper_writes_after_a_traced_return(x):
    """The code after a `return` under a traced test is a staged branch that reads the
    closure's array and dict itself; the helper it calls writes their items: carried
    like a global's (was an EscapedTracer)."""
    plain, want_buffer, want_seen = _closure_after_return()
    want = plain(jnp.float32(x))
    fn, _, _ = _closure_after_return()
    got = autograph.convert(fn)(jnp.float32(x))
    cells = {name: cell.cell_contents for name, cell in
             zip(fn.__code__.co_freevars, fn.__closure__)}
    np.testing.assert_allclose(got, want, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(cells['buffer']), want_buffer, rtol=1e-6)
    np.testing.assert_allclose(cells['seen']['s'], want_seen['s'], rtol=1e-6)


def _helper_over_a_closure_array():
    buffer = np.zeros(4)

    def put(val):
        buffer[1] = val

    def only_calls(x):   # (names nothing of `put`'s closure itself)
        put(x * 0.5)
        return x
    return only_calls, buffer


def test_a_closure_helper_writes_its_own_closure_array():
    """A helper made before the call writes an item of a NumPy array in its own closure,
    which the converted function never names: state found when the helper is called, as
    a helper's global is (was a named error, fuzzer repro r4)."""
    plain, want_buffer = _helper_over_a_closure_array()
    fn, buffer = _helper_over_a_closure_array()
    converted = autograph.convert(fn)
    for x in (2.0, 3.0):
        np.testing.assert_allclose(converted(jnp.float32(x)), plain(jnp.float32(x)))
        np.testing.assert_allclose(buffer, want_buffer)
