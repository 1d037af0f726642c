"""NumPy's meaning for NumPy arrays, JAX's for JAX arrays: a view (`v = a[1:]`, `for row
in m:`) of a NumPy array writes through to it, as NumPy does; a view of a JAX array is a
new array, and `v += e` rebinds `v` only, as JAX gives it. Which meaning a call has is
the meaning of the arrays it is given (the call key tells a NumPy array from a JAX one),
and under a caller's `jax.jit`/`vmap`/`grad` the arguments are tracers: JAX's meaning.

Ground truth: the same function run unconverted on the same inputs (fresh copies; a
caller's NumPy array must end as plain Python leaves it). Where a case writes items of
a view (`col[1] = e`), plain Python refuses it on a JAX array; its JAX meaning is
`col = col.at[1].set(e)` (the project's meaning of item writes on JAX arrays), written
out by hand as the case's `jax_meaning` twin and run unconverted."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def slice_view(a):
    v = a[1:]
    v += 1.0
    return a


def view_of_view(a):
    v = a[1:]
    w = v[:1]
    w *= 3.0
    return a * 1.0


def row_loop(m):
    for row in m:
        row *= 2.0
    return m


def accelerate(vel, acc):
    for i in range(2):
        v = vel[i]
        v += 0.5 * acc
    return vel


def bump(x):
    x += 1.0


def helper_writes_view(a):
    v = a[1:]
    bump(v)
    return a


def view_in_traced_branch(a):
    if a.sum() > 0:
        v = a[:2]
        v -= 5.0
    return a


def view_in_traced_branch_jax(a):   # (plain Python cannot branch on a tracer)
    v = jax.lax.cond(a.sum() > 0, lambda: a[:2] - 5.0, lambda: a[:2])   # noqa: F841
    return a


def add_twice(x, y):
    x += 2.0 * y


def helpers_update_arguments(a, b):
    add_twice(a, b)
    add_twice(b[1:], b[:2])   # (a view given directly)
    return a * 1.0, b * 1.0


def updated_then_viewed(a):
    a += 1.0          # (NumPy: in place, `a` is still the caller's array)
    v = a[1:]
    v *= 2.0
    return a


def derived_then_viewed(a):
    b = a * 2.0 - 1.0   # (NumPy's arithmetic of a NumPy array: a NumPy array)
    v = b[1:]
    v += 1.0
    c = a.copy()
    w = c[:1]
    w -= 4.0
    return b, c


def alias_updated(a):
    c = a
    c += 1.0          # (NumPy: `c is a`, both see it; JAX: `c` is a new array)
    return a * 1.0


def previous_kept(x, dx):
    prev = x
    x += dx
    return prev * 1.0, x


def rebound_by_arithmetic(a):
    a = a * 2.0       # (NumPy's arithmetic of a NumPy array: a NumPy array)
    v = a[1:]
    v += 1.0
    return a


def column_item(m):
    col = m[:, 0]
    col[1] = -1.0
    return m


def column_item_jax(m):
    col = m[:, 0]
    col = col.at[1].set(-1.0)
    return m


def base_write_seen(a):
    v = a[:2]
    a[0] = 9.0
    return v * 1.0


def base_write_seen_jax(a):
    v = a[:2]
    a = a.at[0].set(9.0)
    return v * 1.0


def local_numpy(a):
    b = np.zeros(3, np.float32)
    v = b[1:]
    v += 2.0
    return b + a


def vector():
    return np.arange(3.0, dtype=np.float32)


def matrix():
    return np.arange(6.0, dtype=np.float32).reshape(3, 2)


CASES = [   # (function, its meaning on JAX arrays (itself, or its twin), inputs)
    (slice_view, slice_view, lambda: (vector(),)),
    (view_of_view, view_of_view, lambda: (vector(),)),
    (row_loop, row_loop, lambda: (matrix(),)),
    (accelerate, accelerate, lambda: (matrix(), np.float32([1.0, 2.0]))),
    (helper_writes_view, helper_writes_view, lambda: (vector(),)),
    (view_in_traced_branch, view_in_traced_branch_jax, lambda: (vector() + 1.0,)),
    (helpers_update_arguments, helpers_update_arguments, lambda: (vector(), vector() + 1.0)),
    (updated_then_viewed, updated_then_viewed, lambda: (vector(),)),
    (derived_then_viewed, derived_then_viewed, lambda: (vector(),)),
    (alias_updated, alias_updated, lambda: (vector(),)),
    (previous_kept, previous_kept, lambda: (vector(), vector() + 1.0)),
    (rebound_by_arithmetic, rebound_by_arithmetic, lambda: (vector(),)),
    (column_item, column_item_jax, lambda: (matrix(),)),
    (base_write_seen, base_write_seen_jax, lambda: (vector(),)),
    (local_numpy, local_numpy, lambda: (vector(),)),
]
IDS = [case[0].__name__ for case in CASES]


def as_jax(args):
    return tuple(jnp.asarray(a) for a in args)


def numpy_call(converted, fn, make):
    """The converted call on NumPy arrays against plain Python's, the caller's arrays
    after the call included."""
    plain_args, args = make(), make()
    expected = fn(*plain_args)
    assert_same(converted(*args), expected)
    for mine, theirs in zip(args, plain_args):
        assert type(mine) is np.ndarray
        np.testing.assert_array_equal(mine, theirs)


def jax_call(converted, jax_meaning, make):
    args = as_jax(make())
    assert_same(converted(*args), jax_meaning(*as_jax(make())))


@pytest.mark.parametrize('fn, jax_meaning, make', CASES, ids=IDS)
def test_numpy_arrays_have_numpy_meaning(fn, jax_meaning, make):
    converted = autograph.convert(fn)
    for _ in range(2):
        numpy_call(converted, fn, make)
    numpy_call(autograph.convert(fn, jit=False), fn, make)


@pytest.mark.parametrize('fn, jax_meaning, make', CASES, ids=IDS)
def test_jax_arrays_have_jax_meaning(fn, jax_meaning, make):
    converted = autograph.convert(fn)
    for _ in range(2):
        jax_call(converted, jax_meaning, make)
    jax_call(autograph.convert(fn, jit=False), jax_meaning, make)


@pytest.mark.parametrize('fn, jax_meaning, make', CASES, ids=IDS)
def test_one_function_called_with_both_kinds(fn, jax_meaning, make):
    """The same shapes and dtypes, NumPy then JAX then NumPy (and the reverse): each
    call has its arrays' meaning (one trace does not serve both)."""
    numpy_first, jax_first = autograph.convert(fn), autograph.convert(fn)
    for _ in range(2):
        numpy_call(numpy_first, fn, make)
        jax_call(numpy_first, jax_meaning, make)
        jax_call(jax_first, jax_meaning, make)
        numpy_call(jax_first, fn, make)


@pytest.mark.parametrize('fn, jax_meaning, make', CASES, ids=IDS)
def test_under_a_callers_jit_the_meaning_is_jax(fn, jax_meaning, make):
    """Under `jax.jit` the arguments are tracers, also when the caller passes NumPy
    arrays: plain Python has JAX's meaning there."""
    converted = autograph.convert(fn)
    for kind in (lambda: make(), lambda: as_jax(make())):
        args = kind()
        expected = jax.jit(jax_meaning)(*kind())
        assert_same(jax.jit(converted)(*args), expected)
        for mine, fresh in zip(args, make()):
            np.testing.assert_array_equal(mine, fresh)   # (a caller's array: unchanged)


@pytest.mark.parametrize('fn, jax_meaning, make', CASES, ids=IDS)
def test_under_vmap_and_grad_the_meaning_is_jax(fn, jax_meaning, make):
    converted = autograph.convert(fn)
    batched = tuple(np.stack([a, a + 1.0]) for a in make())
    assert_same(jax.vmap(converted)(*batched), jax.vmap(jax_meaning)(*batched))
    args = as_jax(make())
    expected = jax.grad(lambda *a: _squares(jax_meaning(*a)))(*args)
    assert_same(jax.grad(lambda *a: _squares(converted(*a)))(*args), expected)


def _squares(out):
    return sum(jnp.sum(leaf ** 2) for leaf in jax.tree_util.tree_leaves(out))


# --- staged statements keep the meaning ----------------------------------------------

def rows_up_to(vel, n):
    i = 0
    while i < n:
        v = vel[i]
        v += 1.0
        i += 1
    return vel


@pytest.mark.parametrize('n', [1, 3])
def test_a_view_in_a_staged_loop_of_a_numpy_argument(n):
    """`n` traced: the loop is staged, and `vel` inside its body still stands for the
    caller's NumPy array (and after it)."""
    converted = autograph.convert(rows_up_to)
    plain_vel, vel = matrix(), matrix()
    expected = rows_up_to(plain_vel, jnp.int32(n))
    assert_same(converted(vel, jnp.int32(n)), expected)
    np.testing.assert_array_equal(vel, plain_vel)
    jax_vel = jnp.asarray(matrix())
    assert_same(converted(jax_vel, jnp.int32(n)), rows_up_to(jax_vel, jnp.int32(n)))


def view_after_staged_branch(a, flag):
    if flag > 0:
        a[0] = 5.0
    v = a[1:]
    v += 1.0
    return a


def test_a_view_after_a_staged_branch_of_a_numpy_argument():
    for flag in (1, -1):
        plain, mine = vector(), vector()
        expected = view_after_staged_branch(plain, jnp.int32(flag))
        got = autograph.convert(view_after_staged_branch)(mine, jnp.int32(flag))
        assert_same(got, expected)
        np.testing.assert_array_equal(mine, plain)


def updated_in_staged_branch(a, flag):
    if flag > 0:
        a += 1.0
    v = a[1:]
    v += 1.0
    return a


@pytest.mark.parametrize('flag', [1, -1])
@pytest.mark.parametrize('kind', [np.asarray, jnp.asarray], ids=['numpy', 'jax'])
def test_an_update_in_a_staged_branch_keeps_the_arrays_meaning(kind, flag):
    plain, mine = kind(vector()), kind(vector())
    expected = updated_in_staged_branch(plain, jnp.int32(flag))
    got = autograph.convert(updated_in_staged_branch)(mine, jnp.int32(flag))
    assert_same(got, expected)
    assert_same(mine, plain)


# --- lists of NumPy arrays --------------------------------------------------------------

def bump_items(xs):
    for a in xs:
        a += 1.0
    return xs[0].sum()


def test_items_of_a_list_of_numpy_arrays_change_in_place():
    plain = [np.float32([1.0, 2.0]), np.float32([3.0, 4.0])]
    mine = [np.float32([1.0, 2.0]), np.float32([3.0, 4.0])]
    expected = bump_items(plain)
    assert_same(autograph.convert(bump_items)(mine), expected)
    assert_same(mine, plain)


def test_items_of_a_list_of_jax_arrays_are_rebound_only():
    make = lambda: [jnp.float32([1.0, 2.0]), jnp.float32([3.0, 4.0])]   # noqa: E731
    plain, mine = make(), make()
    expected = bump_items(plain)
    assert_same(autograph.convert(bump_items)(mine), expected)
    assert_same(mine, plain)
