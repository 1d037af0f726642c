"""A name that is an item (or a view) of an array on some paths and something else on
others, changed in place: `n = ns[k]` then `n //= 2` or `n = 3 * n + 1` (Collatz). NumPy's
`ns[k]` of a 1-D array is a single item, a copy, so its changes reach nothing; a row of a
2-D array is a view, whose changes reach the array where the name is that view. A flag
follows which (analysis.views' 'if view', as for a whole alias); the key of a single item
is None (a copy) on every path. Where a traced test makes it a view on some paths only,
which part of the base it is is known only when the program runs: a named
ControlFlowError. (An UnsupportedSyntax before.) Read again after its base changed
(`x = parent[x]` in a union-find's path compression), a flag follows it too where it is
read later. A ternary that may bind a view is the `if` statement it means.
Ground truth: the same function run as plain Python on NumPy arrays."""
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph import ControlFlowError
from tests.helpers import assert_same


def collatz_steps(ns, k):
    n = ns[k]
    steps = 0
    while n != 1:
        steps += 1
        if n % 2 == 0:
            n //= 2
        else:
            n = 3 * n + 1
    return steps


def find(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x, parent


def row_or_new(M, c):
    if c > 0:
        r = M[0]
    else:
        r = np.zeros(3)
    r += 1.0
    r[1] = 7.0
    return M, r


@pytest.mark.parametrize('k', [0, 2, jnp.int32(1)])
def test_an_item_changed_on_some_paths(k):
    ns = np.array([6, 7, 27])
    assert_same(autograph.convert(collatz_steps)(ns.copy(), k), collatz_steps(ns, int(k)))
    assert_same(autograph.convert(collatz_steps)(jnp.asarray(ns), k),
                collatz_steps(ns, int(k)))


@pytest.mark.parametrize('x', [0, 4, jnp.int32(0)])
def test_path_compression_of_a_union_find(x):
    """`x = parent[x]` read after `parent[x] = ...` changed its base: a view on some paths
    (a single item, a copy) read again where it is read later (an UnsupportedSyntax
    before)."""
    parent = np.array([1, 2, 3, 3, 4])
    want = find(parent.copy(), int(x))
    assert_same(autograph.convert(find)(parent.copy(), x), want)
    assert_same(autograph.convert(find)(jnp.asarray(parent), x), want)


@pytest.mark.parametrize('c', [1.0, -1.0])
def test_a_row_view_on_some_paths_of_a_python_test(c):
    M, plain = np.arange(6.0).reshape(2, 3), np.arange(6.0).reshape(2, 3)
    assert_same(autograph.convert(row_or_new)(M, c), row_or_new(plain, c))
    np.testing.assert_array_equal(M, plain)


def test_a_row_view_on_some_paths_of_a_traced_test_is_named():
    with pytest.raises(ControlFlowError, match='took on some paths only'):
        autograph.convert(row_or_new)(np.arange(6.0).reshape(2, 3), jnp.float32(1.0))


def ternary_row_or_new(i):
    M = np.arange(9.0).reshape(3, 3)
    r = M[i] if i < 2 else np.ones(3)
    r *= 2
    return M, r


def ternary_row_read_after_base_changed(M, c):
    r = M[0] if c else M[1:].sum(axis=0)
    M[0, 0] = 50.0
    return r


@pytest.mark.parametrize('i', [0, 2])
def test_a_ternary_row_view_changed_in_place_of_a_python_test(i):
    """`r = M[i] if c else e`: the ternary binds a view on one path, which the converted
    code followed nowhere (`r *= 2` left `M` unchanged, a silent wrong value); it is the
    `if` statement it means."""
    assert_same(autograph.convert(ternary_row_or_new)(i), ternary_row_or_new(i))


@pytest.mark.parametrize('c', [True, False])
def test_a_ternary_row_view_read_after_its_base_changed(c):
    """(The row as it was before, a silent wrong value, where `c`.)"""
    M, plain = np.arange(9.0).reshape(3, 3), np.arange(9.0).reshape(3, 3)
    assert_same(autograph.convert(ternary_row_read_after_base_changed)(M, c),
                ternary_row_read_after_base_changed(plain, c))
    np.testing.assert_array_equal(M, plain)


def test_a_ternary_row_view_of_a_traced_test_is_named():
    with pytest.raises(ControlFlowError, match='took on some paths only'):
        autograph.convert(ternary_row_or_new)(jnp.int32(0))
