"""Objects a loop changes through its target (`for b in bodies: b.x += v`), then read by a
comprehension that binds the same name (`[b.x for b in bodies]`: the comprehension's own
`b`, not the function's). Before, the comprehension's `b.x` was taken for a read of the
loop's `b` after the loop (an attribute check of a name the converted loop never binds
there: a raw NameError), and the loop carried `b.x` as state of an object no name holds
before it. Ground truth: the same function run as plain Python on the same inputs."""
import jax
import jax.numpy as jnp
import numpy as np

import autograph
from tests.helpers import assert_same


class Body:
    def __init__(self, x, v):
        self.x = x
        self.v = v


def simulate(xs, vs, steps):
    bodies = [Body(x, v) for x, v in zip(xs, vs)]
    for _ in range(steps):
        for b in bodies:
            b.x += b.v * 0.1
            if b.x > 1.0:
                b.v = -b.v
    return [b.x for b in bodies], [b.v > 0 for b in bodies], sum(b.x * 2 for b in bodies)


XS = np.asarray([0.5, 0.95, -0.2], np.float32)
VS = np.asarray([1.0, 2.0, -1.0], np.float32)


def test_objects_changed_through_a_loop_target_and_read_by_a_comprehension():
    expected = simulate(XS, VS, 3)
    assert_same(autograph.convert(simulate)(jnp.asarray(XS), jnp.asarray(VS), 3), expected)
    assert_same(jax.jit(autograph.convert(simulate), static_argnums=2)(XS, VS, 3), expected)
    code = autograph.to_code(simulate)
    assert 'check_field(b' not in code and "'b.x'" not in code
