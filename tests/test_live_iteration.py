"""Loops that write the array or list they iterate: Python's iterator reads item k of the
object when step k begins (`for e in v`, `enumerate(v)`, `zip(v, w)`), so a step sees
what the steps before it wrote to later items of a NumPy array or a list.

Ground truth: the same function run unconverted on fresh copies of the same inputs (the
caller's NumPy array must end as plain Python leaves it). A JAX array (given as one, or a
tracer under a caller's `jax.jit`) has JAX's meaning: `v[k] = e` rebinds `v` (the
project's meaning of item writes on JAX arrays, `v = v.at[k].set(e)`), and Python's
iterator keeps the array it started with: each case's `_jax` twin writes that out by
hand and runs unconverted."""
import copy

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def same_as_python(fn, twin, *args):
    """`fn` converted (twice: the second call sees no trace's leftovers), eagerly and on
    the caller's arrays, against plain Python on NumPy arrays; on JAX arrays, and under
    `jax.jit`, against `twin` (JAX's meaning) run unconverted on JAX arrays."""
    expected_args = copy.deepcopy(args)
    expected = fn(*expected_args)
    converted = autograph.convert(fn)
    for _ in range(2):
        given = copy.deepcopy(args)
        assert_same(converted(*given), expected)
        assert_same(given, expected_args)   # (the caller's arrays, written back)
    assert_same(autograph.convert(fn, jit=False)(*copy.deepcopy(args)), expected)
    jax_args = jax.tree_util.tree_map(
        lambda a: jnp.asarray(a) if isinstance(a, np.ndarray) else a, args)
    jax_expected = twin(*jax_args)
    assert_same(converted(*jax_args), jax_expected)
    assert_same(jax.jit(converted)(*copy.deepcopy(args)), jax_expected)
    return expected


def V():
    return np.arange(1.0, 5.0, dtype=np.float32)


# --- enumerate, zip, plain `for e in v` ----------------------------------------------

def enumerate_next(x, v):
    a = x * 1.0
    for i, e in enumerate(v):
        a = a * 0.9 + e * (i + 1) * 0.1
        if i + 1 < 4:
            v[i + 1] = a       # read by the next step
    return a, v


def enumerate_next_jax(x, v):
    a = x * 1.0
    for i, e in enumerate(v):
        a = a * 0.9 + e * (i + 1) * 0.1
        if i + 1 < 4:
            v = v.at[i + 1].set(a)
    return a, v


def enumerate_start(x, v):
    a = x * 1.0
    for i, e in enumerate(v, 1):
        a = a * 0.9 + e * i * 0.1
        v[i % 4] = a
    return a, v


def enumerate_start_jax(x, v):
    a = x * 1.0
    for i, e in enumerate(v, 1):
        a = a * 0.9 + e * i * 0.1
        v = v.at[i % 4].set(a)
    return a, v


def zip_both(x, v):
    a = x * 1.0
    w = v * 1.0
    for y, z in zip(v, w):
        a = a * 0.9 + y * z * 0.1
        w[2] = a
        v[3] = a + 1.0
    return a, v, w


def zip_both_jax(x, v):
    a = x * 1.0
    w = v * 1.0
    for y, z in zip(v, w):
        a = a * 0.9 + y * z * 0.1
        w = w.at[2].set(a)
        v = v.at[3].set(a + 1.0)
    return a, v, w


def plain_items(x, v):
    a = x * 1.0
    for e in v:
        a = a + e
        v[1] = a
        v[3] = a
    return a, v


def plain_items_jax(x, v):
    a = x * 1.0
    for e in v:
        a = a + e
        v = v.at[1].set(a).at[3].set(a)
    return a, v


def rows_of_matrix(x, m):
    a = x * 1.0
    for i, row in enumerate(m):
        a = a + row[0]
        m[(i + 1) % 2, 0] = a
    return a, m


def rows_of_matrix_jax(x, m):
    a = x * 1.0
    for i, row in enumerate(m):
        a = a + row[0]
        m = m.at[(i + 1) % 2, 0].set(a)
    return a, m


@pytest.mark.parametrize('fn, twin', [
    (enumerate_next, enumerate_next_jax), (enumerate_start, enumerate_start_jax),
    (zip_both, zip_both_jax), (plain_items, plain_items_jax)])
def test_a_loop_reads_the_items_its_earlier_steps_wrote(fn, twin):
    expected = same_as_python(fn, twin, 0.5, V())
    assert not np.allclose(expected[0], twin(0.5, jnp.asarray(V()))[0])   # (they differ)


def test_rows_of_a_matrix_written_by_earlier_steps():
    same_as_python(rows_of_matrix, rows_of_matrix_jax, 0.5,
                   np.arange(4.0, dtype=np.float32).reshape(2, 2))


def put(u, k, e):
    u[k] = e


def helper_writes(x, v):
    a = x * 1.0
    for i, e in enumerate(v):
        a = a + e
        put(v, 3, a)
    return a, v


def helper_writes_jax(x, v):
    a = x * 1.0
    for i, e in enumerate(v):
        a = a + e
        v = v.at[3].set(a)
    return a, v


def test_a_helper_writes_the_iterated_array():
    same_as_python(helper_writes, helper_writes_jax, 0.5, V())


# --- staged loops: a traced `if` inside, a traced bound around, a traced `break` -----

def traced_if(x, v):
    a = x * 1.0
    for i, e in enumerate(v):
        if a > 1.0:            # (traced: a staged `if` in the loop)
            v[3] = a
        a = a + e
    return a, v


def traced_if_jax(x, v):
    a = x * 1.0
    for i, e in enumerate(v):
        v = jnp.where(a > 1.0, v.at[3].set(a), v)
        a = a + e
    return a, v


def around(x, n, v):
    a = x * 1.0
    for j in range(n):
        for i, e in enumerate(v):
            a = a * 0.9 + e
            if i + 1 < 4:
                v[i + 1] = a
    return a, v


def around_jax(x, n, v):
    a = x * 1.0
    for j in range(int(n)):
        for i, e in enumerate(v):
            a = a * 0.9 + e
            if i + 1 < 4:
                v = v.at[i + 1].set(a)
    return a, v


def stops(x, v):
    a = x * 1.0
    for i, e in enumerate(v):
        if a > 5.0:            # (traced: a staged `break`)
            break
        a = a + e
        v[(i + 2) % 4] = a
    return a, v


def stops_jax(x, v):
    a = x * 1.0
    done = False
    for i, e in enumerate(v):
        done = done | (a > 5.0)
        new = a + e
        v = jnp.where(done, v, v.at[(i + 2) % 4].set(new))
        a = jnp.where(done, a, new)
    return a, v


def test_a_traced_if_inside():
    same_as_python(traced_if, traced_if_jax, 0.5, V())


@pytest.mark.parametrize('n', [2, 0])
def test_nested_in_a_loop_with_a_traced_bound(n):
    same_as_python(around, around_jax, 0.5, n, V())
    expected_args = (0.5, n, V())
    expected = around(*expected_args)
    given = V()
    assert_same(autograph.convert(around)(0.5, jnp.int32(n), given), expected)
    assert_same(given, expected_args[2])


def test_a_traced_break():
    same_as_python(stops, stops_jax, 0.5, V())


# --- Python lists --------------------------------------------------------------------

def list_items(x):
    a = x * 1.0
    l = [a, a * 2.0, a * 3.0]
    for i, e in enumerate(l):
        a = a + e
        l[(i + 1) % 3] = a
    return a, l


def list_grows(x, n):
    a = x * 1.0
    l = [1.0, 2.0]
    for e in l:
        a = a + e
        if len(l) < n:
            l.append(a)
    return a, l


def zipped_list(x, v):
    a = x * 1.0
    l = [1.0, 2.0]
    for y, z in zip(v, l):     # (staged over `v`: the list is read at each step)
        a = a + y * z
        l[1] = a
    return a, l


def zipped_list_grows(x, v):
    a = x * 1.0
    l = [1.0, 2.0]
    for y, z in zip(v, l):     # (Python's zip reads the list's length at each step)
        a = a + y * z
        if len(l) < 4:
            l.append(a)
    return a, l


def test_lists_are_read_live():
    for x in (0.5, jnp.float32(0.5)):
        assert_same(autograph.convert(list_items)(x), list_items(0.5))
    assert_same(autograph.convert(list_grows)(0.5, 5), list_grows(0.5, 5))
    assert_same(autograph.convert(zipped_list)(0.5, V()), zipped_list(0.5, V()))


def test_a_zipped_list_that_grows_is_a_named_error():
    with pytest.raises(autograph.ControlFlowError, match="list 'l', which its body makes"):
        autograph.convert(zipped_list_grows)(0.5, V())


# --- what is left as it was, and what cannot be followed -----------------------------

def rebinds(x, v):
    a = x * 1.0
    for e in v:
        a = a + e
        v = v * 2.0            # (a new array: the loop still reads the first)
    return a, v


def reads_only(x, v):
    a = x * 1.0
    for i, e in enumerate(v):
        a = a + e * i
    return a


def writes_and_rebinds(x, v):
    a = x * 1.0
    for e in v:
        v[3] = a
        v = v * 2.0
        a = a + e
    return a, v


def test_loops_that_do_not_write_their_iterable_are_unchanged():
    same_as_python(rebinds, rebinds, 0.5, V())
    for fn in (rebinds, reads_only):
        assert 'live=' not in autograph.to_code(fn)
    assert "live={'v'" in autograph.to_code(enumerate_next)


def test_writes_to_an_iterated_array_it_also_rebinds_are_a_named_error():
    with pytest.raises(autograph.ControlFlowError, match="iterates the NumPy array 'v'"):
        autograph.convert(writes_and_rebinds)(0.5, V())
    v = jnp.asarray(V())   # (JAX's meaning: every write rebinds `v`)
    expected = 0.5, v
    for e in np.asarray(V()):
        expected = expected[0] + e, (expected[1].at[3].set(expected[0]) * 2.0)
    assert_same(autograph.convert(writes_and_rebinds)(0.5, v), expected)


# --- the iterated array under another name, in a staged `if`, written by a closure --

def alias_in_staged_if(x, n, v):
    a = x * 1.0
    w = v                      # (one array, two names)
    if n > 0:                  # (traced: a staged `if`, `w` a nonlocal of its branch)
        for y, z in zip(v, w):
            a = a * 0.9 + y * z * 0.1
            w[3] = 0.25
        def put(e):
            w[3] = e
        if x > 0.0:
            put(v[1] * a)
    return a, w


def alias_in_staged_if_jax(x, n, v):
    a = x * 1.0
    w = v
    if n > 0:
        for y, z in zip(v, w):
            a = a * 0.9 + y * z * 0.1
            w = w.at[3].set(0.25)
        if x > 0.0:
            w = w.at[3].set(v[1] * a)
    return a, w


def relaxed(arr, i):
    arr[i] = 0.5 * (arr[i - 1] + arr[i + 1])
    return arr[i]


def helper_then_loop(x, v):
    a = x * 1.0
    w = v * 1.0
    for i in range(2):
        a = a + relaxed(w, 1)   # (a helper writes `w`: its kind stays known)
    for e in w:
        w[3] = a * 0.5
        a = a + e
    return a, w


def helper_then_loop_jax(x, v):
    a = x * 1.0
    w = v * 1.0
    for i in range(2):
        w = w.at[1].set(0.5 * (w[0] + w[2]))
        a = a + w[1]
    for e in w:
        w = w.at[3].set(a * 0.5)
        a = a + e
    return a, w


def test_an_alias_iterated_in_a_staged_if_and_written_by_a_closure():
    for n in (1, jnp.int32(1)):
        expected_v = V()
        expected = alias_in_staged_if(0.5, 1, expected_v)
        given = V()
        assert_same(autograph.convert(alias_in_staged_if)(0.5, n, given), expected)
        assert_same(given, expected_v)
    assert_same(autograph.convert(alias_in_staged_if)(0.5, 1, jnp.asarray(V())),
                alias_in_staged_if_jax(0.5, 1, jnp.asarray(V())))


def test_an_array_a_helper_wrote_before_the_loop():
    same_as_python(helper_then_loop, helper_then_loop_jax, 0.5, V())


def through_closure(x, v):
    a = x * 1.0
    w = v * 1.0
    def put(e):                # (writes `w`, a variable of the function around it)
        w[3] = e
    for i, e in enumerate(w):
        a = a + e
        put(a)
    return a, w


def through_closure_jax(x, v):
    a = x * 1.0
    w = v * 1.0
    for i, e in enumerate(w):
        a = a + e
        w = w.at[3].set(a)
    return a, w


def test_a_nested_function_writes_the_iterated_array():
    same_as_python(through_closure, through_closure_jax, 0.5, V())
