"""Loops over a part of what their body writes: `reversed(v)`, a NumPy view (`v[1:]`,
`v[::-1]`, a row `m[1]`, a column `m[:, 1]`, the rows of `m[1:]`), `zip(v, v[1:])`,
`iter(v)` and an iterator bound to a name (see passes.live_iteration and
runtime.loops.live_views). Python's iterator reads item k when step k begins: of
`reversed(v)`, `v[len(v) - 1 - k]` as it is then; of a view, the view's item k, which is
an item of `v` as it is then; a row of a 2-D array is itself a view of it, whose writes
reach the array. A list's slice is a copy (its loop reads the copy).

Ground truth as in tests/test_live_iteration.py: the same function run unconverted on
copies of the NumPy inputs (the caller's arrays too); on JAX arrays each case's `_jax`
twin (JAX's meaning: `v[k] = e` rebinds `v`, and the iterator keeps the array it
started with) runs unconverted."""
import copy

import itertools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same
from tests.test_live_iteration import V, same_as_python


def M():
    return np.arange(1.0, 7.0, dtype=np.float32).reshape(3, 2)


# --- reversed(): arrays and lists ----------------------------------------------------

def backwards(x, v):
    a = x * 1.0
    for e in reversed(v):
        v[0] = v[0] + a       # read by the last step
        a = a * 0.5 + e
    return a, v


def backwards_jax(x, v):
    a = x * 1.0
    for e in reversed(v):
        v = v.at[0].set(v[0] + a)
        a = a * 0.5 + e
    return a, v


def backwards_counted(x, v):
    a = x * 1.0
    for i, e in enumerate(reversed(v)):
        a = a + e * (i + 1)
        v[1] = a
    return a, v


def backwards_counted_jax(x, v):
    a = x * 1.0
    for i, e in enumerate(reversed(v)):
        a = a + e * (i + 1)
        v = v.at[1].set(a)
    return a, v


def backwards_rows(x, m):
    a = x * 1.0
    for row in reversed(m):
        m[0, 0] = m[0, 0] + a
        a = a * 0.5 + row[0]   # (a view: sees this step's write)
    return a, m


def backwards_rows_jax(x, m):
    a = x * 1.0
    for row in reversed(m):
        m = m.at[0, 0].set(m[0, 0] + a)
        a = a * 0.5 + row[0]
    return a, m


@pytest.mark.parametrize('fn, twin, make', [
    (backwards, backwards_jax, V), (backwards_counted, backwards_counted_jax, V),
    (backwards_rows, backwards_rows_jax, M)])
def test_reversed_reads_what_earlier_steps_wrote(fn, twin, make):
    expected = same_as_python(fn, twin, 0.5, make())
    assert not np.allclose(expected[0], twin(0.5, jnp.asarray(make()))[0])   # (they differ)


def backwards_list(x):
    a = x * 1.0
    l = [a, a * 2.0, a * 3.0]
    for e in reversed(l):
        l[0] += 1.0
        a = a + e
    return a, l


def list_tail(x):
    a = x * 1.0
    l = [a, a * 2.0, a * 3.0]
    for e in l[1:]:            # (a copy: the writes are not seen)
        l[2] = l[2] + 1.0
        a = a + e
    return a, l


def test_lists_reversed_and_sliced():
    for fn in (backwards_list, list_tail):
        for x in (0.5, jnp.float32(0.5)):
            assert_same(autograph.convert(fn)(x), fn(0.5))
            assert_same(autograph.convert(fn, jit=False)(x), fn(0.5))


# --- views: slices, rows, columns, zip with a shifted view ---------------------------

def tail(x, v):
    a = x * 1.0
    for e in v[1:]:
        v[3] = v[3] + a
        a = a * 0.5 + e
    return a, v


def tail_jax(x, v):
    a = x * 1.0
    for e in v[1:]:
        v = v.at[3].set(v[3] + a)
        a = a * 0.5 + e
    return a, v


def flipped_strided(x, v):
    a = x * 1.0
    for e in v[::-1]:
        v[0] = v[0] + a
        a = a * 0.5 + e
    for i, e in enumerate(v[::2]):
        v[2] = v[2] + 10.0
        a = a + e * (i + 1)
    return a, v


def flipped_strided_jax(x, v):
    a = x * 1.0
    for e in v[::-1]:
        v = v.at[0].set(v[0] + a)
        a = a * 0.5 + e
    for i, e in enumerate(v[::2]):
        v = v.at[2].set(v[2] + 10.0)
        a = a + e * (i + 1)
    return a, v


def row_and_column(x, m):
    a = x * 1.0
    for e in m[1]:
        m[1, 1] = m[1, 1] + a
        a = a * 0.5 + e
    for e in m[:, 1]:
        m[2, 1] = m[2, 1] + a
        a = a * 0.5 + e
    return a, m


def row_and_column_jax(x, m):
    a = x * 1.0
    for e in m[1]:
        m = m.at[1, 1].set(m[1, 1] + a)
        a = a * 0.5 + e
    for e in m[:, 1]:
        m = m.at[2, 1].set(m[2, 1] + a)
        a = a * 0.5 + e
    return a, m


def shifted_pairs(x, v):
    a = x * 1.0
    for y, z in zip(v, v[1:]):
        v[2] = v[2] + y
        a = a * 0.5 + y * z
    return a, v


def shifted_pairs_jax(x, v):
    a = x * 1.0
    for y, z in zip(v, v[1:]):
        v = v.at[2].set(v[2] + y)
        a = a * 0.5 + y * z
    return a, v


def direct_iter(x, v):
    a = x * 1.0
    for e in iter(v):
        v[3] = v[3] + a
        a = a * 0.5 + e
    return a, v


def direct_iter_jax(x, v):
    a = x * 1.0
    for e in iter(v):
        v = v.at[3].set(v[3] + a)
        a = a * 0.5 + e
    return a, v


@pytest.mark.parametrize('fn, twin, make', [
    (tail, tail_jax, V), (flipped_strided, flipped_strided_jax, V),
    (row_and_column, row_and_column_jax, M), (shifted_pairs, shifted_pairs_jax, V),
    (direct_iter, direct_iter_jax, V)])
def test_a_view_reads_what_earlier_steps_wrote(fn, twin, make):
    expected = same_as_python(fn, twin, 0.5, make())
    assert not np.allclose(expected[0], twin(0.5, jnp.asarray(make()))[0])


def tail_rows(x, m):
    a = x * 1.0
    for row in m[1:]:
        row[0] = a             # (writes `m` through the view)
        a = a * 0.5 + row[1]
    for row in reversed(m):
        row *= 2.0
        m[0, 1] = m[0, 1] + row[0]
    return a, m


def tail_rows_jax(x, m):
    a = x * 1.0
    for row in m[1:]:
        row = row.at[0].set(a)   # (a JAX row: a new array, `m` unchanged)
        a = a * 0.5 + row[1]
    for row in reversed(m):
        row = row * 2.0
        m = m.at[0, 1].set(m[0, 1] + row[0])
    return a, m


def counted_rows(x, m):
    a = x * 1.0
    for i, row in enumerate(m, 1):
        m[i - 1] = m[i - 1] + a   # (row i - 1 is a view: it sees this write)
        a = a * 0.5 + row[0]
    for row, e in zip(m[::-1], m[:, 1]):
        m[0, 0] = e
        a = a * 0.5 + row[0]
    return a, m


def counted_rows_jax(x, m):
    a = x * 1.0
    for i, row in enumerate(m, 1):
        m = m.at[i - 1].set(m[i - 1] + a)
        a = a * 0.5 + row[0]
    for row, e in zip(m[::-1], m[:, 1]):
        m = m.at[0, 0].set(e)
        a = a * 0.5 + row[0]
    return a, m


def test_rows_of_enumerate_and_zip_see_the_writes_of_their_step():
    expected = same_as_python(counted_rows, counted_rows_jax, 0.5, M())
    assert not np.allclose(expected[0], counted_rows_jax(0.5, jnp.asarray(M()))[0])


def test_rows_of_a_view_written_through_the_loop_variable():
    expected = same_as_python(tail_rows, tail_rows_jax, 0.5, M())
    assert not np.allclose(expected[1], tail_rows_jax(0.5, jnp.asarray(M()))[1])


def rows_of_a_view_whose_base_is_written(x, v, n):
    a = x * 1.0
    w = v
    m = w.reshape(2, 2)
    for i, row in enumerate(m):
        row[0] = row[1] * 0.5 + i
        for j in range(n):
            w[3 - j] = w[3 - j] + a   # (row 1 of `m` sees it: read by the next step)
        a = a * 0.5 + row[0] + row[1]
    return a, m


def rows_of_a_view_whose_base_is_written_jax(x, v, n):
    a = x * 1.0
    m = v.reshape(2, 2)
    for i, row in enumerate(m):
        row = row.at[0].set(row[1] * 0.5 + i)
        for j in range(n):
            v = v.at[3 - j].set(v[3 - j] + a)
        a = a * 0.5 + row[0] + row[1]
    return a, m


def test_rows_of_a_view_see_writes_to_its_base_in_a_nested_loop():
    # (The view `m` is seen again after each write to `v`, `m = ag.read_view(...)`:
    # the same array changed, not a rebinding that Python's iterator would not follow.)
    expected = same_as_python(rows_of_a_view_whose_base_is_written,
                              rows_of_a_view_whose_base_is_written_jax, 0.5, V(), 2)
    assert not np.allclose(expected[0], rows_of_a_view_whose_base_is_written_jax(
        0.5, jnp.asarray(V()), 2)[0])


# --- staged loops: a traced bound around, a traced `if`, a traced `break` ------------

def around(x, n, v):
    a = x * 1.0
    for j in range(n):
        for e in reversed(v[1:]):
            a = a * 0.9 + e
            v[1] = a
    return a, v


def staged_inside(x, m):
    a = x * 1.0
    for i, row in enumerate(m[::-1]):
        if a > 19.0:           # (traced: a staged `break`)
            break
        if a > 0.25:           # (traced: a staged `if`)
            m[1] = m[1] + a    # (row 1 is read by the next step)
        a = a + row[0] + row[1]
    return a, m


@pytest.mark.parametrize('n', [2, 0])
def test_nested_in_a_loop_with_a_traced_bound(n):
    expected_v = V()
    expected = around(0.5, n, expected_v)
    for bound in (n, jnp.int32(n)):
        given = V()
        assert_same(autograph.convert(around)(0.5, bound, given), expected)
        assert_same(given, expected_v)
    assert_same(autograph.convert(around, jit=False)(0.5, jnp.int32(n), V()), expected)


def test_a_traced_if_and_break_inside():
    expected_m = M()
    expected = staged_inside(0.5, expected_m)
    for x in (0.5, jnp.float32(0.5)):
        given = M()
        assert_same(autograph.convert(staged_inside)(x, given), expected)
        assert_same(given, expected_m)
        assert_same(autograph.convert(staged_inside, jit=False)(x, M()), expected)


# --- JAX transformations (JAX arrays: the writes are functional) ---------------------

def test_vmap_and_grad_follow_jax_meaning():
    converted = autograph.convert(tail)
    batch = jnp.stack([jnp.asarray(V()), jnp.asarray(V()) * 2.0])
    assert_same(jax.vmap(converted, in_axes=(None, 0))(0.5, batch),
                jax.vmap(tail_jax, in_axes=(None, 0))(0.5, batch))
    v = jnp.asarray(V())
    for fn, twin in ((tail, tail_jax), (backwards, backwards_jax)):
        assert_same(jax.grad(lambda x: autograph.convert(fn)(x, v)[0])(0.5),
                    jax.grad(lambda x: twin(x, v)[0])(0.5))


# --- iterators bound to a name: a named error where they cannot be followed ----------

def iterator_then_writes(x, v):
    a = x * 1.0
    it = iter(v)
    a = a + next(it)
    v[1] = 10.0                # (read by the loop: Python's iterator is live)
    for e in it:
        v[2] = a
        a = a + e
    return a, v


def reversed_bound(x, v):
    a = x * 1.0
    r = reversed(v)
    for e in r:
        v[0] = v[0] + 1.0
        a = a + e
    return a, v


def iterator_written_after(x, v):
    a = x * 1.0
    it = iter(v)
    for e in it:
        a = a + e
    v[1] = a                   # (after the loop: nothing left to read)
    return a, v


@pytest.mark.parametrize('fn', [iterator_then_writes, reversed_bound])
def test_an_iterator_over_an_array_written_is_a_named_error(fn):
    with pytest.raises(autograph.ControlFlowError, match="iterator of the NumPy array 'v'"):
        autograph.convert(fn)(0.5, V())
    expected_v = V()
    expected = fn(0.5, expected_v)
    given = V()
    assert_same(autograph.convert(fn, jit=False)(0.5, given), expected)   # (as Python)
    assert_same(given, expected_v)


def head(p):
    return p[:3]


def copied(p):
    return p * 2.0


def through_calls(x, v):
    a = x * 1.0
    for e in head(v):          # (a helper's view of `v`)
        v[2] = v[2] + a
        a = a + e
    return a, v


def flipped(x, v):
    a = x * 1.0
    for e in np.flip(v):       # (NumPy's view)
        v[0] = v[0] + a
        a = a + e
    return a, v


def through_a_copy(x, v):
    a = x * 1.0
    for e in copied(v):        # (a copy: the writes are not seen)
        v[3] = v[3] + a
        a = a + e
    return a, v


def flipped_rows(x, v):
    a = x * 1.0
    for row in np.flip(v.reshape(2, 2)):
        row[0] = a             # (writes `v` through the view)
        a = a + row[1]
    return a, v


def zipped_rows(x, v):
    a = x * 1.0
    m = v.reshape(2, 2) * 1.0
    for r, q in zip(m, v.reshape(2, 2)):
        r[0] = a               # (followed: a row of `m`)
        q *= 2.0               # (not followed: a row of `v`'s view)
        a = a + q[1]
    return a, m, v


def zipped_rows_of_names(x, v):
    a = x * 1.0
    m = v.reshape(2, 2) * 1.0
    p = v.reshape(2, 2) * 2.0
    for r, q in zip(m, p):
        r[0] = a
        q *= 2.0               # (the second loop variable: not followed)
        a = a + q[1]
    return a, m, p


def pairs(arr):
    for i in range(arr.shape[0] - 1):
        yield arr[i], arr[i + 1]


def through_a_generator(x, v):
    a = x * 1.0
    for y, z in pairs(v):      # (the generator reads `v[i + 1]` as it runs)
        v[2] = v[2] + a
        a = a + (z - y)
    return a, v


def through_pairwise(x, v):
    a = x * 1.0
    for y, z in itertools.pairwise(v):
        v[3] = v[3] * 0.5 + a
        a = a + z * y
    return a, v


def through_enumerated_generator(x, v):
    a = x * 1.0
    for i, (y, z) in enumerate(pairs(v)):
        v[3] = v[3] + a
        a = a + (z - y) * i
    return a, v


def through_map(x, v):
    a = x * 1.0
    for y in map(abs, v):
        v[1] = v[1] - a
        a = a + y
    return a, v


@pytest.mark.parametrize('fn, match', [
    (through_a_generator, r"an iterator \(made by a call\) of the NumPy array 'v'"),
    (through_pairwise, r"an iterator \(made by a call\) of the NumPy array 'v'"),
    (through_map, r"an iterator \(made by a call\) of the NumPy array 'v'"),
    (through_enumerated_generator, r"an iterator \(made by a call\) of the NumPy array"),
    (through_calls, "made by a call.* array 'v'"), (flipped, "made by a call.* array 'v'"),
    (flipped_rows, "made by a call.* array 'v'"),
    (zipped_rows, "written through a loop variable.* array 'v'"),
    (zipped_rows_of_names, "written through a loop variable.* array 'p'")])
def test_what_the_loop_cannot_follow_is_a_named_error(fn, match):
    with pytest.raises(autograph.ControlFlowError, match=match):
        autograph.convert(fn)(0.5, V())
    expected_v = V()
    expected = fn(0.5, expected_v)
    given = V()
    assert_same(autograph.convert(fn, jit=False)(0.5, given), expected)
    assert_same(given, expected_v)


def through_a_list(x, v):
    a = x * 1.0
    for y in listed(v):        # (a list the call made: its items read already)
        v[3] = v[3] + a
        a = a + y
    return a, v


def listed(arr):
    return [arr[i] * 2.0 for i in range(arr.shape[0])]


@pytest.mark.parametrize('fn', [through_a_copy, through_a_list])
def test_a_copy_made_by_a_call_is_exact(fn):
    expected_v = V()
    expected = fn(0.5, expected_v)
    given = V()
    assert_same(autograph.convert(fn)(0.5, given), expected)
    assert_same(given, expected_v)
    assert 'unfollowed' not in autograph.to_code(fn)


def test_an_iterator_a_call_makes_of_a_jax_array_keeps_jax_meaning():
    """A JAX array's item writes rebind it (`v[2] = e` is `v = v.at[2].set(e)`): the
    generator reads the array it was given, as Python's would read a rebound name's old
    object."""
    def rebinding(x, v):
        a = x * 1.0
        for y, z in pairs(v):
            v = v + a
            a = a + (z - y)
        return a, v
    expected = rebinding(0.5, np.asarray(V()))
    assert_same(autograph.convert(rebinding)(0.5, jnp.asarray(V())), expected)


def test_an_iterator_written_only_after_its_loop_is_exact():
    expected = iterator_written_after(0.5, V())
    assert_same(autograph.convert(iterator_written_after)(0.5, V()), expected)
    assert 'unfollowed_items' not in autograph.to_code(iterator_written_after)


def iterator_after_an_early_return(x, v):
    a = x * 1.0
    w = v * 1.0
    for y in v:
        if a < 0:
            return a, w   # (passes.returns adds a `return` of no line of the user's)
        a = a + y
    for _ in w[1:]:
        w[3] = w[3] * 0.5 + a * 0.1
        it = iter(w)
        a = a + next(it) * 0.1
        for e in it:
            a = a * 0.9 + e * 0.1
    return a, w


def test_an_iterator_after_an_early_return_converts():
    # (A converter crash before: idiom fuzzer seed 96103, TypeError comparing lines.)
    expected = iterator_after_an_early_return(0.5, V())
    assert_same(autograph.convert(iterator_after_an_early_return)(0.5, V()), expected)


# --- what is left as it was ----------------------------------------------------------

def reads_only(x, v, m):
    a = x * 1.0
    for e in reversed(v):
        a = a + e
    for e in v[1:]:
        a = a * 0.5 + e
    for row in m[::-1]:
        a = a + row[0]
    it = iter(v)
    for e in it:
        a = a + e
    return a


def test_loops_that_do_not_write_what_they_iterate_are_unchanged():
    code = autograph.to_code(reads_only)
    for word in ('live=', 'items_of', 'ag.reversed', 'unfollowed_items', 'ag.view'):
        assert word not in code
    assert 'reversed(v)' in code and 'v[1:]' in code
    assert_same(autograph.convert(reads_only)(0.5, V(), M()), reads_only(0.5, V(), M()))
    assert 'ag.reversed(v)' in autograph.to_code(backwards)
    assert 'ag.items_of(v, slice(1, None))' in autograph.to_code(tail)


def _own_reversed():
    def reversed(v):           # (the user's function named `reversed`: a copy)
        return v[:2] * 2.0

    def own_reversed(x, v):
        a = x * 1.0
        for e in reversed(v):
            v[1] = v[1] + a
            a = a + e
        return a, v
    return own_reversed


def test_a_function_named_reversed_is_not_the_builtin():
    own_reversed = _own_reversed()
    expected_v = V()
    expected = own_reversed(0.5, expected_v)
    given = V()
    assert_same(autograph.convert(own_reversed)(0.5, given), expected)
    assert_same(given, expected_v)
    assert 'ag.reversed' not in autograph.to_code(own_reversed)
