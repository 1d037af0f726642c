"""Methods of Python numbers that traced scalars lack: `float(v).is_integer()` and
`n.bit_length()` (a raw AttributeError before: a tracer has no such method). A traced
scalar gives Python's answer as a traced value; a Python number, a NumPy scalar or an
object keeps its own method. Ground truth: the same function run as plain Python."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, converted


def whole_values(xs):
    count = 0
    for v in xs:
        if float(v).is_integer():
            count += 1
    return count


def bits(n):
    return int(n).bit_length() + abs(int(n) - 3).bit_length() * 10


class Flagged:
    def is_integer(self):
        return 'own'


@pytest.mark.parametrize('xs', [[1.0, 1.5, 2.0, -3.0], [0.25, np.inf, np.nan, 0.0]])
def test_is_integer_of_traced_floats(xs):
    expected = whole_values(np.array(xs))
    assert int(autograph.convert(whole_values)(jnp.asarray(xs))) == expected
    assert int(jax.jit(converted(whole_values))(jnp.asarray(xs))) == expected


@pytest.mark.parametrize('n', [0, 1, 3, 255, 256, -1000, 2 ** 31 - 1])
def test_bit_length_of_a_traced_int(n):
    assert int(autograph.convert(bits)(jnp.int32(n))) == bits(n)
    got = jax.vmap(converted(bits))(jnp.asarray([n, 7], jnp.int32))
    assert_same(got, jnp.asarray([bits(n), bits(7)]))


def test_other_receivers_keep_their_own_method():
    def f(x, obj):
        return x.is_integer(), obj.is_integer(), (2.5).is_integer()
    assert autograph.convert(f, jit=False)(4.0, Flagged()) == (True, 'own', False)
    assert 'ag.number_method(x, ' in autograph.to_code(f)
