"""`for` loops over ranges with Python bounds: staged as one loop when long and traced,
unrolled when short, when asked, or when the body needs a Python int (with a warning)."""
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, check, primitive_names, staged

# --- the natural loops ------------------------------------------------------------------


def rnn(xs, h, w):
    states = []
    for t in range(xs.shape[0]):
        h = jnp.tanh(xs[t] + h @ w)
        states.append(h)
    return jnp.stack(states)


def sum_with_if(x):
    total = 0.0
    for i in range(x.shape[0]):
        if x[i] > 0:
            total += x[i]
        else:
            total -= 0.5
    return total


def euler(y, steps):
    dt = 0.01
    for _ in range(steps):
        y = y + dt * (-y + jnp.sin(y))
    return y


def rnn_args(n):
    rng = np.random.default_rng(0)
    return (jnp.asarray(rng.normal(size=(n, 3)), jnp.float32), jnp.zeros(3),
            jnp.asarray(rng.normal(size=(3, 3)) * 0.3, jnp.float32))


def equation_count(fn, *args, static=()):
    def traced(*arrays):
        return autograph.convert(fn, jit=False)(*arrays, *static)
    jaxpr = jax.make_jaxpr(traced)(*args)

    def count(j):
        total = 0
        for eqn in j.eqns:
            total += 1
            for value in eqn.params.values():
                for item in value if isinstance(value, (tuple, list)) else [value]:
                    inner = getattr(item, 'jaxpr', item)
                    if hasattr(inner, 'eqns'):
                        total += count(inner)
        return total
    return count(jaxpr.jaxpr)


def test_rnn_with_appends_is_one_scan():
    check(rnn, *rnn_args(100))
    assert staged(rnn, *rnn_args(100)) == {'scan'}
    assert equation_count(rnn, *rnn_args(100)) == equation_count(rnn, *rnn_args(1000))


def test_sum_with_if_is_one_loop():
    for x in (jnp.linspace(-1., 2., 100), jnp.linspace(-3., 1., 150)):
        check(sum_with_if, x)
    # A sum over independent iterations: vectorised, no loop (tests/test_reductions.py);
    # with Python's order of float sums, one scan.
    assert staged(sum_with_if, jnp.ones(100)) == set()
    in_order = autograph.convert(sum_with_if, jit=False, sequential_sums=True)
    assert 'scan' in primitive_names(jax.make_jaxpr(in_order)(jnp.ones(100)))
    # (the same count at every length on each side of runtime.staging.cheap.SELECT_ITEMS,
    # where the `if` is a select in the body, or a cond the vectorised body selects)
    assert equation_count(sum_with_if, jnp.ones(100)) == \
        equation_count(sum_with_if, jnp.ones(10))
    assert equation_count(sum_with_if, jnp.ones(2000)) == \
        equation_count(sum_with_if, jnp.ones(20000))


def test_euler_is_one_loop():
    y0 = jnp.array([0.5, 2.0])
    check(euler, y0, 300)
    assert staged(euler, y0, 300) == {'scan'}
    assert equation_count(euler, y0, static=(100,)) == \
        equation_count(euler, y0, static=(1000,))


def test_staged_loops_under_vmap_and_grad():
    xs, h, w = rnn_args(20)
    batched = jax.vmap(autograph.convert(rnn), in_axes=(None, 0, None))(xs, jnp.ones((4, 3)), w)
    assert_same(batched, jnp.stack([rnn(xs, h0, w) for h0 in jnp.ones((4, 3))]))
    grad = jax.grad(lambda y: autograph.convert(euler)(y, 40).sum())(jnp.float32(0.7))
    assert_same(grad, jax.jit(jax.grad(lambda y: euler(y, 40).sum()))(jnp.float32(0.7)))
    grad = jax.grad(lambda w: autograph.convert(rnn)(xs, h, w).sum())(w)
    assert_same(grad, jax.jit(jax.grad(lambda w: rnn(xs, h, w).sum()))(w))


# --- loops over Python values stay Python -----------------------------------------------

def python_ints(n):
    out = []
    for i in range(n):
        out.append(i * 2)
    return out


def shape_only(x):
    out = []
    for i in range(10):
        out.append(x.shape[0] * i)   # reads the traced x, computes Python ints
    return out, x


def test_loops_over_python_values_stay_python():
    result = autograph.convert(python_ints, jit=False)(20)
    assert result == python_ints(20) and all(type(v) is int for v in result)

    def traced(x):
        out, _ = autograph.convert(shape_only, jit=False)(x)
        assert all(type(v) is int for v in out), out
        return x
    jax.make_jaxpr(traced)(jnp.ones(3))


# --- every form of range loop -----------------------------------------------------------

def over_enumerate(x):
    for k, i in enumerate(range(3, 60, 2), 10):
        x = x + k * i
    return x


def over_zip_ranges(x):
    for a, b in zip(range(50), range(100, 0, -3)):
        x = x * 0.99 + a - b
    return x


def over_zip_range_array(xs):
    total = xs[0] * 0
    for i, v in zip(range(2, 200), xs):
        total = total + i * v
    return total


def over_enumerate_zip_mixed(xs):
    total = xs[0] * 0
    for k, (i, v) in enumerate(zip(range(40), xs)):
        total = total + (k - i + 1) * v
    return total


def over_reversed(x):
    out = []
    for i in reversed(range(5, 45)):
        x = x * 0.5 + i
        out.append(x)
    return jnp.stack(out)


def negative_step(x):
    for i in range(30, -30, -3):
        x = x + i * x * 0.01
    return x


def renamed(x, loop_range=range):
    for i in loop_range(40):
        x = x + i
    return x


def traced_step(x, s):
    for i in range(0, 40, s):
        x = x + i
    return x


def test_range_forms_match_python_and_stage():
    x = jnp.float32(1.5)
    for fn in (over_enumerate, over_zip_ranges, over_reversed, negative_step, renamed):
        check(fn, x)
        assert 'scan' in staged(fn, x), fn.__name__
    xs = jnp.linspace(0., 1., 60)
    for fn in (over_zip_range_array, over_enumerate_zip_mixed):
        check(fn, xs)
        assert 'scan' in staged(fn, xs), fn.__name__
    for s in (1, 3, 7):
        check(traced_step, x, jnp.int32(s))
    assert staged(traced_step, x, jnp.int32(3)) == {'while'}


def test_python_values_through_every_form():
    for fn in (over_enumerate, over_zip_ranges, negative_step, renamed):
        assert autograph.convert(fn, jit=False)(1.5) == fn(1.5)


def test_an_iterator_is_used_up_as_python_would():
    def f(x):
        it = iter(range(30))
        for i in it:
            x = x + i
        return x, list(it)
    check(f, jnp.float32(0.))
    x, rest = autograph.convert(f)(jnp.float32(0.))
    assert rest == []


def test_nested_range_loops():
    def f(x):
        for i in range(20):
            for j in range(i, 30):
                x = x + 0.001 * (i - j) * x
        return x
    check(f, jnp.float32(1.))
    assert staged(f, jnp.float32(1.)) == {'scan', 'while'}   # inner range(i, 30): traced i


def test_traced_break_is_one_loop_from_the_start():
    def f(x, n):
        for i in range(n):
            if x > 100.:
                break
            x = x * 1.5 + i
        return x
    for x in (0.5, 200.):
        check(f, jnp.float32(x), 300)
    assert staged(f, jnp.float32(1.), 100) == {'while', 'cond'}
    assert equation_count(f, jnp.float32(1.), static=(100,)) == \
        equation_count(f, jnp.float32(1.), static=(1000,))


# --- fall-backs: the body needs a Python int --------------------------------------------

def unlike_layers(x, ws):
    for i in range(len(ws)):
        x = jnp.tanh(x @ ws[i])
    return x


def growing(x):
    for i in range(100):
        x = x + np.zeros(i + 1).shape[0]   # a shape that depends on the index
    return x


def test_fall_back_when_the_body_needs_a_python_int():
    ws = [jnp.eye(3) * 0.9, jnp.ones((3, 2)) * 0.1, jnp.ones((2, 3))] * 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        check(unlike_layers, jnp.ones(3), ws)
    assert staged(unlike_layers, jnp.ones(3), ws) == set()
    assert not [w for w in caught if 'unrolled' in str(w.message)]   # short: no warning


def test_long_fall_back_warns_with_location_and_reason():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        assert_same(autograph.convert(growing)(jnp.float32(0.)), growing(jnp.float32(0.)))
        assert staged(growing, jnp.float32(0.)) == set()
    messages = {str(w.message) for w in caught if 'unrolled' in str(w.message)}
    assert len(messages) == 1
    (message,) = messages
    assert 'test_range_staging.py:' in message and '100 iterations' in message
    assert 'Error' in message   # the reason


@pytest.mark.filterwarnings("ignore:the loop at")
def test_failed_staging_leaves_no_equations_behind():
    forced = autograph.convert(growing, jit=False, unroll_loops=True)
    assert len(jax.make_jaxpr(autograph.convert(growing, jit=False))(jnp.float32(0.)).eqns) \
        == len(jax.make_jaxpr(forced)(jnp.float32(0.)).eqns)


def test_user_errors_in_the_body_are_not_swallowed():
    def value_error(x):
        for i in range(50):
            if i == 3:
                raise ValueError('bad step')
            x = x + i
        return x

    def type_error(x):
        for i in range(50):
            x = x + 'a'
        return x
    with pytest.raises(ValueError, match='bad step'):
        autograph.convert(value_error)(jnp.float32(0.))
    with pytest.raises(TypeError):
        autograph.convert(type_error)(jnp.float32(0.))


# --- the user decides -------------------------------------------------------------------

def test_loop_option_unroll():
    def unrolled(x):
        for i in range(50):
            autograph.set_loop_options(unroll=True)
            x = x * 0.9 + i
        return x

    def short_staged(x):
        for i in range(3):
            autograph.set_loop_options(unroll=False)
            x = x * 0.9 + i
        return x
    check(unrolled, jnp.float32(1.))
    check(short_staged, jnp.float32(1.))
    assert staged(unrolled, jnp.float32(1.)) == set()
    assert staged(short_staged, jnp.float32(1.)) == {'scan'}
    assert staged(euler, jnp.float32(1.), 2) == set()   # short: unrolled by default


def test_function_option_unroll_loops():
    x = jnp.float32(0.3)
    for unroll, expected in ((True, set()), (False, {'scan'})):
        fn = autograph.convert(euler, unroll_loops=unroll)
        assert_same(fn(x, 60), euler(x, 60))
        jaxpr = jax.make_jaxpr(lambda y: autograph.convert(
            euler, jit=False, unroll_loops=unroll)(y, 60 if unroll else 2))(x)
        assert {e.primitive.name for e in jaxpr.eqns} & {'scan'} == expected


def test_print_runs_once_when_staged(capsys):
    def f(x):
        for i in range(20):
            print('step')            # a trace-time Python side effect
            x = x + 1.
        return x
    autograph.convert(f)(jnp.float32(0.))
    assert capsys.readouterr().out.count('step') == 1
    autograph.convert(f, unroll_loops=True)(jnp.float32(0.))
    assert capsys.readouterr().out.count('step') == 20


def test_a_traced_value_appended_to_an_outer_list_in_a_staged_loop():
    kept, notes = [], []

    def f(x):
        for i in range(20):
            kept.append(i)       # a log (only appended to): one item per iteration
            notes.append('step')
            x = x + 1.
        return x
    f = autograph.convert(f)
    f(jnp.float32(0.))
    assert [int(v) for v in kept] == list(range(20))   # (staged: the index's values)
    assert notes == ['step'] * 20
    assert not any(isinstance(v, jax.core.Tracer) for v in kept)


def test_unroll_option_on_a_while_loop_is_a_conversion_error():
    def f(x):
        while x < 10:
            autograph.set_loop_options(unroll=True)
            x = x + 1
        return x
    with pytest.raises(SyntaxError, match="unroll"):   # at the directive, with a caret
        autograph.to_code(f)


def test_staged_index_has_python_int_dtypes():
    def f(x):
        out = []
        for i in range(20):
            x = x + i
            out.append(x * (i / 20))
        return out
    x = jnp.float16(1.)
    result = autograph.convert(f)(x)
    assert staged(f, x) == {'scan'}
    assert result[0].dtype == jnp.float16
    assert_same(result, f(x))


def test_reads_at_the_index_become_the_scans_slices():
    def rnn_lax(xs, h, w):
        return jax.lax.scan(lambda h, x: (jnp.tanh(x + h @ w),) * 2, h, xs)[1]
    args = rnn_args(100)
    hand_written = jax.make_jaxpr(rnn_lax)(*args)
    assert equation_count(rnn, *args) == len(hand_written.eqns) + len(
        hand_written.eqns[0].params['jaxpr'].eqns)

    def other_reads(xs, ys):
        total = xs[0] * 0
        for t in range(ys.shape[0]):
            total = total + xs[t] * ys[t] - xs[t - 1] + ys[-t]   # only ys[t] is a slice
        return total
    check(other_reads, jnp.arange(130.).reshape(65, 2), jnp.linspace(0., 1., 120).reshape(60, 2))


def reversed_bounds(start, stop, step, x):
    for i in reversed(range(start, stop, step)):
        x = x * 0.5 + i
    return x


@pytest.mark.parametrize('bounds', [(0, 7, 1), (0, 7, 2), (3, 20, 4), (7, 0, -2), (10, -5, -3),
                                    (5, 5, 1), (5, 2, 1), (2, 5, -1)])
def test_reversed_range_with_traced_bounds_matches_python(bounds):
    expected = reversed_bounds(*bounds, 1.)
    for traced in range(3):   # each bound traced in turn, and all three
        args = [jnp.int32(b) if k == traced else b for k, b in enumerate(bounds)]
        assert_same(autograph.convert(reversed_bounds)(*args, jnp.float32(1.)), expected)
    traced_all = [jnp.int32(b) for b in bounds]
    assert_same(autograph.convert(reversed_bounds)(*traced_all, jnp.float32(1.)), expected)
    assert staged(reversed_bounds, *traced_all, jnp.float32(1.)) == {'while'}


def test_range_passed_as_a_value_takes_a_traced_bound():
    def loop(make_range, n, x):
        for i in make_range(n):
            x = x * 0.5 + i
        return x
    expected = loop(range, 6, 1.)
    assert_same(autograph.convert(loop)(range, jnp.int32(6), jnp.float32(1.)), expected)
    assert_same(jax.vmap(autograph.convert(loop), in_axes=(None, 0, None))(
        range, jnp.arange(4), jnp.float32(1.)), jnp.stack([loop(range, n, 1.) for n in range(4)]))
