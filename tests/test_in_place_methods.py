"""NumPy's methods that change an array in place, as statements: `w.sort()`,
`w.fill(v)` (`w = ag.in_place(w, 'sort', w_is_numpy)`, runtime.python.in_place). A traced
array that stands for a NumPy array gets the new values (SILENT before: a JAX array's
`sort` gave a sorted copy, dropped); a JAX array's `sort` leaves it as it was, as in
Python; lists and user objects are called as Python calls them. Ground truth: the same
function run as plain Python."""
import copy

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def sort_a_copy(v):
    w = v * 1.0
    w.sort()
    return w


def sort_the_argument(v, x):
    v.sort()
    return v[0] + x


def fill_in_a_loop(v, n):
    w = v * 1.0
    for i in range(n):
        w.fill(w[i % 4] + 1.0)
    return w


def sort_a_list(x):
    xs = [3.0, 1.0, 2.0]
    xs.sort()
    return xs[0] + x


class Deck:
    def __init__(self):
        self.cards = [3, 1, 2]
        self.sorted = False

    def sort(self):
        self.cards = sorted(self.cards)
        self.sorted = True


def sort_a_user_object(x):
    d = Deck()
    d.sort()
    return d.cards[0] + x, d.sorted


V = np.array([0.4, -0.2, 1.1, 0.1], np.float32)


@pytest.mark.parametrize('fn, args', [
    (sort_a_copy, (V,)), (sort_the_argument, (V, 1.0)), (fill_in_a_loop, (V, 3)),
    (fill_in_a_loop, (V, 0)), (sort_a_list, (1.0,)), (sort_a_user_object, (1.0,))])
def test_in_place_methods_change_what_python_changes(fn, args):
    plain_args = copy.deepcopy(args)
    expected = fn(*plain_args)
    given = copy.deepcopy(args)
    assert_same(autograph.convert(fn)(*given), expected)
    for mine, theirs in zip(given, plain_args):   # (the caller's NumPy array too)
        if isinstance(theirs, np.ndarray):
            np.testing.assert_allclose(mine, theirs)


def test_traced_bounds_and_jit():
    assert_same(autograph.convert(fill_in_a_loop)(V.copy(), jnp.int32(3)),
                fill_in_a_loop(V.copy(), 3))


def test_a_jax_array_keeps_its_values_as_in_python():
    w = jnp.asarray(V)
    assert_same(autograph.convert(sort_a_copy)(w), sort_a_copy(w))   # (unsorted)
    assert_same(jax.jit(autograph.convert(sort_a_copy))(w), sort_a_copy(w))


def test_the_generated_code():
    assert "w = ag.in_place(w, 'sort', w_is_numpy)" in autograph.to_code(sort_a_copy)


def sort_an_alias_of_the_argument(x, v):
    w = v
    w.sort()
    return w[0] + x, v


def test_an_alias_of_the_argument_sorted_sorts_the_argument():
    """(`w = v; w.sort()`: passes.views follows the alias, as for an item write)"""
    plain, given = V.copy(), V.copy()
    expected = sort_an_alias_of_the_argument(1.0, plain)
    assert_same(autograph.convert(sort_an_alias_of_the_argument)(jnp.float32(1.0), given),
                expected)
    np.testing.assert_allclose(given, plain)


def copy_back_each_step(x0, b, n):
    """Heron's iteration keeping the previous iterate with `np.copyto` (solvers' idiom)."""
    x = x0.copy()
    x_old = x0 * 0.0
    for _ in range(n):
        np.copyto(x_old, x)
        x = 0.5 * (x + b / x)
        if abs(x - x_old).max() < 1e-6:
            break
    return x, x_old


def copy_into_the_argument(v, t):
    if t > 0:
        np.copyto(v, t)
    return v.sum()


@pytest.mark.parametrize('n', [0, 1, 20])
@pytest.mark.parametrize('traced', [False, True])
def test_copyto_a_previous_iterate(n, traced):
    x0, b = np.array([1.0, 2.0]), np.array([2.0, 9.0])
    expected = copy_back_each_step(x0, b, n)
    assert_same(autograph.convert(copy_back_each_step)(
        x0, b, jnp.int32(n) if traced else n), expected)


@pytest.mark.parametrize('t', [0.5, -1.0])
def test_copyto_the_callers_array(t):
    plain, given = np.arange(3.0), np.arange(3.0)
    expected = copy_into_the_argument(plain, t)
    assert_same(autograph.convert(copy_into_the_argument)(given, jnp.float32(t)), expected)
    np.testing.assert_allclose(given, plain)


def test_copyto_keeps_numpys_casting_rule():
    """A float into an int array is not a 'same_kind' cast: NumPy's TypeError, traced or
    not."""
    with pytest.raises(TypeError):
        copy_into_the_argument(np.arange(3), 0.5)
    for t in (0.5, jnp.float32(0.5)):
        with pytest.raises(TypeError, match='same_kind'):
            autograph.convert(copy_into_the_argument)(np.arange(3), t)


def test_copyto_of_a_jax_array_is_numpys_error():
    """`np.copyto` needs a NumPy array: Python's TypeError for a JAX array."""
    with pytest.raises(TypeError):
        copy_into_the_argument(jnp.arange(3.0), 0.5)
    with pytest.raises(TypeError):
        autograph.convert(copy_into_the_argument)(jnp.arange(3.0), 0.5)


def nearest_other(D, scale):
    """A pairwise distance matrix's nearest neighbours, the diagonal excluded with
    `np.fill_diagonal` (k-NN and clustering code)."""
    E = D * 2.0
    np.fill_diagonal(E, np.inf)
    return E.min(axis=1) * scale, E.argmin(axis=1)


def test_fill_diagonal_of_a_numpy_array_and_of_the_callers():
    D = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 3.0], [2.0, 3.0, 0.0]], np.float32)
    for scale in (2.0, jnp.float32(2.0)):
        assert_same(autograph.convert(nearest_other)(D.copy(), scale),
                    nearest_other(D.copy(), 2.0))
    plain, given = D.copy(), D.copy()
    expected = copy_diagonal(plain, 5.0)
    assert_same(autograph.convert(copy_diagonal)(given, jnp.float32(5.0)), expected)
    np.testing.assert_allclose(given, plain)


def copy_diagonal(D, v):
    np.fill_diagonal(D, v)
    return D.sum()


def test_fill_diagonal_of_a_jax_array_is_numpys_error():
    with pytest.raises(NotImplementedError):
        copy_diagonal(jnp.eye(2), 1.0)
    with pytest.raises(NotImplementedError):
        autograph.convert(copy_diagonal)(jnp.eye(2), 1.0)
