"""Variables each iteration assigns before reading them (the loop target, temporaries):
after a loop that surely runs, Python's value is the body's last one, of the body's type,
whatever the variable held before the loop (issue 32: `x = 0.0; for x in ints` is an
int; issue 28: a per-iteration temporary need not match its stale pre-loop value)."""
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
