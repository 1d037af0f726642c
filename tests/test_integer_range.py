"""A Python int that staged code carries is JAX's int32 (int64 with jax_enable_x64);
Python's ints have no limit. A Python int beyond that range meeting a traced integer
(`seed = (a * seed + c) % 2 ** 31`, a linear congruential generator in a staged loop)
was JAX's raw OverflowError from inside the runtime: now the named IntegerRange (a
ControlFlowError and an OverflowError) at the user's line, saying why and what to do.
With 64-bit values the same code gives Python's numbers."""
import jax
import jax.numpy as jnp
import pytest

import autograph
from autograph.errors import ControlFlowError, IntegerRange

pytestmark = pytest.mark.x64
X64 = jax.config.jax_enable_x64


def lcg_walk(x0, n):
    seed = 12345
    x = x0
    for i in range(n):
        seed = (1103515245 * seed + 12345) % 2 ** 31
        if seed < 2 ** 30:
            x = x - 1.0
        else:
            x = x + 1.0
    return x, seed


def test_a_python_int_beyond_the_traced_integers_range():
    if X64:
        x, seed = autograph.convert(lcg_walk)(jnp.float32(0.0), 6)
        assert (float(x), int(seed)) == lcg_walk(0.0, 6)
        return
    with pytest.raises(IntegerRange, match=r'2147483648 at .*test_integer_range.py:22'):
        autograph.convert(lcg_walk)(jnp.float32(0.0), 6)
    assert issubclass(IntegerRange, ControlFlowError) and issubclass(IntegerRange,
                                                                     OverflowError)
    assert "% 2 ** 31" in autograph.to_code(lcg_walk)   # (a literal divisor: unchecked)


def whole_part(x):
    return int(x * 1e10)


def test_int_of_a_traced_float_beyond_the_integers_range_is_named():
    # (Python's int() gives 25000000000; it was a bare OverflowError, not the project's)
    if X64:
        x = jnp.float32(2.5)   # (float32 arithmetic on both sides)
        assert int(autograph.convert(whole_part)(x)) == whole_part(x)
        return
    with pytest.raises(IntegerRange, match=r'int\(\) of a traced value out of the range'):
        autograph.convert(whole_part)(jnp.float32(2.5))
    assert autograph.convert(whole_part)(jnp.float32(2.5e-10)) == whole_part(2.5e-10)
