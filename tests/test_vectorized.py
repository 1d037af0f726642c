"""Loops with independent iterations run as one vectorised computation (runtime.
vectorized): the same values as the Python loop, plain, under jit, vmap and grad; no
`while`/`scan` left in the jaxpr where the loop was vectorised; the ordinary loop
wherever the loop cannot be vectorised."""
import logging

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, converted, equations, primitive_names

rng = np.random.default_rng(0)


def loops_in(fn, *args):
    """The loop primitives in the jaxpr of converted `fn` (no jit of its own)."""
    return primitive_names(jax.make_jaxpr(converted(fn))(*args)) & {'while', 'scan'}


def same_as_python(fn, *arrays):
    """The converted `fn` (under its jit, and eagerly on NumPy values) gives what the
    Python function gives on NumPy copies of the inputs."""
    expected = fn(*[np.array(a) for a in arrays])
    assert_same(autograph.convert(fn)(*map(jnp.asarray, arrays)), expected)
    assert_same(converted(fn)(*[np.array(a) for a in arrays]), expected)
    return expected


def square_plus(x):
    out = x * 0
    for i in range(x.shape[0]):
        t = x[i] * x[i]
        out[i] = t + abs(x[i])
    return out


def test_map_over_a_vector():
    x = rng.standard_normal(7).astype(np.float32)
    same_as_python(square_plus, x)
    assert loops_in(square_plus, jnp.asarray(x)) == set()


def test_vmap_and_grad_of_a_vectorised_loop():
    xs = rng.standard_normal((3, 6)).astype(np.float32)
    batched = jax.jit(jax.vmap(converted(square_plus)))(jnp.asarray(xs))
    assert_same(batched, np.stack([square_plus(x.copy()) for x in xs]))
    grad = jax.grad(lambda x: jnp.sum(converted(square_plus)(x)))(jnp.asarray(xs[0]))
    assert_same(grad, 2 * xs[0] + np.sign(xs[0]))


def reciprocal_of_positive(a):
    for t in range(a.shape[0]):
        if a[t] > 0:
            a[t] = 1 / a[t]
    return a


def test_grad_through_a_vectorised_branch_at_the_untaken_pole():
    """Vectorised, both sides of the `if` are computed; at a[t] == 0 the untaken 1 / a[t]
    must not turn the gradient into NaN (Python's derivative there is 1)."""
    x = jnp.asarray([-1.0, 0.0, 2.0])
    assert loops_in(reciprocal_of_positive, x) == set()
    grad = jax.grad(lambda a: jnp.sum(converted(reciprocal_of_positive)(a)))(x)
    assert_same(grad, np.asarray([1.0, 1.0, -0.25], np.float32))


def grid(x, y):
    n, m = x.shape
    out = x * 0
    for i in range(n):
        for j in range(m):
            a = x[i, j]
            if a > y[j]:
                b = a - y[j]
            else:
                b = y[j] * 2
            out[i, j] = b * b
    return out


def test_nested_loops_with_a_branch():
    x = rng.standard_normal((5, 6)).astype(np.float32)
    y = rng.standard_normal(6).astype(np.float32)
    same_as_python(grid, x, y)
    assert loops_in(grid, jnp.asarray(x), jnp.asarray(y)) == set()


def escape_time(zr, zi, out):
    h, w = zr.shape
    for i in range(h):
        for j in range(w):
            x = zr[i, j]
            y = zi[i, j]
            k = 0
            while k < 30 and x * x + y * y < 4.0:
                x, y = x * x - y * y - 0.8, 2.0 * x * y + 0.156
                k += 1
            out[i, j] = k
    return out


def test_escape_time_is_a_batched_while():
    axis = np.linspace(-1.5, 1.5, 9, dtype=np.float32)
    zr, zi = np.meshgrid(axis, axis)
    out = np.zeros((9, 9), np.int32)
    expected = escape_time(zr, zi, out.copy())
    got = autograph.convert(escape_time)(jnp.asarray(zr), jnp.asarray(zi), jnp.asarray(out))
    np.testing.assert_array_equal(got, expected)
    assert loops_in(escape_time, *map(jnp.asarray, (zr, zi, out))) == {'while'}


def two_arrays(x, a, b):
    for i in range(1, x.shape[0], 2):
        a[i, 0] = x[i]
        a[i, 1] = a[i, 0] * 2
        b[i] += a[i, 1]
    return a, b


def test_strided_range_partial_rows_and_updates():
    x = rng.standard_normal(8).astype(np.float32)
    a = rng.standard_normal((8, 2)).astype(np.float32)
    b = rng.standard_normal(8).astype(np.float32)
    same_as_python(two_arrays, x, a, b)
    assert loops_in(two_arrays, *map(jnp.asarray, (x, a, b))) == set()


def backwards(x):
    out = x * 0
    for i in range(x.shape[0] - 1, -1, -3):
        out[i] = x[i] * i
    return out


def test_decreasing_range():
    same_as_python(backwards, rng.standard_normal(10).astype(np.float32))
    assert loops_in(backwards, jnp.zeros(10)) == set()


def cast_on_write(x):
    out = (x * 0).astype(np.int32)
    for i in range(x.shape[0]):
        out[i] = x[i] * 3.5
    return out


def test_written_values_take_the_array_dtype():
    same_as_python(cast_on_write, rng.uniform(0, 9, 6).astype(np.float32))


@pytest.mark.parametrize('start, stop', [(0, 0), (3, 3), (5, 2)])
def test_zero_trip_loop_leaves_the_array(start, stop):
    def f(x):
        out = x + 1
        for i in range(start, stop):
            out[i] = x[i] * 2
        return out
    same_as_python(f, rng.standard_normal(6).astype(np.float32))


def negative_indices(x):
    out = x * 0
    for i in range(-3, 3):
        out[i] = x[i] + i
    return out


def test_negative_indices_wrap_so_the_loop_stays_sequential():
    """out[-3] is out[3] of a 6-vector: the index wraps onto another item, which only
    the sequential loop orders as Python does."""
    same_as_python(negative_indices, rng.standard_normal(6).astype(np.float32))
    assert loops_in(negative_indices, jnp.zeros(6)) == {'scan'}


def recurrence(x):
    out = x * 0
    for i in range(1, x.shape[0]):
        out[i] = out[i - 1] + x[i]
    return out


def test_dependent_loop_stays_a_scan():
    same_as_python(recurrence, rng.standard_normal(6).astype(np.float32))
    assert loops_in(recurrence, jnp.zeros(6)) == {'scan'}


def test_unroll_options_are_respected():
    def f(x):
        out = x * 0
        for i in range(x.shape[0]):
            autograph.set_loop_options(unroll=True)
            out[i] = x[i] * 2
        return out
    assert 'independent_axis=0, unroll=True' in autograph.to_code(f) or \
        'unroll=True, independent_axis=0' in autograph.to_code(f)
    x = jnp.arange(5.0)
    for fn in (converted(f), autograph.convert(square_plus, jit=False, unroll_loops=True)):
        jaxpr = jax.make_jaxpr(fn)(x)
        assert primitive_names(jaxpr) & {'while', 'scan'} == set()
        assert sum(e.primitive.name == 'scatter' for e in jaxpr.jaxpr.eqns) == 5
    assert_same(converted(f)(x), f(np.arange(5.0)))


def test_log_says_which_loops_were_vectorised(caplog):
    with caplog.at_level(logging.INFO, logger='autograph'):
        jax.make_jaxpr(converted(grid))(jnp.ones((4, 5)), jnp.ones(5))
    vectorised = [r.getMessage() for r in caplog.records if 'vectorised' in r.getMessage()]
    assert len(vectorised) == 2 and 'axis 1' in vectorised[0] and 'axis 0' in vectorised[1]


def test_inner_loop_of_a_sequential_outer_loop_stays_sequential():
    """The inner loop writes out[i, j] along axis 1: vectorised only inside a vectorised
    loop over i. The outer loop's negative indices keep it sequential, and so the
    inner loop is an ordinary staged loop."""
    def f(x):
        out = x * 0
        for i in range(-3, 0):
            for j in range(x.shape[1]):
                out[i, j] = x[i, j] * 2
        return out
    assert 'independent_axis=1' in autograph.to_code(f)
    x = rng.standard_normal((3, 5)).astype(np.float32)
    same_as_python(f, x)
    assert loops_in(f, jnp.asarray(x)) == {'scan'}


def row_recurrences(x):
    n, m = x.shape
    out = x * 0
    for i in range(n):
        out[i, 0] = x[i, 0]
        if x[i, 0] > 0:
            out[i, 0] = -x[i, 0]
        for j in range(1, m):
            out[i, j] = out[i, j - 1] * 0.5 + x[i, j]
    return out


def test_rows_vectorised_with_a_sequential_loop_and_a_branch_inside():
    """Each row is a recurrence along j (a scan carrying the row's Slot, under a staged
    `if` too), the rows independent of each other."""
    x = rng.standard_normal((6, 5)).astype(np.float32)
    same_as_python(row_recurrences, x)
    assert loops_in(row_recurrences, jnp.asarray(x)) == {'scan'}
    code = autograph.to_code(row_recurrences)
    assert code.count('independent_axis') == 1


def row_bubble_pass(a):
    h, w = a.shape
    for i in range(h):
        for j in range(w - 1):
            if a[i, j] < a[i, j + 1]:
                a[i, j], a[i, j + 1] = a[i, j + 1], a[i, j]
    return a


@pytest.mark.parametrize('shape', [(20, 30), (3, 200)])
def test_rows_vectorised_with_item_swaps_under_a_branch(shape):
    """The swap in each row is one write of the items the branch selects, also where one
    row is small (a conditional vmapped would select every item of every row per step)."""
    x = rng.standard_normal(shape).astype(np.float32)
    same_as_python(row_bubble_pass, x)
    jaxpr = jax.make_jaxpr(converted(row_bubble_pass))(jnp.asarray(x))
    assert not [eqn for eqn in equations(jaxpr.jaxpr) if eqn.primitive.name == 'select_n'
                and eqn.outvars[0].aval.shape == shape]   # (selects of whole arrays)
    assert loops_in(row_bubble_pass, jnp.asarray(x)) == {'scan'}
    assert autograph.to_code(row_bubble_pass).count('independent_axis=0') == 1


def test_under_an_embedded_framework_the_loop_is_ordinary():
    """While a framework's embedding runs the code, its loops are its own: a marked
    loop over JAX values is the ordinary staged loop there (runtime.backends.dispatch)."""
    from examples import tinygraph
    embedding = autograph.Embedding(error=tinygraph.TracingError)
    embedding.register(lambda v: isinstance(v, tinygraph.Node), cond=tinygraph.cond,
                       while_loop=tinygraph.while_loop, fori_loop=tinygraph.fori_loop)
    x = rng.standard_normal(6).astype(np.float32)
    embedded = autograph.transform(square_plus, embedding=embedding)
    assert_same(embedded(jnp.asarray(x)), square_plus(x.copy()))
    assert primitive_names(jax.make_jaxpr(embedded)(jnp.asarray(x))) & {'while', 'scan'} \
        == {'scan'}
    assert loops_in(square_plus, jnp.asarray(x)) == set()


def window_sums(x):
    out = x * 0
    for i in range(x.shape[0]):
        out[i] = x[i:i + 3].sum()     # the last windows are shorter in Python
    return out


def test_windows_shorter_at_the_end_read_as_python():
    """The vectorised index is known as the range's item to the windows it slices (as
    the staged loop's is): the last, shorter windows are read exactly, no run-time
    error."""
    x = jnp.arange(10.) ** 2
    same_as_python(window_sums, x)
    assert loops_in(window_sums, x) == set()


def pair_products(x, out):
    n = x.shape[0]
    for i in range(n):
        s = 0.0
        for j in range(n):
            if i != j:
                s += jnp.sin(x[j, 0]) * x[i, 1]
        out[i] = s
    return out


def test_a_branch_on_the_index_computes_each_value_over_its_own_axes():
    """`if i != j:` varies with both indices: its branch runs on the values as they are,
    then a select (runtime.loops.selects), so `sin(x[j, 0])` is computed for each j
    once, not for every pair (i, j) as a vmapped `cond` broadcasts its operands;
    `x[j, 0]` and `x[i, 1]` are the loops' items of `x`, not gathers (runtime.items.
    parts). (A branch whose derivative may be infinite on a value that does not vary,
    n-body's division, stays a `cond`: see
    test_grad_through_a_vectorised_branch_at_the_untaken_pole.)"""
    n = 16
    x = rng.standard_normal((n, 2)).astype(np.float32)
    same_as_python(pair_products, x, np.zeros(n, np.float32))
    jaxpr = jax.make_jaxpr(converted(pair_products))(x, jnp.zeros(n))
    sizes = [(e.primitive.name, int(np.prod(e.outvars[0].aval.shape)))
             for e in equations(jaxpr.jaxpr)]
    assert 'gather' not in {name for name, _ in sizes}
    assert max(size for name, size in sizes if name == 'sin') <= n
    grad = jax.grad(lambda x: converted(pair_products)(x, jnp.zeros(n)).sum())

    def by_hand(x):
        pairs = jnp.sin(x[None, :, 0]) * x[:, None, 1] * (1 - jnp.eye(n))
        return pairs.sum()
    assert_same(grad(jnp.asarray(x)), jax.grad(by_hand)(jnp.asarray(x)), rtol=1e-4)
