"""A TypeError of an operation on the user's line in a staged branch or loop body
(`best * 0.1` with `best` None, a Welford/early-stopping sentinel read where the path
does not run): Python raises it only where that path runs, so it is a run-time check of
the path (runtime.checks.raises.on_path), as AttributeError, KeyError and IndexError
are (a raw TypeError while tracing before, idiom fuzzer R5). JAX's own errors (a traced
value where Python needs one) stay what they are. Ground truth: plain Python."""
import jax
import jax.numpy as jnp
import pytest

import autograph


def under_a_test(x, n):
    best = None
    if n > 0:
        x = x + best * 0.1
    return x


def in_a_loop(x, n):
    best = None
    for i in range(n):
        x = x + best * 0.1
    return x


def in_a_while(x, n):
    best = None
    i = 0
    while i < n:
        x = x + best * 0.1
        i += 1
    return x


def unorderable_tuples(x, n):
    k = 3
    if n > 0:   # (`ag.lt` compares the tuples: Python's TypeError is the line's)
        x = x + ((k % 3, 'p') < (0, 3)) * 0.1
    return x


@pytest.mark.parametrize('fn', [under_a_test, in_a_loop, in_a_while])
def test_raised_only_where_the_path_runs(fn):
    converted = autograph.convert(fn)
    assert float(converted(jnp.float32(1.0), jnp.int32(0))) == fn(1.0, 0)
    with pytest.raises(TypeError, match="unsupported operand type.*NoneType"):
        converted(jnp.float32(1.0), jnp.int32(2))
    out = jax.vmap(converted)(jnp.ones(2), jnp.array([0, 0]))
    assert list(out) == [1.0, 1.0]
    with pytest.raises(TypeError, match='NoneType'):
        jax.vmap(converted)(jnp.ones(2), jnp.array([0, 1]))


def needs_a_python_int(x, n):
    if n > 0:
        return list(range(int(x)))
    return []


def test_a_traced_value_where_python_needs_one_is_still_raised_while_tracing():
    with pytest.raises((autograph.ControlFlowError, jax.errors.ConcretizationTypeError)):
        autograph.convert(needs_a_python_int)(jnp.float32(3.0), jnp.int32(0))


def test_an_operators_type_error_is_raised_only_where_the_path_runs():
    converted = autograph.convert(unorderable_tuples)
    assert float(converted(jnp.float32(1.0), jnp.int32(0))) == 1.0
    with pytest.raises(TypeError, match="'<' not supported"):
        unorderable_tuples(1.0, 2)
    with pytest.raises(TypeError, match="'<' not supported"):
        converted(jnp.float32(1.0), jnp.int32(2))
