"""Loops that used to unroll while tracing stay one staged loop: windows with a shift
(`x[i - 2:i + 3]`), windows that shrink at the ends read by a reduction
(`x[max(0, i - 2):i + 3].sum()`, a masked slice), slices with a traced bound read by a
reduction (`x[:i + 1].max()`), and loops over Python lists of like arrays (stacked and
scanned). Loops that still unroll warn with the reason. Each converted result is compared
with the same function run as plain Python; staging is checked on the jaxpr, by counting
its equations at two lengths."""
import os
import subprocess
import sys
import textwrap
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import (assert_same, check, converted, i32, primitive_names,
                           primitives, site)


def equations(fn, *args):
    """How many equations the converted `fn`'s jaxpr has, nested ones included."""
    def count(jaxpr):
        total = 0
        for eqn in jaxpr.eqns:
            total += 1
            for value in eqn.params.values():
                for item in value if isinstance(value, (tuple, list)) else [value]:
                    if hasattr(item, 'jaxpr') and hasattr(item, 'consts'):
                        total += count(item.jaxpr)
                    elif hasattr(item, 'eqns'):
                        total += count(item)
        return total
    return count(jax.make_jaxpr(converted(fn))(*args).jaxpr)


def assert_one_loop(fn, small, large):
    """`fn`'s jaxpr has a loop (none where the loop is vectorised: an accumulation over
    independent iterations, see tests/test_reductions.py) and as many equations on
    `small` as on `large` inputs."""
    vectorised = 'reductions=' in autograph.to_code(fn)
    assert bool(primitives(fn, small) & {'scan', 'while'}) != vectorised
    assert equations(fn, small) == equations(fn, large)


# --- windows with a shift, in loops over Python ranges ----------------------------------

def centred_sums(x):
    out = np.zeros(x.shape[0] - 4)
    for i in range(2, x.shape[0] - 2):
        out[i - 2] = x[i - 2:i + 3].sum()
    return out


def radius_means(x, r):
    out = []
    for i in range(r, x.shape[0] - r):
        out.append(x[i - r:i + r + 1].mean())
    return jnp.stack(out)


def shrinking(x):
    total = 0.
    for i in range(x.shape[0]):
        window = x[max(0, i - 2):i + 3]
        total = total + window.sum() * window.max() - window.min() + window.mean()
    return total


def shrinking_both_ends(x):
    n = x.shape[0]
    out = []
    for i in range(n):
        out.append(np.sum(x[max(i - 1, 0):min(n, i + 2)]))
    return jnp.stack(out)


def prefix_maxima(x):
    out = []
    for i in range(x.shape[0]):
        out.append(x[:i + 1].max() + x[i:].sum())
    return jnp.stack(out)


def increasing_run(x):
    best = np.ones(x.shape[0])
    for i in range(1, x.shape[0]):
        best[i] = 1 + ((x[:i] < x[i]) * best[:i]).max()   # the same bounds: one mask
    return best.max()


@pytest.mark.parametrize('fn', [centred_sums, shrinking, shrinking_both_ends, prefix_maxima,
                                increasing_run])
def test_window_loops_are_one_loop_with_python_values(fn):
    x = jnp.sin(jnp.arange(24.)) * 5
    with warnings.catch_warnings():
        warnings.simplefilter('error')    # staged: no unrolling warning
        check(fn, x)
    assert_one_loop(fn, x, jnp.sin(jnp.arange(48.)))


def test_window_with_a_python_radius():
    x = jnp.cos(jnp.arange(30.))
    for r in (0, 1, 3):
        check(radius_means, x, r)
    assert 'ag.window(x, i, 2 * r + 1, shift=-r)' in autograph.to_code(radius_means)


def test_window_loops_under_vmap_and_grad():
    xs = jnp.sin(jnp.arange(60.)).reshape(3, 20)
    for fn in (shrinking, shrinking_both_ends, prefix_maxima):
        assert_same(jax.vmap(converted(fn))(xs), jnp.stack([fn(x) for x in xs]))
    grad = jax.grad(lambda x: converted(shrinking_both_ends)(x).sum())(xs[0])
    # each item is in the windows of its neighbours and its own (2 at the ends)
    expected = jax.grad(lambda x: jnp.stack([
        x[max(i - 1, 0):min(20, i + 2)].sum() for i in range(20)]).sum())(xs[0])
    assert_same(grad, expected)
    assert_same(jax.grad(lambda x: converted(radius_means)(x, 2).sum())(xs[0]),
                jax.grad(lambda x: radius_means(x, 2).sum())(xs[0]))


def box_means(img):
    rows, cols = img.shape
    out = jnp.zeros_like(img)
    for i in range(rows):
        for j in range(cols):
            out = out.at[i, j].set(img[max(0, i - 1):i + 2, max(0, j - 1):j + 2].mean())
    return out


def patch_sums(img, k):
    rows, cols = img.shape
    out = np.zeros((rows - k + 1, cols - k + 1))
    for i in range(rows - k + 1):
        for j in range(cols - k + 1):
            out[i, j] = img[i:i + k, j:j + k].sum()
    return out


def patch_sums_3(img):
    return patch_sums(img, 3)


def test_two_dimensional_windows_stay_staged():
    img = jnp.arange(48.).reshape(6, 8) % 7
    check(box_means, img)
    check(patch_sums, img, 3)
    assert_one_loop(box_means, img, jnp.ones((12, 16)))
    assert_one_loop(patch_sums_3, img, jnp.ones((12, 16)))


def spread(x):
    out = np.zeros(x.shape[0])
    for i in range(1, x.shape[0]):
        out[i:i + 3] += x[i]         # shorter at the end: fewer items updated
        out[i - 1:i + 1] = out[i - 1:i + 1] * 0.5
        out[max(0, i - 1):i + 2] -= 1.
    return out


def test_window_writes_are_dynamic_update_slices_in_one_loop():
    x = jnp.arange(1., 21.)
    check(spread, x)
    names = primitives(spread, x)
    assert 'dynamic_update_slice' in names and names & {'scan', 'while'}
    assert equations(spread, x) == equations(spread, jnp.arange(40.))


def write3(x, i, v):
    x[i:i + 3] = v
    return x


def add_clamped(x, i, v):
    x[max(0, i - 1):i + 2] += v
    return x


@pytest.mark.parametrize('fn', [write3, add_clamped])
def test_window_writes_with_a_traced_start_match_numpy(fn):
    f = autograph.convert(fn)
    for i in range(-8, 8):
        for v in (np.array([1., 2.]), np.array([1., 2., 3.]), np.array(5.)):
            try:
                expected = fn(np.arange(5.), i, v)
            except ValueError:               # NumPy: the value does not fit the slice
                with pytest.raises(ValueError, match='NumPy would raise a shape error|more '
                                                     'than the 3'):
                    f(jnp.arange(5.), i32(i), jnp.asarray(v))
                continue
            if fn is add_clamped and len(range(5)[max(0, i - 1):i + 2]) > 3:
                # i + 2 < 0 counts from the end: more items than the window's width
                with pytest.raises(autograph.ControlFlowError, match='more than the 3'):
                    f(jnp.arange(5.), i32(i), jnp.asarray(v))
                continue
            assert_same(f(jnp.arange(5.), i32(i), jnp.asarray(v)), expected)


# --- masked slices outside loops: exact, or a named error ---------------------------------

def clamped(x, i):
    w = x[max(0, i - 2):i + 3]
    return w.sum(), w.max(), w.min(), w.mean(), w.prod(), (w > 2).any(), (w > -1).all()


def test_clamped_window_with_a_traced_start_matches_python():
    x = np.arange(1., 9.)
    f = autograph.convert(clamped)
    for i in range(-10, 12):
        try:
            expected = clamped(x, i)
        except ValueError:   # max of an empty slice
            with pytest.raises(ValueError, match='zero-size array'):
                f(jnp.asarray(x), i32(i))
            continue
        if len(x[max(0, i - 2):i + 3]) > 5:   # i + 3 < 0 counts from the end: longer
            with pytest.raises(autograph.ControlFlowError, match='more than the 5'):
                f(jnp.asarray(x), i32(i))
            continue
        assert_same(f(jnp.asarray(x), i32(i)), expected)


def test_a_masked_slice_a_loop_closes_over_is_read_in_its_body():
    def f(x, i):
        w = x[max(0, i - 2):i + 3]
        total = 0.
        for k in range(20):
            total = total + w.sum() * k
        return total
    x = np.arange(8.)
    assert_same(autograph.convert(f)(jnp.asarray(x), i32(1)), f(x, 1))


def test_slices_with_traced_bounds_read_by_reductions_match_python():
    def f(x, i, j):
        return x[i:j].sum() + x[:j].max() + x[i:].mean()
    x = np.arange(10.) ** 2
    converted_f = autograph.convert(f)
    for i, j in [(0, 10), (2, 5), (-3, 9), (5, 2), (-20, 20), (9, -1)]:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', RuntimeWarning)   # the mean of an empty slice
            expected = f(x, i, j)
        assert_same(converted_f(jnp.asarray(x), i32(i), i32(j)), expected)
    with pytest.raises(ValueError):
        converted_f(jnp.asarray(x), i32(0), i32(0))          # max of x[:0], as Python


def test_other_uses_of_a_slice_of_varying_length_are_a_named_error():
    def f(x, i):
        return x[max(0, i - 2):i + 3] * 2
    check(f, jnp.arange(6.), 1)
    with pytest.raises(autograph.ControlFlowError) as info:
        autograph.convert(f)(jnp.arange(6.), i32(1))
    message = str(info.value)
    assert '`x[max(0, i - 2):i + 3]`' in message
    assert site(f, "x[max(0") in message
    assert 'depends on a value known only when the program runs' in message

    def g(x, i):   # (a reduction, also as a function: tests/test_masked_reductions.py)
        return jnp.sum(x[:i]) + jnp.cumsum(x)[0]
    assert_same(autograph.convert(g)(jnp.arange(6.), i32(4)), g(np.arange(6.), 4))

    def h(x, i):
        return x[:i]

    def m(x, i):
        return x[i:] @ x[i:]

    def other_bounds(x, i):
        return (x[i:] * x[:i]).sum()

    def cumulative(x, i):
        return jnp.cumsum(x[:i])
    for fn in (h, m, other_bounds, cumulative):
        with pytest.raises(autograph.ControlFlowError, match='depends on a value known only'):
            autograph.convert(fn)(jnp.arange(6.), i32(1))


# --- loops over Python lists of like arrays -----------------------------------------------

def through_layers(h, weights):
    for w in weights:
        h = jnp.tanh(h @ w)
    return h


def through_pairs(h, layers):
    outs = []
    for w, b in layers:
        h = jnp.tanh(h @ w + b)
        outs.append(h.sum())
    return h, outs


def test_loop_over_a_list_of_like_arrays_is_one_scan():
    keys = jax.random.split(jax.random.PRNGKey(0), 40)
    weights = [jax.random.normal(k, (4, 4)) * 0.5 for k in keys]
    h = jnp.ones(4)
    check(through_layers, h, weights[:20])
    check(through_layers, h, tuple(np.asarray(w) for w in weights[:20]))
    layers = [(w, jnp.full(4, 0.1 * i)) for i, w in enumerate(weights[:20])]
    check(through_pairs, h, layers)
    assert primitives(through_layers, h, weights[:20]) & {'scan'}
    small = jax.make_jaxpr(converted(through_layers))(h, weights[:20])
    large = jax.make_jaxpr(converted(through_layers))(h, weights)
    # one scan with the same body; outside it only the stacking of the items (which
    # older JAX writes as one broadcast per item) grows with the list
    def outside_stacking(closed):
        return [e.primitive.name for e in closed.jaxpr.eqns
                if e.primitive.name not in ('broadcast_in_dim', 'concatenate', 'reshape')]
    assert outside_stacking(small) == outside_stacking(large)
    scans = [e for e in large.jaxpr.eqns if e.primitive.name == 'scan']
    assert len(scans) == 1 and equations(through_layers, h, weights[:20]) - len(
        small.jaxpr.eqns) == len(scans[0].params['jaxpr'].jaxpr.eqns)
    assert 'scan' in primitive_names(large)
    grad = jax.grad(lambda h, ws: converted(through_layers)(h, ws).sum(), argnums=(0, 1))
    assert_same(grad(h, weights[:20]),
                jax.grad(lambda h, ws: through_layers(h, ws).sum(), argnums=(0, 1))(
                    h, weights[:20]))


def test_loops_over_short_or_unlike_lists_unroll():
    h = jnp.ones(4)
    unlike = [jnp.eye(4)] * 10 + [jnp.eye(4, dtype=jnp.float16)] * 10
    with pytest.warns(UserWarning, match='not arrays of one shape and dtype'):
        check(through_layers, h, unlike)
    assert not primitives(through_layers, h, unlike) & {'scan', 'while'}
    short = [jnp.eye(4)] * 16
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        check(through_layers, h, short)
    assert not primitives(through_layers, h, short) & {'scan', 'while'}


# --- loops that still unroll say so --------------------------------------------------------

def growing(x):
    for i in range(17):
        x = x + jnp.ones(i + 1).sum()     # a shape that depends on i: unrolled
    return x


def large_body(x):
    for i in range(5):
        x = x + jnp.ones(i + 1).sum()
        for _ in range(300):
            autograph.set_loop_options(unroll=True)
            x = jnp.sin(x)
    return x


def test_unrolled_loops_warn_when_long_or_large_with_the_reason():
    with pytest.warns(UserWarning) as caught:
        check(growing, jnp.float32(1.))
    message = str(caught[0].message)
    assert f'{site(growing, "for i")} (17 iterations' in message
    assert 'unrolled' in message and 'TypeError' in message
    with pytest.warns(UserWarning, match=r'\(5 iterations, \d{4} operations\)'):
        autograph.convert(large_body)(jnp.float32(0.1))


def test_sixteen_iterations_unroll_quietly():
    def f(x):
        for i in range(16):
            x = x + jnp.ones(i + 1).sum()
        return x
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        check(f, jnp.float32(1.))


# --- the first call of a long sliding-window loop compiles in seconds ----------------------

def test_first_call_of_a_960_step_sliding_window_finishes():
    script = textwrap.dedent('''
        import jax, jax.numpy as jnp, numpy as np, autograph
        from tests.test_unrolling import centred_sums, equations
        x = jnp.sin(jnp.arange(964.))
        got = autograph.convert(centred_sums)(x)
        np.testing.assert_allclose(got, centred_sums(np.asarray(x)), rtol=1e-5, atol=1e-5)
        print('ok')
    ''')
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run([sys.executable, '-c', script], cwd=root, capture_output=True,
                          text=True, timeout=180)
    assert done.returncode == 0 and done.stdout.strip() == 'ok', done.stderr[-2000:]
