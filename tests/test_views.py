"""NumPy's views: basic indexing (`a[i]`, `a[i:j]`, `a[:, k]`, `a[i, 1:3]`, `a[...]`)
gives a view whose in-place updates reach the base array, and writes to the base are
seen through the view; fancy indexing copies. Also writes by helpers reach the caller
(views passed to helpers, early returns, helpers of helpers, recursion, `+=` on an array
argument). Ground truth: the same function run as plain Python on NumPy arrays (each run
on fresh copies of the inputs, which plain Python changes). Under a caller's `jax.jit`,
`vmap` or `grad` the arguments are tracers, JAX arrays, which have no views: plain Python
run under the same transformation is the ground truth there (tests/
test_numpy_vs_jax_meaning.py has the two meanings side by side)."""
import copy

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.errors import UnsupportedSyntax
from tests.helpers import assert_same


def same_as_python(fn, *args, jit=True):
    """`fn` converted (called twice: a second call sees no trace's leftovers), and
    eagerly, each on fresh copies of `args`, against plain Python; under `jax.jit`
    against plain Python under `jax.jit` (JAX's meaning: no views), or where that
    writes items of a tracer (a TypeError in plain Python), against the converted
    function given JAX arrays (the project's meaning of `x[i] = v` on JAX arrays)."""
    expected = fn(*copy.deepcopy(args))
    converted = autograph.convert(fn)
    for _ in range(2):
        assert_same(converted(*copy.deepcopy(args)), expected)
    if jit:
        try:
            under_jit = jax.jit(fn)(*copy.deepcopy(args))
        except TypeError:   # ('JAX arrays are immutable')
            under_jit = converted(*jax.tree_util.tree_map(jnp.asarray, args))
        assert_same(jax.jit(converted)(*copy.deepcopy(args)), under_jit)
    assert_same(autograph.convert(fn, jit=False)(*copy.deepcopy(args)), expected)
    return expected


def M(rows=3, cols=4):
    return np.arange(rows * cols, dtype=np.float32).reshape(rows, cols)


# --- views in the function itself ----------------------------------------------------

def accelerate(vel, a, n):
    for i in range(n):
        v = vel[i]
        v += 0.5 * a
    return vel


def test_a_row_view_updated_in_a_loop_updates_the_array():
    same_as_python(accelerate, M(), np.float32([1, 2, 3, 4]), 2)


def test_a_row_view_under_a_traced_loop_index():
    vel, a = M(), np.float32([1, 2, 3, 4])
    expected = accelerate(vel.copy(), a, jnp.int32(2))
    assert_same(autograph.convert(accelerate)(vel, a, jnp.int32(2)), expected)
    assert_same(vel, expected)   # (the caller's array, written in place)


def pairs(b, n):
    for i in range(n):
        v = b[i:i + 2]     # a window that the traced `i` moves
        v *= 2.0
    return b


def test_a_window_view_under_a_traced_loop_index():
    b = np.arange(1.0, 6.0, dtype=np.float32)
    expected = pairs(b.copy(), jnp.int32(3))
    assert_same(autograph.convert(pairs)(b, jnp.int32(3)), expected)


def view_forms(a, k):
    row = a[1]
    row *= 2.0
    column = a[:, k]
    column[0] = -1.0
    part = a[2, 1:3]
    part[:] = 7.0
    whole = a[...]
    whole += 0.5
    return a


def test_rows_columns_slices_and_ellipsis_are_views():
    same_as_python(view_forms, M(), 2)


def sees_base_writes(a):
    v = a[0]
    a[0, 0] = 9.0
    a[0] += 1.0
    return v[0], v


def test_a_view_sees_writes_to_its_base():
    same_as_python(sees_base_writes, M())


def views_of_views(a):
    v = a[1]
    w = v[1:3]
    w *= 10.0
    u = a[1:, 2]
    return a, v, u


def test_a_view_of_a_view_writes_both():
    same_as_python(views_of_views, M())


def copies(a, idx, mask):
    v = a[idx]
    v += 100.0
    w = a[mask]
    w += 100.0
    s = a[0, 0]
    s += 100.0
    return a, v, s


def test_fancy_indexing_and_single_items_are_copies():
    a = M()
    same_as_python(copies, a, np.array([0, 2]), a[:, 0] > 3, jit=False)


def rebinding(a):
    v = a[0]
    v += 1.0
    v = v + 1.0      # a new array: no longer a view
    v += 1.0
    return a, v


def test_rebinding_ends_the_view():
    same_as_python(rebinding, M())


def normalize_rows(M, first):
    for row in M:          # each item of an array is a view of its row
        row /= row.sum()
        row[0] = first
        first = first + 1.0
    return M


def halve_rows(M):
    for row in M:
        row *= 0.5


def halves(M):
    halve_rows(M)
    return M


def lists(rows):
    for row in rows:       # (a list: its items as they are, extended in place)
        row += [len(row)]
    return rows


def test_a_loop_over_an_array_gives_views_of_its_rows():
    same_as_python(normalize_rows, M() + 1.0, 0.5)
    same_as_python(halves, M())
    assert autograph.convert(lists)([[1], [2, 3]]) == lists([[1], [2, 3]])


def in_branches(a, x):
    if x.sum() > 0:
        v = a[0]
    else:
        v = a[2]
    v -= 1.0
    return a


@pytest.mark.parametrize('sign', [1.0, -1.0])
def test_views_bound_in_staged_branches(sign):
    same_as_python(in_branches, M(), np.float32([sign, sign]))


def rows_until(a, budget):
    i = 0
    while a.sum() < budget:
        row = a[i % a.shape[0]]
        row += 1.0
        i += 1
    return a, i


def test_views_in_a_staged_while_loop():
    # (not under jax.jit: with JAX's meaning the rows are copies, and the loop never ends)
    same_as_python(rows_until, np.zeros((2, 3), np.float32), 20.0, jit=False)


def base_rebound(a):
    v = a[0]
    a = a * 2.0          # `v` still views the old array
    v += 1.0
    return a, v


def test_rebinding_the_base_leaves_the_view_with_the_old_array():
    same_as_python(base_rebound, M())


def energy(w, x):
    h = w[0]
    h *= x
    return (w ** 2).sum()


def test_grad_through_a_write_through_a_view():
    """Under jax.grad `w` is a tracer: `h` is a copy (JAX's meaning), as plain Python
    has it there."""
    w = M(2, 3)
    assert_same(jax.grad(autograph.convert(energy))(w, 3.0), jax.grad(energy)(w, 3.0))


def test_vmap_over_a_function_writing_through_views():
    batch = np.stack([M(), M() + 1.0])
    a = np.float32([1, 2, 3, 4])
    got = jax.vmap(autograph.convert(accelerate), in_axes=(0, None, None))(batch, a, 2)
    assert_same(got, jax.vmap(accelerate, in_axes=(0, None, None))(batch, a, 2))


def view_on_one_path(a, flag):
    if flag:
        v = a[0]
    else:
        v = np.zeros(4, np.float32)
    v += 1.0
    return a


def read_after_base_changed(a, flag):
    v = np.zeros(4, np.float32)
    if flag:
        v = a[0]
    a[0, 0] = 5.0
    return v


def test_a_view_on_some_paths_only_changed_in_place_is_followed_by_a_flag():
    """A Python test: a flag says where `v` is the view (as for a whole alias; an
    UnsupportedSyntax before). A traced test: which part of `a` it is, or whether it is
    one, is known only when the program runs: a named ControlFlowError."""
    for flag in (True, False):
        same_as_python(view_on_one_path, M(), flag, jit=False)
    with pytest.raises(autograph.ControlFlowError, match='took on some paths only'):
        autograph.convert(view_on_one_path)(M(), jnp.bool_(True))


def test_a_view_on_some_paths_only_read_after_its_base_changed_is_followed_by_a_flag():
    """(An UnsupportedSyntax before.) A flag follows it where it is read later (a staged
    loop around a read it does not need would carry keys of different kinds); under a
    traced test, the named ControlFlowError of the change in place."""
    for flag in (True, False):
        same_as_python(read_after_base_changed, M(), flag, jit=False)
    with pytest.raises(autograph.ControlFlowError, match='took on some paths only'):
        autograph.convert(read_after_base_changed)(M(), jnp.bool_(True))


def view_of_itself(a):
    row = a[0]
    row = row[1:]          # a view of the view `row` was
    row += 1.0
    return a


def test_a_view_rebound_to_a_view_of_itself_is_a_named_error():
    with pytest.raises(UnsupportedSyntax, match="'row' .* its own earlier value"):
        autograph.convert(view_of_itself)(M())


def rows_of_a_view_rebound_each_step(x, v):
    a = x * 1.0
    w = v * 1.0
    for _ in range(2):
        m = w.reshape(2, 2)       # (a new view each step: the rows of the last one stay
        for j, row in enumerate(m):   # views of the array `m` held, used no more)
            row[0] = row[1] * 0.5 + j
            w[0] = w.sum() * 0.25
        a = a + m[1, 0]
        u = w[None]
        u[0, 3] = x - a
    return a, w


def test_views_of_an_array_no_longer_held_may_stay_unused():
    # (An UnsupportedSyntax at `u[0, 3] = ...` before: idiom fuzzer seeds 96149, 96187.)
    expected = rows_of_a_view_rebound_each_step(0.5, np.arange(4.0, dtype=np.float32))
    for convert in (autograph.convert, lambda fn: autograph.convert(fn, jit=False)):
        got = convert(rows_of_a_view_rebound_each_step)(0.5, np.arange(4.0, dtype=np.float32))
        assert_same(got, expected)


def rows_of_a_view_rebound_each_step_read_after(x, v):
    a = x * 1.0
    w = v * 1.0
    for _ in range(2):
        m = w.reshape(2, 2)
        for j, row in enumerate(m):
            row[0] = row[1] * 0.5 + j
            w[0] = w.sum() * 0.25
        u = w[None]
        u[0, 3] = x - a
        a = a + row[0]            # (`row`: a view on some paths only, its base changed)
    return a, w


def test_such_a_view_read_after_its_base_changed_is_a_named_error():
    with pytest.raises(UnsupportedSyntax, match="'m' is changed in place here, and NumPy "
                                                "views of it taken before it was rebound"):
        autograph.convert(rows_of_a_view_rebound_each_step_read_after)(
            0.5, np.arange(4.0, dtype=np.float32))


def such_a_view_read_by_a_nested_function(x, v):
    a = x * 1.0
    w = v * 1.0

    def second():
        return row[1]         # (a read of the view when called: not seen as one)
    for _ in range(2):
        m = w.reshape(2, 2)
        for j, row in enumerate(m):
            row[0] = row[1] * 0.5 + j
            w[0] = w.sum() * 0.25
        u = w[None]
        u[0, 3] = x - a       # (row 1 of the last `m` sees it, in Python)
        a = a + second()
    return a, w


def test_such_a_view_read_by_a_nested_function_is_a_named_error():
    # (The error stays where the base changes: a wrong value, 3.5 for Python's 0.5, at
    # eddb51f, which moved it to the reads it sees.)
    with pytest.raises(UnsupportedSyntax, match="'m' is changed in place here"):
        autograph.convert(such_a_view_read_by_a_nested_function)(
            0.5, np.arange(4.0, dtype=np.float32))


def test_generated_code_writes_the_view_back():
    code = autograph.to_code(accelerate)
    assert 'vel_is_numpy = ag.numpy_kind(vel)' in code   # (the caller's array's kind)
    assert 'v, v_key = ag.view(vel, i, numpy=vel_is_numpy)' in code
    assert 'vel = ag.write_view(vel, v_key, v)' in code


# --- writes by helpers ---------------------------------------------------------------

def add_to(f, r):
    f += r * 2.0          # NumPy: in place, the caller's array changes


def push(a, r):
    add_to(a, r)
    return a


def push_row(a, r):
    row = a[1]
    add_to(row, r)
    add_to(a[2], r)       # a view given directly
    return a


def test_a_helper_updating_its_array_argument_in_place():
    same_as_python(push, M(), np.float32([1, 2, 3, 4]))
    same_as_python(push_row, M(), np.float32([1, 2, 3, 4]))


def bump(n):
    n += 1
    return n


def bumps(k, x):
    m = bump(k)
    s = x[0]
    t = bump(s)           # a NumPy scalar: the caller's `s` stays
    return k, m, s, t


def test_a_helper_updating_a_number_leaves_the_callers_variable():
    same_as_python(bumps, 3, np.float32([1.5, 2.5]))


def set_first(c):
    c[0] = 7.0
    if c[1] > 0:
        return 1.0
    c[1] = 3.0
    return 2.0


def outer(c):
    return set_first(c) + 1.0


def through_two(a):
    row = a[0]
    r = outer(row)
    return a, r


@pytest.mark.parametrize('second', [1.0, -1.0])
def test_early_return_helper_reached_through_another_on_a_view(second):
    a = M(2, 3)
    a[0, 1] = second
    same_as_python(through_two, a)


def fill_first(r):
    r[0] = 5.0
    return r.sum()


def returns_fill(a):
    row = a[1]
    return fill_first(row)     # the write reaches `a` before the function returns


def keeps_a(a):
    total = returns_fill(a)
    return a, total


def test_a_view_written_by_the_call_a_function_returns():
    same_as_python(keeps_a, M())


def merge(arr, mid):
    """Merges the sorted halves `arr[:mid]` and `arr[mid:]`, reading `arr` itself."""
    left, right = arr[:mid].copy(), arr[mid:].copy()
    i = j = k = 0
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:
            arr[k] = left[i]
            i += 1
        else:
            arr[k] = right[j]
            j += 1
        k += 1
    while i < len(left):
        arr[k] = left[i]
        i += 1
        k += 1
    while j < len(right):
        arr[k] = right[j]
        j += 1
        k += 1


def mergesort_inplace(arr):
    n = len(arr)
    if n > 1:
        mid = n // 2
        first = arr[:mid]
        mergesort_inplace(first)
        mergesort_inplace(arr[mid:])
        merge(arr, mid)


def sort_copy(x):
    mergesort_inplace(x)
    return x


def test_recursive_mergesort_in_place_on_views():
    same_as_python(sort_copy, np.float32([5, 3, 9, 1, 4, 8, 2, 7]))
