"""Views the converter cannot follow, checked to be no views when the program runs
(autograph.passes.view_guards). A union-find's `find` with path compression binds `root =
x`, then `root = parent[root]`, and writes `parent[x] = root` before reading `root`: to the
converter `root` is an alias of `x` on some paths and a view of `parent` on others, which
it cannot follow (an UnsupportedSyntax before, for these valid programs). Of a vector
of indices each is a number: the bindings now go through `ag.unviewed`, Python's value,
and a named ControlFlowError where NumPy's is a view after all (a row of a matrix, an
array given). Ground truth: the same function run as plain Python."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph import ControlFlowError
from autograph.errors import UnsupportedSyntax
from tests.helpers import assert_same


def find_compressing(parent, x):
    root = x
    while parent[root] != root:
        root = parent[root]
    while parent[x] != root:
        nxt = parent[x]
        parent[x] = root
        x = nxt
    return root


def find_then_linked(parent, x):
    root = x
    while parent[root] != root:
        root = parent[root]
    parent[x] = root
    return root


def kruskal(n, edges, weights):
    parent = np.arange(n)
    total = 0.0
    for k in np.argsort(weights):
        a, b = edges[k]
        ra, rb = find_compressing(parent, a), find_compressing(parent, b)
        if ra != rb:
            parent[ra] = rb
            total += weights[k]
    return total, parent


PARENT = np.array([1, 2, 3, 3, 0, 4])
EDGES = np.array([[0, 1], [1, 2], [0, 2], [2, 3], [3, 4], [1, 4]])
WEIGHTS = np.array([1.0, 2.0, 0.5, 3.0, 0.25, 4.0])


@pytest.mark.parametrize('find', [find_compressing, find_then_linked])
@pytest.mark.parametrize('x', [0, 5, jnp.int32(4)])
def test_find_with_path_compression_writes_the_callers_array(find, x):
    parent, plain = PARENT.copy(), PARENT.copy()
    want = find(plain, int(x))
    assert_same(autograph.convert(find)(parent, x), want)
    np.testing.assert_array_equal(parent, plain)


@pytest.mark.parametrize('given', [jnp.asarray, list])
def test_find_on_a_jax_array_or_a_list(given):
    plain = list(PARENT)
    want = find_compressing(plain, 5)
    assert_same(autograph.convert(find_compressing)(given(PARENT), 5), want)


def test_find_under_jit_and_vmap():
    parent = jnp.asarray(PARENT)
    wants = [find_compressing(PARENT.copy(), x) for x in range(6)]
    converted = autograph.convert(find_compressing)
    assert_same(jax.jit(converted)(parent, 5), wants[5])
    assert_same(jax.vmap(converted, in_axes=(None, 0))(parent, jnp.arange(6)),
                np.array(wants))


def test_generated_code_guards_the_items_only():
    code = autograph.to_code(find_compressing)
    assert 'root = ag.unviewed(parent, root)' in code
    assert 'nxt = ag.unviewed(parent, x)' in code
    assert 'root = x\n' in code and 'x = nxt\n' in code   # (no view: not guarded)


@pytest.mark.parametrize('jit', [False, True])
def test_kruskal_over_a_staged_loop(jit):
    want = kruskal(6, EDGES, WEIGHTS)
    converted = autograph.convert(kruskal, jit=jit)
    assert_same(converted(6, EDGES, WEIGHTS), want)


def row_or_given(M, v, use_row):
    r = v
    if use_row:
        r = M[0]
    M[..., 0] = 9.0
    return r * 1


@pytest.mark.parametrize('args', [
    (np.arange(4.0), 2.0, True),                  # M[0] a number
    (np.arange(4.0).reshape(2, 2), np.ones(2), False),   # r = v, v not changed
])
def test_a_binding_that_makes_no_view_converts(args):
    M, plain = args[0].copy(), args[0].copy()
    assert_same(autograph.convert(row_or_given)(M, *args[1:]),
                row_or_given(plain, *args[1:]))
    np.testing.assert_array_equal(M, plain)


def test_a_row_that_is_a_view_is_named_where_it_is_bound():
    """NumPy's `r = M[0]` of a matrix is a view, which sees `M[..., 0] = 9.0`: the
    converted code would take it for a copy."""
    with pytest.raises(ControlFlowError, match=r'view on some paths only.*`r = M\[0\]`'):
        autograph.convert(row_or_given)(np.arange(4.0).reshape(2, 2), 2.0, True)


def row_of_a_loop_or_given(M, v, c):
    r = v
    if c:
        for r in M:
            pass
    M[0, 0] = 1.0
    return r * 1


def test_views_no_guard_can_check_stay_an_error():
    """A loop's rows are bound by the loop, not by a statement a guard could check."""
    with pytest.raises(UnsupportedSyntax, match="'r' is read here after its base changed"):
        autograph.convert(row_of_a_loop_or_given)(np.ones((2, 2)), 2.0, True)
