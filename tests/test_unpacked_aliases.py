"""Whole aliases bound by unpacking (`b, c = v, 1`) or by a chain of targets (`b = c =
v`; `b = c = v[1:]`, one view both names hold), and aliases of an array made of a parameter (`a = v * 1.0; b = a`): NumPy's `b is
v`, so `b += e` or `b[k] = e` changes `v` where the caller gave a NumPy array, and only
rebinds `b` where it gave a JAX array (passes.unpacked_aliases, view_bindings'
known_aliases). Both were silent before: the caller's array kept its old items. Ground
truth: the same function run as plain Python; the caller's NumPy arrays must end as
Python leaves them."""
import copy

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import agree_with_numpy as agree, assert_same


def unpacked(v, n):
    b, c = v, 1
    i = 0
    while i < n:
        b += 1.0
        i += c
    return v


def chained(v, n):
    b = c = v
    for i in range(n):
        b[i % 2] = b[i % 2] + 2.0
    c *= 3.0
    return v


def alias_of_arithmetic(v, n):
    a = v * 1.0
    b = a
    i = 0
    while i < n:
        b += 1.0
        i += 1
    return a, b


def unpacked_under_a_traced_test(v, x):
    w, scale = v, 2.0
    if x > 0:
        w *= scale
    return v


def swap(a, b, n):
    for _ in range(n):
        a, b = b, a
        a += 1.0
    return a, b


def double_buffer(x, n):
    prev = np.zeros(3)
    cur = np.ones(3)
    for i in range(n):
        for j in range(3):
            cur[j] = prev[j] + x[i % 2] * j
        prev, cur = cur, prev
    return prev


def double_buffer_kept(x, n):
    prev = np.zeros(3)
    cur = np.ones(3)
    first = prev
    for i in range(n):
        for j in range(3):
            cur[j] = prev[j] + x[i % 2] * j
        prev, cur = cur, prev
    return prev, first


def chained_view(v, n):
    b = c = v[1:]   # (one view, both names: NumPy's `b is c`)
    for i in range(n):
        b[0] = b[0] + 2.0
    c *= 3.0
    return v, b


def chained_reshape(v, n):
    b = c = v.reshape(1, 2)
    i = 0
    while i < n:
        c[0, i % 2] = c[0, i % 2] + 1.0
        i += 1
    b += 0.5
    return v, b, c


CASES = [(unpacked, 3), (chained, 3), (alias_of_arithmetic, 2), (chained_view, 3),
         (chained_reshape, 3)]




def arguments(fn, n, traced):
    count = jnp.int32(n) if traced else n
    if fn is swap:
        return np.zeros(2), np.ones(2), count
    return np.arange(2.0), count


@pytest.mark.parametrize('n', [0, 3])
def test_arrays_exchanged_between_names_alone(n):
    """`prev, cur = cur, prev` of arrays no other name holds: values change places."""
    agree(double_buffer, np.arange(2.0), jnp.int32(n))
    assert 'check_exchange' not in autograph.to_code(double_buffer)


@pytest.mark.parametrize('fn, args', [
    (double_buffer_kept, (np.arange(2.0), jnp.int32(3))),
    (swap, (np.zeros(2), np.ones(2), 3)),
    (swap, (np.zeros(2), np.ones(2), jnp.int32(3)))], ids=['kept', 'parameters',
                                                            'parameters, traced bound'])
def test_arrays_exchanged_that_others_hold_are_a_named_error(fn, args):
    """NumPy's arrays change places between names that other holders see changed in
    place (`first = prev`, the caller's arrays): not followed, so an error (it was
    silent: the other holders kept their old items)."""
    with pytest.raises(autograph.ControlFlowError, match='change places'):
        autograph.convert(fn)(*copy.deepcopy(args))


@pytest.mark.parametrize('traced', [False, True], ids=['python bound', 'traced bound'])
@pytest.mark.parametrize('fn, n', CASES, ids=[fn.__name__ for fn, _ in CASES])
def test_numpy_arguments(fn, n, traced):
    agree(fn, *arguments(fn, n, traced))
    agree(fn, *arguments(fn, 0, traced))


JAX_CASES = [(unpacked, 3), (alias_of_arithmetic, 2), (swap, 3)]   # (no item writes)


@pytest.mark.parametrize('fn, n', JAX_CASES, ids=[fn.__name__ for fn, _ in JAX_CASES])
def test_jax_arguments_are_rebound_not_changed(fn, n):
    args = [jnp.asarray(a) if isinstance(a, np.ndarray) else a
            for a in arguments(fn, n, False)]
    expected = fn(*args)
    assert_same(autograph.convert(fn)(*args), expected)
    assert_same(jax.jit(autograph.convert(fn), static_argnums=len(args) - 1)(*args),
                expected)


@pytest.mark.parametrize('x', [1.0, -1.0])
def test_under_a_traced_test_and_vmap(x):
    agree(unpacked_under_a_traced_test, np.arange(3.0), jnp.float32(x))
    agree(unpacked_under_a_traced_test, np.arange(3.0), x)
    out = jax.vmap(autograph.convert(unpacked_under_a_traced_test), in_axes=(None, 0))(
        jnp.arange(3.0), jnp.array([x, -x]))
    assert_same(out[0], unpacked_under_a_traced_test(jnp.arange(3.0), x))


def test_the_generated_code_splits_only_what_it_follows():
    code = autograph.to_code(unpacked)
    assert 'b, b_key = ag.alias(v' in code and '\n    c = 1\n' in code
    assert 'a, b = (b, a)' in autograph.to_code(swap)   # (a swap stays one statement)


def index_tuple(grid, n):
    k = 0
    total = 0.0
    while k < n:
        total = total + grid[k, 0]
        k += 1
    return total


def test_an_index_tuple_does_not_hold_its_names():
    """`grid[k, 0]` stores `k` nowhere: `k += 1` is a plain update (no held check)."""
    assert 'held_update' not in autograph.to_code(index_tuple)
    grid = np.arange(6.0).reshape(3, 2)
    assert_same(autograph.convert(index_tuple)(grid, jnp.int32(3)), index_tuple(grid, 3))


def alias_with_its_length_read(x, v):
    a = x * 1.0
    w = v
    rows = w.reshape(2, 2)
    row = rows[1]
    row *= 0.5
    for i in range(len(v)):
        if w[i % 4] > a:
            break
    else:
        a = a - 0.5
    return a, w


@pytest.mark.parametrize('x', [0.5, 9.0])
def test_an_alias_whose_length_or_items_are_read_is_followed(x):
    """`range(len(v))` and `w[i] > a` use `v` and `w` as arrays, not as numbers: `w = v`
    is still the caller's array (silent before: the caller's `v` kept its items; idiom
    fuzzer seed 81065)."""
    agree(alias_with_its_length_read, jnp.float32(x), np.arange(4.0))
