"""NumPy's functions of traced values (runtime.python.traced_numpy, passes.numpy_calls):
code written for NumPy (`np.exp`, `np.linalg.norm`, `np.array(path)`) converts with
NumPy's value, where NumPy alone would refuse a traced argument.

Ground truth: the same function run unconverted on NumPy arrays (and on JAX arrays,
where NumPy reads their values); converted on NumPy arrays, JAX arrays, under jax.jit,
jax.vmap and jax.grad. Functions whose JAX twin would mean something else stay NumPy's
and a traced argument stays the named error."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.errors import ControlFlowError, TracedValueNeeded
from autograph.runtime.python import traced_numpy
from tests.helpers import agree_with_numpy, assert_same, converted, primitives


def sinkhorn(a, b, M, reg, n_iter=40, tol=1e-7):
    K = np.exp(-M / reg)
    u = np.ones_like(a) / len(a)
    v = np.ones_like(b) / len(b)
    for it in range(n_iter):
        v = b / (K.T @ u)
        u = a / (K @ v)
        if it % 10 == 0:
            err = np.linalg.norm((u[:, None] * K * v[None, :]).sum(0) - b)
            if err < tol:
                break
    return u[:, None] * K * v[None, :]


def power_iteration(A, iters=60, tol=1e-6):
    b = np.ones(A.shape[0])
    lam = 0.0
    for _ in range(iters):
        b_new = A @ b
        norm = np.linalg.norm(b_new)
        b_new = b_new / norm
        if np.abs(norm - lam) < tol:
            break
        b, lam = b_new, norm
    return lam


def gibbs_ring(spins, beta, us):
    s = spins.copy()
    n, k = s.shape[0], 0
    for sweep in range(2):
        for i in range(n):
            field = s[(i - 1) % n] + s[(i + 1) % n]
            p = 1.0 / (1.0 + np.exp(-2 * beta * field))
            s[i] = 1 if us[k] < p else -1
            k += 1
    return s


def viterbi(log_emit, log_trans, log_init):
    T, S = log_emit.shape
    score = log_init + log_emit[0]
    back = np.zeros((T, S), dtype=np.int32)
    for t in range(1, T):
        cand = score[:, None] + log_trans
        back[t] = np.argmax(cand, axis=0)
        score = np.max(cand, axis=0) + log_emit[t]
    path = [int(np.argmax(score))]
    for t in range(T - 1, 0, -1):
        path.append(int(back[t, path[-1]]))
    return np.array(path[::-1])


def elementwise(x, y):
    z = np.sqrt(np.abs(x)) + np.maximum(x, y) * np.tanh(y)
    w = np.where(x > 0, np.log1p(np.abs(x)), np.hypot(x, y))
    return np.stack([z, w]), np.dot(z, w), np.float32(np.sum(np.isfinite(z)))


def shaped(x, y):
    grid = np.linspace(0.0, x[2], 5)
    fit = np.polyval(np.array([1.0, -2.0, 0.5]), np.clip(y, -0.5, 1.0))
    return grid, fit, np.ptp(x) + np.trace(np.outer(x, y)) + np.diagflat(y[:2])


def scalar_steps(x):
    total = 0.0
    for i in range(x.shape[0]):
        if np.sin(x[i]) > 0:
            total += np.exp(-x[i]) * np.cos(x[i])
        else:
            total -= np.sqrt(np.abs(x[i]))
    return total


_RNG = np.random.default_rng(7)
_MATRIX = np.asarray(_RNG.random((3, 4)), np.float32)
_SPD = np.asarray([[2.0, 1.0], [1.0, 3.0]], np.float32)
_X = np.asarray([0.5, -1.0, 2.0, 0.25], np.float32)
_Y = np.asarray([1.5, 0.5, -2.0, 1.0], np.float32)

def binned(x, y):
    counts, edges = np.histogram(x, bins=4, range=(-3.0, 3.0))
    spread, _ = np.histogram(y, bins=3)
    return (counts, edges, spread, np.digitize(x, np.array([-1.0, 0.0, 1.0])),
            np.searchsorted(np.sort(y), x))


def with_lists(x, y):
    padded = np.concatenate([[0.0], x, (1.0, 2.0)])
    smoothed = np.convolve(x, [0.25, 0.5, 0.25], mode='same')
    return (padded, smoothed, np.vstack([x, [1.0, 2.0, 3.0, 4.0]]),
            np.interp(y, [-2.0, 0.0, 2.0], [0.0, 1.0, 0.0]), np.append(x, [9.0]))


def clipped_by_keywords(x, y):
    return np.clip(x, a_min=-0.5, a_max=1.0), np.clip(y, -1.0, a_max=0.5), np.clip(x, max=0.2)


def padded_and_transformed(x, y):
    edge = np.pad(x, (1, 2), mode='edge')
    picked = np.select([x > 0.5, x < -0.5], [x, -x], default=0.25)
    spectrum = np.fft.rfft(np.ravel(np.outer(x, y)))
    filled = np.full((2, 3), y[1]) + np.full_like(x, x[0]).sum()
    return (edge, picked, np.abs(spectrum), np.fft.irfft(np.fft.rfft(x), n=x.size),
            filled, np.gradient(x, 0.5), np.gradient(np.outer(x, y), axis=1),
            np.unwrap(x * 4.0))


def taken(x, y):
    order = np.argsort(y, kind='stable')
    return np.take(x, order), np.take(np.outer(x, y), order[:2], axis=1), np.take(x, -1)


def float_remainders(x, y):
    angle = np.mod(x * 3.0, 2 * np.pi)
    return (angle, np.remainder(x, -0.75), np.fmod(y, 0.5), np.floor_divide(y, 0.5),
            np.divmod(x, 0.3), np.power(np.abs(y), 1.5), np.float_power(y, 2))


def of_lists(x, y):
    fit = np.polyfit(x, y, 1)
    return (np.repeat(x, [1, 2, 0, 1]), np.searchsorted(np.sort(y), [0.0, 1.2]), fit,
            np.isin(x, [0.5, 2.0]), np.broadcast_arrays(x, 1.0)[1])


def ufunc_methods(x, y):
    drawdown = np.maximum.accumulate(x) - x
    return (drawdown, np.add.reduce(y), np.multiply.outer(x, y), np.minimum.reduce(x),
            np.logical_or.reduce(x > 1.0), np.add.accumulate(y))


CASES = [
    (sinkhorn, (np.full(3, 1 / 3, np.float32), np.full(4, 1 / 4, np.float32), _MATRIX, 0.5)),
    (power_iteration, (_SPD,)),
    (gibbs_ring, (np.asarray([1, -1, 1, 1, -1]), 0.4, np.asarray(_RNG.random(10), np.float32))),
    (viterbi, tuple(np.asarray(_RNG.standard_normal(s), np.float32)
                    for s in ((6, 3), (3, 3), (3,)))),
    (elementwise, (_X, _Y)),
    (shaped, (_X, _Y)),
    (scalar_steps, (_X,)),
    (binned, (_X, _Y)),   # (np.histogram, np.digitize: TracedValueNeeded before)
    (with_lists, (_X, _Y)),   # (lists as arrays: JAX's raw TypeError before)
    (clipped_by_keywords, (_X, _Y)),   # (a_min=, a_max=: JAX's min=, max=; a
    #                                      TracedValueNeeded before, as for these:)
    (padded_and_transformed, (_X, _Y)),   # (np.pad, select, fft, ravel, full, gradient)
    (ufunc_methods, (_X, _Y)),   # (np.maximum.accumulate, np.add.reduce, ...)
    (taken, (_X, _Y)),
    (float_remainders, (_X, _Y)),   # (np.mod & co. of floats)
    (of_lists, (_X, _Y)),   # (repeat's counts, searchsorted's values as lists; polyfit)
]


def array_methods(x, y):
    order = y.argsort(kind='stable')
    return (order, x.take(order[:2]), x.take([0, -1]), x.argsort(), x.repeat([1, 2, 0, 1]),
            np.sort(y).searchsorted([0.0, 1.2]))


def test_numpy_array_methods_jax_arrays_take_otherwise():
    """`x.argsort(kind='stable')`, `x.take([0, -1])`, `x.repeat([1, 2, 0, 1])` of a traced
    NumPy array (JAX's TypeError before: its Array takes no `kind` and no list): NumPy's
    functions of it.
    Of a JAX array, its own methods, as Python calls them."""
    agree_with_numpy(array_methods, _X, _Y)
    assert 'ag.call(y.argsort, ' in autograph.to_code(array_methods)
    jax_x = jnp.asarray(_X)
    assert_same(autograph.convert(lambda v: v.argsort())(jax_x), jax_x.argsort())


def test_take_out_of_range_is_numpys_index_error():
    """JAX's `take` fills where an index is out of range; NumPy's raises."""
    with pytest.raises(IndexError):
        taken(_X, np.asarray([1.0, 2.0, 3.0, 4.0, 5.0], np.float32))
    with pytest.raises(IndexError, match='out of bounds for axis 0 with size 4'):
        autograph.convert(lambda x, i: np.take(x, i))(_X, jnp.asarray([1, 4]))


@pytest.mark.parametrize('fn, args', CASES, ids=[fn.__name__ for fn, _ in CASES])
def test_numpy_code_of_numpy_arrays(fn, args):
    agree_with_numpy(fn, *args)


@pytest.mark.parametrize('fn, args', CASES, ids=[fn.__name__ for fn, _ in CASES])
def test_numpy_code_of_jax_arrays_and_under_jit(fn, args):
    given = [jnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    expected = fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    assert_same(autograph.convert(fn)(*given), expected, rtol=1e-4)
    statics = [i for i, a in enumerate(args) if not isinstance(a, np.ndarray)]
    jitted = jax.jit(converted(fn), static_argnums=statics)
    assert_same(jitted(*given), expected, rtol=1e-4)


def test_under_vmap_and_grad():
    xs = np.stack([_X, _Y, -_X])
    assert_same(jax.vmap(converted(scalar_steps))(jnp.asarray(xs)),
                np.stack([scalar_steps(x) for x in xs]), rtol=1e-5)
    grad = jax.grad(converted(scalar_steps))(jnp.asarray(_X))
    expected = jax.grad(lambda x: jnp.sum(jnp.where(
        jnp.sin(x) > 0, jnp.exp(-x) * jnp.cos(x), -jnp.sqrt(jnp.abs(x)))))(jnp.asarray(_X))
    assert_same(grad, expected)


def test_new_twins_under_vmap_and_grad():
    """The twins added for real code (ufunc methods, np.take, np.mod of floats, np.pad,
    np.select) under the caller's vmap (each row as NumPy computes it) and grad."""
    def mixed(x):
        return (np.maximum.accumulate(x).sum() + np.take(x, [0, -1]).sum()
                + np.mod(x, 1.5).sum() + np.pad(x, 1, mode='edge').sum()
                + np.select([x > 0.5], [x * 2.0], default=x).sum())
    xs = np.stack([_X, _Y, -_X])
    assert_same(jax.vmap(converted(mixed))(jnp.asarray(xs)),
                np.stack([mixed(x) for x in xs]), rtol=1e-5)
    assert_same(jax.grad(converted(mixed))(jnp.asarray(_X)),
                jax.grad(lambda x: jnp.maximum.accumulate(x).sum() + jnp.take(x, jnp.array(
                    [0, -1])).sum() + jnp.mod(x, 1.5).sum() + jnp.pad(x, 1, mode='edge').sum()
                    + jnp.select([x > 0.5], [x * 2.0], default=x).sum())(jnp.asarray(_X)))


def test_the_loops_stay_staged():
    assert 'while' in primitives(power_iteration, jnp.asarray(_SPD))
    sizes = [len(jax.make_jaxpr(converted(scalar_steps))(jnp.asarray(np.tile(_X, k))).eqns)
             for k in (2, 16)]   # (a loop of independent steps: vectorized, not unrolled)
    assert sizes[0] == sizes[1]


def test_generated_code_names_the_twins():
    code = autograph.to_code(sinkhorn)
    assert 'ag.numpy.exp(-M / reg)' in code and 'ag.numpy.linalg.norm(' in code
    assert 'np.exp' not in code


def test_python_values_keep_numpy_itself():
    assert type(traced_numpy.exp(np.float64(2.0))) is np.float64
    assert traced_numpy.array([1, 2, 3]).dtype == np.array([1, 2, 3]).dtype
    assert isinstance(traced_numpy.linalg.norm(_X), np.floating)

    def f(n):
        return np.array([1, 2, 3]).dtype.name, np.exp(n)
    assert autograph.convert(f)(2)[0] == f(2)[0]


def test_a_numpy_function_called_as_a_value():
    def f(x):
        g = np.tanh
        s = 0.0
        for e in x:
            if g(e) > 0:
                s += e
        return s
    assert_same(autograph.convert(f)(jnp.asarray(_X)), f(_X))


def test_argsort_is_numpys_order_without_ties_and_an_error_with_them():
    def order(x):
        return np.argsort(x)

    def stable(x):
        return np.argsort(-x, kind='stable')
    assert_same(autograph.convert(order)(jnp.asarray(_X)), order(_X))
    tied = np.asarray([3.0, 1.0, 3.0, 1.0], np.float32)
    assert_same(autograph.convert(stable)(jnp.asarray(tied)), stable(tied))
    with pytest.raises(ControlFlowError, match='np.argsort.*equal items'):
        autograph.convert(order)(jnp.asarray(tied))
    assert_same(jax.vmap(converted(order))(jnp.asarray(np.stack([_X, _Y]))),
                np.stack([order(_X), order(_Y)]))


def numpy_unique(x):
    return np.unique(x)[0]


def numpy_out(x, y):
    np.add(x, 1.0, out=y)
    return y


def numpy_inverse(m):
    return np.linalg.inv(m)


def numpy_array_itself(x):
    b = np.array(x, copy=False)
    b[0] = 9.0
    return x


def asarray_written(x):
    a = np.asarray(x)      # (of a NumPy array, `x` itself: the caller sees the write)
    a[0] = 9.0
    return a.sum()


def asarray_written_in_a_branch(x, c):
    a = np.asarray(x, dtype=np.float32)
    if c > 0:
        a += 1.0
    return a


def asarray_sorted(x):
    a = np.asarray(x)
    a.sort()
    return a


def second_order_gradient(x):
    return np.gradient(x, edge_order=2)


def integer_remainder(x):
    return np.mod(x.astype(np.int32), 3)


@pytest.mark.parametrize('fn, args', [
    (numpy_unique, (_X,)), (numpy_out, (_X, _Y)), (numpy_inverse, (_SPD,)),
    (numpy_array_itself, (_X,)), (asarray_written_in_a_branch, (_X, 1.0)),
    (second_order_gradient, (_X,)), (integer_remainder, (_X,))],
    ids=['unique: size from the values', 'out=: NumPy writes', 'inv: singular raises',
         'array(copy=False): the array itself', 'asarray(dtype=) changed by +=',
         'gradient(edge_order=2): not in jax.numpy',
         'mod of integers: NumPy zero for a zero divisor'])
def test_functions_whose_jax_twin_means_otherwise_stay_named_errors(fn, args):
    with pytest.raises(TracedValueNeeded):
        jax.jit(converted(fn))(*[jnp.asarray(a) for a in args])


def routine(x, w):
    """The first lines of many NumPy routines: `np.asarray` of the arguments, then code
    that reads them (and returns one)."""
    x = np.asarray(x, dtype=float)
    w = np.asarray(w)
    out = np.zeros_like(x)
    for i in range(x.shape[0]):
        out[i] = x[i] * w[i % w.shape[0]]
    return np.asarray(out), x


@pytest.mark.parametrize('fn', [asarray_written, asarray_sorted])
def test_asarray_is_the_numpy_array_itself_and_a_read_only_view_of_a_jax_array(fn):
    """`np.asarray(x)`: `x` itself for a NumPy array (its writes are the caller's), a
    read-only view for a JAX array (NumPy's ValueError where it is written)."""
    mine, theirs = _X.copy(), _X.copy()
    assert_same(autograph.convert(fn)(mine), fn(theirs))
    np.testing.assert_array_equal(mine, theirs)
    with pytest.raises(ValueError, match='read-only'):
        fn(jnp.asarray(_X))
    for call in (autograph.convert(fn), jax.jit(converted(fn))):
        with pytest.raises(ValueError, match='read-only'):
            call(jnp.asarray(_X))


def test_asarray_of_a_result_nothing_changes_is_the_twins():
    assert_same(autograph.convert(routine)(jnp.asarray(_X), jnp.asarray(_Y[:2])),
                routine(_X, _Y[:2]))
    assert_same(jax.jit(converted(routine))(_X, _Y[:2]), routine(_X, _Y[:2]))
    assert_same(jax.vmap(converted(routine), in_axes=(0, None))(
        jnp.stack([_X, _Y]), jnp.asarray(_Y[:2])),
        tuple(np.stack(parts) for parts in zip(routine(_X, _Y[:2]), routine(_Y, _Y[:2]))))
    code = autograph.to_code(routine)
    assert code.count('.numpy.asarray(') == 3


def dtw(a, b):
    """Dynamic time warping as it is written with NumPy: `np.min` of a list of three
    neighbours (NumPy makes an array of the list)."""
    n, m = len(a), len(b)
    D = np.full((n + 1, m + 1), np.inf)
    D[0, 0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = abs(a[i - 1] - b[j - 1])
            D[i, j] = cost + np.min([D[i - 1, j], D[i, j - 1], D[i - 1, j - 1]])
    return D[n, m], np.argmin((D[n, 1], D[n, 2], D[n, 3])), np.exp([a[0], b[0]])


def test_reductions_and_functions_of_a_list_of_traced_values():
    a, b = _X, np.asarray([0.0, 1.5, -1.0, 2.0, 0.5], np.float32)
    assert_same(autograph.convert(dtw)(jnp.asarray(a), jnp.asarray(b)), dtw(a, b))
    assert_same(jax.jit(converted(dtw))(a, b), dtw(a, b))
    assert 'while' in primitives(dtw, jnp.asarray(a), jnp.asarray(b)) or \
        'scan' in primitives(dtw, jnp.asarray(a), jnp.asarray(b))


def closest_pair(D):
    i, j = np.unravel_index(np.argmin(D), D.shape)
    k, m = np.unravel_index(np.argmax(D), D.shape, order='F')
    return i, j, D[i, j], k, m


def test_unravel_index_of_a_traced_index():
    D = np.asarray([[3.0, 1.0, 4.0], [1.5, 0.5, 9.0]], np.float32)
    assert_same(autograph.convert(closest_pair)(jnp.asarray(D)), closest_pair(D))
    assert_same(jax.vmap(converted(closest_pair))(jnp.stack([D, -D])),
                tuple(np.stack(v) for v in zip(closest_pair(D), closest_pair(-D))))


def flat_to_cell(k):
    return np.unravel_index(k, (2, 3))


def test_unravel_index_out_of_range_is_numpys_value_error():
    with pytest.raises(ValueError):
        flat_to_cell(6)
    with pytest.raises(ValueError, match='out of bounds'):
        autograph.convert(flat_to_cell)(jnp.int32(6))
