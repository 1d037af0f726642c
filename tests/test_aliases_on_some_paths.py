"""A name that is the same NumPy array as another (`c = a`) on some paths only: a flag
follows which, so writes through either name reach the other only where they are one
array (analysis.views' 'if view'). The iterative solvers' `x0 = x1` at the end of a sweep
that reads `x0` and writes `x1` (Gauss-Seidel proper from the second sweep on), `prev =
a` at the end of a loop, `y = a` under a traced `if`. Ground truth: the same function run
as plain Python on NumPy arrays; the arrays the caller gave must end as Python leaves
them too."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.errors import UnsupportedSyntax
from tests.helpers import agree_with_numpy as agree, assert_same


def gauss_seidel(A, b, sweeps):
    n = len(b)
    x0 = np.ones(n)
    x1 = np.zeros(n)
    for _ in range(sweeps):
        for i in range(n):
            k1 = 0.0
            for j in range(i):
                k1 += A[i, j] * x1[j]
            k2 = 0.0
            for j in range(i + 1, n):
                k2 += A[i, j] * x0[j]
            x1[i] = (b[i] - k1 - k2) / A[i, i]
        x0 = x1
    return x0


def alias_under_a_test(a, c):
    y = np.ones(3)
    if c > 0:
        y = a
    a[0] = 7.0       # seen through `y` where it is `a`
    y += 1.0         # changes `a` where `y` is `a`
    return y, a


def alias_at_the_end_of_each_step(a, n):
    prev = a * 0
    for k in range(n):
        prev += 1.0
        a[k % 3] = a[k % 3] + prev[0]
        prev = a
    return prev, a


A = np.array([[4.0, 0.0, 1.0], [1.0, 4.0, 1.0], [1.0, 0.0, 4.0]])
B = np.array([3.0, -1.0, 2.0])




@pytest.mark.parametrize('sweeps', [0, 1, 3, 10])
def test_gauss_seidel_x0_is_x1_from_the_second_sweep(sweeps):
    agree(gauss_seidel, A, B, sweeps)
    agree(gauss_seidel, A + 1.0, B * 2.0, sweeps)


def test_gauss_seidel_under_jit_and_vmap():
    expected = gauss_seidel(A, B, 10)
    converted = autograph.convert(gauss_seidel)
    run = jax.jit(converted, static_argnums=2)
    np.testing.assert_allclose(run(jnp.asarray(A), jnp.asarray(B), 10), expected, rtol=1e-5)
    batch = jax.vmap(converted, in_axes=(None, 0, None))(jnp.asarray(A),
                                                         jnp.stack([B, 2 * B]), 10)
    np.testing.assert_allclose(batch[1], gauss_seidel(A, 2 * B, 10), rtol=1e-5)


@pytest.mark.parametrize('c', [1.0, -1.0])
def test_an_alias_under_a_traced_test(c):
    agree(alias_under_a_test, np.arange(3.0), c)
    agree(alias_under_a_test, np.arange(3.0), jnp.float32(c))


def test_an_alias_under_a_traced_test_under_vmap():
    cs = jnp.array([1.0, -1.0])
    out = jax.vmap(autograph.convert(alias_under_a_test), in_axes=(None, 0))(
        jnp.arange(3.0), cs)
    for k, c in enumerate([1.0, -1.0]):
        expected = alias_under_a_test(np.arange(3.0), c)
        assert_same((out[0][k], out[1][k]), expected)


@pytest.mark.parametrize('n', [0, 1, 4])
def test_an_alias_taken_at_the_end_of_each_step(n):
    agree(alias_at_the_end_of_each_step, np.arange(3.0), n)
    agree(alias_at_the_end_of_each_step, np.arange(3.0), jnp.int32(n))


def test_the_flag_in_the_generated_code():
    code = autograph.to_code(gauss_seidel)
    assert 'x0_is_view = True' in code
    assert 'ag.read_view(x1, x0_key, x0, where=x0_is_view)' in code


def bound_by_a_loop_target(a, rows):
    y = a
    s = 0.0
    for k in range(2):
        a[2] = a[2] + k
        s = s + y[2]
        for y in (rows[0] * 2.0, rows[1] * 3.0):
            s = s + y[0]
        if k:
            y = a
    return s


def test_a_name_a_loop_target_binds_stays_a_named_error():
    with pytest.raises(UnsupportedSyntax, match="'y' is bound here"):
        autograph.convert(bound_by_a_loop_target)(np.arange(3.0), np.ones((2, 3)))


def test_a_read_that_is_dead_needs_no_flag():
    def rebound_before_read(a, rows):
        y = a
        for k in range(2):
            a[2] = y[1] + k
            y = a if k else rows[0]
        return y
    agree(rebound_before_read, np.arange(3.0), np.ones((2, 3)))
    assert '_is_view' not in autograph.to_code(rebound_before_read)
