"""An object the function makes around a NumPy array it was given (`Linear(W)`, whose
`__init__` keeps `self.W = W`) holds the caller's array: `self.W -= e` and `self.W[0] =
v` change it in place in Python, and the caller sees the change. While the Function is
traced the array is a traced stand-in, and the change made a new array: the caller's
array kept its old values, silently. Now it is the named error of
runtime.items.items.check_attribute_write (passes.attribute_writes); objects the Function
was given, JAX arrays and arrays the function made itself convert as before."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.runtime.errors import ControlFlowError


class Linear:
    def __init__(self, W):
        self.W = W

    def step(self, e):
        self.W -= e

    def set_first(self, v):
        self.W[0] = v


def step_made_object(W, e):
    lin = Linear(W)
    if e.sum() > 0:
        lin.step(e)
    return lin.W.sum()


def item_of_made_object(W, e):
    lin = Linear(W)
    lin.W[0] = e[0] * 3.0
    return lin.W.sum()


def method_writes_item(W, e):
    lin = Linear(W)
    lin.set_first(e[1])
    return lin.W.sum()


def step_given_object(lin, e):
    if e.sum() > 0:
        lin.step(e)
    return lin.W.sum()


def step_copy(W, e):
    lin = Linear(W.copy())
    lin.step(e)
    return lin.W.sum()


def step_own_array(n, e):
    lin = Linear(np.ones(3) * n)
    lin.step(e)
    return lin.W.sum()


def steps_in_a_loop(W, e, n):
    lin = Linear(W)
    for i in range(n):
        lin.step(e)
    return lin.W.sum()


def rebound_in_a_loop_then_stepped(W, e, n):
    lin = Linear(W)
    for i in range(n):
        lin.W = lin.W * 0.5   # (a new array: the caller's stays as it was)
    lin.step(e)
    return lin.W.sum()


def _e():
    return np.array([0.5, 0.25, 0.125])


@pytest.mark.parametrize('fn', [step_made_object, item_of_made_object, method_writes_item])
def test_change_through_an_attribute_of_a_given_numpy_array_is_a_named_error(fn):
    with pytest.raises(ControlFlowError, match='given to the function as an argument is '
                                               'changed in place through an attribute'):
        autograph.convert(fn)(np.ones(3), _e())


@pytest.mark.parametrize('fn', [step_made_object, item_of_made_object, method_writes_item])
def test_unjitted_it_changes_the_callers_array_as_python(fn):
    expected, got = np.ones(3), np.ones(3)
    want = fn(expected, _e())
    assert autograph.convert(fn, jit=False)(got, _e()) == want
    np.testing.assert_array_equal(got, expected)
    assert not np.array_equal(expected, np.ones(3))


@pytest.mark.parametrize('fn', [step_made_object, item_of_made_object, method_writes_item])
@pytest.mark.parametrize('how', ['plain', 'jit', 'vmap'])
def test_jax_arrays_are_not_changed_in_place(fn, how):
    # (Python's `self.W -= e` of a JAX array rebinds the attribute; the caller's array
    # stays; `lin.W[0] = v` raises TypeError in Python, so only the first converts)
    if fn is not step_made_object:
        with pytest.raises(TypeError):
            fn(jnp.ones(3), jnp.asarray(_e()))
        return
    want = fn(jnp.ones(3), jnp.asarray(_e()))
    converted = autograph.convert(fn)
    if how == 'plain':
        got = converted(jnp.ones(3), jnp.asarray(_e()))
    elif how == 'jit':
        got = jax.jit(converted)(jnp.ones(3), jnp.asarray(_e()))
    else:
        got = jax.vmap(converted)(jnp.ones((2, 3)), jnp.stack([_e(), _e()]))[1]
    np.testing.assert_allclose(got, want)


@pytest.mark.parametrize('n', [3, jnp.asarray(3)])   # (a Python loop, a staged one)
def test_change_in_a_loop_is_a_named_error(n):
    with pytest.raises(ControlFlowError, match='changed in place through an attribute'):
        autograph.convert(steps_in_a_loop)(np.ones(3), _e(), n)
    given = np.ones(3)
    assert autograph.convert(steps_in_a_loop, jit=False)(given, _e(), 3) == \
        steps_in_a_loop(np.ones(3), _e(), 3)


@pytest.mark.parametrize('n', [2, jnp.asarray(2)])
def test_array_rebound_in_a_loop_is_the_objects_own(n):
    given = np.ones(3)
    want = rebound_in_a_loop_then_stepped(np.ones(3), _e(), 2)
    assert np.isclose(autograph.convert(rebound_in_a_loop_then_stepped)(given, _e(), n), want)
    np.testing.assert_array_equal(given, np.ones(3))


def test_given_object_is_written_back_in_place():
    expected, got = Linear(np.ones(3)), Linear(np.ones(3))
    kept = got.W
    want = step_given_object(expected, _e())
    assert autograph.convert(step_given_object)(got, _e()) == want
    np.testing.assert_array_equal(kept, expected.W)


@pytest.mark.parametrize('fn, first', [(step_copy, np.ones(3)), (step_own_array, 2.0)])
def test_copies_and_own_arrays_convert(fn, first):
    given = np.array(first)
    want = fn(np.array(first), _e())
    assert np.isclose(autograph.convert(fn)(given, _e()), want)
    np.testing.assert_array_equal(given, np.array(first))


def test_gradient_through_a_made_object_of_jax_arrays():
    grad = jax.grad(autograph.convert(step_made_object))(jnp.ones(3), jnp.asarray(_e()))
    np.testing.assert_allclose(grad, np.ones(3))


def test_generated_code_checks_before_the_change():
    code = autograph.to_code(Linear.step)
    assert code.index('ag.check_attribute_write(self.W)') < code.index('self.W -= e')


class Recorder:
    def __init__(self):
        self.history = []

    def step(self, x, more):
        if x.sum() > 0:
            self.history += more      # (a list extended: the recorder's log stays one)
        return x


def test_a_log_extended_through_an_attribute_stays_a_log():
    plain, model = Recorder(), Recorder()
    step = autograph.convert(model.step)
    for x in (1.0, -1.0, 2.0):
        step(jnp.ones(2) * x, [x])
        plain.step(jnp.ones(2) * x, [x])
    assert [float(v) for v in model.history] == [float(v) for v in plain.history]
