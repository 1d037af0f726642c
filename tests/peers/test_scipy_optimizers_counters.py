"""Counters of objective calls kept in a list by a wrapper, as SciPy's optimizers keep them
(`ncalls, f = _wrap_scalar_function(func, args)` in `scipy/optimize/_optimize.py`), and
values bound only inside a loop that may run zero times, in functions written afresh for
JAX values: the converted function must count, and fail, as Python does."""
import jax.numpy as jnp
import pytest

import autograph
from tests.peers.scipy_harness import agree, f32
from tests.helpers import counting
from tests.peers.test_scipy_optimizers import INV_PHI, INV_PHI2, bumpy


def golden_search_wrapped(func, lo, hi, tol=1e-3):
    """`golden_search` with its objective wrapped by a helper that returns the counter."""
    calls, f = counting(func)
    x0, x3 = lo, hi
    x1, x2 = x0 + INV_PHI2 * (x3 - x0), x0 + INV_PHI * (x3 - x0)
    f1, f2 = f(x1), f(x2)
    while abs(x3 - x0) > tol * (abs(x1) + abs(x2)):
        if f2 < f1:
            x0, x1, f1 = x1, x2, f2
            x2 = INV_PHI * x1 + INV_PHI2 * x3
            f2 = f(x2)
        else:
            x3, x2, f2 = x2, x1, f1
            x1 = INV_PHI * x2 + INV_PHI2 * x0
            f1 = f(x1)
    return x1, f1, calls[0]



def test_golden_search_counter_from_a_wrapping_helper():
    # plain: 17 calls (x, f agree); converted: 4 (2 before the loop + 1 per traced branch)
    agree(lambda a, b: golden_search_wrapped(bumpy, a, b), f32(0.), f32(3.))


def test_counter_from_a_wrapping_helper_in_a_staged_loop():
    def halvings(x):
        calls, f = counting(jnp.cos)
        while x > 0.1:
            x = x * 0.5 + 0.0 * f(x)
        return x, calls[0]
    agree(halvings, f32(3.))                      # plain 5 calls, converted 1


def test_counter_from_a_wrapping_helper_in_a_staged_if():
    def one_call(x):
        calls, f = counting(jnp.cos)
        if x > 0:
            y = f(x)
        else:
            y = f(-x)
        return y, calls[0]
    agree(one_call, f32(0.5))                     # plain 1 call, converted 2


def test_counter_in_a_local_closure_is_state():
    # the same counter made in the function itself is carried (the contrast to the above)
    def halvings(x):
        calls = [0]

        def f(y):
            calls[0] += 1
            return jnp.cos(y)
        while x > 0.1:
            x = x * 0.5 + 0.0 * f(x)
        if x > 0.05:
            x = x + 0.0 * f(x)
        else:
            x = x - 0.0 * f(x)
        return x, calls[0]
    agree(halvings, f32(3.))
    agree(halvings, f32(0.15))


# --- values bound only inside a loop that may run zero times -------------------------------

def damped_steps(func, x, n):
    """n damped fixed-point steps and the last residual, bound only inside the loop."""
    for _ in range(n):
        r = func(x)
        x = x - 0.5 * r
    return x, r


def halve_below(x, tol):
    """Halve x until it is at most tol, and the value before the last halving."""
    while x > tol:
        last = x
        x = x * 0.5
    return x, last


def test_loop_bound_value_with_trips():
    agree(lambda x, n: damped_steps(jnp.sin, x, n), f32(1.), jnp.int32(3))
    agree(lambda x, n: damped_steps(jnp.sin, x, n), f32(1.), 3)
    agree(halve_below, f32(5.), f32(0.3))


@pytest.mark.parametrize('call, args', [
    (lambda x, n: damped_steps(jnp.sin, x, n), (f32(1.), jnp.int32(0))),
    (halve_below, (f32(0.1), f32(0.3)))])
def test_loop_bound_value_without_trips_raises_as_python(call, args):
    with pytest.raises(UnboundLocalError):
        call(*args)
    with pytest.raises(UnboundLocalError):
        autograph.convert(call)(*args)
