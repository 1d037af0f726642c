"""Conditions and NumPy idioms as Python and NumPy take them, on JAX arrays: conditions
computed only from constants, size-1 conditions, short-circuits that stop at a deciding Python operand, traced loop bounds from
`.item()`/`int()`/`float()`, boolean-mask assignment, index lists, `complex()`."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.runtime.errors import ControlFlowError
from autograph.runtime.loops import loop_policy
from autograph.runtime.messages import ListReadInLoop
from tests.helpers import assert_same, converted, f32, i32, primitives


def each_way(fn, *args):
    """`fn` converted under jit, under jax.jit without its own, and (the first argument
    batched) under jax.vmap, each compared with plain `fn` on the same arguments."""
    expected = fn(*args)
    assert_same(autograph.convert(fn)(*args), expected)
    assert_same(jax.jit(autograph.convert(fn, jit=False))(*args), expected)
    batched = jax.vmap(autograph.convert(fn), in_axes=(0,) + (None,) * (len(args) - 1))
    assert_same(batched(jnp.stack([args[0], args[0]]), *args[1:]),
                jax.tree_util.tree_map(lambda e: jnp.stack([e, e]), expected))
    return expected


# --- conditions computed only from constants ---------------------------------------------

def viterbi_like(x, threshold=-np.inf):
    """librosa's Viterbi: a branch that only NumPy can run, dead for a -inf threshold."""
    if np.isfinite(threshold):
        return x[np.flatnonzero(x > threshold)].sum()
    return x.sum()


def viterbi_like_jnp(x, threshold=-np.inf):
    if jnp.isfinite(threshold):
        return x[np.flatnonzero(x > threshold)].sum()
    return x.sum()


def clip_if_finite(x, lo=-np.inf):
    y = x
    if jnp.isfinite(lo):
        y = x[np.flatnonzero(x > lo)]
    return y.sum()


def chain_on_constants(x, t=float('nan')):
    if jnp.isinf(t):
        y = x * np.flatnonzero(x > 0).size
    elif jnp.isnan(t) and jnp.abs(jnp.float32(-2.0)) > 1:
        y = x + 1.0
    else:
        y = x[np.flatnonzero(x > t)]
    return y


@pytest.mark.parametrize('fn', [viterbi_like, viterbi_like_jnp, clip_if_finite,
                                chain_on_constants])
def test_a_condition_on_constants_is_a_python_value(fn):
    x = jnp.array([-1.0, 2.0, 3.0])
    each_way(fn, x)
    names = primitives(fn, x)
    assert 'cond' not in names and 'switch' not in names and 'select_n' not in names, names


def finite_or_zero(x):
    if jnp.isfinite(x):
        return x * 2.0
    return jnp.float32(0.0)


def test_a_condition_on_a_traced_value_is_still_staged():
    for x in (f32(1.5), f32(np.inf)):
        each_way(finite_or_zero, x)
    assert 'cond' in primitives(finite_or_zero, f32(1.5))


# --- size-1 conditions ------------------------------------------------------------------

def double_if_mean_positive(x):
    if x.mean(keepdims=True) > 0:
        return x * 2
    return x


def grow_while_small(x):
    while x.sum(keepdims=True) < 10:
        x = x + 1
    return x


def shape_one_scalar(x, limit):
    if limit > 0:          # a shape-[1] scalar, as Paddle and TF1 code pass them
        return x + limit[0]
    return x - 1


@pytest.mark.parametrize('shape', [(3,), (1, 1), (2, 2)])
def test_a_size_1_condition_is_its_element(shape):
    for sign in (1., -1.):
        each_way(double_if_mean_positive, sign * jnp.ones(shape))
    each_way(grow_while_small, jnp.ones(shape))
    each_way(shape_one_scalar, jnp.ones(shape), jnp.array([2.]))
    each_way(shape_one_scalar, jnp.ones(shape), jnp.array([-2.]))


def test_a_condition_of_another_size_keeps_the_named_error():
    def f(x):
        if x > 0:
            return x
        return -x
    with pytest.raises(ControlFlowError, match=r'array of shape \(3,\)'):
        autograph.convert(f)(jnp.ones(3))


# --- short-circuits ---------------------------------------------------------------------

def or_chain(x, a=None):
    if x > 1 or a is None or a > 1:
        return x + 1
    return x - 1


def and_chain(x, a=None):
    if x > 1 and a is not None and a > 1:
        return x + 1
    return x - 1


def value_chain(x, a=None):
    return x > 1 or a is None or a > 1


@pytest.mark.parametrize('a', [None, 0., 5.])
@pytest.mark.parametrize('x', [0., 2.])
def test_chains_stop_where_python_stops(x, a):
    # with a = None, `a > 1` (a TypeError) is never evaluated, as in Python
    for fn in (or_chain, and_chain):
        assert_same(autograph.convert(fn)(f32(x), a), fn(f32(x), a))
    assert bool(autograph.convert(value_chain)(f32(x), a)) == bool(value_chain(f32(x), a))


def test_none_after_a_traced_operand_is_false():
    def f(x):
        if x > 0 and None:
            return x + 1
        return x - 1
    for x in (-1., 1.):
        assert_same(autograph.convert(f)(f32(x)), f(f32(x)))


def test_checks_in_later_operands_count_only_where_they_run():
    def positive(v):
        assert v > 0, 'not positive'
        return True

    def f(x):
        if x < 0 or positive(x):
            return x * 2
        return x
    g = autograph.convert(f)
    assert_same(g(f32(-3.)), f(f32(-3.)))      # `positive` does not run: no check
    assert_same(g(f32(3.)), f(f32(3.)))
    with pytest.raises(AssertionError, match='not positive'):
        g(f32(0.))


# --- traced loop bounds from .item(), int(), float() ---------------------------------------

def sum_to_item(x, n):
    s = 0.
    for i in range(n.item()):
        s += x[i]
    return s


def sum_to_int(x, n):
    s = 0.
    for i in range(int(n)):
        s += x[i]
    return s


def sum_while_below_float(x, n):
    s, i = 0., 0
    while i < float(n):
        s += x[i]
        i += 1
    return s


@pytest.mark.parametrize('fn', [sum_to_item, sum_to_int, sum_while_below_float])
def test_item_int_float_bounds_stage_the_loop(fn):
    x = jnp.arange(5.)
    for n in (0, 3, 5):
        assert_same(autograph.convert(fn)(x, i32(n)), fn(x, i32(n)))
    assert_same(autograph.convert(sum_to_item)(x, jnp.array([3])),
                sum_to_item(x, jnp.array([3])))


def items_of_expressions(w, k):
    total = w.sum().item()              # (`.item()` of a call's result, of a subscript)
    first = w[0].item() + np.max(w).item()
    return total * 2 + first + (w * k).mean().item()


def test_item_of_any_expression_is_its_element():
    w = np.asarray([1.0, 2.0, -0.5], np.float32)
    assert_same(autograph.convert(items_of_expressions)(jnp.asarray(w), 3.0),
                items_of_expressions(w, 3.0))
    assert_same(jax.vmap(converted(items_of_expressions), in_axes=(0, None))(
        jnp.stack([w, -w]), 3.0),
        jnp.stack([items_of_expressions(w, 3.0), items_of_expressions(-w, 3.0)]))


def test_item_of_a_larger_array_is_pythons_error():
    with pytest.raises(ValueError, match='size 1'):
        autograph.convert(sum_to_item)(jnp.arange(5.), jnp.array([1, 2]))


def running_sums(xs):
    ys = [0.]
    for i, x in enumerate(xs):
        ys.append(x + ys[i])
    return ys


def test_a_list_read_and_grown_by_a_staged_loop_is_the_named_list_error():
    # (over a few rows the loop runs as Python, see runtime.loops.loop_policy)
    assert_same(autograph.convert(running_sums)(jnp.arange(5.)), running_sums(jnp.arange(5.)))
    with pytest.raises(ListReadInLoop, match="'ys' is read"):
        autograph.convert(running_sums)(jnp.arange(loop_policy.LONGEST_ARRAY_UNROLL + 1.))


# --- NumPy idioms ---------------------------------------------------------------------

def set_where_large(N, n):
    mask = N > 2
    N[mask] = n
    return N


def add_where_positive(x):
    x[x > 0] += 1
    return x


def set_rows_where(M, flags):
    M[flags > 0] = 0.
    return M


def swap_rows(M, i, j):
    M[[i, j]] = M[[j, i]]
    return M


def test_boolean_mask_assignment_is_where():
    x = np.arange(-2., 4.)
    assert_same(autograph.convert(set_where_large)(jnp.asarray(x), f32(9.)),
                set_where_large(x.copy(), 9.))
    assert_same(autograph.convert(add_where_positive)(jnp.asarray(x)),
                add_where_positive(x.copy()))
    M = np.arange(6.).reshape(3, 2)
    flags = np.array([1, 0, 1])
    assert_same(autograph.convert(set_rows_where)(jnp.asarray(M), jnp.asarray(flags)),
                set_rows_where(M.copy(), flags))
    grads = jax.grad(lambda x: autograph.convert(add_where_positive)(x).sum())(
        jnp.asarray(x))
    assert_same(grads, np.ones(6))
    batched = jax.vmap(autograph.convert(add_where_positive))(jnp.stack([x, -x]))
    assert_same(batched, np.stack([add_where_positive(x.copy()),
                                   add_where_positive(-x.copy())]))


def zero_positive_items_of_rows(x):
    for i in range(x.shape[0]):
        x[i, x[i] > 0] = 0.0
    return x


def bump_masked_columns(x, m):
    x[1:, m] += 1.0
    return x


def test_a_mask_inside_a_tuple_index_is_where():
    x = np.array([[1., -2, 3], [-1, 2, -3], [4, 0, -1]], np.float32)
    assert_same(autograph.convert(zero_positive_items_of_rows)(jnp.asarray(x)),
                zero_positive_items_of_rows(x.copy()))
    m = np.array([True, False, True])
    assert_same(autograph.convert(bump_masked_columns)(jnp.asarray(x), jnp.asarray(m)),
                bump_masked_columns(x.copy(), m))
    batch = jnp.stack([jnp.asarray(x), -jnp.asarray(x)])
    assert_same(jax.vmap(converted(zero_positive_items_of_rows))(batch),
                np.stack([zero_positive_items_of_rows(np.array(b)) for b in batch]))
    grads = jax.grad(lambda x: converted(bump_masked_columns)(x, jnp.asarray(m)).sum())(
        jnp.asarray(x))
    assert_same(grads, np.ones((3, 3), np.float32))


def test_a_list_of_indices_is_an_index_array():
    M = np.arange(6.).reshape(3, 2)
    for i, j in ((0, 2), (1, 1), (2, 0)):
        assert_same(autograph.convert(swap_rows)(jnp.asarray(M), i32(i), i32(j)),
                    swap_rows(M.copy(), i, j))


def test_complex_of_traced_parts():
    def f(x, y):
        return complex(x, y) * 2 + complex('1+1j')
    assert_same(autograph.convert(f)(f32(1.), f32(2.)), f(1., 2.))
    assert_same(jax.vmap(autograph.convert(f))(jnp.arange(2.), jnp.ones(2)),
                np.array([f(0., 1.), f(1., 1.)]))


def masked_statistics(x, labels, k):
    """Reductions of the items traced boolean masks select (k-means' centroid update)."""
    centres = []
    for c in range(k):
        centres.append(x[labels == c].mean(axis=0))
    flat = x.reshape(-1)
    return (jnp.stack(centres), flat[flat > 0].sum(), (x[x < 0] ** 2).max(),
            x[labels == 0].any())


def test_a_boolean_mask_read_reduced_at_once_gives_pythons_value():
    x = np.random.default_rng(3).normal(size=(8, 3)).astype(np.float32)
    labels = np.array([0, 1, 2, 0, 1, 2, 0, 1], np.int32)
    expected = masked_statistics(x, labels, 3)
    assert_same(autograph.convert(masked_statistics)(jnp.asarray(x), jnp.asarray(labels), 3),
                expected)
    xs = jnp.stack([jnp.asarray(x), -jnp.asarray(x)])
    assert_same(jax.vmap(converted(masked_statistics), in_axes=(0, None, None))(
        xs, jnp.asarray(labels), 3), jax.tree_util.tree_map(
            lambda *v: np.stack(v), expected, masked_statistics(-x, labels, 3)))


def test_a_boolean_mask_read_used_otherwise_is_a_named_error():
    def f(x):
        return x[x > 0] @ x[x > 0]
    with pytest.raises(ControlFlowError, match='traced boolean mask selects'):
        autograph.convert(f)(jnp.arange(-2., 3.))


def test_a_boolean_mask_inside_an_index_tuple_read_is_the_named_error():
    def f(x, m):
        key = (0, m)
        return x[key].sum()
    with pytest.raises(ControlFlowError, match='traced boolean mask'):
        autograph.convert(f)(jnp.ones((2, 3)), jnp.array([True, False, True]))


def test_a_boolean_mask_in_a_literal_index_tuple_is_the_named_error():
    # `x[0, m]` stays JAX's own indexing in the generated code: its error is named too,
    # at the user's line
    def f(x, m):
        return x[0, m].sum()
    with pytest.raises(ControlFlowError, match=r'traced boolean mask at .*:\d+ \(`return'):
        autograph.convert(f)(jnp.ones((2, 3)), jnp.array([True, False, True]))


def test_a_list_read_at_i_minus_1_and_grown_works_or_is_a_named_error():
    """`ys.append(xs[i] + ys[i - 1])`: a Python range unrolls (Python's values); a
    staged loop (a traced bound, a `while` on data) is a named error, never an
    IndexError from inside the project."""
    def unrolled(xs):
        ys = [xs[0]]
        for i in range(1, len(xs)):
            ys.append(xs[i] + ys[i - 1])
        return jnp.stack(ys)

    def traced_bound(xs, n):
        ys = [xs[0]]
        for i in range(1, n):
            ys.append(xs[i] + ys[i - 1])
        return ys

    def while_on_data(xs):
        ys = [0.]
        i = 0
        while i < xs.shape[0] and xs[i] > -10:
            ys.append(xs[i] + ys[i])
            i += 1
        return ys
    xs = jnp.arange(5.)
    assert_same(autograph.convert(unrolled)(xs), unrolled(xs))
    for fn, args in ((traced_bound, (xs, i32(5))), (while_on_data, (xs,))):
        with pytest.raises(ControlFlowError, match="'ys'"):
            autograph.convert(fn)(*args)


def test_size_1_conditions_of_or_chains_with_a_deciding_python_operand():
    def f(x, a=None):
        if x.sum(keepdims=True) > 1 or a is None or a > 1:
            return x + 1
        return x - 1
    for x in (jnp.zeros((1, 1)), jnp.full((1,), 2.)):
        for a in (None, 0., 5.):
            assert_same(autograph.convert(f)(x, a), f(x, a))


def moves_by_argmax(scores, x, y):
    """A dict of Python int keys read at a traced argmax (a DP traceback step)."""
    dx, dy = {}, {}
    dx[0], dy[0] = x - 1, y - 1
    dx[1], dy[1] = x - 1, y
    dx[2], dy[2] = x, y - 1
    best = scores.argmax()
    return dx[best], dy[best]


def named_table(k):
    table = {1: 10.0, 2: 20.0, 5: 50.0}
    return table[k]


@pytest.mark.parametrize('scores', [[0.5, 2.0, 1.0], [3.0, 1.0, 1.0], [0.0, 0.0, 1.0]])
def test_a_dict_of_number_keys_is_read_at_a_traced_key(scores):
    # (plain runs: NumPy's argmax, as a concrete JAX array is not hashable)
    expected = moves_by_argmax(np.array(scores), 4, 7)
    assert_same(autograph.convert(moves_by_argmax)(jnp.array(scores), 4, 7), expected)
    batch = np.array([scores, scores[::-1]])
    assert_same(jax.vmap(converted(moves_by_argmax), in_axes=(0, None, None))(batch, 4, 7),
                tuple(np.array(v) for v in zip(*[moves_by_argmax(s, 4, 7)
                                                 for s in batch])))


def test_a_traced_key_missing_from_the_dict_is_pythons_key_error():
    fn = autograph.convert(named_table)
    assert_same(fn(jnp.int32(5)), named_table(5))
    with pytest.raises(KeyError):
        fn(jnp.int32(3))
