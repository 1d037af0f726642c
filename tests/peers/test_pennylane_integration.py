"""PennyLane's AutoGraph integration tests (what gets converted, code printing, turning
conversion off), restated for plain JAX.

Upstream: PennyLaneAI/pennylane, tests/capture/autograph/test_autograph.py at commit
4ac3a0fc72c26333c91f8f4c58f2dcd9e9a9a27c. Its `run_autograph` is `autograph.convert`
(`transform` where PennyLane calls its transformer directly), `autograph_source` is
`autograph.to_code`, `disable_autograph` is `autograph.do_not_convert`. A QNode called
from a converted function becomes a plain helper with a branch of its own; `qml.adjoint`
/ `qml.ctrl` of a function become a user-written higher-order wrapper; `qml.grad` /
`qml.jacobian` are `jax.grad` / `jax.jacobian`. Cases about quantum operators and
PennyLane's transformer internals (caches, tape transforms, custom operations) have no
counterpart and are left out. Each case is compared with the same function run as Python.
"""
import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same, converted, staged


def branchy(x):
    if x > 0:
        return x ** 2
    return -x / 2


def double_or_negate(x):
    if x > 1:
        y = 2 * x
    else:
        y = -x
    return y


def calls_two(x):
    return branchy(x) + double_or_negate(x)


# --- what can be converted ------------------------------------------------------------------

def test_transform_on_a_function_and_a_lambda():
    # upstream: TestPennyLaneTransformer.test_transform_on_function / _on_lambda
    def fn(x):
        return 2 * x
    assert autograph.transform(fn)(1.23) == fn(1.23)
    assert autograph.transform(lambda x: 2 * x)(1.23) == 2.46


def test_converting_a_converted_function():
    # upstream: TestIntegration.test_run_autograph_on_converted_function
    def fn(x):
        return x ** 2
    once = autograph.convert(fn)
    twice = autograph.convert(once)
    assert twice.python_function is fn
    assert twice(4) == 16 and twice(jnp.int32(4)) == 16


def test_unsupported_object():
    # upstream: TestIntegration.test_unsupported_object (neither function nor callable)
    class FN:
        __name__ = 'unknown'
    with pytest.raises(TypeError, match='function or callable'):
        autograph.convert(FN())


def test_callable_object_with_a_branch():
    # upstream: TestIntegration.test_callable_object
    class FN:
        __name__ = 'unknown'

        def __call__(self, x):
            if x > 2:
                return x ** 2
            return x
    for x in (3, 1):
        assert autograph.convert(FN())(jnp.int32(x)) == FN()(x)


def test_lambda_and_plain_function():
    # upstream: TestIntegration.test_lambda / test_classical_function
    fn = lambda x: x ** 2  # noqa: E731

    def sq(x):
        return x ** 2
    for f in (fn, sq):
        assert autograph.convert(f)(4) == 16
        assert autograph.convert(f)(jnp.float32(4)) == 16


@pytest.mark.parametrize('x', [-2.0, 0.5, 3.0])
def test_called_functions_are_converted(x):
    # upstream: TestIntegration.test_nested_function, test_indirect_qnode,
    # test_multiple_qnode (helpers called from the converted function, each with a
    # traced branch of its own)
    def fn(x):
        return branchy(x)
    assert_same(autograph.convert(fn)(jnp.float32(x)), jnp.float32(fn(x)))
    assert_same(autograph.convert(calls_two)(jnp.float32(x)), jnp.float32(calls_two(x)))
    assert staged(calls_two, jnp.float32(x)) <= {'cond'}


def adjoint_like(fn):
    """A higher-order wrapper (as qml.adjoint(fn)): calls `fn` and negates its result."""
    def wrapped(*args):
        return -fn(*args)
    return wrapped


def controlled_like(fn, control):
    """A higher-order wrapper (as qml.ctrl(fn, control)): `fn` only where `control`."""
    def wrapped(x):
        return jnp.where(control, fn(x), x)
    return wrapped


@pytest.mark.parametrize('x', [-1.0, 0.5, 2.0])
def test_functions_passed_through_wrappers_are_converted(x):
    # upstream: TestIntegration.test_adjoint_wrapper / test_ctrl_wrapper (a function with
    # a traced branch reached through a wrapper)
    def circ(x):
        return branchy(x * 2) + adjoint_like(branchy)(x)

    def circ_ctrl(x, on):
        return controlled_like(double_or_negate, on)(x)
    assert_same(autograph.convert(circ)(jnp.float32(x)), jnp.float32(circ(x)))
    for on in (True, False):
        assert_same(autograph.convert(circ_ctrl)(jnp.float32(x), jnp.bool_(on)),
                    circ_ctrl(jnp.float32(x), on))


@pytest.mark.parametrize('x', [-1.5, 3.0])
def test_grad_and_jacobian_of_a_function_with_a_branch(x):
    # upstream: TestIntegration.test_grad_wrapper / test_jacobian_wrapper (there `2 * x`
    # and `(2 * x, x ** 2)`; here each has a branch on its argument)
    def inner(x):
        if x > 0:
            return 2 * x
        return x ** 2

    def pair(x):
        if x > 0:
            return 2 * x, x ** 2
        return -x, x ** 3

    def fn(x):
        return jax.grad(inner)(x)

    def jac(x):
        return jax.jacobian(pair)(x)
    assert_same(autograph.convert(fn)(jnp.float32(x)), fn(jnp.float32(x)))
    assert_same(autograph.convert(jac)(jnp.float32(x)), jac(jnp.float32(x)))


def test_users_while_loop_with_a_lambda_condition():
    # upstream: TestPennyLaneTransformer.test_lambda_function_error (a lambda as the
    # condition of the library's while loop is an error in PennyLane; a named one works)
    def with_lambda(i):
        return jax.lax.while_loop(lambda x: x < 10, lambda x: x + 1, i)

    def with_name(i):
        condition = lambda x: x < 10  # noqa: E731
        return jax.lax.while_loop(condition, lambda x: x + 1, i)
    for f in (with_lambda, with_name):
        assert autograph.convert(f)(0) == 10
        assert autograph.convert(f)(jnp.int32(12)) == 12


# --- printing the converted code ------------------------------------------------------------

def test_printing_a_lambda_and_a_function():
    # upstream: TestCodePrinting.test_lambda / test_classical_function
    fn = lambda x: x ** 2  # noqa: E731
    assert 'x ** 2' in autograph.to_code(fn)
    assert 'def branchy(x' in autograph.to_code(branchy)
    assert 'if_stmt' in autograph.to_code(branchy) or 'if_exp' in autograph.to_code(branchy)


def test_printing_called_functions():
    # upstream: TestCodePrinting.test_nested_function / test_indirect_qnode /
    # test_multiple_qnode (the code of the helpers too, without calling anything)
    code = autograph.to_code(calls_two, recursive=True)
    for name in ('calls_two', 'branchy', 'double_or_negate'):
        assert f'def {name}(x' in code


# --- turning conversion off -----------------------------------------------------------------

def test_do_not_convert_inside_a_staged_loop():
    # upstream: TestDisableAutograph.test_disable_autograph_decorator (and
    # _context_manager, whose `with` block is the same call): the helper runs as Python
    # (its branch on a Python value stays Python), the loop around it is staged
    @autograph.do_not_convert
    def f():
        x = 2
        if x > 1:
            y = x ** 2
        else:
            y = x ** 3
        return y

    def g(x, n):
        for _ in range(n):
            x = x + f()
        return x
    assert autograph.convert(g)(jnp.int32(1), jnp.int32(3)) == g(1, 3) == 13
    found = staged(g, jnp.int32(1), jnp.int32(3))
    assert 'cond' not in found and found & {'while', 'scan'}


def test_do_not_convert_keeps_a_traced_branch_unconverted():
    # the same marker on a helper that branches on a traced value: it runs as plain
    # Python, so JAX's own error is what the user asked for
    @autograph.do_not_convert
    def f(x):
        if x > 1:
            return x
        return -x

    def g(x):
        return f(x) + 1
    assert autograph.convert(g)(3) == g(3)
    with pytest.raises(jax.errors.TracerBoolConversionError):
        autograph.convert(g)(jnp.int32(3))


def test_grad_through_a_converted_loop_calling_helpers():
    # the helpers of test_multiple_qnode inside a staged loop, differentiated
    def f(x, n):
        acc = 0.0
        for i in range(n):
            acc = acc + calls_two(x + i)
        return acc
    expected = jax.grad(lambda x: sum(calls_two(x + i) for i in range(3)))(1.5)
    assert_same(jax.grad(converted(f))(1.5, jnp.int32(3)), expected)
