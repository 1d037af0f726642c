"""JAX's reductions of a selection whose length is known only when the program runs:
`jnp.mean(x[labels == c], axis=0)` and `jnp.sum(x[i:j])` give what the methods
`x[labels == c].mean(axis=0)` and `x[i:j].sum()` give (runtime.items.masked), as
NumPy's `np.mean(s)` calls `s.mean()`: Python's value, computed from a fixed-size slice
and a mask. Each result is compared with the function run as plain Python."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, i32

pytestmark = pytest.mark.x64


def centroids(x, labels, k):
    """k-means' update in the function form (as two public k-means scripts write it)."""
    out = []
    for c in range(k):
        out.append(jnp.mean(x[labels == c], axis=0))
    return jnp.stack(out)


def statistics(x, labels):
    positive = x[x > 0]
    spread = x[labels == 1] - 1.0
    return (jnp.sum(positive), jnp.max(x[labels == 0]), jnp.min(spread, axis=0),
            jnp.prod(x[labels == 2] * 0.5), jnp.any(x[labels == 0] > 1.0),
            jnp.all(positive > 0), jnp.amax(x[x < 0.5]), jnp.amin(positive))


def windows(x, n):
    total = jnp.zeros(())
    for i in range(n):
        window = x[max(0, i - 2):i + 3]
        total = total + jnp.sum(window) * jnp.mean(x[max(0, i - 1):i + 2])
    return total


X = np.random.default_rng(4).normal(size=(8, 3)).astype(np.float32)
LABELS = np.array([0, 1, 2, 0, 1, 2, 0, 1], np.int32)


def test_function_form_of_a_masked_mean_in_a_staged_loop():
    converted = autograph.convert(centroids)
    assert_same(converted(jnp.asarray(X), jnp.asarray(LABELS), 3), centroids(X, LABELS, 3))
    assert_same(converted(jnp.asarray(X), jnp.asarray(LABELS), 4),   # an empty cluster: nan
                centroids(X, LABELS, 4))
    assert_same(jax.jit(converted, static_argnums=2)(X, LABELS, 3), centroids(X, LABELS, 3))
    assert_same(jax.vmap(converted, in_axes=(0, None, None))(
        jnp.stack([X, -X]), LABELS, 3), np.stack([centroids(X, LABELS, 3),
                                                   centroids(-X, LABELS, 3)]))
    assert 'ag.call(jnp.mean, ag.getitem(x, labels == c), axis=0)' in \
        autograph.to_code(centroids)


def test_each_reduction_of_a_selection_directly_and_through_a_name():
    converted = autograph.convert(statistics)
    assert_same(converted(jnp.asarray(X), jnp.asarray(LABELS)), statistics(X, LABELS))
    assert_same(converted(jnp.asarray(-X), jnp.asarray(LABELS)), statistics(-X, LABELS))
    grad = jax.grad(lambda x: converted(x, LABELS)[0] + converted(x, LABELS)[2].sum())(
        jnp.asarray(X))
    expected = (X > 0) + np.zeros_like(X)
    expected[LABELS == 1] += (X[LABELS == 1] - 1.0 == (X[LABELS == 1] - 1.0).min(axis=0))
    assert_same(grad, expected)


def test_windows_of_run_time_length_reduced_by_function():
    converted = autograph.convert(windows)
    for n in (0, 1, 4, 8):
        assert_same(converted(jnp.asarray(X[:, 0]), i32(n)), windows(X[:, 0], n))
    assert_same(jax.vmap(converted, in_axes=(0, None))(jnp.asarray(X.T), i32(6)),
                np.array([windows(row, 6) for row in X.T]))


def test_an_empty_selection_raises_pythons_error_for_max():
    def largest(x, labels):
        return jnp.max(x[labels == 7])
    with pytest.raises(ValueError, match='zero-size array to reduction operation max'):
        largest(X, LABELS)
    with pytest.raises(ValueError, match='zero-size array to reduction operation max'):
        autograph.convert(largest)(jnp.asarray(X), jnp.asarray(LABELS))


def test_other_functions_of_a_selection_stay_a_named_error():
    def cumulative(x, labels):
        return jnp.cumsum(x[labels == 0])

    def weighted(x, labels):
        return jnp.sum(x[labels == 0], where=x[labels == 0] > 0)
    for fn in (cumulative, weighted):
        with pytest.raises(autograph.ControlFlowError, match='traced boolean mask selects'):
            autograph.convert(fn)(jnp.asarray(X), jnp.asarray(LABELS))


def test_reductions_of_plain_arrays_stay_plain_calls():
    def plain(x, y):
        z = x * 2
        return jnp.sum(z) + jnp.mean(y) + jnp.max(x)
    code = autograph.to_code(plain)
    assert 'jnp.sum(z)' in code and 'jnp.mean(y)' in code and 'ag.call' not in code
    assert_same(autograph.convert(plain)(jnp.asarray(X), jnp.asarray(X)), plain(X, X))


def counts(x, labels):
    """A histogram's count per bin (corpus batch 6: `len(x[bin_mask])`)."""
    rows = x[labels == 1]
    return len(x[labels == 0]), rows.size, len(x[x[:, 0] > 0.2])


def test_len_and_size_of_a_selection_count_its_items():
    want = counts(X, LABELS)
    got = autograph.convert(counts)(jnp.asarray(X), jnp.asarray(LABELS))
    assert [int(g) for g in got] == list(want)
    batch = jax.vmap(autograph.convert(counts), in_axes=(None, 0))(
        jnp.asarray(X), jnp.stack([jnp.asarray(LABELS), jnp.asarray(LABELS[::-1])]))
    other = counts(X, LABELS[::-1])
    assert [[int(v) for v in column] for column in batch] == [
        [w, o] for w, o in zip(want, other)]
