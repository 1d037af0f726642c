"""A `while` (or a `for` with a `break`) inside a vectorised loop runs in lock step as
blocks of masked steps (runtime.staging.lockstep): the values of the Python loop per iteration,
plain, under jit, vmap and grad (and jvp on request), whatever each iteration's trip
count; the jaxpr holds one `while` whose test is reduced over the batch."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.runtime import context
from autograph.runtime.staging import lockstep, loop_autodiff
from tests.helpers import assert_same, converted, equations


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


def grow_each(x, out):
    """A float result per item after a data-dependent number of steps (0 for x >= 100)."""
    for i in range(x.shape[0]):
        y = x[i]
        while y < 100.0:
            y = y * 1.7 + x[i]
        out[i] = y
    return out


def row_prefix(a, limit, out):
    """Each row sums items until it passes its limit or runs out of items: a finished
    row's step would read past the end of its row (masked, it must not raise)."""
    for i in range(a.shape[0]):
        j = 0
        s = 0.0
        while j < a.shape[1] and s < limit[i]:
            s += a[i, j]
            j += 1
        out[i] = s * j
    return out


def partial_sums(x, counts, out):
    """A `for` over a range with a traced bound in a vectorised loop."""
    for i in range(x.shape[0]):
        s = 0.0
        for j in range(counts[i]):
            s += x[i, j] * j
        out[i] = s
    return out


def _grid(n):
    axis = np.linspace(-1.5, 1.5, n, dtype=np.float32)
    zr, zi = np.meshgrid(axis, axis)
    return zr, zi, np.zeros((n, n), np.int32)


GROW = np.asarray([0.5, 1.0, 1.3, 3.0, 7.0, 150.0, 2.2], np.float32)   # 0 to 9 steps


def _python(fn, *arrays):
    return fn(*[np.array(a) for a in arrays])


def _lockstep_loops(fn, *arrays, **options):
    """The `while` equations of converted `fn`'s jaxpr whose test only reduces a carried
    flag over the batch (`unvmap_any`; the reverse-mode loop adds `nonbatchable`): the
    vmapped `while` of a batched test would compute the user's test there."""
    jaxpr = jax.make_jaxpr(autograph.convert(fn, jit=False, **options))(
        *map(jnp.asarray, arrays))
    whiles = [e for e in equations(jaxpr.jaxpr) if e.primitive.name == 'while']
    return [e for e in whiles if 'unvmap_any' in _names(e.params['cond_jaxpr'])
            <= {'unvmap_any', 'nonbatchable'}]


def _names(closed):
    return {e.primitive.name for e in equations(closed.jaxpr)}


@pytest.mark.parametrize('fn,arrays', [
    (escape_time, _grid(11)),
    (grow_each, (GROW, np.zeros(7, np.float32))),
    (row_prefix, (np.abs(np.random.default_rng(1).standard_normal((6, 9))).astype(np.float32),
                  np.asarray([0.0, 0.5, 2.0, 4.0, 100.0, 1.0], np.float32),
                  np.zeros(6, np.float32))),
    (partial_sums, (np.random.default_rng(2).standard_normal((6, 9)).astype(np.float32),
                    np.asarray([0, 1, 5, 9, 3, 2], np.int32), np.zeros(6, np.float32))),
], ids=['escape_time', 'grow_each', 'row_prefix', 'partial_sums'])
def test_values_equal_python_plain_jit_and_vmap(fn, arrays):
    expected = _python(fn, *arrays)
    jax_arrays = list(map(jnp.asarray, arrays))
    assert len(_lockstep_loops(fn, *arrays)) == 1
    assert_same(converted(fn)(*jax_arrays), expected)
    assert_same(autograph.convert(fn)(*jax_arrays), expected)
    # A batch of inputs (the first array and its reverse) under the user's jax.vmap.
    second = [arrays[0][::-1].copy()] + list(arrays[1:])
    batched = jax.jit(jax.vmap(converted(fn), in_axes=(0,) + (None,) * (len(arrays) - 1)))(
        jnp.stack([jax_arrays[0], jnp.asarray(second[0])]), *jax_arrays[1:])
    assert_same(batched, np.stack([expected, _python(fn, *second)]))


def test_a_loop_that_runs_no_step_anywhere():
    x = np.asarray([200.0, 300.0, 100.0], np.float32)
    assert_same(autograph.convert(grow_each)(jnp.asarray(x), jnp.zeros(3)),
                _python(grow_each, x, np.zeros(3, np.float32)))


def _finite_difference(x, eps=1e-3):
    """d out[i] / d x[i] of the Python function, in float64 (each item depends on its
    own x[i] only, so one perturbation of all items gives every derivative)."""
    x = x.astype(np.float64)
    up, down = grow_each(x + eps, np.zeros_like(x)), grow_each(x - eps, np.zeros_like(x))
    return (up - down) / (2 * eps)


def test_grad_equals_python_derivative():
    f = converted(grow_each)
    grad = jax.grad(lambda x: jnp.sum(f(x, jnp.zeros(7))))
    np.testing.assert_allclose(grad(jnp.asarray(GROW)), _finite_difference(GROW), rtol=2e-3)
    np.testing.assert_allclose(jax.jit(grad)(jnp.asarray(GROW)), _finite_difference(GROW),
                               rtol=2e-3)


def test_grad_through_integer_counts_is_the_other_factor():
    """The escape-time counts are integers: `sum(count * zr)` has derivative `count`."""
    zr, zi, out = map(jnp.asarray, _grid(9))
    f = converted(escape_time)
    grad = jax.grad(lambda zr: jnp.sum(f(zr, zi, out).astype(jnp.float32) * zr))(zr)
    assert_same(grad, _python(escape_time, zr, zi, out).astype(np.float32))


def test_forward_mode_on_request_and_the_errors_of_each_mode():
    x = jnp.asarray(GROW)
    forward = autograph.convert(grow_each, loop_autodiff='forward', jit=False)
    _, tangent = jax.jvp(lambda x: forward(x, jnp.zeros(7)), (x,), (jnp.ones_like(x),))
    np.testing.assert_allclose(tangent, _finite_difference(GROW), rtol=2e-3)
    with pytest.raises(ValueError, match='Reverse-mode differentiation does not work'):
        jax.grad(lambda x: jnp.sum(forward(x, jnp.zeros(7))))(x)
    with pytest.raises(TypeError) as info:
        jax.jvp(lambda x: converted(grow_each)(x, jnp.zeros(7)), (x,), (jnp.ones_like(x),))
    assert "loop_autodiff='forward'" in '\n'.join(getattr(info.value, '__notes__', []))


@pytest.mark.parametrize('mode', ['reverse', 'forward'])
def test_the_loop_is_one_while_of_masked_blocks_tested_over_the_batch(mode):
    """Not the vmapped `while` of a batched test: the carried flag is reduced over the
    batch (a scalar test), and the body holds STEPS steps of the user's body."""
    (loop,) = _lockstep_loops(escape_time, *_grid(5), loop_autodiff=mode)
    assert loop.params['cond_jaxpr'].jaxpr.outvars[0].aval.shape == ()
    body = loop.params['body_jaxpr'].jaxpr
    # x * x and y * y: two squares in each step, two more in each step's test.
    squares = [e for e in equations(body) if e.primitive.name == 'mul'
               and e.invars[0] is e.invars[1]]
    assert len(squares) == 4 * lockstep.STEPS


@pytest.mark.parametrize('mode', ['reverse', 'forward'])
def test_a_bounded_loop_runs_its_blocks_within_the_bound(mode):
    """A loop with a known bound (a Python range with a `break`) runs at most that many
    steps, in ceil(bound / STEPS) blocks: bounds below, at and above a block's steps."""
    def loop(bound):
        def run(x):
            with loop_autodiff.autodiff_mode(mode), context.setting(batch=3):
                return loop_autodiff.while_loop(
                    lambda c: jnp.logical_and(c[0] < bound, c[1] < 50.0),
                    lambda c: (c[0] + 1, c[1] * 2.0 + 1.0), (0, x), bound)
        return jax.jit(jax.vmap(run))

    def python(x, bound):
        k = 0
        while k < bound and x < 50.0:
            k, x = k + 1, x * 2.0 + 1.0
        return k, x
    xs = np.asarray([0.1, 3.0, 60.0], np.float32)
    for bound in (1, lockstep.STEPS, lockstep.STEPS + 3):
        counts, values = loop(bound)(jnp.asarray(xs))
        expected = [python(float(x), bound) for x in xs]
        assert_same((counts, values), tuple(map(np.asarray, zip(*expected))))


def log_terms(a, n, out):
    """`log(a * k)` for k = n .. 1: after its last step an iteration's state has k = 0,
    where the step's derivative is infinite."""
    for i in range(a.shape[0]):
        k = n[i]
        s = 0.0
        while k > 0:
            s = s + jnp.log(a[i] * k)
            k -= 1
        out[i] = s
    return out


@pytest.mark.parametrize('mode', ['reverse', 'forward'])
def test_masked_steps_leave_no_nan_in_derivatives(mode):
    """The iterations that stopped take masked steps at k = 0 while the others go on (and
    every iteration in the last block): their derivative must stay Python's."""
    a, n = np.asarray([1.5, 2.0, 3.0, 0.7], np.float32), np.asarray([1, 3, 2, 6], np.int32)
    expected = _python(log_terms, a, n, np.zeros(4, np.float32))
    f = autograph.convert(log_terms, loop_autodiff=mode, jit=False)
    assert len(_lockstep_loops(log_terms, a, n, np.zeros(4, np.float32))) == 1
    assert_same(f(jnp.asarray(a), jnp.asarray(n), jnp.zeros(4)), expected)
    eps = 1e-3
    a64 = a.astype(np.float64)
    derivative = (log_terms(a64 + eps, n, np.zeros(4)) - log_terms(a64 - eps, n, np.zeros(4))
                  ) / (2 * eps)
    total = lambda a: jnp.sum(f(a, jnp.asarray(n), jnp.zeros(4)))
    if mode == 'reverse':
        got = jax.grad(total)(jnp.asarray(a))
    else:
        got = jax.jacfwd(lambda a: f(a, jnp.asarray(n), jnp.zeros(4)))(jnp.asarray(a)).sum(0)
    np.testing.assert_allclose(got, derivative, rtol=2e-3)
