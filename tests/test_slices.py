"""Slices whose bounds are traced: `x[i:i + k]` of an array with a Python width is
`lax.dynamic_slice` (checked when the program runs where Python would differ); other
traced slices are a ControlFlowError naming the slice and the line. Each converted
result is compared with the same function run as plain Python."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, check, i32, primitives, site

pytestmark = pytest.mark.x64


def window3(x, i):
    return x[i:i + 3] * 2


def window_k(x, i, k):
    return x[i:k + i].sum()


def test_window_of_an_array_matches_python_where_python_has_k_items():
    x = np.arange(7.)
    converted = autograph.convert(window3)
    for i in range(-8, 9):
        expected = window3(x, i)
        check(window3, x, i)                       # a Python start: Python's slice
        if len(expected) == 3:
            assert_same(converted(jnp.asarray(x), i32(i)), expected)
        else:                                      # Python's slice is shorter
            with pytest.raises(autograph.ControlFlowError) as info:
                converted(jnp.asarray(x), i32(i))
            message = str(info.value)
            assert '`x[i:i + 3]` at ' in message
            assert site(window3, "x[i:i + 3]") in message
            assert f'with start {i} has {len(expected)} items in Python, not 3' in message
    assert 'dynamic_slice' in primitives(window3, jnp.asarray(x), i32(2))
    assert 'ag.window(x, i, 3)' in autograph.to_code(window3)


def test_window_with_python_width_under_jit_vmap_and_grad():
    x = jnp.arange(10.)
    for k in (0, 1, 4):
        assert_same(autograph.convert(window_k)(x, i32(3), k), window_k(np.asarray(x), 3, k))
    batched = jax.vmap(autograph.convert(window_k, jit=False), in_axes=(None, 0, None))
    starts = jnp.array([0, 2, 6])
    assert_same(batched(x, starts, 4), jnp.array([window_k(np.asarray(x), int(i), 4)
                                                   for i in starts]))
    with pytest.raises(Exception, match='has 3 items in Python, not 4'):
        jax.block_until_ready(batched(x, jnp.array([0, 7]), 4))
    grad = jax.grad(autograph.convert(window_k, jit=False))(x, i32(2), 3)
    assert_same(grad, (jnp.arange(10) >= 2) & (jnp.arange(10) < 5))


def moving_sums(x):
    out = []
    for i in range(x.shape[0] - 2):
        out.append(x[i:i + 3].sum())
    return jnp.stack(out)


def test_window_in_a_staged_range_loop():
    x = jnp.arange(40.) ** 2
    check(moving_sums, x)
    check(moving_sums, np.asarray(x))
    assert primitives(moving_sums, x) & {'scan', 'while'}


def truncated_sums(x):
    total = 0.
    for i in range(x.shape[0]):       # the last windows are shorter in Python
        total = total + x[i:i + 3].sum()
    return total


def truncated_windows(x):
    out = []
    for i in range(x.shape[0]):       # the last windows are shorter in Python
        out.append(x[i:i + 3] * 2)
    return jnp.concatenate(out)


def test_window_in_a_python_range_loop_is_staged_when_its_length_is_known():
    x = jnp.arange(40.) ** 2
    # the last windows are shorter, and a sum reads them exactly: staged, masked (an
    # accumulation over independent iterations: vectorised, no loop left)
    check(truncated_sums, x)
    assert 'reductions=' in autograph.to_code(truncated_sums)
    assert not primitives(truncated_sums, x) & {'scan', 'while'}
    # the windows are arrays of varying length: the loop runs as Python
    with pytest.warns(UserWarning, match='is unrolled into the compiled program'):
        check(truncated_windows, x)
    assert not primitives(truncated_windows, x) & {'scan', 'while'}
    # moving_sums' windows fit on every iteration: staged, with no run-time check
    assert 'debug_callback' not in primitives(moving_sums, x)


def test_window_in_a_loop_with_traced_bound_is_checked_at_run_time():
    def f(x, n):
        total = 0.
        for i in range(n):
            total = total + x[i:i + 3].sum()
        return total
    x = jnp.arange(10.)
    assert_same(autograph.convert(f)(x, i32(8)), f(np.asarray(x), 8))
    with pytest.raises(autograph.ControlFlowError, match='with start 8 has 2 items'):
        autograph.convert(f)(x, i32(9))


def test_window_of_a_numpy_array_with_traced_start():
    x = np.arange(6.)
    converted = autograph.convert(window3)
    assert_same(converted(x, i32(1)), window3(x, 1))


def test_window_of_a_python_list_with_traced_start_is_a_named_error():
    def f(i):
        xs = [1., 2., 3., 4., 5.]
        return sum(xs[i:i + 3])
    check(f, 1)
    with pytest.raises(autograph.ControlFlowError) as info:
        autograph.convert(f)(i32(1))
    message = str(info.value)
    assert '`xs[i:i + 3]` (a Python list)' in message
    assert site(f, "xs[i:i + 3]") in message
    assert 'jnp.asarray' in message


def test_slice_of_traced_length_is_read_by_a_reduction_else_a_named_error():
    def f(x, i, j):
        return x[i:j].sum() + x[:j].sum()

    def g(x, i, j):
        return x[i:j] @ x[:j]
    for i, j in [(1, 4), (3, 1), (-2, 5)]:
        check(f, jnp.arange(5.), i, j)
        assert_same(autograph.convert(f)(jnp.arange(5.), i32(i), i32(j)),
                    f(np.arange(5.), i, j))
    with pytest.raises(autograph.ControlFlowError) as info:
        autograph.convert(g)(jnp.arange(5.), i32(1), i32(4))
    message = str(info.value)
    assert '`x[:j]` or `x[i:j]`' in message
    assert site(g, "x[i:j]") in message
    assert 'depends on a value known only when the program runs' in message


def test_traced_width_is_a_named_error():
    with pytest.raises(autograph.ControlFlowError, match='width of the slice must be a '
                                                         'non-negative Python int'):
        autograph.convert(window_k)(jnp.arange(5.), i32(1), i32(2))
    with pytest.raises(autograph.ControlFlowError, match='takes 9 items of an axis of 5'):
        autograph.convert(window_k)(jnp.arange(5.), i32(1), 9)


def test_slices_with_python_bounds_stay_python():
    def f(x, n, step):
        return x[:n], x[n:], x[::step], x[n - 1:n + 1], x[-n:]
    for x in (jnp.arange(6.), list(range(6))):
        check(f, x, 2, 2)
    assert f('abcdef', 2, 2) == autograph.convert(f, jit=False)('abcdef', 2, 2)


def test_window_whose_start_has_a_call_is_a_general_slice():
    def f(x, i):
        return x[int(i):int(i) + 2]
    check(f, jnp.arange(5.), 1)
    assert 'ag.getslice' in autograph.to_code(f)


def patch(img, i, j):
    return img[i:i + 2, j:j + 3]


def test_windows_along_several_axes():
    img = np.arange(30.).reshape(5, 6)
    converted = autograph.convert(patch)
    for i, j in [(0, 0), (3, 3), (1, 2), (-3, -4)]:
        check(patch, img, i, j)
        assert_same(converted(jnp.asarray(img), i32(i), i32(j)), patch(img, i, j))
    with pytest.raises(autograph.ControlFlowError, match='with start 4 has 1 items'):
        converted(jnp.asarray(img), i32(4), i32(0))
    assert 'ag.windows(img, (ag.span(i, 2), ag.span(j, 3)))' in autograph.to_code(patch)
    batched = jax.vmap(autograph.convert(patch, jit=False), in_axes=(None, 0, 0))
    starts = jnp.array([0, 2]), jnp.array([3, 1])
    assert_same(batched(jnp.asarray(img), *starts),
                np.stack([patch(img, int(i), int(j)) for i, j in zip(*starts)]))


def test_windows_with_integers_none_and_static_slices_between():
    def f(x, i, j):
        return x[1, i:i + 2, None, ::2] + x[j, :, None, 1:3].sum(), x[:, j:j + 2]
    x = np.arange(60.).reshape(3, 4, 5)
    check(f, x, 2, 1)
    assert_same(autograph.convert(f)(jnp.asarray(x), i32(2), i32(1)), f(x, 2, 1))
    assert_same(autograph.convert(f)(jnp.asarray(x), i32(-3), 1), f(x, -3, 1))


def test_windows_with_a_traced_length_is_a_named_error():
    def f(x, n):
        return x[:, :n]
    check(f, jnp.ones((2, 3)), 2)
    with pytest.raises(autograph.ControlFlowError) as info:
        autograph.convert(f)(jnp.ones((2, 3)), i32(2))
    assert '`x[:, :n]` at ' in str(info.value)
    assert 'depends on a value known only when the program runs' in str(info.value)


def write2(x, i, v):
    x[i:i + 2] = v
    return x


def add2(x, i, v):
    x[i:i + 2] += v
    return x


@pytest.mark.parametrize('fn', [write2, add2])
def test_assignment_to_a_slice_with_traced_start_matches_numpy(fn):
    v = np.array([10., 20.])
    converted = autograph.convert(fn)
    for i in range(-7, 7):
        try:
            expected = fn(np.arange(5.), i, v)
        except ValueError:           # NumPy: the slice does not have 2 items
            with pytest.raises(autograph.ControlFlowError, match='but the value written has 2'):
                converted(jnp.arange(5.), i32(i), jnp.asarray(v))
            continue
        assert_same(converted(jnp.arange(5.), i32(i), jnp.asarray(v)), expected)
    assert 'dynamic_update_slice' in primitives(fn, jnp.arange(5.), i32(1), jnp.asarray(v))


def test_assignment_to_a_traced_slice_under_vmap_and_grad():
    batched = jax.vmap(autograph.convert(write2, jit=False), in_axes=(None, 0, None))
    starts = jnp.array([0, 3])
    assert_same(batched(jnp.arange(5.), starts, jnp.ones(2)),
                np.stack([write2(np.arange(5.), int(i), np.ones(2)) for i in starts]))
    grad = jax.grad(lambda v: autograph.convert(add2, jit=False)(jnp.arange(5.), i32(1), v)
                    .sum() ** 2)(jnp.ones(2))
    assert_same(grad, 2 * add2(np.arange(5.), 1, np.ones(2)).sum() * np.ones(2))


def test_assignment_to_a_traced_slice_of_a_scalar_is_a_named_error():
    def f(x, i, j):
        x[i:j] = 0.
        return x
    assert_same(autograph.convert(f)(jnp.arange(5.), 1, 3), f(np.arange(5.), 1, 3))
    with pytest.raises(autograph.ControlFlowError) as info:
        autograph.convert(f)(jnp.arange(5.), i32(1), i32(3))
    assert '`x[i:j]`' in str(info.value) and 'lax.dynamic_update_slice' in str(info.value)
