"""Arrays taken out of a list or dict and changed in place (`p = params['W']; p -= e`,
`for p in params.values(): p -= lr * g`, `for p in [W]: p[0] = e`): NumPy changes the
array the container, the other names and the caller hold; the converted code would make a
new array none of them sees (it returned them unchanged: a silent wrong value). A traced
value standing for a NumPy array is then a named error; a JAX array's `p -= e` rebinds
`p`, as in Python, and runs. Ground truth: the same function run as plain Python."""
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph import ControlFlowError
from tests.helpers import assert_same


def take_out(W):
    params = {'W': W}
    p = params['W']
    p -= 1.0
    return W, p


def over_values(W, g):
    params = {'W': W, 'b': W * 0}
    for p in params.values():
        p -= 0.1 * g
    return params['W']


def over_items_written(W):
    for name, p in [('W', W)]:
        p[0] = 5.0
    return W


def rebinding_sgd(params, grads):
    for name, p in params.items():
        params[name] = p - 0.1 * grads[name]   # (no change in place: runs)
    return params


@pytest.mark.parametrize('fn, args', [
    (take_out, ()), (over_values, (np.float32(1.0),)), (over_items_written, ())])
def test_a_numpy_array_changed_through_a_container_item_is_named(fn, args):
    W = np.zeros(2, np.float32)
    fn(W, *args)   # (valid Python: it changes W in place)
    assert W.any()
    with pytest.raises(ControlFlowError, match='also holds is changed in place'):
        autograph.convert(fn)(np.zeros(2, np.float32), *args)


def test_a_jax_array_rebinds_the_name_as_python_does():
    W = jnp.zeros(2)
    assert_same(autograph.convert(take_out)(W), take_out(W))
    assert_same(autograph.convert(over_values)(W, 1.0), over_values(W, 1.0))


@pytest.mark.parametrize('make', [np.ones, jnp.ones])
def test_items_taken_out_and_stored_back_run(make):
    params, grads = {'W': make(2), 'b': make(2) * 0}, {'W': make(2), 'b': make(2)}
    expected = rebinding_sgd(dict(params), grads)
    assert_same(autograph.convert(rebinding_sgd)(dict(params), grads), expected)
    assert 'check_held' not in autograph.to_code(rebinding_sgd)
