"""Three of Python's and NumPy's meanings that corpus batch 5 found missing, each checked
against the same function run as plain Python (NumPy arrays where it writes items):

- `exit(code)`, `quit(code)`, `sys.exit(code)` under a traced condition raise SystemExit
  when the program runs on that path (as `raise SystemExit(code)`), not while tracing;
- a write at an index array out of range (a list of integers, an integer array, known
  while tracing or not) is NumPy's IndexError (JAX drops the write; a read keeps JAX's
  meaning, clamping, as a JAX array run as plain Python does); a list of Python integers
  as an index is NumPy's index array (JAX refuses lists);
- an optional result (None on some paths) of user code given to library code is its
  value where it is not None, Python's TypeError where it is."""
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, i32


def leaves_early(x):
    if x > 0:
        exit(3)
    return x


def quits_in_a_loop(x, n):
    for i in range(n):
        if x * i > 10:
            quit()
        x = x + 1
    return x


def exits_by_sys(x):
    while x < 10:
        if x < 0:
            sys.exit('negative')
        x = x + 1
    return x


@pytest.mark.parametrize('fn, args, code', [
    (leaves_early, (2.0,), 3), (quits_in_a_loop, (3.0, 5), None),
    (exits_by_sys, (-1.0,), 'negative')])
@pytest.mark.parametrize('jit', [False, True])
def test_exit_under_a_traced_condition_raises_when_the_program_runs(fn, args, code, jit):
    with pytest.raises(SystemExit) as plain:
        fn(*args)
    assert plain.value.code == code
    if not jit:
        with pytest.raises(SystemExit) as converted:
            autograph.convert(fn)(jnp.float32(args[0]), *args[1:])
        assert converted.value.code == code
        return
    # (inside the caller's jit, JAX's error names it: see tests/test_checks.py)
    run = jax.jit(autograph.convert(fn), static_argnums=tuple(range(1, len(args))))
    with pytest.raises(Exception, match=f'SystemExit: {code if code is not None else ""}'):
        jax.block_until_ready(run(jnp.float32(args[0]), *args[1:]))


@pytest.mark.parametrize('fn, args', [
    (leaves_early, (-1.0,)), (quits_in_a_loop, (0.5, 3)), (exits_by_sys, (2.0,))])
def test_exit_on_a_path_not_taken_changes_nothing(fn, args):
    assert_same(autograph.convert(fn)(jnp.float32(args[0]), *args[1:]), fn(*args))
    assert_same(jax.vmap(autograph.convert(fn), in_axes=(0,) + (None,) * (len(args) - 1))(
        jnp.float32([args[0], args[0] - 0.25]), *args[1:]),
        np.array([fn(args[0], *args[1:]), fn(args[0] - 0.25, *args[1:])], np.float32))


def test_exit_shadowed_by_a_local_is_a_call():
    def calls_its_own(x):
        exit = lambda code: None   # noqa: E731 (not the builtin)
        if x > 0:
            exit(1)
        return x
    assert 'SystemExit' not in autograph.to_code(calls_its_own)
    assert_same(autograph.convert(calls_its_own)(jnp.float32(1.0)), 1.0)


def swap_rows(u, k):
    u[[k, k + 1]] = u[[k + 1, k]]
    return u


def swap_rows_by_array(u, k):
    u[jnp.array([k, k + 1])] = u[jnp.array([k + 1, k])]
    return u


def gather(u, i):
    return u[jnp.array([i, i + 1])].sum()


def swap_under_a_test(u, k, x):
    if x > 0:
        u[np.array([k, k + 1])] = u[np.array([k + 1, k])]
    return u


def test_a_list_of_python_integers_is_an_index_array():
    u = np.arange(6.).reshape(3, 2)
    for k in (0, 1):
        assert_same(autograph.convert(swap_rows)(jnp.asarray(u), k), swap_rows(u.copy(), k))
        assert_same(jax.jit(autograph.convert(swap_rows), static_argnums=1)(u, k),
                    swap_rows(u.copy(), k))


def augmented_at_a_list(x, v):
    w = v * 1.0
    w[[1, 0, 1]] += x   # (NumPy's buffered update: item 1 gets x once)
    return w


@pytest.mark.parametrize('make', [np.asarray, jnp.asarray])
def test_an_augmented_write_at_a_list_of_integers(make):
    """(the fuzzer's seed 500013: the read of `w[[1, 0, 1]] += x` reached JAX as a list)"""
    v = np.arange(4, dtype=np.float32)
    want = augmented_at_a_list(np.float32(1.5), v.copy())
    np.testing.assert_array_equal(
        np.asarray(autograph.convert(augmented_at_a_list)(np.float32(1.5), make(v))), want)


@pytest.mark.parametrize('fn, args', [
    (swap_rows, (2,)), (swap_rows_by_array, (2,)), (swap_rows_by_array, (i32(2),))])
def test_a_write_at_an_index_array_out_of_range_is_numpys_index_error(fn, args):
    u = np.arange(3.)
    with pytest.raises(IndexError, match='index 3 is out of bounds for axis 0 with size 3'):
        fn(u.copy(), *[int(a) for a in args])
    with pytest.raises(IndexError, match='index 3 is out of bounds for axis 0 with size 3'):
        autograph.convert(fn)(jnp.asarray(u), *args)
    assert_same(autograph.convert(fn)(jnp.asarray(u), *[a - 1 for a in args]),
                fn(u.copy(), *[int(a) - 1 for a in args]))


def test_an_index_array_out_of_range_on_one_path_only():
    u = np.arange(3.)
    converted = autograph.convert(swap_under_a_test)
    assert_same(converted(jnp.asarray(u), 2, jnp.float32(-1.0)),
                swap_under_a_test(u.copy(), 2, -1.0))
    with pytest.raises(IndexError, match='index 3 is out of bounds'):
        swap_under_a_test(u.copy(), 2, 1.0)
    with pytest.raises(IndexError, match='index 3 is out of bounds'):
        converted(jnp.asarray(u), 2, jnp.float32(1.0))


def writes_pairs(u, i):
    u[jnp.array([i, i + 1])] = 0.0
    return u


def test_a_write_at_an_index_array_under_vmap_is_checked_per_element():
    converted = autograph.convert(writes_pairs)
    u = jnp.arange(4.)
    assert_same(jax.vmap(converted, in_axes=(None, 0))(u, jnp.array([0, 1, 2])),
                np.stack([writes_pairs(np.arange(4.), i) for i in (0, 1, 2)]))
    with pytest.raises(IndexError, match='index 4 is out of bounds'):
        jax.vmap(converted, in_axes=(None, 0))(u, jnp.array([0, 3]))


@pytest.mark.parametrize('i', [2, i32(2)])
def test_a_read_at_an_index_array_keeps_jaxs_meaning(i):
    u = jnp.arange(3.)
    assert_same(autograph.convert(gather)(u, i), gather(u, i))   # (clamped, as JAX reads)


def optional(x):
    if x > 0:
        return x * 2


def sums_an_optional(x):
    return jnp.sum(optional(x)) + 1


def sums_a_named_optional(x):
    r = optional(x)
    return jnp.sqrt(jnp.abs(r)) * 3


@pytest.mark.parametrize('fn', [sums_an_optional, sums_a_named_optional])
def test_an_optional_result_given_to_library_code(fn):
    converted = autograph.convert(fn)
    assert_same(converted(jnp.float32(2.0)), fn(2.0))
    assert_same(jax.grad(converted)(jnp.float32(2.0)), jax.grad(fn)(2.0))
    with pytest.raises(TypeError):
        fn(-1.0)
    with pytest.raises(TypeError, match='was given None'):
        converted(jnp.float32(-1.0))
