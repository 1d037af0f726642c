"""Functions called from converted code are converted too (user code only)."""
import functools
import gc
import threading
import weakref

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from examples import seeds
from tests.helpers import check, staged


def helper_with_branch(x):
    if x > 0:
        return x * 2
    return -x


def calls_helper(x):
    return helper_with_branch(x) + 1


class Model:
    def __init__(self, scale):
        self.scale = scale

    def step(self, x):
        if x > 0:
            x = x * self.scale
        return x

    def __call__(self, x):
        return self.step(x) + 1

    @staticmethod
    def static_helper(x):
        while x < 10:
            x = x * 2
        return x

    @classmethod
    def class_helper(cls, x):
        if x > 1:
            x = x - 1
        return x


def test_outer_calls_inner_with_control_flow():
    for x in (2., -3.):
        check(calls_helper, jnp.float32(x))
    assert 'cond' in staged(calls_helper, jnp.float32(1.))


def test_seed_outer_inner_function():
    x, w, b = jnp.ones((1, 2)), jnp.ones((2, 3)), jnp.ones(3)
    check(seeds.dense_layer, x, w, b)


def test_methods_static_and_class_methods():
    model = Model(3.)
    for x in (2., -1.):
        check(model, jnp.float32(x))
        check(model.step, jnp.float32(x))
    check(Model.static_helper, jnp.float32(1.5))
    check(Model.class_helper, jnp.float32(3.))
    assert 'cond' in staged(model, jnp.float32(1.))
    assert 'while' in staged(Model.static_helper, jnp.float32(1.))

    def uses_model(x):
        return model(x) + Model.static_helper(x) + Model.class_helper(x)
    check(uses_model, jnp.float32(2.))
    assert {'cond', 'while'} <= staged(uses_model, jnp.float32(2.))


def test_nested_functions_closures_and_lambdas():
    def outer(x, y):
        offset = 1.0

        def inner(z):
            if z > 0:
                return z + offset + y
            return z - offset

        square = lambda v: v * v if v > 1 else v  # noqa: E731
        offset = 2.0    # closures read the value at call time
        return inner(x) + square(x)
    for x in (3., -1.):
        check(outer, jnp.float32(x), jnp.float32(0.5))
    assert 'cond' in staged(outer, jnp.float32(1.), jnp.float32(0.5))


def test_partial_and_callable_objects_and_function_arguments():
    scaled = functools.partial(Model.step, Model(5.))

    def f(x, fn):
        return fn(x)

    for x in (1., -1.):
        check(lambda x: scaled(x), jnp.float32(x))
        check(lambda x: f(x, helper_with_branch), jnp.float32(x))
    assert 'cond' in staged(lambda x: scaled(x), jnp.float32(1.))
    xs = jnp.linspace(-1, 1, 6).reshape(3, 2)
    check(seeds.dynamic_rnn, seeds.rnn_step, xs, jnp.zeros(2))


def test_library_code_is_called_as_is():
    code = autograph.to_code(seeds.dense_layer)
    assert 'jnp.matmul(x, w)' in code and 'ag.call(add' in code
    code = autograph.to_code(seeds.relu_layers)
    assert 'jax.nn.relu(x @ w)' in code


def test_do_not_convert():
    @autograph.do_not_convert
    def python_only(x):
        if x > 0:   # would fail on a traced value if it were not converted...
            return x
        return -x

    def f(x):
        return python_only(x)
    with pytest.raises(jax.errors.TracerBoolConversionError):
        autograph.convert(f)(jnp.float32(1.))
    assert float(autograph.convert(f)(1.)) == 1.   # Python value: fine


def test_excluded_modules_are_not_converted(monkeypatch):
    from autograph import library
    monkeypatch.setattr(library, '_excluded', {__name__})
    with pytest.raises(jax.errors.TracerBoolConversionError):
        autograph.convert(calls_helper)(jnp.float32(1.))


def test_builtins_on_traced_values():
    def f(xs, n):
        total = 0.0
        for i in range(n):
            total += i
        for i, x in enumerate(xs):
            total += i * x
        for a, b in zip(xs, xs * 2):
            total += a * b
        total += len(xs) + abs(xs[0]) + sum(xs)
        total += max(xs[0], xs[1]) + min(xs[0], 0.5) + max(xs)
        if isinstance(xs, jax.Array):
            total += 1
        return total
    check(f, jnp.array([1., -2., 3.]), jnp.int32(4))


def test_print_runs_while_tracing_and_debug_print_every_call(capfd):
    def f(x):
        print('tracing')
        jax.debug.print('value {}', x)
        return x + 1
    g = autograph.convert(f)
    g(jnp.float32(1.))
    g(jnp.float32(2.))
    out = capfd.readouterr().out
    assert out.count('tracing') == 1
    assert 'value 1.0' in out and 'value 2.0' in out


def test_global_and_nonlocal_writes_keep_python_semantics():
    state = {'calls': 0}

    def f(x, n):
        count = 0

        def bump():
            nonlocal count
            count += 1
        for _ in range(n):   # a Python loop: runs while tracing
            bump()
        state['calls'] += count
        return x + count
    assert float(autograph.convert(f)(jnp.float32(1.), 3)) == 4.
    assert state['calls'] == 3


def test_nonlocal_write_in_staged_loop_is_carried_through_the_loop():
    def f(n):
        v = 0.0
        total = 0.0

        def add():
            nonlocal v
            v = v + 0.7
        for _ in range(n):
            add()
            total = total + v
        return total, v
    assert autograph.convert(f)(3) == pytest.approx(f(3))                  # Python loop
    assert autograph.convert(f)(jnp.int32(3)) == pytest.approx(f(3))       # staged
    assert staged(f, jnp.int32(3)) == {'while'}


def test_static_recursion_unrolls():
    def power(x, n):
        if n == 0:
            return jnp.ones_like(x)
        return x * power(x, n - 1)
    check(power, jnp.float32(1.5), 4)


def test_conversion_cache_does_not_keep_closures_alive():
    def make(k):
        def f(x):
            if x > k:
                return x
            return -x
        return f
    refs = []
    for k in range(10_000):
        fn = make(k)
        autograph.convert(fn, jit=False)(2.)
        refs.append(weakref.ref(fn))
    del fn
    gc.collect()
    alive = sum(r() is not None for r in refs)
    assert alive == 0


def test_threads_convert_and_call_the_same_function():
    def work(x, i):
        total = x
        for j in range(i % 4):
            if total > 3:
                total = total - 1
            else:
                total = total + j
        return total
    results, errors = {}, []

    def run(i):
        try:
            results[i] = float(autograph.convert(work, jit=False)(jnp.float32(i), i))
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
    threads = [threading.Thread(target=run, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert results == {i: float(work(jnp.float32(i), i)) for i in range(16)}


def test_to_code_recursive_shows_callees():
    code = autograph.to_code(calls_helper, recursive=True)
    assert 'def calls_helper' in code and 'def helper_with_branch' in code
    assert code.index('def calls_helper') < code.index('def helper_with_branch')
    np.testing.assert_equal(autograph.to_code(calls_helper).count('def '), 1)


def loss_with_loop(w, xs):
    total = 0.0
    for x in xs:
        if x > 0:
            total = total + w * x
    return total


def test_functions_given_to_jax_transformations_are_converted():
    def step(w, xs):
        return w - 0.1 * jax.grad(loss_with_loop)(w, xs)

    def batched(ws, xs):
        return jax.vmap(loss_with_loop, in_axes=(0, None))(ws, xs)

    def scanned(xs):
        def body(carry, x):
            if x > carry:
                carry = x
            return carry, carry
        return jax.lax.scan(body, -1.0, xs)
    xs = jnp.array([1., -2., 3.])
    assert float(autograph.convert(step)(1.0, xs)) == pytest.approx(0.6)
    np.testing.assert_allclose(autograph.convert(batched)(jnp.array([1., 2.]), xs), [4., 8.])
    best, history = autograph.convert(scanned)(xs)
    assert float(best) == 3. and list(history) == [1., 1., 3.]
    assert 'ag.call(jax.grad, loss_with_loop)(w, xs)' in autograph.to_code(step)
