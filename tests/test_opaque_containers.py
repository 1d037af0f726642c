"""Containers that JAX takes for leaves, not pytrees (`collections.Counter` and other dict
subclasses, `UserDict`, `UserList`), changed in place under a staged statement: a
traced path changes the object itself with Python values, which no traced item can
select, so the converted code gave the traced path's counts whichever path ran (a
silent wrong value). Now a named ControlFlowError (runtime.state.mutation); the same code
under a Python condition, and with a plain dict, is Python's. Ground truth: the same
function run as plain Python on the same inputs."""
from collections import Counter, UserDict

import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


class Scores(dict):
    pass


def count_two(xs, make):
    c = make()
    c['pos'] = 0
    if xs[0] > 0:
        c['pos'] += 1
    if xs[1] > 0:
        c['pos'] += 1
    return c['pos']


def count_signs(xs, make):
    c = make()
    c['pos'], c['neg'] = 0, 0
    for x in xs:
        if x > 0:
            c['pos'] += 1
        else:
            c['neg'] += 1
    return c['pos'], c['neg']


XS = np.asarray([1.0, -2.0, 3.0, 4.0, -1.0], np.float32)


@pytest.mark.parametrize('make', [Counter, Scores, UserDict])
@pytest.mark.parametrize('fn', [count_two, count_signs])
def test_a_container_that_is_no_pytree_changed_under_a_traced_test_is_named(fn, make):
    with pytest.raises(autograph.ControlFlowError, match='a container that is not a pytree'):
        autograph.convert(fn)(jnp.asarray(XS), make)


@pytest.mark.parametrize('make', [Counter, Scores, UserDict, dict])
def test_under_python_tests_and_as_a_plain_dict_it_is_pythons(make):
    assert_same(autograph.convert(count_two, jit=False)(list(XS), make),
                count_two(list(XS), make))
    assert_same(autograph.convert(count_signs)(jnp.asarray(XS), dict),
                count_signs(XS, dict))
