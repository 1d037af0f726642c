"""`sum(item for k in range(n) if test)` where `n` is traced (a count a staged `while`
computed): Python iterates the generator, which cannot iterate a range with a traced
bound (a named error before); converted code sums it by one staged loop
(runtime.operators.sums). With Python bounds it stays Python's sum of the generator, a
traced test masking the items it drops. Ground truth: the same function run as plain
Python on the same inputs."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, converted, primitives


def doubled_until_large(x):
    n = 1
    while x * n < 10:      # (a traced test: `n` is traced after the loop)
        n *= 2
    return sum(x * k for k in range(n)), sum(x * k for k in range(1, n, 2) if k % 3 != 0)


def weighted(x, w, n):
    return sum(w[k] * x for k in range(n) if w[k] > 0), sum([k * x for k in range(3)], 1.0)


def test_a_sum_over_a_range_with_a_traced_bound():
    for x in (1.5, 0.25, 12.0):
        assert_same(autograph.convert(doubled_until_large)(jnp.float32(x)),
                    doubled_until_large(np.float32(x)))
    assert 'while' in primitives(doubled_until_large, jnp.float32(1.5))


@pytest.mark.parametrize('n', [0, 3, jnp.int32(4)], ids=['empty', 'python', 'traced'])
def test_traced_tests_and_bounds_python_or_traced(n):
    w = jnp.asarray([0.5, -1.0, 2.0, 0.0, 3.0])
    expected = weighted(np.float32(2.0), np.asarray(w), int(n))
    assert_same(autograph.convert(weighted)(jnp.float32(2.0), w, n), expected)
    assert_same(jax.jit(converted(weighted))(jnp.float32(2.0), w, n), expected)


def test_under_vmap_and_grad():
    xs = jnp.asarray([1.5, 0.25, 3.0])
    assert_same(jax.vmap(converted(doubled_until_large))(xs),
                tuple(np.stack(v) for v in zip(*[doubled_until_large(np.float32(x))
                                                 for x in np.asarray(xs)])))
    first = lambda x: doubled_until_large(x)[0]
    assert_same(jax.grad(converted(first))(jnp.float32(1.5)),
                float(sum(range(8))))   # (n = 8 at x = 1.5: d/dx of x * (0 + ... + 7))


def test_python_sums_keep_pythons_sum():
    code = autograph.to_code(weighted)
    assert code.count('ag.sum_over_range(ag.range(') == 2
    assert weighted(2.0, [1.0, 2.0], 2) == autograph.convert(weighted, jit=False)(
        2.0, [1.0, 2.0], 2)
