"""A name bound to another's array (`c = a`: NumPy's `c is a`) is a view of all of it:
an item write through either name is seen through the other, and reaches the caller's
array. Ground truth: the same function run as plain Python on NumPy arrays (each run on
fresh copies of the inputs, which plain Python changes); the caller's arrays after the
call are compared too."""
import copy

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def same_as_python(fn, make_args, jit=True):
    """`fn` converted (called twice), under `jax.jit` and eagerly, against plain Python:
    the results, and the NumPy arrays given after the call."""
    runs = [autograph.convert(fn), autograph.convert(fn), autograph.convert(fn, jit=False)]
    if jit:
        runs.append(jax.jit(autograph.convert(fn)))
    for index, run in enumerate(runs):
        want_args, args = make_args(), make_args()
        expected = fn(*want_args)
        assert_same(run(*args), expected)
        if run is runs[-1] and jit:
            continue   # (under the caller's jit the arrays given are traced values)
        for got, want in zip(args, want_args):
            if isinstance(want, np.ndarray):
                np.testing.assert_allclose(got, want, rtol=1e-6)
    return expected


def vector():
    return np.arange(1.0, 5.0, dtype=np.float32)


def written_through_alias(a):
    b = a
    b[0] = -1.0
    return a


def alias_sees_write(a):
    c = a
    a[0] = 5.0
    return c


def alias_sees_loop_writes(a, n):
    c = a
    for i in range(n):
        a[i] = 5.0 * i
    return c


def alias_written_in_loop(a, n):
    c = a
    for i in range(n):
        c[i] = c[i] * 2.0
    return a.sum(), c


@pytest.mark.parametrize('fn', [written_through_alias, alias_sees_write])
def test_a_write_through_either_name_is_seen_through_the_other(fn):
    expected = same_as_python(fn, lambda: (vector(),))
    assert expected[0] in (-1.0, 5.0)   # (the write is seen: the test can fail)


@pytest.mark.parametrize('n', [3, jnp.int32(3)], ids=['python n', 'traced n'])
@pytest.mark.parametrize('fn', [alias_sees_loop_writes, alias_written_in_loop])
def test_writes_in_a_loop_with_python_and_traced_bounds(fn, n):
    same_as_python(fn, lambda: (vector(), n))


@pytest.mark.parametrize('fn', [written_through_alias, alias_sees_write,
                                alias_written_in_loop])
def test_jax_arrays_given_mean_what_numpy_arrays_do(fn):
    args = (vector(), 2)[:fn.__code__.co_argcount]
    expected = fn(*copy.deepcopy(args))
    given = jnp.asarray(args[0])
    assert_same(autograph.convert(fn)(given, *args[1:]), expected)
    np.testing.assert_array_equal(given, vector())   # (a JAX array stays as it was)


def local_alias(x, make):
    b = make(3)
    c = b
    b[1] = x
    return c


def test_an_array_of_the_functions_own():
    expected = local_alias(2.0, np.zeros)
    assert_same(autograph.convert(local_alias)(2.0, jnp.zeros), expected)
    assert_same(jax.jit(autograph.convert(local_alias), static_argnums=1)(2.0, jnp.zeros),
                expected)


def under_a_staged_if(a, s):
    c = a
    if s > 0:
        c[1] = s
    else:
        a[2] = s
    return c, a


def alias_bound_in_a_staged_loop(a, n):
    total = 0.0
    for i in range(n):
        c = a
        c[i] = -c[i]
        total += a[i]
    return total, a


@pytest.mark.parametrize('s', [3.0, -2.0])
def test_under_a_staged_if(s):
    same_as_python(under_a_staged_if, lambda: (vector(), jnp.float32(s)))


@pytest.mark.parametrize('n', [3, jnp.int32(2)], ids=['python n', 'traced n'])
def test_bound_in_a_loop_body(n):
    same_as_python(alias_bound_in_a_staged_loop, lambda: (vector(), n))


def put(b, v):
    c = b
    c[0] = v


def through_helpers_parameter(a, v):
    put(a, v)
    return a


def alias_given_to_helper(a, v):
    c = a
    put(c, v)
    return a


@pytest.mark.parametrize('fn', [through_helpers_parameter, alias_given_to_helper])
def test_aliasing_through_a_helpers_parameter(fn):
    same_as_python(fn, lambda: (vector(), 7.0))


def rebound_after_alias(a):
    c = a
    a = a * 2.0
    c[0] = 9.0
    return a, c


def test_the_base_rebound_keeps_the_callers_array_for_the_alias():
    same_as_python(rebound_after_alias, lambda: (vector(),))


def alias_on_some_paths(a, flag):
    if flag:
        c = a
    else:
        c = np.zeros(4, np.float32)
    c[0] = 1.0
    return a


@pytest.mark.parametrize('flag', [True, False, jnp.bool_(True), jnp.bool_(False)])
def test_an_alias_on_some_paths_only_is_followed_by_a_flag(flag):
    """(`c_is_view`: analysis.views' 'if view'; a named error before)"""
    same_as_python(alias_on_some_paths, lambda: (vector(), flag), jit=False)


def updated_alias_on_some_paths(flag, x):
    """`c = b` on one path, a new array on the other, then `c += x` twice: NumPy's `+=`
    changes the array `c` holds, `b`'s where it is the alias (the second `+=` too)."""
    b = np.arange(3.0)
    if flag:
        c = b
    else:
        c = np.zeros(3)
    c += x
    c += x
    return b, c


def updated_alias_of_a_parameter_on_some_paths(a, flag):
    if flag:
        c = a
    else:
        c = np.ones(4, np.float32)
    c += 2.0
    c *= 3.0
    return a, c


@pytest.mark.parametrize('flag', [True, False, jnp.bool_(True), jnp.bool_(False)])
def test_an_alias_on_some_paths_updated_by_augmented_assignments(flag):
    """(`b` was left unchanged: the alias on some paths was followed for item writes
    only, and the flag was reset by the first `+=`)"""
    same_as_python(updated_alias_on_some_paths, lambda: (flag, 1.5), jit=False)
    same_as_python(updated_alias_of_a_parameter_on_some_paths, lambda: (vector(), flag),
                   jit=False)


def lists_and_dicts(items, table):
    more = items
    more.append(3)
    same = table
    same['k'] = 2
    return len(items), table['k']


def test_lists_and_dicts_are_the_same_objects_as_before():
    for run in [autograph.convert(lists_and_dicts), lists_and_dicts]:
        items, table = [1], {}
        assert run(items, table) == (2, 2)
        assert items == [1, 3] and table == {'k': 2}


def no_item_write(x):
    start = x
    x += 1.0
    return start, x


@pytest.mark.parametrize('kind', [jnp.asarray, np.asarray], ids=['jax', 'numpy'])
def test_an_update_in_place_is_seen_through_both_names_of_a_numpy_array_only(kind):
    """`start = x; x += 1.0`: NumPy's `+=` changes the one array both names hold; a
    JAX array's makes a new one (`start` keeps the old)."""
    plain, given = kind(np.arange(3.0, dtype=np.float32)), kind(np.arange(3.0, dtype=np.float32))
    assert_same(autograph.convert(no_item_write)(given), no_item_write(plain))
    assert_same(given, plain)


def number_alias(a):
    t = a[0]
    u = t
    t += 1.0
    a[1] = t
    return u, a


def test_a_single_item_alias_stays_a_number():
    same_as_python(number_alias, lambda: (vector(),))


def previous_value(x, n):
    change = 0.0
    for i in range(n):
        old = x
        x = x * 0.5
        x[0] = 1.0
        change = (x - old).sum()
    return change, x


@pytest.mark.parametrize('n', [3, jnp.int32(3)], ids=['python n', 'traced n'])
def test_an_alias_kept_while_the_name_is_rebound_then_written(n):
    same_as_python(previous_value, lambda: (vector(), n))
