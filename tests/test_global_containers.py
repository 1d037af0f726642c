"""Containers of Python values that a converted function reads (a tuple of sizes, a list
of coefficients, a dict of settings, a tuple of functions), held by a global, a closure
cell or an attribute, are read at call time as Python reads them: changed between two
calls, the second call sees the new contents (it traces again); unchanged, the trace is
reused. Compared with plain Python over successive calls."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph

SIZES = (3, 4)
COEFFS = [2, 5]
SETTINGS = {'scale': 2.0, 'shift': 1}


def by_sizes(x):
    return x * SIZES[0] + SIZES[1]


def by_coeffs(x):
    total = 0.0
    for c in COEFFS:
        total = total * x + c
    return total


def by_settings(x):
    if SETTINGS['shift'] > 0:
        return x * SETTINGS['scale'] + SETTINGS['shift']
    return x * SETTINGS['scale']


def double(x):
    return x * 2.0


def square(x):
    return x * x


STEPS = (double,)


def by_steps(x):
    for step in STEPS:
        x = step(x)
    return x


def _check(fn, change, calls=3):
    """Calls `fn` plain and converted, `change()` between calls: the same values."""
    converted = autograph.convert(fn)
    for i in range(calls):
        x = float(i + 1)
        np.testing.assert_allclose(converted(jnp.asarray(x)), fn(x), rtol=1e-6)
        change(i)


def test_a_global_tuple_rebound():
    global SIZES

    def change(i):
        global SIZES
        SIZES = (SIZES[0] + 1, i)
    try:
        _check(by_sizes, change)
    finally:
        SIZES = (3, 4)


def test_a_global_list_changed_in_place():
    def change(i):
        COEFFS[0] += 1
        COEFFS.append(i)
    try:
        _check(by_coeffs, change)
    finally:
        COEFFS[:] = [2, 5]


def test_a_global_dict_changed_in_place():
    def change(i):
        SETTINGS['scale'] += 1.0
        SETTINGS['shift'] = -SETTINGS['shift']
    try:
        _check(by_settings, change)
    finally:
        SETTINGS.update(scale=2.0, shift=1)


def test_a_global_tuple_of_functions_rebound():
    global STEPS

    def change(i):
        global STEPS
        STEPS = (square, double) if i % 2 == 0 else (double,)
    try:
        _check(by_steps, change, calls=4)
    finally:
        STEPS = (double,)


def test_an_attribute_tuple_and_a_closure_list():
    class Model:
        dims = (2, 3)
    model = Model()
    weights = [1.0, 2.0]

    def fn(x):
        return x * model.dims[0] + model.dims[1] * weights[-1]

    def change(i):
        model.dims = (i + 5, 1)
        weights.append(float(i))
    _check(fn, change)


def test_unchanged_contents_reuse_the_trace():
    converted = autograph.convert(by_settings)
    for i in range(5):
        np.testing.assert_allclose(converted(jnp.asarray(float(i))), by_settings(float(i)))
    assert converted.trace_count == 1


def test_a_memo_the_function_fills_keeps_pythons_values():
    memo = {}

    def cached_scale(x, k):
        if k not in memo:
            memo[k] = k * 10
        return x * memo[k]
    converted = autograph.convert(cached_scale)
    for k in (1, 2, 1, 2):
        np.testing.assert_allclose(converted(jnp.asarray(1.5), k), 1.5 * k * 10)
    assert memo == {1: 10, 2: 20}


LEVELS = [0.0, 0.0, 0.0]
LEVELS_BEFORE = LEVELS   # another reference to the same list, as an import would hold


def raise_level(i, val):
    LEVELS[i % 3] += val


def raise_in_loop(x, v):
    for item in v:
        raise_level(1, item * x)
    return x + LEVELS[1]


def raise_by_path(x, v):
    if v[0] < x:
        LEVELS[1] = x
    else:
        for item in v:
            raise_level(1, item - 0.5)
        LEVELS[1] = LEVELS[1] + 0.25
    return x + LEVELS[1]


def _levels_after(fn, x, v):
    LEVELS[:] = [0.0, 0.0, 0.0]
    result = fn(x, v)
    assert LEVELS is LEVELS_BEFORE
    return result, [float(level) for level in LEVELS]


@pytest.mark.parametrize('fn', [raise_in_loop, raise_by_path])
@pytest.mark.parametrize('x', [1.0, -1.0])
def test_a_global_list_a_helper_changes_in_a_staged_loop_stays_the_same_list(fn, x):
    """A helper's `LEVELS[i] += v` changes the global's list in place: after a staged loop
    (and an `if` one of whose paths runs it) the global is still that list, with Python's
    values (it was a copy, which references taken before did not see; with the `if`, a
    named error)."""
    v = np.array([0.0, 1.0, 2.0], np.float32)
    expected = _levels_after(fn, x, v)
    converted = autograph.convert(fn)
    for _ in range(2):
        result, levels = _levels_after(converted, jnp.float32(x), jnp.asarray(v))
        np.testing.assert_allclose(result, expected[0], rtol=1e-6)
        np.testing.assert_allclose(levels, expected[1], rtol=1e-6)


def _inside(converted):
    """`converted`'s result and the global's values read right after it, in the caller's
    trace (where Python's reads would see them)."""
    def run(x, v):
        result = converted(x, v)
        assert LEVELS is LEVELS_BEFORE
        return result, jnp.stack([jnp.asarray(level, jnp.float32) for level in LEVELS])
    return run


def _python_after(fn, x, v):
    result, levels = _levels_after(fn, x, v)
    return float(result), levels


@pytest.mark.parametrize('jit', [True, False])
@pytest.mark.parametrize('fn', [raise_in_loop, raise_by_path])
@pytest.mark.parametrize('x', [1.0, -1.0])
def test_the_global_list_under_jit_vmap_and_grad_of_the_converted_function(fn, x, jit):
    """Under a caller's `jax.jit`, `jax.vmap` and `jax.grad`, the helper's writes in the
    staged loop go to the global's own list, and the values read after the call are
    Python's. (Plain `raise_by_path` cannot run under these transforms: its `if` tests a
    traced value. So each is compared with plain Python on concrete values: per element
    for `vmap`, and by finite differences for `grad`.)"""
    v = np.array([0.0, 1.0, 2.0], np.float32)
    converted = autograph.convert(fn, jit=jit)
    try:
        LEVELS[:] = [0.0, 0.0, 0.0]
        result, levels = jax.jit(_inside(converted))(jnp.float32(x), jnp.asarray(v))
        expected = _python_after(fn, x, v)
        np.testing.assert_allclose(result, expected[0], rtol=1e-6)
        np.testing.assert_allclose(levels, expected[1], rtol=1e-6)

        xs = np.array([x, x + 0.5, -x], np.float32)
        LEVELS[:] = [0.0, 0.0, 0.0]
        results, levels = jax.vmap(_inside(converted), in_axes=(0, None))(
            jnp.asarray(xs), jnp.asarray(v))
        expected = [_python_after(fn, float(e), v) for e in xs]
        np.testing.assert_allclose(results, [e[0] for e in expected], rtol=1e-6)
        np.testing.assert_allclose(levels, [e[1] for e in expected], rtol=1e-6)

        LEVELS[:] = [0.0, 0.0, 0.0]
        grad = jax.grad(lambda x: converted(x, jnp.asarray(v)))(jnp.float32(x))
        h, v64 = 1e-3, v.astype(np.float64)
        slope = (_python_after(fn, x + h, v64)[0] - _python_after(fn, x - h, v64)[0]) / (2 * h)
        np.testing.assert_allclose(grad, slope, rtol=1e-5)
        assert LEVELS is LEVELS_BEFORE
    finally:
        LEVELS[:] = [0.0, 0.0, 0.0]   # (the transforms leave their tracers in it)
