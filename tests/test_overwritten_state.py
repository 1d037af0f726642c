"""Variables each iteration assigns before reading them (the loop target, temporaries):
after a loop that surely runs, Python's value is the body's last one, of the body's type,
whatever the variable held before the loop (issue 32: `x = 0.0; for x in ints` is an
int; issue 28: a per-iteration temporary need not match its stale pre-loop value, nor
a variable dead once the loop broke its value on the breaking path, nor an attribute
the code after the loop overwrites its shape before the loop)."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, converted


def last_item(a):
    x = 0.0
    for x in a:
        pass
    return x


def temporary(xs):
    tmp = None            # stale before the loop: never read by it
    acc = jnp.zeros(())
    for v in xs:
        tmp = v * 2.0
        acc = acc + tmp
    return acc, tmp


def range_temporary(xs):
    y = 0                 # an int before, a float in the loop
    total = 0.0
    for i in range(xs.shape[0]):
        y = xs[i] * 0.5
        total = total + y
    return total, y


def both_paths(xs):
    t = 0                 # an int before, a float in the loop
    s = 0.0
    for v in xs:
        if v > 0:
            t = v
        else:
            t = -v
        s = s + t
    return s, t


@pytest.mark.parametrize('fn, arg', [
    (last_item, jnp.arange(6, dtype=jnp.int32)),
    (temporary, jnp.array([1.0, -2.0, 3.0])),
    (range_temporary, jnp.array([1.0, -2.0, 3.0, 4.0])),
    (both_paths, jnp.array([1.0, -2.0, 3.0])),
])
def test_the_value_after_the_loop_is_the_bodys_last(fn, arg):
    expected = fn(arg)
    got = autograph.convert(fn)(arg)
    assert_same(got, expected)
    for g, e in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(expected)):
        assert jnp.result_type(g) == jnp.result_type(e)
    batch = jnp.stack([arg, arg[::-1]])
    assert_same(jax.vmap(converted(fn))(batch),
                jax.tree_util.tree_map(lambda *v: jnp.stack(v), fn(batch[0]), fn(batch[1])))


def test_a_loop_that_may_not_run_keeps_the_value_before_it():
    empty = jnp.zeros((0,), jnp.int32)
    assert autograph.convert(last_item)(empty) == 0.0 == last_item(empty)


def test_gradient_through_an_overwritten_temporary():
    xs = jnp.array([1.0, -2.0, 3.0])
    grad = jax.grad(lambda xs: converted(temporary)(xs)[0] + converted(temporary)(xs)[1])(xs)
    assert_same(grad, np.array([2.0, 2.0, 4.0]))


# --- a variable dead once the loop has broken (issue 28: k-means' `prev_labels`) -----------

def until_repeat(x, n=3):
    prev = jnp.zeros(3)              # float32 before the loop, int32 after an iteration
    for _ in range(n):
        cur = jnp.round(x).astype(jnp.int32)
        if jnp.all(cur == prev):
            break                    # `prev` is never read again on this path
        prev = cur
        x = x * 0.5
    return x


def until_repeat_returning_prev(x):
    prev = jnp.zeros(3)
    for _ in range(3):
        cur = jnp.round(x).astype(jnp.int32)
        if jnp.all(cur == prev):
            break
        prev = cur
        x = x * 0.5
    return x, prev                   # read after the loop: float32 or int32, as Python has it


@pytest.mark.filterwarnings('ignore:the loop at')   # (n=100: the first iteration unrolled)
@pytest.mark.parametrize('n', [3, 100])
@pytest.mark.parametrize('x', [[4.0, 9.0, -3.0], [40.0, 90.0, 300.0], [0.2, 0.1, -0.3]])
def test_a_variable_dead_after_a_break_may_change_type_in_the_loop(n, x):
    x = jnp.array(x)
    assert_same(autograph.convert(until_repeat)(x, n), until_repeat(x, n))
    batch = jnp.stack([x, x * 7.0])
    assert_same(jax.vmap(lambda x: converted(until_repeat)(x, n))(batch),
                jnp.stack([until_repeat(batch[0], n), until_repeat(batch[1], n)]))


def test_a_variable_read_after_the_loop_must_agree_on_the_breaking_path_too():
    assert "unread_if_false=('prev',)" in autograph.to_code(until_repeat)
    assert 'unread_if_false' not in autograph.to_code(until_repeat_returning_prev)
    with pytest.raises(autograph.ControlFlowError, match="'prev' is int32"):
        autograph.convert(until_repeat_returning_prev)(jnp.array([4.0, 9.0, -3.0]))


# --- an attribute written before it is read in each iteration, overwritten after ------------

class Scaler:
    def __init__(self):
        self.d = jnp.ones(1)           # a placeholder of another shape than the loop's

    def fit(self, x, tol):
        while jnp.max(jnp.abs(x)) > tol:
            self.d = jnp.diag(x)       # written before it is read, in each iteration
            x = jnp.diagonal(self.d) * 0.5
        self.d = jnp.diag(x)           # overwritten after the loop, before any read
        return x

    def fit_leaving_it(self, x, tol):
        while jnp.max(jnp.abs(x)) > tol:
            self.d = jnp.diag(x)
            x = jnp.diagonal(self.d) * 0.5
        return x                       # `self.d` after the loop is the caller's to see

    def fit_reading_it(self, x, tol):
        while jnp.max(jnp.abs(x)) > tol:
            self.d = jnp.diag(x)
            x = jnp.diagonal(self.d) * 0.5
        y = self.d.sum()               # read before it is overwritten
        self.d = jnp.diag(x)
        return x, y


def fit_scaler(method, x, tol):
    scaler = Scaler()
    out = getattr(scaler, method)(x, tol)
    return out, scaler.d


@pytest.mark.parametrize('x', [[3.0, -4.0], [0.1, 0.2]], ids=['runs', 'runs zero times'])
def test_an_attribute_each_iteration_writes_first_and_the_code_after_overwrites(x):
    x = jnp.array(x)
    assert_same(autograph.convert(fit_scaler)('fit', x, 0.5), fit_scaler('fit', x, 0.5))
    assert "overwritten_after=('self.d',)" in autograph.to_code(Scaler.fit)


@pytest.mark.parametrize('method', ['fit_leaving_it', 'fit_reading_it'])
def test_an_attribute_whose_value_after_the_loop_is_seen_must_keep_its_shape(method):
    assert 'overwritten_after' not in autograph.to_code(getattr(Scaler, method))
    with pytest.raises(autograph.ControlFlowError, match="'self.d' is float32.1. before"):
        autograph.convert(fit_scaler)(method, jnp.array([3.0, -4.0]), 0.5)
