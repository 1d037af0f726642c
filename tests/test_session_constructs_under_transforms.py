"""This session's constructs under the caller's jax.vmap and jax.grad, against plain
Python per example: a slice beside a traced index (`M[s, 2:]`), an item's in-place sort
(`M[i].sort()` of a NumPy array the function makes), a helper given the array by keyword
(`scale(x=x, c=...)`), a conditional `prev = cur` (passes.unaliased), rows filled and
appended once complete (identity_uses.handed_on_last) and a counter beside them. The
reference is Python given JAX arrays, as the transforms give them (a helper's `x *= c`
of a JAX array rebinds its own name only)."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from tests.helpers import assert_same, converted


def tail_of_row(M, s):
    return M[s, 2:].sum()


def sorted_rows(x):
    M = np.outer(x, np.ones(3)) * np.arange(3.0)[::-1]
    for i in range(M.shape[0]):
        M[i].sort()
    return M[:, 0].sum() + M[:, 2].sum()


def scale(x, c):
    x *= c


def scaled_by_keyword(x):
    y = x * 1.0
    scale(c=2.0, x=y)
    return y.sum()


def kept_when_positive(x):
    prev = [0.0, 0.0]
    count = 0
    for i in range(x.shape[0]):
        cur = [prev[0] + x[i], prev[1] * 0.5 + 1.0]
        if x[i] > 0:
            prev = cur
            count += 1
    return prev[0] + prev[1] * count


def filled_rows(x):
    rows = []
    for i in range(3):
        r = np.zeros(2)
        r[0] = x[i]
        r[1] = x[i] * x[i]
        rows.append(r)
    return np.stack(rows).sum()


X = np.array([[1.0, -2.0, 3.0, 0.5], [-1.0, 2.0, 0.5, 4.0]], np.float32)
PER_EXAMPLE = [sorted_rows, scaled_by_keyword, kept_when_positive, filled_rows]


@pytest.mark.parametrize('fn', PER_EXAMPLE, ids=[f.__name__ for f in PER_EXAMPLE])
def test_under_vmap(fn):
    got = jax.vmap(converted(fn))(jnp.asarray(X))
    expected = [fn(jnp.asarray(row)) for row in X]   # (Python given JAX arrays, as vmap's)
    assert_same(got, np.array(expected, np.float32), rtol=1e-4)


def test_slice_beside_a_traced_index_under_vmap_and_grad():
    M = jnp.arange(12.0).reshape(3, 4)
    got = jax.vmap(converted(tail_of_row), in_axes=(None, 0))(M, jnp.arange(3))
    assert_same(got, np.array([np.asarray(M)[s, 2:].sum() for s in range(3)]))
    grad = jax.grad(converted(tail_of_row))(M, jnp.int32(1))
    expected = np.zeros((3, 4), np.float32)
    expected[1, 2:] = 1.0
    assert_same(grad, expected)


@pytest.mark.parametrize('fn', [scaled_by_keyword, kept_when_positive, filled_rows],
                         ids=['keyword', 'unaliased', 'filled_rows'])
def test_under_grad(fn):
    x = jnp.asarray(X[0])
    grad = jax.grad(converted(fn))(x)
    eps = 1e-3
    step = jnp.eye(4) * eps
    numeric = [(fn(x + step[k]) - fn(x - step[k])) / (2 * eps) for k in range(4)]
    np.testing.assert_allclose(grad, numeric, rtol=1e-2, atol=1e-2)
