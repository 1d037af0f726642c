"""Arrays a vectorised loop only reads at its index (analysis.independence `reads`,
runtime.items.parts): the body takes the iteration's item as an input, so `xs[i]`,
`xs[i, j]` and `pos[j, 0]` compile to no `gather` over the index range, while reads at
other indices (`xs[i + 1]`), of arrays the body rebinds, or with keys whose meaning
would change (`xs[i, :, idx]`) index the array as before. Every value is compared with
the same function run as plain Python on NumPy arrays."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, converted, equations

rng = np.random.default_rng(3)


def gathers(fn, *args):
    """The `gather` equations in the jaxpr of converted `fn` (nested ones included)."""
    closed = jax.make_jaxpr(converted(fn))(*map(jnp.asarray, args))
    return [e for e in equations(closed.jaxpr) if e.primitive.name == 'gather']


def loops(fn, *args):
    closed = jax.make_jaxpr(converted(fn))(*map(jnp.asarray, args))
    return {e.primitive.name for e in equations(closed.jaxpr)} & {'while', 'scan'}


def same_as_python(fn, *arrays):
    """Converted `fn` under its jit and eagerly (no jit) gives Python's values on NumPy
    copies of the inputs."""
    expected = fn(*[np.array(a) for a in arrays])
    assert_same(autograph.convert(fn)(*map(jnp.asarray, arrays)), expected)
    assert_same(converted(fn)(*map(jnp.asarray, arrays)), expected)
    return expected


def rows(xs, ys):
    out = xs * 0.0
    for i in range(xs.shape[0]):
        row = xs[i]
        if jnp.sum(row) + ys[i] > 0:
            row = row * 2 + ys[i]
        out[i] = row
    return out


def neighbours(xs):
    out = xs * 0.0
    for i in range(1, xs.shape[0] - 1):
        out[i] = xs[i - 1] + xs[i + 1] - 2 * xs[i]
    return out


def test_rows_read_at_the_index_are_items_not_gathers():
    xs = rng.standard_normal((9, 4)).astype(np.float32)
    ys = rng.standard_normal(9).astype(np.float32)
    same_as_python(rows, xs, ys)
    assert loops(rows, xs, ys) == set()
    assert gathers(rows, xs, ys) == []


def test_reads_at_other_indices_keep_their_gathers():
    xs = rng.standard_normal((8, 3)).astype(np.float32)
    same_as_python(neighbours, xs)
    assert loops(neighbours, xs) == set()
    assert len(gathers(neighbours, xs)) == 2    # xs[i - 1] and xs[i + 1]; xs[i] is an item


def nbody_like(pos, mass, out):
    n = pos.shape[0]
    for i in range(n):
        s = 0.0
        for j in range(n):
            if i != j:
                d = pos[j, 0] - pos[i, 0] + pos[i][1] * pos[j, 1]
                s += d * mass[j]
        out[i] = s
    return out


def grid(x, y, out):
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            out[i, j] = x[i, j] * y[j] + x[i, :].sum() + x[i, j, ...] + x[i][j]
    return out


def test_nested_loops_read_items_of_both_indices():
    pos = rng.standard_normal((12, 3)).astype(np.float32)
    mass = rng.uniform(1, 2, 12).astype(np.float32)
    same_as_python(nbody_like, pos, mass, np.zeros(12, np.float32))
    assert gathers(nbody_like, pos, mass, np.zeros(12, np.float32)) == []
    x = rng.standard_normal((5, 7)).astype(np.float32)
    y = rng.standard_normal(7).astype(np.float32)
    same_as_python(grid, x, y, np.zeros((5, 7), np.float32))
    assert gathers(grid, x, y, np.zeros((5, 7), np.float32)) == []


def strided(xs, out):
    for i in range(7, 0, -3):
        out[i] = xs[i] * xs[i, 0]
    for k in range(1, 6, 2):
        out[k] = xs[k] + 1
    for m in range(0, 10, 4):       # stops past the last row (8 is the last index)
        out[m] = out[m] + xs[m, 1]
    return out


def test_strided_and_decreasing_ranges_read_their_items():
    xs = rng.standard_normal((9, 2)).astype(np.float32)
    same_as_python(strided, xs, np.zeros((9, 2), np.float32))
    assert gathers(strided, xs, np.zeros((9, 2), np.float32)) == []
    assert loops(strided, xs, np.zeros((9, 2), np.float32)) == set()


def negative_total(xs):
    s = 0.0
    for i in range(-3, 0):
        s += xs[i]
    return s


def rebound(xs, out):
    for i in range(xs.shape[0]):
        t = xs * 2
        out[i] = t[i] + xs[i]
    return out


def advanced_after_a_slice(xs, idx, out):
    for i in range(xs.shape[0]):
        out[i] = xs[i, :, idx]
    return out


def test_reads_whose_item_is_not_the_part_index_the_array():
    """A negative index (wraps onto another row: such a loop is not vectorised), an
    array rebound in the body, and `xs[i, :, idx]` (NumPy puts idx's axis first;
    `xs[i][:, idx]` would not)."""
    xs = rng.standard_normal(6).astype(np.float32)
    same_as_python(negative_total, xs)
    x2 = rng.standard_normal((6, 2)).astype(np.float32)
    same_as_python(rebound, x2, np.zeros((6, 2), np.float32))
    x3 = rng.standard_normal((4, 3, 5)).astype(np.float32)
    idx = np.asarray([4, 0])
    out = same_as_python(advanced_after_a_slice, x3, idx, np.zeros((4, 2, 3), np.float32))
    assert out.shape == (4, 2, 3)


def longer_than_the_rows(xs, ys):
    out = xs * 0.0
    for i in range(xs.shape[0]):
        out[i] = xs[i] + ys[i, 0]
    return out


def test_a_read_array_with_more_rows_than_the_range_is_cut():
    xs = rng.standard_normal(4).astype(np.float32)
    ys = rng.standard_normal((10, 2)).astype(np.float32)
    same_as_python(longer_than_the_rows, xs, ys)
    assert gathers(longer_than_the_rows, xs, ys) == []


def test_vmap_and_grad_through_items_read():
    xs = rng.standard_normal((3, 5, 4)).astype(np.float32)
    ys = rng.standard_normal((3, 5)).astype(np.float32)
    batched = jax.jit(jax.vmap(converted(rows)))(jnp.asarray(xs), jnp.asarray(ys))
    assert_same(batched, np.stack([rows(x.copy(), y.copy()) for x, y in zip(xs, ys)]))

    def total(x, y):
        return jnp.sum(converted(rows)(x, y) ** 2)

    def by_hand(x, y):
        keep = jnp.sum(x, axis=1) + y > 0
        return jnp.sum(jnp.where(keep[:, None], x * 2 + y[:, None], x) ** 2)
    got = jax.grad(total, argnums=(0, 1))(jnp.asarray(xs[0]), jnp.asarray(ys[0]))
    want = jax.grad(by_hand, argnums=(0, 1))(jnp.asarray(xs[0]), jnp.asarray(ys[0]))
    assert_same(got, want, rtol=1e-5)


TABLE = jnp.arange(12.0).reshape(6, 2)


def scaled_table(scale, out):
    for i in range(out.shape[0]):
        out[i] = TABLE[i] * scale
    return out


def maybe_bound(x, flag):
    if flag:
        y = x * 2
    out = x * 0
    for i in range(x.shape[0]):
        if flag:
            out[i] = y[i]
        else:
            out[i] = x[i] + 1
    return out


@pytest.mark.parametrize('flag', [True, False])
def test_globals_and_variables_unbound_on_the_path_taken(flag):
    """A global array is read by its items; a variable the loop names but which is
    unbound (its `if` not taken, a Python flag) is left alone, as Python never reads it."""
    scale = jnp.asarray(3.0)
    assert_same(autograph.convert(scaled_table)(scale, jnp.zeros((6, 2))),
                scaled_table(np.float32(3.0), np.zeros((6, 2), np.float32)))
    assert gathers(scaled_table, scale, jnp.zeros((6, 2))) == []
    x = rng.standard_normal(5).astype(np.float32)
    assert_same(autograph.convert(maybe_bound)(jnp.asarray(x), flag),
                maybe_bound(x.copy(), flag))


def test_the_loop_names_what_it_reads():
    code = autograph.to_code(grid)
    assert "reads=('x', 'y')" in code and 'ag.getitem(x, (i, slice(None)))' in code
