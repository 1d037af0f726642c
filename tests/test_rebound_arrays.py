"""Arrays whose variable is rebound while the array lives on. A NumPy view belongs to the
array it was taken from, not to the name: after the base variable is rebound (`a = a *
2`), writes through the view still go to the old array (the caller's, for a parameter),
on every path, on some paths only (a Python or a traced `if`), and in loops. A parameter
rebound by a part of a compound statement (a `for` target, `with ... as`, `:=`) keeps
the caller's array the writes made before. Ground truth: the same function run as plain
Python on fresh NumPy arrays (which plain Python changes)."""
import copy

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.errors import UnsupportedSyntax
from tests.helpers import assert_same
from tests.test_argument_writes import same_effects


def rebound_then_view_written(a):
    v = a[0:2]
    a = a * 2
    v[0] = 9.0
    return a, v


def rebound_on_some_paths(a, c):
    v = a[0:2]
    if c > 0:
        a = a * 2
    v[0] = 9.0
    return a, v


def two_views_rebound_on_some_paths(a, c):
    v = a[0:2]
    w = a[1:3]
    if c > 0:
        a = a * 2
    v[1] = 9.0           # w[0] sees it: the same array
    a[3] = 5.0           # v and w see it only where `a` was not rebound
    return a, v, w


def view_updated_in_a_loop_that_rebinds(a, n):
    v = a[0:2]
    for _ in range(n):
        a = a + 1.0
        v += 1.0
    return a, v


def rebound_twice(a, c):
    v = a[1:3]
    a = a + 1.0
    if c > 0:
        a = a * 3.0
    v *= 2.0
    return a, v


def view_given_to_a_helper_after_rebinding(a):
    v = a[1:]
    a = a - 1.0
    negate_first(v)
    return a


def negate_first(x):
    x[0] = -x[0]


def calls_a_function_that_rebinds(a):
    r, _ = rebound_then_view_written(a)
    return r + a


# Their meaning on JAX arrays (under the caller's jax.jit the arguments are tracers: JAX's
# meaning, see tests/test_numpy_vs_jax_meaning.py): a JAX array's `a[i:j]` is a new array,
# and an item write `v[k] = e` is `v = v.at[k].set(e)` (plain Python refuses it).

def rebound_then_view_written_jax(a):
    v = a[0:2]
    a = a * 2
    v = v.at[0].set(9.0)
    return a, v


def rebound_on_some_paths_jax(a, c):
    v = a[0:2]
    a = jnp.where(c > 0, a * 2, a)
    v = v.at[0].set(9.0)
    return a, v


def two_views_rebound_on_some_paths_jax(a, c):
    v = a[0:2]
    w = a[1:3]
    a = jnp.where(c > 0, a * 2, a)
    v = v.at[1].set(9.0)
    a = a.at[3].set(5.0)
    return a, v, w


def view_updated_in_a_loop_that_rebinds_jax(a, n):
    return a + 1.0 * n, a[0:2] + 1.0 * n


def rebound_twice_jax(a, c):
    v = a[1:3]
    a = a + 1.0
    a = jnp.where(c > 0, a * 3.0, a)
    return a, v * 2.0


def view_given_to_a_helper_after_rebinding_jax(a):
    return a - 1.0   # (the helper writes a copy of `a[1:]`)


def calls_a_function_that_rebinds_jax(a):
    r, _ = rebound_then_view_written_jax(a)
    return r + a


JAX_MEANING = {fn: globals()[fn.__name__ + '_jax'] for fn in (
    rebound_then_view_written, rebound_on_some_paths, two_views_rebound_on_some_paths,
    view_updated_in_a_loop_that_rebinds, rebound_twice, view_given_to_a_helper_after_rebinding,
    calls_a_function_that_rebinds)}


PARAMETERS = [(rebound_then_view_written, None)] + [
    (fn, c) for fn in (rebound_on_some_paths, two_views_rebound_on_some_paths,
                       rebound_twice)
    for c in (1.0, -1.0, jnp.array(1.0), jnp.array(-1.0))] + [
    (view_updated_in_a_loop_that_rebinds, n) for n in (0, 2, jnp.array(0), jnp.array(2))] + [
    (view_given_to_a_helper_after_rebinding, None), (calls_a_function_that_rebinds, None)]


@pytest.mark.parametrize('fn,c', PARAMETERS)
@pytest.mark.parametrize('jit', [True, False])
def test_a_view_written_after_its_parameter_is_rebound_writes_the_callers_array(fn, c, jit):
    """The caller's NumPy array and the results are Python's, on two calls; under the
    caller's jax.jit (the arguments are tracers: JAX's meaning, no array written), the
    results of the function's JAX twin (NumPy's differ for the first three)."""
    extra = () if c is None else (c,)
    same_effects(fn, lambda: (np.arange(4.0),) + extra, calls=2, jit=jit)
    given = np.arange(4.0)
    assert_same(jax.jit(autograph.convert(fn))(given, *extra),
                jax.jit(JAX_MEANING[fn])(np.arange(4.0), *extra))
    np.testing.assert_array_equal(given, np.arange(4.0))
    assert_same(autograph.convert(fn, jit=jit)(jnp.arange(4.0), *extra),
                JAX_MEANING[fn](jnp.arange(4.0), *extra))


def local_base(c):
    b = np.zeros(3)
    v = b[1:]
    w = b[:2]
    if c > 0:
        b = b + 1
    v[0] = 5
    return b, v, w


def local_base_rebound(x):
    b = x * 1.0
    v = b[1:]
    b = b + 1
    v[0] = 5
    return b, v


@pytest.mark.parametrize('fn,arg', [(local_base, 1), (local_base, -1),
                                    (local_base, jnp.array(1)), (local_base, jnp.array(-1)),
                                    (local_base_rebound, np.arange(3.0))])
def test_a_view_of_a_local_array_written_after_it_is_rebound(fn, arg):
    expected = fn(copy.deepcopy(arg))
    converted = autograph.convert(fn)
    for _ in range(2):
        assert_same(converted(copy.deepcopy(arg)), expected)
    assert_same(jax.jit(converted)(copy.deepcopy(arg)), expected)
    assert_same(autograph.convert(fn, jit=False)(copy.deepcopy(arg)), expected)


def test_the_code_keeps_the_old_array_only_where_a_view_outlives_a_rebinding():
    code = autograph.to_code(rebound_then_view_written)
    assert 'a_arg = ag.write_view(a_arg, v_key, v)' in code and '_is_arg' not in code
    assert 'a_is_arg' in autograph.to_code(rebound_on_some_paths)
    code = autograph.to_code(local_base_rebound)
    assert 'b_old = b' in code and 'b_is_old' not in code


def view_taken_in_each_iteration(a, n):
    for i in range(n):
        v = a[i:i + 1]      # the caller's array in the first iteration only
        a = a * 2
        v[0] = -1.0
    return a


def test_views_of_a_parameter_that_is_the_callers_on_some_paths_only_are_named():
    with pytest.raises(UnsupportedSyntax, match="'a' is rebound here while NumPy views"):
        autograph.convert(view_taken_in_each_iteration)(np.arange(3.0), 2)


# --- a parameter rebound by a part of a compound statement ------------------------------

def rebound_by_a_loop_target(a, rows):
    a[0] = -1.0
    for a in rows:
        a = a + 1.0
    return a


def rebound_by_a_loop_target_then_written(a, rows):
    a[0] = -1.0
    for a in rows:
        a = a * 2.0
    a[2] = 7.0               # the caller's array where the loop ran no iteration
    return a


class Given:
    """A context manager that gives its value."""

    def __init__(self, value):
        self.value = value

    def __enter__(self):
        return self.value

    def __exit__(self, *exc):
        return False


def rebound_by_a_with(a, b):
    a[0] = -1.0
    with Given(b) as a:
        a = a * 2.0
    a[1] = 7.0
    return a


def rebound_by_an_assignment_expression(a, c):
    a[0] = -1.0
    if (a := a * c)[0] > 0:
        a[1] = 5.0
    a[2] = 3.0
    return a


def rebound_by_an_assignment_expression_on_some_paths(a, c):
    a[0] = -1.0
    big = c > 0 and (a := a * 2.0)[0] < 0
    a[1] = 5.0
    return a, big


@pytest.mark.parametrize('fn,make', [
    (rebound_by_a_loop_target, lambda: (np.arange(1.0, 4.0), [np.ones(3)])),
    (rebound_by_a_loop_target, lambda: (np.arange(1.0, 4.0), [])),
    (rebound_by_a_loop_target_then_written, lambda: (np.arange(1.0, 4.0), np.ones((2, 3)))),
    (rebound_by_a_loop_target_then_written, lambda: (np.arange(1.0, 4.0), np.ones((0, 3)))),
    (rebound_by_a_with, lambda: (np.arange(1.0, 4.0), np.ones(3))),
    (rebound_by_an_assignment_expression, lambda: (np.arange(1.0, 4.0), 2.0)),
    (rebound_by_an_assignment_expression, lambda: (np.arange(1.0, 4.0), -2.0)),
    (rebound_by_an_assignment_expression_on_some_paths, lambda: (np.arange(1.0, 4.0), 1.0)),
    (rebound_by_an_assignment_expression_on_some_paths, lambda: (np.arange(1.0, 4.0), -1.0)),
])
@pytest.mark.parametrize('jit', [True, False])
def test_a_parameter_rebound_by_a_part_of_a_compound_statement(fn, make, jit):
    """A `for` target, `with ... as`, `:=` in a test: the caller's array gets the writes
    made while the parameter held it (a loop that runs no iteration leaves it there)."""
    same_effects(fn, make, calls=2, jit=jit)
    assert_same(jax.jit(autograph.convert(fn))(*make()), fn(*make()))


@pytest.mark.parametrize('n', [0, 2])
def test_a_parameter_rebound_by_a_staged_loop_target(n):
    """The loop over a traced array's rows: the flag is a traced value."""
    rows = jnp.ones((n, 3))
    a, expected_a = np.arange(1.0, 4.0), np.arange(1.0, 4.0)
    expected = rebound_by_a_loop_target_then_written(expected_a, np.ones((n, 3)))
    assert_same(autograph.convert(rebound_by_a_loop_target_then_written)(a, rows), expected)
    np.testing.assert_allclose(a, expected_a)


def rebound_by_an_assignment_expression_in_a_conditional_expression(a, c):
    a[0] = -1.0
    b = (a := a * 2.0) if c > 0 else 0.0
    a[1] = 5.0
    return a, b


def test_a_parameter_rebound_where_python_may_not_evaluate_it_is_named():
    """`:=` in a branch of `x if c else y`: the parameter is the caller's array on some
    paths only, and no statement of its own rebinds it: a named error at its line."""
    fn = rebound_by_an_assignment_expression_in_a_conditional_expression
    with pytest.raises(UnsupportedSyntax, match=r"'a' is rebound here.*assignment expression") \
            as info:
        autograph.convert(fn)(np.arange(1.0, 4.0), 1.0)
    assert info.value.lineno == fn.__code__.co_firstlineno + 2
