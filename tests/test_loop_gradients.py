"""Reverse mode (and forward mode, on request) through staged loops with a run-time exit."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.runtime.staging import loop_autodiff
from tests.helpers import primitives


def grow(x, w):
    """A `while` whose trip count depends on the data."""
    y = x
    while y < 100.0:
        y = y * w + x
    return y


def traced_range(x, n):
    """A `for` over a range with a traced bound (plain arithmetic: the Python function
    computes the finite differences in float64)."""
    for i in range(n):
        x = x - 0.1 * x * x + 0.05 * i
    return x


def static_range_break(x, w):
    """A Python range with a `break` on a traced value: a bounded loop."""
    for i in range(30):
        if x > 50.0:
            break
        x = x * w + 0.1
    return x


def nested(x, n):
    """A `while` inside a traced-range `for`."""
    total = 0.0
    for i in range(n):
        y = x
        while y < 10.0:
            y = y * 1.5 + 0.1
        total = total + y * x
    return total


CASES = [(grow, (1.3, 1.7)), (traced_range, (0.4, 9)), (static_range_break, (1.2, 1.3)),
         (nested, (1.2, 3))]


def _finite_difference(fn, args, eps=1e-4):
    """Central differences of the plain Python function (Python floats: float64)."""
    x, rest = args[0], args[1:]
    return (fn(x + eps, *rest) - fn(x - eps, *rest)) / (2 * eps)


def _arrays(args):
    return [jnp.float32(a) if isinstance(a, float) else jnp.int32(a) for a in args]


def _gradients(fn, args):
    """Finite differences for each float argument."""
    grads = []
    for k, a in enumerate(args):
        if isinstance(a, float):
            def along(t, k=k):
                return fn(*args[:k], t, *args[k + 1:])
            grads.append(_finite_difference(along, (a,)))
    return grads


def _float_argnums(args):
    return tuple(k for k, a in enumerate(args) if isinstance(a, float))


# Compiling a reverse-mode loop takes a second or two, so each case checks one transform
# (the first case all of them); test_long_loop checks jit(vmap(grad)).
@pytest.mark.parametrize('fn,args', CASES, ids=[c[0].__name__ for c in CASES])
def test_grad_matches_finite_differences(fn, args):
    converted = autograph.convert(fn)
    arrays = _arrays(args)
    np.testing.assert_allclose(converted(*arrays), fn(*args), rtol=1e-5)
    grad = jax.grad(converted, argnums=_float_argnums(args))
    np.testing.assert_allclose(grad(*arrays), _gradients(fn, args), rtol=2e-3)
    if fn is grow:
        np.testing.assert_allclose(jax.jit(grad)(*arrays), _gradients(fn, args), rtol=2e-3)
        second = (args[0] * 1.1,) + args[1:]
        batched = jax.vmap(grad)(*[jnp.stack([a, b]) for a, b in
                                   zip(arrays, _arrays(second))])
        np.testing.assert_allclose(np.stack(batched, axis=1),
                                   [_gradients(fn, args), _gradients(fn, second)],
                                   rtol=2e-3)


@pytest.mark.parametrize('fn,args', CASES, ids=[c[0].__name__ for c in CASES])
def test_forward_mode_on_request(fn, args):
    forward = autograph.convert(fn, loop_autodiff='forward')
    arrays = _arrays(args)
    expected = _finite_difference(fn, args)
    _, tangent = jax.jvp(lambda x: forward(x, *arrays[1:]), (arrays[0],),
                         (jnp.float32(1.),))
    np.testing.assert_allclose(tangent, expected, rtol=2e-3)
    np.testing.assert_allclose(jax.jacfwd(forward)(*arrays), expected, rtol=2e-3)


def test_per_loop_option_covers_nested_loops():
    def f(x, n):
        for i in range(n):
            autograph.set_loop_options(autodiff='forward')
            while x < 10.0:
                x = x * 1.5
            x = x + 1.0
        return x
    converted = autograph.convert(f)
    _, tangent = jax.jvp(lambda x: converted(x, jnp.int32(2)), (jnp.float32(1.),),
                         (jnp.float32(1.),))
    np.testing.assert_allclose(tangent, _finite_difference(f, (1.0, 2)), rtol=2e-3)


def test_per_loop_option_overrides_the_function_option():
    def f(x):
        while x < 10.0:
            autograph.set_loop_options(autodiff='reverse')
            x = x * 1.5
        return x
    converted = autograph.convert(f, loop_autodiff='forward')
    np.testing.assert_allclose(jax.grad(converted)(jnp.float32(1.)),
                               _finite_difference(f, (1.0,)), rtol=2e-3)


def test_jvp_through_a_reverse_mode_loop_says_how_to_switch():
    with pytest.raises(TypeError) as info:
        jax.jvp(autograph.convert(grow), (jnp.float32(1.3), jnp.float32(1.7)),
                (jnp.float32(1.), jnp.float32(0.)))
    assert "loop_autodiff='forward'" in '\n'.join(getattr(info.value, '__notes__', []))


def test_bad_option_values_are_errors():
    with pytest.raises(ValueError, match='loop_autodiff'):
        autograph.convert(grow, loop_autodiff='backward')

    def f(x):
        while x < 10.0:
            autograph.set_loop_options(autodiff='sideways')
            x = x * 1.5
        return x
    with pytest.raises(ValueError, match="'reverse', 'forward'"):
        autograph.convert(f)(jnp.float32(1.))


def _largest_array(jaxpr):
    """The most elements of any value in `jaxpr`, nested jaxprs included."""
    from tests.helpers import _subjaxprs
    largest = 0
    for eqn in jaxpr.eqns:
        for var in eqn.outvars:
            largest = max(largest, int(np.prod(var.aval.shape)))
        for sub in _subjaxprs(eqn):
            largest = max(largest, _largest_array(sub))
    return largest


def test_long_loop_under_jit_vmap_grad_in_bounded_memory():
    def decay(x, steps):
        i = 0
        while i < steps:
            x = jnp.sin(x) * 0.999
            i += 1
        return jnp.sum(x)
    x = jnp.linspace(0.1, 1.0, 50)
    grad = jax.jit(jax.vmap(jax.grad(autograph.convert(decay)), in_axes=(0, None)))
    xs, steps = jnp.stack([x, x * 0.5]), jnp.int32(1000)
    # The backward pass keeps CHECKPOINTS copies of the state, never one per step.
    assert _largest_array(jax.make_jaxpr(grad)(xs, steps).jaxpr) <= (
        loop_autodiff.CHECKPOINTS * xs.size)
    # ... and is exact for a trip count far above the checkpoint count.
    reference = jax.vmap(jax.grad(lambda x: jnp.sum(jax.lax.scan(
        lambda x, _: (jnp.sin(x) * 0.999, None), x, None, length=1000)[0])))(xs)
    np.testing.assert_allclose(grad(xs, steps), reference, rtol=1e-4)


def test_undifferentiated_program_has_no_checkpoint_buffers():
    x = jnp.linspace(0.1, 1.0, 100)
    hlo = jax.jit(autograph.convert(grow)).lower(x[0], x[1]).as_text()
    forward = jax.jit(autograph.convert(grow, loop_autodiff='forward')).lower(
        x[0], x[1]).as_text()
    assert hlo.count('stablehlo.while') == forward.count('stablehlo.while') == 1
    assert f'tensor<{loop_autodiff.CHECKPOINTS}x' not in hlo


def test_python_loops_stay_python():
    def f(x):
        while x < 10.0:
            x = x * 1.5
        return x
    assert autograph.convert(f, jit=False)(1.0) == f(1.0)
    assert primitives(f, 1.0) == set()

