"""Python's and NumPy's random number generators in converted code
(runtime.python.random_draws). Converted code draws while it is traced: in a staged loop
the trace's one number was added on every iteration, and a compiled function repeated the
numbers of `random.random()` or `np.random.normal()` on every call, where Python draws new
ones, and so did a generator given as an argument or held by an object (silent wrong
values). Those draws are now the named error random_drawn_when_traced; a generator made
and seeded in the function, drawn from in loops over Python ranges, gives Python's
numbers. Ground truth: the same function run as plain Python."""
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


def from_a_given_generator(x, rng):
    total = x * 0.0
    for _ in range(3):
        total = total + x * rng.normal()
    return total


class Sampler:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def draw(self, x):
        return x + self.rng.uniform()


def from_an_objects_generator(x, sampler):
    return sampler.draw(x) * 2.0


@pytest.mark.parametrize('fn, args', [
    (summed_in_a_loop, (jnp.float32(1.0), jnp.int32(3))),   # (a staged loop)
    (drawn_in_a_branch, (jnp.float32(1.0),)),                # (a staged `if`)
    (module_draw, (jnp.float32(1.0),)),                      # (a compiled function)
    (from_a_given_generator, (jnp.float32(1.0), np.random.default_rng(0))),
    (from_an_objects_generator, (jnp.float32(1.0), Sampler(0))),
], ids=['staged loop', 'staged if', 'module generator compiled', 'a generator given',
        "an object's generator"])
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


def test_a_given_generator_without_jit_is_pythons():
    """(A compiled function would repeat the first call's numbers on the next calls.)"""
    plain, given = np.random.default_rng(4), np.random.default_rng(4)
    converted = autograph.convert(from_a_given_generator, jit=False)
    for _ in range(2):
        assert_same(converted(np.float32(1.0), given),
                    from_a_given_generator(np.float32(1.0), plain))


def reseeded(x):
    random.seed(3)
    np.random.seed(3)
    return x * random.random() + np.random.normal()


def test_generators_the_call_seeds_are_pythons():
    """Seeded by each call, the modules' generators give the same numbers every call, in
    Python and in the compiled program."""
    want = reseeded(np.float32(2.0))
    converted = autograph.convert(reseeded)
    for _ in range(2):
        assert_same(converted(np.float32(2.0)), want)


def test_generated_code_routes_module_draws_through_call():
    code = autograph.to_code(module_draw)
    assert 'ag.call(random.gauss, 0.0, 1.0)' in code
    assert 'ag.call(np.random.uniform)' in code


def seeded_in_a_staged_body(x, n):
    total = x * 0.0
    for _ in range(n):
        rng = np.random.default_rng(2)   # (made anew each iteration: the same numbers)
        total = total + rng.normal()
    if x > 0:
        branch = np.random.default_rng(5)
        total = total + branch.uniform()
    return total


def test_a_generator_made_by_the_staged_body_that_draws_is_pythons():
    """A staged body traced once gives the numbers of the generator it makes on every
    iteration, as Python's fresh generator does; one made outside stays the error."""
    want = seeded_in_a_staged_body(np.float32(1.0), 3)
    assert_same(autograph.convert(seeded_in_a_staged_body)(jnp.float32(1.0), jnp.int32(3)),
                want)
