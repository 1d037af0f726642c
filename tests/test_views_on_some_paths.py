"""A name that is an item (or a view) of an array on some paths and something else on
others, changed in place: `n = ns[k]` then `n //= 2` or `n = 3 * n + 1` (Collatz). NumPy's
`ns[k]` of a 1-D array is a single item, a copy, so its changes reach nothing; a row of a
2-D array is a view, whose changes reach the array where the name is that view. A flag
follows which (analysis.views' 'if view', as for a whole alias); the key of a single item
is None (a copy) on every path. Where a traced test makes it a view on some paths only,
which part of the base it is is known only when the program runs: a named
ControlFlowError. (An UnsupportedSyntax before.) Read again after its base changed
(`x = parent[x]` in a union-find's path compression) it is still the named error.
Ground truth: the same function run as plain Python on NumPy arrays."""
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph import ControlFlowError
from autograph.errors import UnsupportedSyntax
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


def test_path_compression_of_a_union_find_stays_a_named_error():
    """`x = parent[x]` read after `parent[x] = ...` changed its base: a view on some paths
    only read again is not followed (the key a staged loop would carry differs in kind
    by path where a row is a view), so it stays the named error: see the note of
    analysis.views' `_alias_on_some_paths`."""
    with pytest.raises(UnsupportedSyntax, match="'x' .* view of 'parent' on some paths"):
        autograph.convert(find)(np.array([1, 2, 3, 3, 4]), 0)


@pytest.mark.parametrize('c', [1.0, -1.0])
def test_a_row_view_on_some_paths_of_a_python_test(c):
    M, plain = np.arange(6.0).reshape(2, 3), np.arange(6.0).reshape(2, 3)
    assert_same(autograph.convert(row_or_new)(M, c), row_or_new(plain, c))
    np.testing.assert_array_equal(M, plain)


def test_a_row_view_on_some_paths_of_a_traced_test_is_named():
    with pytest.raises(ControlFlowError, match='took on some paths only'):
        autograph.convert(row_or_new)(np.arange(6.0).reshape(2, 3), jnp.float32(1.0))
