"""A Python bool that staged control flow never changes stays a Python value (issue 32).

Scientific code passes flags (`log=False`, `verbose=False`, `warn=True`) that guard code
which only runs when they are set: `if log: log['err'].append(err)` inside the solver's
loop. Python never runs that code with `log=False`. A staged loop or `if` that carried the
flag as a traced bool would stage the guarded code too, and fail on it (indexing a bool
with 'err'). The loop body and the branches are traced with the flag as the Python value
it has; when they give it back unchanged it stays that value, and when they change it
(`found = True` under a traced condition) it is carried as an array, as before.
"""
import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same, converted, equations, f32


def solve(x, log=False, verbose=False):
    if log:
        log = {'err': []}
    err = 1.0
    i = 0
    while err > 1e-3 and i < 100:
        x = x * 0.5
        err = jnp.abs(x).sum()
        if i % 2 == 0:
            if log:
                log['err'].append(err)
            if verbose:
                print('step', i)
        i += 1
    if log:
        log['n'] = i
        return x, log
    return x


def test_a_flag_the_loop_never_changes_guards_python_code(capsys):
    x = jnp.array([1.0, -2.0, 0.5])
    expected = solve(x)
    assert_same(autograph.convert(solve)(x), expected)
    assert_same(jax.jit(converted(solve))(x), expected)
    assert_same(jax.vmap(converted(solve))(jnp.stack([x, 2 * x])),
                jnp.stack([solve(x), solve(2 * x)]))
    assert capsys.readouterr().out == ''   # the verbose branch was never traced


def test_the_flag_stays_a_python_bool_through_the_loop():
    def flagged(x, n, warn=True):
        for _ in range(n):   # a traced trip count
            if warn is None:   # (assigned in the body: the loop carries it)
                warn = True
            if x > 0:
                x = x - 1
        return x, warn

    value, warn = autograph.convert(flagged, jit=False)(f32(5.0), jnp.int32(3))
    assert warn is True and type(warn) is bool
    assert_same(value, f32(2.0))


def found_first(xs, target):
    found = False
    position = -1
    for i in range(xs.shape[0]):
        if not found and xs[i] == target:
            found = True
            position = i
    return found, position


@pytest.mark.parametrize('target', [3.0, 9.0])
def test_a_flag_the_loop_sets_is_carried_as_before(target):
    xs = jnp.array([1.0, 3.0, 5.0, 3.0])
    expected = found_first(xs, target)
    assert_same(autograph.convert(found_first)(xs, f32(target)), expected)
    assert_same(jax.vmap(converted(found_first), in_axes=(None, 0))(xs, jnp.array(
        [target, 5.0])), tuple(jnp.stack(v) for v in zip(expected,
                                                           found_first(xs, 5.0))))


def solve_without_flags(x):
    err = 1.0
    i = 0
    while err > 1e-3 and i < 100:
        x = x * 0.5
        err = jnp.abs(x).sum()
        i += 1
    return x


def _carried(fn, x):
    jaxpr = jax.make_jaxpr(converted(fn))(x)
    loops = [e for e in equations(jaxpr.jaxpr) if e.primitive.name == 'while']
    assert len(loops) == 1
    return loops[0].params['body_jaxpr'].out_avals


def test_an_unchanged_flag_adds_no_state_to_the_loop():
    x = jnp.array([1.0, -2.0, 0.5])
    assert _carried(solve, x) == _carried(solve_without_flags, x)
