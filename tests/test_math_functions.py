"""The `math` module's functions of traced scalars (`math.exp(-cost * beta)` in a
Metropolis test, a distance's `math.sqrt`): Python's value, Python's errors raised when
the program runs where they hold (runtime/python/traced_math.py); Python numbers go to
Python's `math` itself. Ground truth: the same function run as plain Python."""
import math
import statistics
from math import sqrt

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def metropolis_accepts(cost, beta, u):
    if cost < 0:
        return 1
    elif u < math.exp(-cost * beta):
        return 2
    return 0


def many(x):
    return (sqrt(abs(x)), math.floor(x * 10), math.ceil(x), math.trunc(-x),
            math.isnan(x), math.isfinite(x), math.log(abs(x) + 1.0, 2.0),
            math.log10(abs(x) + 1.0), math.hypot(x, 2.0), math.atan2(x, 1.0),
            math.cos(x) + math.tanh(x) + math.erf(x) + math.copysign(1.0, x))


@pytest.mark.parametrize('cost, u', [(-1.0, 0.9), (1.0, 0.3), (1.0, 0.9)])
def test_a_metropolis_test_as_python(cost, u):
    expected = metropolis_accepts(cost, 0.5, u)
    assert int(autograph.convert(metropolis_accepts)(jnp.float32(cost), 0.5,
                                                      jnp.float32(u))) == expected


@pytest.mark.parametrize('x', [0.7, -2.25, 3.0])
def test_values_as_python(x):
    expected = many(x)
    converted = autograph.convert(many)
    got = converted(jnp.float32(x))
    for e, g in zip(expected, got):
        np.testing.assert_allclose(float(g), float(e), rtol=1e-5, atol=1e-6)
    assert got[1].dtype == jnp.int32 and got[4].dtype == jnp.bool_
    assert autograph.convert(many)(x) == expected      # Python numbers: Python's math
    batched = jax.vmap(converted)(jnp.asarray([x, -x], jnp.float32))
    np.testing.assert_allclose(batched[0], [math.sqrt(abs(x))] * 2, rtol=1e-6)


@pytest.mark.parametrize('fn, x, error, text', [
    (lambda x: math.sqrt(x), -1.0, ValueError, 'math domain error'),
    (lambda x: math.log(x), 0.0, ValueError, 'math domain error'),
    (lambda x: math.acos(x), 2.0, ValueError, 'math domain error'),
    (lambda x: math.exp(x), 1000.0, OverflowError, 'math range error'),
    (lambda x: math.floor(x), float('nan'), ValueError, 'NaN'),
    (lambda x: math.log(2.0, x), 1.0, ZeroDivisionError, 'division by zero')])
def test_pythons_errors_when_the_program_runs(fn, x, error, text):
    with pytest.raises(error, match=text):
        fn(x)
    with pytest.raises(error, match=text):
        autograph.convert(fn)(jnp.float32(x))


def two_arguments(x, y):
    return (math.pow(abs(x), y), math.fmod(x, y), math.remainder(x, y), math.ldexp(x, 3),
            math.gamma(abs(x) + 0.5), math.lgamma(abs(x) + 0.5), *math.modf(x),
            math.isclose(x, y, abs_tol=0.5), math.isclose(x, x + 1e-3, rel_tol=1e-2),
            math.fsum([x, y, 1.0]), math.dist((x, y), (0.0, 1.0)))


@pytest.mark.parametrize('x, y', [(2.5, 1.5), (7.0, -2.0), (-0.5, 3.0), (3.0, 3.0)])
def test_more_functions_of_two_scalars_as_python(x, y):
    """(TracedValueNeeded before: `math.pow`, `isclose`, `fmod`, `fsum`, ... stayed
    Python's, which needs the value)"""
    expected = two_arguments(x, y)
    got = autograph.convert(two_arguments)(jnp.float32(x), jnp.float32(y))
    for e, g in zip(expected, got):
        np.testing.assert_allclose(float(g), float(e), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('fn, x', [
    (lambda x: math.pow(x, 0.5), -1.0), (lambda x: math.pow(x, -1.0), 0.0),
    (lambda x: math.gamma(x), -2.0), (lambda x: math.lgamma(x), 0.0),
    (lambda x: math.fmod(x, 0.0), 1.0), (lambda x: math.remainder(x, 0.0), 1.0)])
def test_domain_errors_of_the_new_functions(fn, x):
    with pytest.raises(ValueError, match='math domain error'):
        fn(x)
    with pytest.raises(ValueError, match='math domain error'):
        autograph.convert(fn)(jnp.float32(x))


def test_only_where_the_path_taken_reaches_it():
    def guarded(x):
        if x > 0:
            return math.sqrt(x)
        return -1.0
    assert float(autograph.convert(guarded)(jnp.float32(-4.0))) == -1.0
    assert float(autograph.convert(guarded)(jnp.float32(4.0))) == 2.0


def test_gradient_and_generated_code():
    def distance(x, y):
        return math.sqrt(x * x + y * y)
    assert_same(jax.grad(autograph.convert(distance))(jnp.float32(3.0), jnp.float32(4.0)),
                np.float32(0.6))
    assert 'ag.math.sqrt(x * x + y * y)' in autograph.to_code(distance)


def test_a_name_math_that_is_not_the_module_stays():
    def shadowed(x, math):
        return math.exp(x)
    assert 'ag.math' not in autograph.to_code(shadowed)


def apply(f, x):
    return f(x)


def math_functions_as_values(x):
    transforms = [math.sin, math.exp, statistics.fmean]
    total = apply(math.sqrt, x) + apply(transforms[0], x)
    g = math.exp
    return total + g(x) + transforms[2]([x, 2.0 * x])


@pytest.mark.parametrize('x', [0.5, 2.0])
def test_math_functions_given_as_values(x):
    """`apply(math.sin, x)`, `g = math.exp; g(x)`: called by converted code with a traced
    value, as `math.sin(x)` is (TracedValueNeeded before)."""
    assert_same(autograph.convert(math_functions_as_values)(jnp.float32(x)),
                math_functions_as_values(x), rtol=1e-5)
    slope = jax.grad(autograph.convert(apply, jit=False), argnums=1)(math.sin, jnp.float32(x))
    assert_same(slope, math.cos(x), rtol=1e-5)
