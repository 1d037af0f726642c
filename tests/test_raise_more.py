"""More `raise` and `assert` as real code writes them: `raise ... from ...`, `raise`
inside `try/except`, a stored exception raised again, raises in staged loops and nested
functions, and assert messages that format traced values. Each converted result is
compared with the same function run as plain Python."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, check, f32, i32, primitives, site, staged

pytestmark = pytest.mark.x64


def python_error(fn, *args):
    with pytest.raises(Exception) as info:
        fn(*args)
    return info.value


# --- raise ... from ... -----------------------------------------------------------------

def checked_sqrt(x):
    if x < 0:
        raise ValueError(f'negative input {x}') from ArithmeticError('sqrt domain')
    return jnp.sqrt(x)


def test_raise_from_with_python_values():
    check(checked_sqrt, 4.)
    expected = python_error(checked_sqrt, -1.)
    error = python_error(autograph.convert(checked_sqrt), -1.)
    assert type(error) is type(expected) and str(error) == str(expected)
    assert type(error.__cause__) is ArithmeticError and str(error.__cause__) == 'sqrt domain'
    assert error.__suppress_context__


@pytest.mark.parametrize('jit', [True, False])
def test_raise_from_under_traced_condition_checks_at_run_time(jit):
    converted = autograph.convert(checked_sqrt, jit=jit)
    assert_same(converted(f32(4.)), checked_sqrt(4.))
    with pytest.raises(ValueError) as info:
        jax.block_until_ready(converted(f32(-1.)))
    assert str(info.value) == 'negative input -1.0'
    assert type(info.value.__cause__) is ArithmeticError
    assert str(info.value.__cause__) == 'sqrt domain'
    where = site(checked_sqrt, "raise ValueError")
    file, line = where.split(':')
    notes = '\n'.join(info.value.__notes__)
    assert where in notes or f'{file}", line {line}' in notes
    assert 'debug_callback' in primitives(checked_sqrt, f32(4.))
    assert 'ag.caused(ValueError(' in autograph.to_code(checked_sqrt)


def test_raise_from_under_jit_vmap_and_grad():
    jitted = jax.jit(autograph.convert(checked_sqrt, jit=False))
    assert_same(jitted(f32(9.)), 3.)
    with pytest.raises(Exception, match='negative input -2.0'):
        jax.block_until_ready(jitted(f32(-2.)))
    batched = jax.vmap(autograph.convert(checked_sqrt, jit=False))
    assert_same(batched(jnp.array([1., 4.])), jnp.array([1., 2.]))
    with pytest.raises(Exception, match='negative input -4.0'):
        jax.block_until_ready(batched(jnp.array([1., -4.])))
    grad = jax.grad(autograph.convert(checked_sqrt, jit=False))
    assert_same(grad(f32(4.)), jax.grad(jnp.sqrt)(4.))


def from_stored(x, cause):
    if x < 0:
        raise KeyError from cause
    return x + 1


@pytest.mark.parametrize('cause', [None, ValueError('why'), ValueError])
def test_raise_class_from_stored_cause_or_none(cause):
    expected = python_error(from_stored, -1., cause)
    check(from_stored, f32(1.), cause)
    for x in (-1., f32(-1.)):
        error = python_error(autograph.convert(from_stored), x, cause)
        assert type(error) is KeyError and error.__suppress_context__
        assert type(error.__cause__) is type(expected.__cause__)
        assert str(error.__cause__) == str(expected.__cause__)


def test_raise_from_a_non_exception_is_pythons_type_error():
    with pytest.raises(TypeError, match='exception causes must derive from BaseException'):
        from_stored(-1., 3)
    with pytest.raises(TypeError, match='exception causes must derive from BaseException'):
        autograph.convert(from_stored)(f32(-1.), 3)


def test_raise_from_in_a_staged_branch():
    def f(x):
        if x > 0:
            y = x * 2
        else:
            y = x
            raise OverflowError(f'too small {y}') from None
        return y
    check(f, f32(2.))
    with pytest.raises(OverflowError, match='too small -3.0') as info:
        autograph.convert(f)(f32(-3.))
    assert info.value.__cause__ is None and info.value.__suppress_context__


# --- raise inside try/except ------------------------------------------------------------

def guarded(x):
    try:
        if x < 0:
            raise ValueError('negative')
        y = x * 2
    except ValueError:
        y = -x
    return y


def test_raise_inside_try_with_python_values_is_python():
    check(guarded, 3.)
    check(guarded, -3.)


def test_traced_raise_that_except_would_catch_is_a_named_error():
    for x in (f32(3.), f32(-3.)):   # no silent wrong value for either input
        with pytest.raises(autograph.ControlFlowError) as info:
            autograph.convert(guarded)(x)
        message = str(info.value)
        assert site(guarded, "raise ValueError") in message
        assert 'inside the `try` at ' in message
        assert site(guarded, "try:") in message
        assert 'its condition is a traced value' in message
        assert 'jnp.where' in message
    code = autograph.to_code(guarded)
    assert 'with ag.handlers(ValueError) as try_body:' in code
    assert 'with try_body:' in code


def test_raise_in_staged_branch_inside_try_is_a_named_error():
    def f(x):
        try:
            if x > 0:
                y = jnp.log(x)
            else:
                y = x
                raise ArithmeticError('log of a non-positive number')
        except Exception:   # the user's catch-all must not swallow our error either
            y = jnp.zeros(())
        return y
    check(f, 2.)
    check(f, -2.)
    with pytest.raises(autograph.ControlFlowError, match='staged into lax') as info:
        autograph.convert(f)(f32(2.))
    assert site(f, "raise ArithmeticError") in str(info.value)


def test_traced_raise_in_a_called_function_inside_try_is_a_named_error():
    def validate(v):
        if v < 0:
            raise ValueError(f'negative {v}')
        return v

    def f(x):
        try:
            y = validate(x)
        except ValueError:
            y = jnp.zeros(())
        return y
    check(f, 2.)
    check(f, -2.)
    with pytest.raises(autograph.ControlFlowError) as info:
        autograph.convert(f)(f32(2.))
    assert site(validate, "raise ValueError") in str(info.value)


def test_traced_raise_that_except_does_not_catch_stays_a_run_time_check():
    def f(x, key):
        try:
            table = {'a': 1.}
            if x < 0:
                raise ValueError(f'negative {x}')
            y = x * table[key]
        except KeyError:
            y = x
        return y
    check(f, f32(2.), 'a')
    check(f, f32(2.), 'b')
    with pytest.raises(ValueError, match='negative -2.0'):
        autograph.convert(f)(f32(-2.), 'a')


def test_python_raise_caught_inside_a_staged_loop_is_python():
    def f(x, mode):
        total = 0.
        for v in x:
            try:
                if mode == 'strict':
                    raise KeyError(mode)
                total = total + v
            except KeyError:
                total = total - v
        return total
    x = jnp.arange(1., 5.)
    check(f, x, 'strict')
    check(f, x, 'lax')
    assert staged(f, x, 'strict') and staged(f, x, 'lax')


def test_raise_in_handler_under_traced_condition_checks_at_run_time():
    def f(x, key):
        try:
            scale = {'a': 2.}[key]
        except KeyError as error:
            if x < 0:
                raise ValueError(f'no scale for {x}') from error
            scale = 1.
        return x * scale
    check(f, f32(2.), 'a')
    check(f, f32(2.), 'b')
    with pytest.raises(ValueError, match='no scale for -2.0') as info:
        autograph.convert(f)(f32(-2.), 'b')
    assert type(info.value.__cause__) is KeyError


def test_bare_raise_in_handler_under_traced_condition():
    def f(x, key):
        try:
            v = {'a': 1.}[key]
        except KeyError:
            if x < 0:
                raise
            v = 0.
        return x + v
    check(f, f32(1.), 'b')      # (Python's `except` does not catch its own clause's raise)
    check(f, f32(-1.), 'a')
    assert 'ag.raise_if(x < 0, ag.reraise())' in autograph.to_code(f)
    for x in (-1., f32(-1.)):
        with pytest.raises(KeyError, match="'b'"):
            autograph.convert(f)(x, 'b')


def test_raise_in_inner_handler_caught_by_outer_try_is_a_named_error():
    def f(x, key):
        try:
            try:
                v = {'a': 1.}[key]
            except KeyError:
                if x < 0:
                    raise ValueError('no value')
                v = 0.
        except ValueError:
            v = -1.
        return x + v
    check(f, -1., 'b')
    check(f, 1., 'b')
    check(f, f32(-1.), 'a')
    with pytest.raises(autograph.ControlFlowError, match='whose `except` would catch it'):
        autograph.convert(f)(f32(1.), 'b')


# --- raise in loops, nested functions, stored exceptions --------------------------------

def first_negative_guard(x):
    total = 0.
    for i in range(x.shape[0]):
        if x[i] < 0:
            raise ValueError(f'item {i} is negative: {x[i]}')
        total = total + x[i]
    return total


def test_raise_in_staged_range_loop_formats_run_time_values():
    x = jnp.arange(1., 40.)
    check(first_negative_guard, x)
    bad = x.at[17].set(-5.)
    expected = python_error(first_negative_guard, bad)
    with pytest.raises(ValueError) as info:
        autograph.convert(first_negative_guard)(bad)
    assert str(info.value) == str(expected) == 'item 17 is negative: -5.0'
    batched = jax.vmap(autograph.convert(first_negative_guard, jit=False))
    assert_same(batched(jnp.stack([x, x + 1])), jnp.stack([x.sum(), (x + 1).sum()]))
    with pytest.raises(Exception, match='item 17 is negative'):
        jax.block_until_ready(batched(jnp.stack([x, bad])))


def test_raise_in_while_loop_with_python_values_is_python():
    def f(n):
        i = 0
        while i < n:
            if i == 3:
                raise StopIteration(f'stopped at {i}')
            i += 1
        return i
    check(f, 2)
    check(f, i32(2))
    assert str(python_error(autograph.convert(f), 5)) == 'stopped at 3'
    with pytest.raises(StopIteration, match='stopped at 3'):
        autograph.convert(f)(i32(5))


def test_raise_in_nested_function_checks_at_run_time():
    def outer(x, limit):
        def guard(v):
            if v > limit:
                raise OverflowError(f'{v} exceeds {limit}')
            return v
        return guard(x) + guard(x * 2)
    check(outer, f32(1.), f32(10.))
    check(outer, 1., 10.)
    assert str(python_error(autograph.convert(outer), 6., 10.)) == '12.0 exceeds 10.0'
    with pytest.raises(OverflowError, match='12.0 exceeds 10.0'):
        autograph.convert(outer)(f32(6.), f32(10.))


def test_stored_exception_raised_again():
    def f(x):
        error = ValueError('stored')
        if x < 0:
            raise error
        return x * 3
    check(f, f32(1.))
    check(f, 1.)
    for x in (-1., f32(-1.)):
        with pytest.raises(ValueError) as info:
            autograph.convert(f)(x)
        assert str(info.value) == 'stored'
    grad = jax.grad(autograph.convert(f, jit=False))
    assert_same(grad(f32(1.)), 3.)


def test_exception_instance_passed_in_keeps_its_identity():
    error = LookupError('shared')

    def f(x, error):
        if x < 0:
            raise error
        return x
    converted = autograph.convert(f)
    for _ in range(2):   # raised twice: the note naming the line is added once
        with pytest.raises(LookupError) as info:
            converted(f32(-1.), error)
        assert info.value is error
    assert len(error.__notes__) == 1


# --- assert messages --------------------------------------------------------------------

def positive(x, n):
    assert x > 0, f'x must be positive, got {x} (n={n})'
    return x * n


def test_assert_message_formats_run_time_values():
    check(positive, f32(2.), 3)
    expected = python_error(positive, -2., 3)   # (pytest appends its own text to it)
    error = python_error(autograph.convert(positive), f32(-2.), 3)
    assert type(error) is AssertionError and str(expected).startswith(str(error))
    error = python_error(autograph.convert(positive), f32(-2.), i32(3))
    assert str(error) == 'x must be positive, got -2.0 (n=3)'
    batched = jax.vmap(autograph.convert(positive, jit=False), in_axes=(0, None))
    with pytest.raises(Exception, match='got -2.0'):
        jax.block_until_ready(batched(jnp.array([1., -2.]), 3))


def test_python_assert_in_a_staged_branch_fails_only_when_taken():
    def f(x, n):
        if x > 0:
            assert n < 5, f'n too large: {n}'
            x = x * n
        return x
    check(f, f32(-1.), 7)    # the branch is not taken: no error, as in Python
    check(f, f32(2.), 3)
    with pytest.raises(AssertionError, match='n too large: 7'):
        autograph.convert(f)(f32(2.), 7)


def test_assert_without_message_and_with_non_text_message():
    def f(x):
        assert x > 0
        assert x < 10, x
        return x
    check(f, f32(1.))
    assert str(python_error(autograph.convert(f), f32(-1.))) == ''
    assert str(python_error(autograph.convert(f), f32(11.))) == '11.0'


# --- an exception built by statements, then raised: built only when the check fails -------

def walk_to_limit(xs, limit):
    total = 0.0
    for i in range(xs.shape[0]):
        total = total + xs[i]
        if total > limit:
            err = OverflowError(f'total {total} over {limit} at {i}')
            err.index = i
            raise err
    return total


def test_an_exception_built_then_raised_is_made_when_the_program_runs():
    converted = autograph.convert(walk_to_limit)
    assert float(converted(jnp.arange(4.0), 100.0)) == walk_to_limit(np.arange(4.0), 100.0)
    with pytest.raises(OverflowError) as python:
        walk_to_limit(np.arange(4.0, dtype=np.float32), np.float32(2.0))
    with pytest.raises(OverflowError) as ours:
        converted(jnp.arange(4.0), 2.0)
    assert str(ours.value) == str(python.value) and ours.value.index == python.value.index
    batched = jax.vmap(converted, in_axes=(0, None))(jnp.ones((3, 4)), 100.0)
    np.testing.assert_allclose(batched, [4.0] * 3)
    assert 'def make_error(' in autograph.to_code(walk_to_limit)
