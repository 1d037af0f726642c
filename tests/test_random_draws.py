"""Python's and NumPy's random number generators in converted code
(runtime.python.random_draws). Converted code draws while it is traced: in a staged loop
the trace's one number was added on every iteration, and a compiled function repeated the
numbers of `random.random()` or `np.random.normal()` on every call, where Python draws new
ones (silent wrong values). Those draws are now the named error random_drawn_when_traced;
a generator made and seeded in the function, drawn from in loops over Python ranges,
gives Python's numbers. Ground truth: the same function run as plain Python."""
import random

import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def summed_in_a_loop(x, n):
    total = x * 0.0
    for _ in range(n):
        total = total + x * random.random()
    return total


def drawn_in_a_branch(x):
    if x > 0:
        y = x + np.random.normal()
    else:
        y = -x
    return y


def module_draw(x):
    return x * random.gauss(0.0, 1.0) + np.random.uniform()


def seeded_here(x, steps):
    rng = np.random.default_rng(7)
    walk = [x]
    for _ in range(steps):
        walk.append(walk[-1] + rng.normal() * 0.1)
    return jnp.stack(walk), random.Random(3).random()


@pytest.mark.parametrize('fn, args', [
    (summed_in_a_loop, (jnp.float32(1.0), jnp.int32(3))),   # (a staged loop)
    (drawn_in_a_branch, (jnp.float32(1.0),)),                # (a staged `if`)
    (module_draw, (jnp.float32(1.0),)),                      # (a compiled function)
], ids=['staged loop', 'staged if', 'module generator compiled'])
def test_draws_the_compiled_program_would_repeat_are_named(fn, args):
    with pytest.raises(autograph.ControlFlowError, match='random number generator'):
        autograph.convert(fn)(*args)


def test_module_draws_without_jit_are_pythons():
    random.seed(5)
    np.random.seed(5)
    want = [module_draw(np.float32(1.0)) for _ in range(2)]
    random.seed(5)
    np.random.seed(5)
    converted = autograph.convert(module_draw, jit=False)
    assert_same([converted(np.float32(1.0)) for _ in range(2)], want)


def test_a_generator_seeded_in_the_function_is_pythons():
    want = seeded_here(jnp.float32(0.5), 4)
    converted = autograph.convert(seeded_here)
    assert_same(converted(jnp.float32(0.5), 4), want)
    assert_same(converted(jnp.float32(0.5), 4), want)   # (seeded again: the same)


def test_generated_code_routes_module_draws_through_call():
    code = autograph.to_code(module_draw)
    assert 'ag.call(random.gauss, 0.0, 1.0)' in code
    assert 'ag.call(np.random.uniform)' in code
