"""Constructs real code uses: `raise` as a run-time check, `while True` + `return`,
`return` anywhere, `match`, generators given to `convert`, and what mismatch errors say.
Each converted result is compared with the same function run as plain Python."""
import contextlib

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, check, f32, i32, line_of, primitives, site, staged


# --- raise ------------------------------------------------------------------------------

def power(x, exponent):
    if exponent < 0:
        raise ValueError(f'exponent must be non-negative, got {exponent}')
    return x ** exponent


def test_raise_under_python_condition_is_python():
    check(power, f32(2.), 3)
    with pytest.raises(ValueError, match='got -1'):
        autograph.convert(power)(f32(2.), -1)


def test_raise_under_traced_condition_checks_at_run_time():
    converted = autograph.convert(power)
    assert_same(converted(f32(2.), i32(3)), power(2., 3))
    with pytest.raises(ValueError) as info:
        converted(f32(2.), i32(-3))
    assert str(info.value) == 'exponent must be non-negative, got -3'
    assert site(power, "raise ValueError") in '\n'.join(info.value.__notes__)
    assert 'debug_callback' in primitives(power, f32(2.), i32(3))
    assert 'ag.raise_if(exponent < 0, lambda exponent: ValueError(' in autograph.to_code(power)


def test_raise_check_under_vmap_and_grad():
    batched = jax.vmap(autograph.convert(power, jit=False))
    assert_same(batched(jnp.arange(3.), jnp.array([1, 2, 3])), jnp.arange(3.) ** jnp.arange(1, 4))
    with pytest.raises(Exception, match='got -2'):
        jax.block_until_ready(batched(jnp.ones(3), jnp.array([1, -2, 3])))
    grad = jax.grad(autograph.convert(power, jit=False))
    assert_same(grad(f32(2.), i32(3)), 12.)


def first_or_fail(x):
    if x > 0:
        y = x * 2
    else:
        z = x - 1
        raise ValueError(f'not positive: {z}')
    return y


def test_raise_in_a_branch_ends_it():
    converted = autograph.convert(first_or_fail)
    assert_same(converted(f32(1.)), first_or_fail(1.))
    with pytest.raises(ValueError, match='not positive: -3.0'):
        converted(f32(-2.))
    with pytest.raises(ValueError, match='not positive: -3'):
        first_or_fail(-2)
    assert 'cond' in staged(first_or_fail, f32(1.))


def test_raise_in_a_branch_vmap_checks_only_the_taken_path():
    batched = jax.vmap(autograph.convert(first_or_fail, jit=False))
    assert_same(batched(jnp.array([1., 2.])), jnp.array([2., 4.]))
    with pytest.raises(Exception, match='not positive: -2.0'):
        jax.block_until_ready(batched(jnp.array([1., -1.])))


def test_raise_in_else_branch():
    def f(x):
        if x > 0:
            y = x * 2
        else:
            raise ValueError('not positive')
        return y
    check(f, f32(3.))
    assert 'ag.raise_if(ag.not_(x > 0)' in autograph.to_code(f)
    with pytest.raises(ValueError, match='not positive'):
        autograph.convert(f)(f32(-3.))


def test_both_branches_raise():
    def f(x, y):
        if y > 0:
            if x > 0:
                raise ValueError('positive')
            else:
                raise KeyError('not positive')
        return x + y
    check(f, f32(1.), f32(-1.))
    with pytest.raises(ValueError, match='positive'):
        autograph.convert(f)(f32(1.), f32(1.))
    with pytest.raises(KeyError, match='not positive'):
        autograph.convert(f)(f32(-1.), f32(1.))


def scan_checked(x, n):
    i = 0
    while i < n:
        if x[i] < 0:
            raise ValueError(f'negative item at {i}')
        i += 1
    return i


def test_raise_in_a_staged_loop():
    converted = autograph.convert(scan_checked)
    assert_same(converted(jnp.ones(4), i32(3)), 3)
    assert_same(converted(jnp.ones(4).at[3].set(-1.), i32(3)), 3)  # item 3 is never read
    with pytest.raises(ValueError, match='negative item at 1'):
        converted(jnp.ones(4).at[1].set(-1.), i32(3))
    assert 'while' in staged(scan_checked, jnp.ones(4), i32(3))


def test_raise_in_a_staged_loop_under_vmap_ignores_finished_elements():
    batched = jax.vmap(autograph.convert(scan_checked, jit=False))
    x = jnp.array([[1., 1., -1.], [1., 1., 1.]])
    assert_same(batched(x, jnp.array([2, 3])), jnp.array([2, 3]))
    with pytest.raises(Exception, match='negative item at 2'):
        jax.block_until_ready(batched(x, jnp.array([3, 3])))


def test_exception_class_and_python_raise_at_trace_time_show_no_tracer():
    def f(x, mode):
        if mode == 'strict':
            raise ValueError(f'strict mode is not supported for {x}')
        if x > 10:
            raise OverflowError
        return x
    with pytest.raises(ValueError) as info:
        autograph.convert(f)(f32(1.), 'strict')
    assert '<traced float32[]>' in str(info.value) and 'Traced<' not in str(info.value)
    with pytest.raises(OverflowError):
        autograph.convert(f)(f32(11.), 'lax')
    check(f, f32(1.), 'lax')


def test_raise_inside_try_with_handler_stays_python():
    def f(x, key):
        try:
            if key not in ('a', 'b'):
                raise KeyError(key)
            y = x
        except KeyError:
            y = -x
        return y
    check(f, f32(2.), 'a')
    check(f, f32(2.), 'c')


def test_assert_in_a_branch_under_vmap_checks_only_the_taken_path():
    def f(x):
        if x > 0:
            assert x < 10, 'too large'
            x = x * 2
        return x
    batched = jax.vmap(autograph.convert(f, jit=False))
    assert_same(batched(jnp.array([1., -20.])), jnp.array([2., -20.]))
    with pytest.raises(Exception, match='too large'):
        jax.block_until_ready(batched(jnp.array([1., 20.])))


def test_raise_after_break_under_vmap_checks_only_iterations_that_run():
    def f(x):
        total = 0.
        for v in x:
            if v == 0:
                break
            if v < 0:
                raise ValueError(f'negative {v}')
            total += v
        return total
    batched = jax.vmap(autograph.convert(f, jit=False))
    x = jnp.array([[1., 0., -1.], [1., 2., 3.]])
    assert_same(batched(x), jnp.array([f(row) for row in x]))
    with pytest.raises(Exception, match='negative -1.0'):
        jax.block_until_ready(batched(x.at[0, 1].set(-1.)))


# --- while True + return ----------------------------------------------------------------

def doubling(x):
    while True:
        x = x * 2
        if x > 10:
            return x
    return -1  # never runs


def test_while_true_whose_only_exit_is_return():
    check(doubling, 3.)
    check(doubling, f32(3.))
    assert 'while' in staged(doubling, f32(3.))
    assert 'return -1' not in autograph.to_code(doubling)


def test_while_true_with_return_in_nested_loop_and_break():
    def f(x, n):
        while True:
            for i in range(n):
                x = x + i
                if x > 20:
                    return x
            if x < -5:
                break
            x = x + 1
        return -x
    check(f, f32(1.), 4)
    check(f, f32(-9.), 2)


def test_loop_that_can_end_without_return_gives_none_at_the_boundary():
    """A value on some paths and None on others (issue 20): the Function gives None
    where Python does; inside someone else's jit, where no boundary exists, a named
    error."""
    def f(x, n):
        for i in range(n):
            if x > i:
                return x
    g = autograph.convert(f)
    for x, n in ((1., 3), (-1., 3), (5., 0)):
        result = g(f32(x), i32(n))
        assert (result is None) == (f(x, n) is None) and (
            result is None or float(result) == f(x, n))
    with pytest.raises(autograph.ControlFlowError, match=r'returns None\b.* on some paths'):
        jax.jit(autograph.convert(f, jit=False))(f32(1.), i32(3))


# --- return anywhere --------------------------------------------------------------------

class Recorder:
    def __init__(self):
        self.events = []

    @contextlib.contextmanager
    def block(self, name):
        self.events.append(f'enter {name}')
        yield
        self.events.append(f'exit {name}')


def test_return_under_if_in_with_followed_by_code():
    def f(x, rec):
        with rec.block('a'):
            if x > 0:
                return x * 2
            x = x - 1
        rec.events.append('after')
        return x
    for x in (f32(1.), f32(-1.), 1., -1.):
        expected_rec, rec = Recorder(), Recorder()
        assert_same(autograph.convert(f, jit=False)(x, rec), f(x, expected_rec))
        if not isinstance(x, jax.Array):
            assert rec.events == expected_rec.events


def test_return_in_try_finally_runs_finally_first():
    def f(x, log):
        try:
            if x > 0:
                return x + 1
            x = x * 3
        finally:
            log.append('finally')
        return x
    for x in (f32(2.), f32(-2.), 2., -2.):
        log, expected_log = [], []
        assert_same(autograph.convert(f, jit=False)(x, log), f(x, expected_log))
        assert log == expected_log


def test_variables_assigned_only_on_paths_that_did_not_return():
    def in_with(x):
        with contextlib.nullcontext():
            if x < 0:
                return 0.
            y = x * 2
        return y + 1

    def in_try(x):
        try:
            if x < 0:
                return 0.
            else:
                y = x * 3
        finally:
            pass
        return y
    for fn in (in_with, in_try):
        for x in (1., -1.):
            check(fn, f32(x))
            check(fn, x)
        assert 'cond' in staged(fn, f32(1.))
    assert "returned='false'" in autograph.to_code(in_with)


def test_return_in_nested_ifs_and_dead_code():
    def f(x, y):
        if x > 0:
            if y > 0:
                return x + y
                x = 'never'
            elif y < -1:
                return x - y
            y = y * 2
        else:
            return -x
        for i in range(3):
            y = y + i
            continue
            y = 'never'
        return x * y
    assert 'never' not in autograph.to_code(f)
    for x, y in ((1., 1.), (1., -2.), (1., -0.5), (-1., 0.)):
        check(f, f32(x), f32(y))
        check(f, x, y)


def test_unconvertible_construct_is_a_conversion_error_with_location():
    def f(n):
        total = 0
        for i in range(n):
            total = yield i
        return total
    with pytest.raises(autograph.ConversionError) as info:
        autograph.to_code(f)
    assert site(f, "total = yield i") in str(info.value)


def test_an_assignment_expression_in_a_while_test_is_pythons():
    def f(n):
        k = 0
        while (n := n - 1) > 0:
            k += n
        return n, k
    for n in (5, 0):
        assert autograph.convert(f)(n) == f(n)
        assert_same(autograph.convert(f)(jnp.int32(n)), f(n))


# --- match ------------------------------------------------------------------------------

def classify(x, k):
    match k:
        case 0 | 1:
            y = x
        case 2 if x > 0:
            y = -x
        case 3:
            return x * 10
        case n:
            y = x * n
    return y + 1


def test_match_on_python_and_traced_subjects():
    for k in range(5):
        for x in (2., -2.):
            check(classify, f32(x), k)
            check(classify, f32(x), i32(k))
    assert 'cond' in staged(classify, f32(1.), i32(2))


def test_match_subject_expression_is_evaluated_once():
    calls = []

    def key(k):
        calls.append(k)
        return k + 1

    def f(x, k):
        match key(k):
            case 1:
                return x
            case 2 | 3:
                return x * 2
            case None:
                return x * 0
            case _:
                return -x
    for k in range(4):
        check(f, f32(3.), i32(k))
    calls.clear()
    autograph.convert(f)(f32(3.), i32(9))
    assert len(calls) == 1


def test_match_with_return_in_a_loop():
    def f(x, ks):
        for k in ks:
            match k:
                case 0:
                    x = x + 1
                case 1:
                    return x
                case _:
                    x = x * 2
        return -x
    check(f, f32(1.), [0, 2, 1, 2])
    check(f, f32(1.), jnp.array([0, 2, 2]))
    check(f, f32(1.), jnp.array([0, 1, 2]))


class Point:
    __match_args__ = ('x', 'y')

    def __init__(self, x, y):
        self.x, self.y = x, y


def describe_shape(scale, shape):
    match shape:
        case Point(x=0, y=y):
            return scale * y
        case [a, b]:
            return scale * (a + b)
        case {'radius': r}:
            return scale * r * r
        case _:
            return -scale


def test_structural_match_on_python_values():
    for shape in (Point(0, 3.), Point(1, 2.), [1., 2.], {'radius': 2.}, 'other'):
        check(describe_shape, f32(2.), shape)


def test_structural_match_on_traced_subject_is_a_named_error():
    with pytest.raises(autograph.ControlFlowError) as info:
        autograph.convert(describe_shape)(f32(2.), f32(1.))
    message = str(info.value)
    assert 'class, sequence or mapping patterns' in message
    assert site(describe_shape, "match shape") in message


def test_control_flow_inside_a_structural_match_is_converted():
    def f(x, shapes):
        for shape in shapes:
            match shape:
                case [a, b]:
                    if x > a:
                        return x * a
                    x = x + b
                case {'k': k}:
                    x = x - k
        return x
    for x in (1., -5.):
        check(f, f32(x), [[0., 1.], {'k': 2.}, [3., 4.]])

    def g(x, shape):
        y = x
        match shape:
            case [a, b]:
                if x > a:
                    return x * a
                y = x + b
        return y * 2
    for x in (1., -1.):
        for shape in ([0., 1.], 'other'):
            check(g, f32(x), shape)


# --- generators given to convert --------------------------------------------------------

def numbers(x):
    yield x


async def coroutine(x):
    return x


async def async_numbers(x):
    yield x


@pytest.mark.parametrize('fn, kind', [(numbers, 'a generator'), (coroutine, 'a coroutine'),
                                      (async_numbers, 'an async generator')])
def test_generators_given_to_convert_are_conversion_errors(fn, kind):
    for jit in (True, False):
        with pytest.raises(autograph.ConversionError) as info:
            autograph.convert(fn, jit=jit)(f32(1.))
        assert fn.__qualname__ in str(info.value) and kind in str(info.value)


def positives(row):
    for v in range(row.shape[0]):
        if row[v] > 0:   # (a traced test in code that runs as Python)
            yield v


def count_positives(row):
    total = 0
    for v in positives(row):
        total += 1
    return total


def test_a_generator_deciding_on_traced_values_is_a_conversion_error_naming_it():
    assert autograph.convert(count_positives, jit=False)(np.array([0, 1, 0, 2])) == 2
    with pytest.raises(autograph.ConversionError) as info:
        autograph.convert(count_positives)(np.array([0, 1, 0, 2]))
    text = str(info.value)
    assert 'positives' in text and 'generator' in text and 'TracerBoolConversionError' in text


# --- what mismatch errors say -----------------------------------------------------------

def mismatch(fn, *args):
    with pytest.raises(autograph.ControlFlowError) as info:
        autograph.convert(fn)(*args)
    return str(info.value)


def test_texts_that_differ_inside_a_tuple_are_chosen_as_python_chooses():
    def f(x):   # (runtime.values.choice: texts inside containers too)
        if x > 0:
            y = ('hi',)
        else:
            y = ('',)
        return x, y
    for x in (f32(1.), f32(-1.)):
        assert autograph.convert(f)(x)[1] == f(x)[1]


def test_python_objects_that_differ_are_shown():
    def f(x):
        if x > 0:
            y = (slice(0, 2),)
        else:
            y = (slice(1, 3),)
        return x, y
    message = mismatch(f, f32(1.))
    assert "'y[0]' is a slice object in both branches" in message
    assert f'test_constructs.py:{line_of(f, "if x > 0")}' in message


def test_dict_key_one_branch_adds_exists_where_python_has_it():
    # (runtime.checks.keys; more in tests/test_dict_keys_presence.py)
    def f(x):
        y = {'a': x}
        if x > 0:
            y['b'] = x
        return y
    for x in (f32(1.), f32(-1.)):
        assert_same(autograph.convert(f)(x), f(x))


def test_dict_leaf_that_differs_is_named():
    def f(x):
        y = {'a': x, 'b': x}
        if x > 0:
            y['b'] = jnp.zeros(3)
        return y
    assert "'y['b']' is float32[3] in the true branch but float32[]" in mismatch(f, f32(1.))


def test_conditional_expression_names_the_users_expression():
    def f(x):
        return ('positive',) if x > 0 else x
    message = mismatch(f, f32(1.))
    assert "`return ('positive',) if x > 0 else x`" in message
    assert "gives the value tuple of 1 when its condition is true" in message
    assert "'value'" not in message


def test_return_values_that_differ_say_return_value():
    def f(x):
        if x > 0:
            return jnp.zeros(2)
        return x
    message = mismatch(f, f32(1.))
    assert 'the return value is float32[2] on one path but float32[] on another' in message
    assert f'{site(f, "if x > 0")} (`if x > 0:`)' in message
    assert 'retval' not in message and "'return'" not in message


def test_loop_carry_dict_key_path():
    def f(x, n):
        state = {'a': x, 'b': x}
        for i in range(n):
            state = {'a': state['a'] + 1, 'b': jnp.stack([state['b']] * 2)}
        return state
    assert "'state['b']' is float32[] before the staged loop" in mismatch(f, f32(1.), i32(3))


def test_loop_return_values_that_differ_say_return_value():
    def f(x, n):
        for i in range(n):
            if x > i:
                return x
            if x < -i:
                return jnp.zeros(3)
        return x
    message = mismatch(f, f32(1.), i32(3))
    assert 'the return value is float32[3] on one path but float32[] on another' in message
    assert 'retval' not in message


def test_python_numbers_compare_as_before():
    np.testing.assert_allclose(autograph.convert(doubling)(f32(0.5)), doubling(0.5))
