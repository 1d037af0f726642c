"""Division of values plain Python holds as numbers (`int()`/`float()` of a traced value,
a staged `range` loop's counter, `len`, literals, their arithmetic) keeps Python's
ZeroDivisionError (autograph.passes.division, runtime.python.division): JAX would give
inf, nan or some integer, a silent wrong value. Arrays keep their own division (NumPy's
and JAX's give inf without an error). Ground truth: the same function run as plain
Python on the same inputs."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, converted


def decimate_step(n):
    k = int(n[0])
    return 100 // k, 100 % k


def share(w):
    total = float(np.sum(w))
    return float(w[0]) / total


def harmonic(x, n):
    """A counter of a staged loop divides a number: Python raises where it is zero."""
    shift = int(x)
    s = 0.0
    t = x * 0.0
    for i in range(n):
        s += 1.0 / (i - shift)
        t = t + x / (i + 1)    # (an array divided: JAX's meaning, as plain Python's)
    return s, t


def halving(v):
    m = int(v)
    steps = 0
    while m > 1:
        m //= 2
        steps += 1
    return steps, len([1, 2, 3]) / 2


def arrays_only(x, y):
    return x / y, x // jnp.maximum(y, 1.0)


def python_outcome(fn, *args):
    try:
        return fn(*args)
    except ZeroDivisionError as error:
        return error


@pytest.mark.parametrize('fn, args', [
    (decimate_step, (np.asarray([4.0], np.float32),)),
    (decimate_step, (np.asarray([0.0], np.float32),)),
    (share, (np.asarray([1.0, 3.0], np.float32),)),
    (share, (np.asarray([0.0, 0.0], np.float32),)),
    (harmonic, (np.float32(7.0), 4)),
    (harmonic, (np.float32(2.0), 4)),
    (halving, (np.float32(37.0),)),
])
def test_python_numbers_divide_as_python(fn, args):
    expected = python_outcome(fn, *args)
    traced = tuple(jnp.asarray(a) if isinstance(a, (np.ndarray, np.floating)) else a
                   for a in args)
    if isinstance(expected, ZeroDivisionError):
        with pytest.raises(ZeroDivisionError, match=str(expected)):
            autograph.convert(fn)(*traced)
        with pytest.raises(Exception, match=f'ZeroDivisionError: {expected}'):
            # (under the caller's jit, JAX's error names it: see tests/test_checks.py)
            jax.block_until_ready(jax.jit(autograph.convert(fn))(*traced))
        return
    assert_same(autograph.convert(fn)(*traced), expected)
    assert_same(jax.jit(autograph.convert(fn))(*traced), expected)


def test_under_vmap_the_check_raises_where_an_element_divides_by_zero():
    batched = jax.vmap(autograph.convert(decimate_step))
    assert_same(batched(jnp.asarray([[4.0], [5.0]])),
                tuple(jnp.asarray(v) for v in zip(decimate_step([4.0]), decimate_step([5.0]))))
    with pytest.raises(ZeroDivisionError):
        jax.block_until_ready(batched(jnp.asarray([[4.0], [0.0]])))


def test_arrays_keep_their_division_and_the_loop_stays_staged():
    x, y = jnp.asarray([1.0, 2.0]), jnp.asarray([0.0, 4.0])
    assert_same(autograph.convert(arrays_only)(x, y), arrays_only(x, y))
    assert 'divide' not in autograph.to_code(arrays_only)
    code = autograph.to_code(harmonic)
    assert "ag.divide(1.0, i - shift, '/')" in code and 'x / (i + 1)' in code
    jaxpr = str(jax.make_jaxpr(converted(harmonic))(jnp.float32(7.0), jnp.int32(4)))
    assert 'while' in jaxpr or 'scan' in jaxpr


def ratio(x):
    a = float(x)
    return a / (a + a * a)


def test_gradient_through_a_checked_division():
    assert_same(jax.grad(converted(ratio))(jnp.float32(2.0)),
                jax.grad(lambda x: x / (x + x * x))(jnp.float32(2.0)))
    assert "ag.divide(a, a + a * a, '/')" in autograph.to_code(ratio)
