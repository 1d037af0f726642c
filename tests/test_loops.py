"""while / for / break / continue / return in loops / loop else / lists: converted vs
plain Python, and the jaxpr primitive each dispatch rule must produce."""
import collections

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from examples import seeds
from tests.helpers import assert_same, check, converted, staged


def squash(x):
    while jnp.sum(x) > 1:
        x = jnp.tanh(x)
    return x


def count_up(n):
    i = 0
    total = 0
    while i < n:
        total += i
        i += 1
    return total


def while_else(n):
    i = 0
    while i < n:
        i += 1
        if i == 7:
            break
    else:
        i = -i
    return i


def while_true_break(x):
    while True:
        x = x * 2
        if x > 100:
            break
    return x


def python_while_becomes_staged(x):
    i = 0
    while i < 5:
        if x > 3:
            break
        x = x + 1
        i += 1
    return x, i


def for_range(n):
    total = 0
    for i in range(n):
        total += i * i
    return total


def for_range_start_step(n):
    total = 0
    for i in range(2, n, 3):
        total += i
    return total


def for_array(xs):
    total = 0.0
    for x in xs:
        total = total + x * 2
    return total


def for_continue(xs):
    total = 0.0
    for x in xs:
        if x < 0:
            continue
        total = total + x
    return total


def for_break_else(xs):
    total = 0.0
    for x in xs:
        if x > 5:
            break
        total = total + x
    else:
        total = -total
    return total


def for_return(xs):
    for x in xs:
        if x > 2:
            return x
    return -1.0


def nested_loops(n):
    total = 0
    i = 0
    while i < n:
        for j in range(i):
            if j == 3:
                break
            total += j
        i += 1
    return total


def nested_return(n):
    i = 0
    while i < n:
        j = 0
        while j < n:
            if i * j > 6:
                return i * 10 + j
            j += 1
        i += 1
    return -1


def enumerate_zip(xs, ys):
    total = 0.0
    for i, (x, y) in enumerate(zip(xs, ys)):
        total = total + i * x - y
    return total


def accumulate(xs):
    out = []
    for x in xs:
        out.append(x * 2)
    return jnp.stack(out)


def accumulate_python_range(x):
    out = []
    for i in range(3):
        out.append(x + i)
    return jnp.stack(out)


def loop_tuple_state(x, n):
    a, b = x, x * 0
    i = 0
    while i < n:
        a, b = b + 1, a
        i += 1
    return a, b


Point = collections.namedtuple('Point', 'x y')


def loop_namedtuple_state(n):
    p = Point(0.0, 1.0)
    for i in range(n):
        p = Point(p.y, p.x + p.y)
    return p


def loop_dict_state(n):
    d = {'count': 0, 'sum': 0.0}
    i = 0
    while i < n:
        d = {'count': d['count'] + 1, 'sum': d['sum'] + i / 2}
        i += 1
    return d


def weak_type_promotion(xs):
    total = 0
    for x in xs:
        total = total + x
    return total


def fizzbuzz(n):
    return seeds.fizzbuzz_count(n)


INT_CASES = [
    (count_up, [0, 1, 7]),
    (while_else, [3, 9]),
    (for_range, [0, 5]),
    (for_range_start_step, [2, 11]),
    (nested_loops, [0, 6]),
    (nested_return, [2, 5]),
    (loop_namedtuple_state, [0, 6]),
    (loop_dict_state, [0, 4]),
    (seeds.collatz_steps, [1, 6, 27]),
    (fizzbuzz, [15, 31]),
]


@pytest.mark.parametrize('fn,inputs', INT_CASES, ids=[c[0].__name__ for c in INT_CASES])
def test_int_loops_traced_and_python(fn, inputs):
    for n in inputs:
        check(fn, jnp.int32(n))   # traced: staged loops
        check(fn, n)              # Python int under jit: a static value, Python loops
    assert staged(fn, jnp.int32(inputs[-1])) & {'while', 'scan'}


ARRAY_CASES = [
    (for_array, [jnp.arange(5.)]),
    (for_continue, [jnp.array([1., -2., 3.])]),
    (for_break_else, [jnp.array([1., 2., 3.]), jnp.array([1., 9., 3.])]),
    (for_return, [jnp.array([1., 5., 3.]), jnp.array([0., 1., 2.])]),
    (accumulate, [jnp.arange(4.)]),
    (weak_type_promotion, [jnp.arange(3.)]),
    (squash, [jnp.array([2., 3.])]),
]


@pytest.mark.parametrize('fn,inputs', ARRAY_CASES, ids=[c[0].__name__ for c in ARRAY_CASES])
def test_array_loops(fn, inputs):
    for xs in inputs:
        check(fn, xs)


def test_for_over_array_is_scan():
    assert staged(for_array, jnp.arange(5.)) == {'scan'}
    assert staged(accumulate, jnp.arange(5.)) == {'scan'}


def test_for_over_python_range_unrolls():
    assert staged(for_range, 5) == set()
    assert staged(accumulate_python_range, jnp.float32(1.)) == set()
    check(accumulate_python_range, jnp.float32(1.))


def test_for_over_traced_range_is_while():
    assert staged(for_range, jnp.int32(5)) == {'while'}


def test_staged_range_option_is_scan():
    def f(x):
        for i in autograph.range(100):
            x = x + i
        return x
    assert staged(f, jnp.float32(0.)) == {'scan'}
    check(f, jnp.float32(0.))


def test_while_with_python_condition_switches_to_staged_midway():
    for x in (0., 2., 10.):
        check(python_while_becomes_staged, jnp.float32(x))
    assert 'while' in staged(python_while_becomes_staged, jnp.float32(0.))


def test_while_true_break():
    check(while_true_break, jnp.float32(3.))
    assert 'while' in staged(while_true_break, jnp.float32(3.))


def test_enumerate_zip_staged():
    xs, ys = jnp.arange(4.), jnp.arange(4.) * 3
    check(enumerate_zip, xs, ys)
    assert staged(enumerate_zip, xs, ys) == {'scan'}


def test_tuple_state():
    check(loop_tuple_state, jnp.float32(1.), jnp.int32(5))


def test_dynamic_rnn_accumulates_states():
    xs = jnp.linspace(-1, 1, 6).reshape(3, 2)
    check(seeds.dynamic_rnn, seeds.rnn_step, xs, jnp.zeros(2))


def test_first_negative_enumerate_return():
    check(seeds.first_negative, jnp.array([1., -2., 3.]))
    check(seeds.first_negative, jnp.array([1., 2., 3.]))


def test_newton_sqrt_break():
    for a in (2., 9., 0.25):
        check(seeds.newton_sqrt, jnp.float32(a))


def test_maximum_iterations_bounds_and_differentiates():
    def f(x):
        i = 0
        while x < 100.:
            autograph.set_loop_options(maximum_iterations=5)
            x = x * 2
            i += 1
        return x
    g = autograph.convert(f)
    assert float(g(jnp.float32(1.))) == 32.   # stops after 5 iterations
    assert float(g(jnp.float32(30.))) == 120.
    assert 'scan' in staged(f, jnp.float32(1.))
    assert float(jax.grad(g)(jnp.float32(1.))) == 32.


def test_grad_through_loops_matches_finite_differences():
    def poly(x):
        y = x
        for i in range(3):
            y = y * x + i
        return y

    def over_array(w):
        total = 0.0
        for v in jnp.arange(1., 4.):
            total = total + jnp.sin(w * v)
        return total

    def traced_bound(x, n):
        for i in autograph.range(n):
            x = x * 1.5
        return x
    for fn, x in [(poly, 0.7), (over_array, 0.3)]:
        grad = jax.grad(autograph.convert(fn))(jnp.float32(x))
        eps = 1e-3
        fd = (fn(jnp.float32(x + eps)) - fn(jnp.float32(x - eps))) / (2 * eps)
        np.testing.assert_allclose(grad, fd, rtol=1e-2)
    # forward mode works through a staged while loop (traced trip count) in forward mode
    forward = autograph.convert(traced_bound, loop_autodiff='forward')
    tangent = jax.jvp(lambda x: forward(x, jnp.int32(3)),
                      (jnp.float32(1.),), (jnp.float32(1.),))[1]
    np.testing.assert_allclose(tangent, 1.5 ** 3)


def test_vmap_of_data_dependent_loops():
    starts = jnp.array([1, 6, 7, 27], dtype=jnp.int32)
    batched = jax.vmap(autograph.convert(seeds.collatz_steps))(starts)
    assert list(batched) == [seeds.collatz_steps(int(s)) for s in starts]
    xs = jnp.array([[2., 3.], [0.1, 0.2], [5., -1.]])
    assert_same(jax.vmap(autograph.convert(squash))(xs), jnp.stack([squash(x) for x in xs]))


def test_leading_break_folds_into_the_while_test():
    def escape(c):
        z = c * 0
        count = 0
        while count < 50:
            if jnp.abs(z) > 2:
                break
            z = z * z + c
            count += 1
        return count
    for c in (0.1, 0.5, 1.0, -2.0):
        check(escape, jnp.float32(c))
    code = autograph.to_code(escape)
    assert 'did_break' not in code and 'ag.not_(jnp.abs(z) > 2)' in code


def test_long_unrolled_loop_warns_once():
    import warnings

    def f(x):
        for i in list(range(600)):   # a Python list: unrolled
            x = x + i
        return x
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        autograph.convert(f)(jnp.float32(0.))
    messages = [str(w.message) for w in caught if 'unrolled' in str(w.message)]
    assert len(messages) == 1 and 'over an array or a range' in messages[0]


def test_collected_list_is_the_scans_stacked_output():
    xs = jnp.arange(12.).reshape(4, 3)
    jaxpr = jax.make_jaxpr(autograph.convert(accumulate, jit=False))(xs)
    assert [e.primitive.name for e in jaxpr.jaxpr.eqns] == ['scan']
    check(accumulate, xs)


def test_collected_list_still_behaves_as_a_list():
    def f(xs):
        out = []
        for x in xs:
            out.append(x * 2)
        first, count = out[0], len(out)
        out.append(xs[0])
        return first, count, jnp.stack(out), out + [xs[1]], out
    check(f, jnp.arange(3.))


def test_python_range_with_traced_break_is_one_staged_loop():
    assert [e.primitive.name for e in jax.make_jaxpr(
        autograph.convert(seeds.newton_sqrt, jit=False, loop_autodiff='forward'))(
            jnp.float32(2.)).jaxpr.eqns] == ['while']


def test_python_range_loops_needing_a_python_index_stay_python():
    layers = [lambda x: x * 2,
              lambda x: x + 10,
              lambda x: x * 3]

    def early_exit(x):
        for i in range(3):
            x = layers[i](x)
            if x > 5:
                break
        return x

    def collect(x):
        out = []
        for i in range(4):
            out.append(x * i)
            if x * i > 5:
                break
        return len(out), out[-1]
    for x in (1., 3., 10.):
        check(early_exit, jnp.float32(x))
    check(collect, 2.)


def test_staged_while_leaves_no_dead_equations_behind():
    jaxpr = jax.make_jaxpr(autograph.convert(squash, jit=False, loop_autodiff='forward'))(
        jnp.ones(3) * 2)
    assert [e.primitive.name for e in jaxpr.jaxpr.eqns] == ['while']


def test_concrete_arrays_outside_a_trace_run_python_loops():
    iterations = []

    def f(x):
        while jnp.sum(x) > 1:
            iterations.append(1)
            x = x / 2
        return x
    autograph.convert(f, jit=False)(jnp.ones(3))
    assert len(iterations) == 2


def test_fuzz_regression_loops_copied_by_return_restructuring_keep_their_flags():
    # Found by the fuzzer (seed 24): code after an `if` that may return is copied into
    # its branches; loops inside the copies lost their break-flag annotations.
    def f(x, n):
        a = x
        if x > 1.0:
            for j in range(n):
                if a > 3.0:
                    return a + 1.0
                a = a * 2.0
        for i in v_range(n):
            for j in range(n):
                if a > 10.0:
                    return a - 1.0
                a = a + 1.0
        return a
    for x in (0.5, 2.0, 5.0):
        for n in (0, 2, 4):
            check(f, jnp.float32(x), jnp.int32(n))


def v_range(n):
    return range(n)


def test_enumerate_over_a_traced_range():
    def f(n):
        total = 0
        for count, i in enumerate(range(2, n, 3)):
            total += count * 100 + i
        return total
    for n in (2, 9, 14):
        check(f, jnp.int32(n))


def test_registered_dataclass_state():
    import dataclasses

    @jax.tree_util.register_dataclass
    @dataclasses.dataclass
    class Stats:
        total: jax.Array
        count: jax.Array

    def f(xs):
        s = Stats(jnp.float32(0), jnp.int32(0))
        for x in xs:
            if x > 0:
                s = Stats(s.total + x, s.count + 1)
        return s.total, s.count
    check(f, jnp.array([1., -2., 3.]))


def spins(x, flag):
    while flag:   # nothing in the loop changes `flag`
        x = x + 1
    return x


def test_a_while_loop_that_could_never_stop_is_an_error_when_it_would_run():
    converted = autograph.convert(spins)
    assert float(converted(jnp.float32(2.), jnp.asarray(False))) == spins(2., False)
    with pytest.raises(autograph.ControlFlowError, match=r'`while` loop at .*never ends'):
        converted(jnp.float32(2.), jnp.asarray(True))
    batched = jax.vmap(converted)
    assert_same(batched(jnp.arange(3.), jnp.zeros(3, bool)), jnp.arange(3.))
    with pytest.raises(autograph.ControlFlowError, match='never ends'):
        batched(jnp.arange(3.), jnp.array([False, True, False]))
    jaxpr = jax.make_jaxpr(autograph.convert(spins, jit=False))(1., jnp.asarray(False))
    assert 'while' not in str(jaxpr)


def set_true_again(x, go):
    flag = go
    while flag:   # every iteration makes `flag` true again, whatever it was
        x = x + 1
        flag = jnp.asarray(True)
    return x, flag


def stops_after_one(x, go):
    flag = go
    while flag:   # the body sets `flag` to a constant false: one iteration at most
        x = x + 1
        flag = jnp.asarray(False)
    return x


def test_a_while_loop_whose_body_keeps_its_condition_true_is_an_error_when_it_would_run():
    converted = autograph.convert(set_true_again)
    assert_same(converted(jnp.float32(2.), jnp.asarray(False)),
                set_true_again(np.float32(2.), False))
    with pytest.raises(autograph.ControlFlowError, match='every iteration sets what it reads'):
        converted(jnp.float32(2.), jnp.asarray(True))
    with pytest.raises(autograph.ControlFlowError, match='never ends'):
        converted(jnp.float32(2.), True)   # (a Python flag, then an array: staged)
    batched = jax.vmap(converted)
    assert_same(batched(jnp.arange(3.), jnp.zeros(3, bool))[0], jnp.arange(3.))
    with pytest.raises(autograph.ControlFlowError, match='never ends'):
        batched(jnp.arange(3.), jnp.array([False, True, False]))
    for go in (False, True):
        assert_same(autograph.convert(stops_after_one)(jnp.float32(2.), jnp.asarray(go)),
                    stops_after_one(np.float32(2.), go))


def test_an_iterator_resumed_after_break_continues_where_python_does():
    def split_at_first_large(xs, limit):
        items = iter(xs)
        head = []
        for v in items:
            if v > limit:
                break
            head.append(v)
        return head, [v * 10 for v in items]
    for limit in (1, 3):
        assert autograph.convert(split_at_first_large)([0, 1, 2, 3, 4], limit) == \
            split_at_first_large([0, 1, 2, 3, 4], limit)


def sum_before_and_after_a_large_item(x):
    items = (i * 1. for i in range(6))
    before = 0.
    for v in items:
        if v * x > 3:
            break
        before = before + v
    return before, sum(items)


def test_an_iterator_read_after_a_traced_break_is_a_named_error():
    converted = autograph.convert(sum_before_and_after_a_large_item)
    assert converted(2.) == sum_before_and_after_a_large_item(2.)   # a Python break
    with pytest.raises(autograph.ControlFlowError,
                       match=r"`for` loop at .*test_loops.py:\d+ may `break` on a traced "
                             r"condition, which would leave the iterator 'items'"):
        converted(jnp.float32(2.))


def test_an_iterator_not_read_after_a_traced_break_is_fine():
    def f(x):
        items = (i * 1. for i in range(6))
        before = 0.
        for v in items:
            if v * x > 3:
                break
            before = before + v
        return before
    assert "iterator='items'" in autograph.to_code(sum_before_and_after_a_large_item)
    assert 'iterator=' not in autograph.to_code(f)
    for x in (2., 0.5, -1.):
        assert_same(autograph.convert(f)(jnp.float32(x)), f(x))


def search_while_one_equals_one(lo, hi):
    while 1 == 1:
        mid = (lo + hi) / 2
        if hi - lo < 1e-3:
            return mid
        if mid * mid > 2.0:
            hi = mid
        else:
            lo = mid


def test_a_while_test_of_constants_is_an_endless_loop_left_by_return():
    assert 'while_stmt' in autograph.to_code(search_while_one_equals_one)
    expected = search_while_one_equals_one(1.0, 2.0)
    assert_same(autograph.convert(search_while_one_equals_one)(jnp.float32(1.0),
                                                               jnp.float32(2.0)), expected)
    los, his = jnp.array([1.0, 0.0]), jnp.array([2.0, 3.0])
    assert_same(jax.vmap(converted(search_while_one_equals_one))(los, his),
                jnp.stack([search_while_one_equals_one(float(a), float(b))
                           for a, b in zip(los, his)]))
