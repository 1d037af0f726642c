"""A user function that cannot be converted is called as plain Python from converted code
(with a warning, as TensorFlow's AutoGraph does). Where that fails on the JAX values it is
given -- JAX or NumPy raising inside it -- the caller gets a ConversionError naming the
function, why it could not be converted and JAX's error, not JAX's error alone; an error
the function raises itself, and a function that runs fine unconverted, are unchanged."""
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph


def bump(a, i):
    a[i] += 1
    return a[i]


def refused_then_writes(a, x):
    values = [bump(a, i) for i in range(2)]   # (refused: writes of `a` in a comprehension)
    return x + values[0]


def refused_then_branches(a, x):
    values = [bump(a, i) for i in range(2)]
    if x > 0:
        x = x + values[0]
    return x


def refused_then_raises(a, x):
    values = [bump(a, i) for i in range(2)]   # (`a` a list: it runs as Python)
    if len(values) == 2:
        raise KeyError('the function\'s own error')
    return x


def refused_on_a_list(a, x):
    values = [bump(a, i) for i in range(2)]
    return x + values[0]


def caller_on_a_list(a, x):
    return refused_on_a_list(a, x) * 2


def caller_writes(a, x):
    return refused_then_writes(a, x) * 2


def caller_branches(a, x):
    return refused_then_branches(a, x) * 2


def caller_raises(a, x):
    return refused_then_raises(a, x) * 2


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', UserWarning)
        yield


@pytest.mark.parametrize('caller, given, jax_error', [
    (caller_writes, np.zeros, 'TypeError: JAX arrays are immutable'),   # (`a` traced)
    (caller_branches, lambda n: [0.0] * n, 'TracerBoolConversionError')])   # (`x` traced)
@pytest.mark.parametrize('jit', [False, True])
def test_a_refused_function_failing_on_jax_values_is_named(caller, given, jax_error, jit):
    assert caller(given(3), 1.0) == caller(given(3), 1.0)   # valid Python
    run = autograph.convert(caller)
    if jit:
        run = jax.jit(run)
    with pytest.raises(autograph.ConversionError) as info:
        run(given(3), jnp.asarray(1.0))
    message = str(info.value)
    name = caller.__name__.replace('caller', 'refused_then')
    assert message.startswith(f'{name} (tests/test_unconverted_callees.py:')
    assert 'a call that writes items of an array it is given' in message
    assert jax_error in message


def test_the_functions_own_error_is_unchanged():
    with pytest.raises(KeyError, match="the function's own error"):
        caller_raises([0.0, 0.0], 1.0)
    with pytest.raises(KeyError, match="the function's own error"):
        autograph.convert(caller_raises)([0.0, 0.0], jnp.asarray(1.0))


def test_a_refused_function_that_runs_unconverted_gives_pythons_value():
    a, b = [0.0, 0.0], [0.0, 0.0]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', UserWarning)
        result = autograph.convert(caller_on_a_list)(a, jnp.asarray(1.0))
    assert result == caller_on_a_list(b, 1.0) and a == b == [1.0, 1.0]
    assert any('refused_on_a_list is called unconverted' in str(w.message) for w in caught)
