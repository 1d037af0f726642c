"""Side effects of `elif` tests happen only where Python evaluates the test (issue 32).

Python runs the test of an `elif` only when the tests before it are false. Under a traced
first test, a chain staged as one `lax.switch` would run every test on every path, so a
counter ticked, a random key split or an item logged in a later test would change where
Python's would not. Such a test stays in the false branch of the ones before it
(analysis.effects); tests without effects still make one switch.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, converted

f32 = jnp.float32


class Counter:
    def __init__(self):
        self.n = 0

    def tick(self):
        self.n += 1
        return self.n


def ticked_in_elif(x, c):
    if x > 0:
        y = 1.0
    elif c.tick() > 1:
        y = 2.0
    elif c.tick() > 0:
        y = 3.0
    else:
        y = 4.0
    return y, c.n


@pytest.mark.parametrize('x', [2.0, -1.0])
@pytest.mark.parametrize('traced', [False, True])
def test_a_counter_ticks_only_where_python_runs_the_test(x, traced):
    expected = ticked_in_elif(x, Counter())
    arg = f32(x) if traced else x
    fn = autograph.convert(ticked_in_elif)
    for _ in range(2):   # the second call reuses the trace
        c = Counter()
        y, n = fn(arg, c)
        assert_same((y, n), expected)
        assert c.n == expected[1]
    c = Counter()
    assert_same(jax.jit(converted(ticked_in_elif), static_argnums=1)(f32(x), c)[0],
                expected[0])


class KeyedRng:
    """A random source holding a JAX key, split on every draw (as a user's object)."""

    def __init__(self, seed):
        self.key = jax.random.PRNGKey(seed)

    def uniform(self):
        self.key, sub = jax.random.split(self.key)
        return jax.random.uniform(sub)


def metropolis_sweep(spins, beta, rng):
    """An Ising Metropolis sweep: Python draws only when flipping costs energy."""
    n = spins.shape[0]
    for i in range(n):
        cost = 2 * spins[i] * (spins[i - 1] + spins[(i + 1) % n])
        if cost < 0:
            spins[i] = -spins[i]
        elif rng.uniform() < jnp.exp(-cost * beta):
            spins[i] = -spins[i]
    return spins


@pytest.mark.parametrize('seed', [0, 3])
def test_draws_in_an_elif_test_follow_pythons_sequence(seed):
    spins = np.array([1, -1, 1, 1, -1, -1, 1, 1, -1, 1], np.float32)
    python_rng, rng = KeyedRng(seed), KeyedRng(seed)
    expected = metropolis_sweep(spins.copy(), 0.3, python_rng)
    fn = autograph.convert(metropolis_sweep)
    assert_same(fn(jnp.asarray(spins), f32(0.3), rng), expected)
    np.testing.assert_array_equal(rng.key, python_rng.key)   # as many draws as Python's


def logged_test(log, v):
    log.append(v)
    return v > 1


def logged_in_elif(x, log):
    if x > 0:
        y = x
    elif logged_test(log, -x):
        y = -x
    else:
        y = x * 0
    return y


@pytest.mark.parametrize('x', [3.0, -3.0, -0.5])
def test_a_helper_logging_in_an_elif_test_logs_where_python_does(x):
    python_log, log = [], []
    expected = logged_in_elif(x, python_log)
    assert_same(autograph.convert(logged_in_elif, jit=False)(x, log), expected)
    assert log == python_log


def pure_chain(x):
    if x > 2:
        y = x * 3
    elif jnp.abs(x) > 1:
        y = x * 2
    elif x.sum() > 0:
        y = x + 1
    else:
        y = -x
    return y


def test_tests_without_effects_still_make_one_switch():
    assert 'ag.if_chain(' in autograph.to_code(pure_chain)
    jaxpr = jax.make_jaxpr(converted(pure_chain))(f32(1.5))
    conds = [e for e in jaxpr.jaxpr.eqns if e.primitive.name == 'cond']
    assert len(conds) <= 1 and not any(
        e.primitive.name == 'cond' for c in conds for e in c.params['branches'][0].jaxpr.eqns)
    for x in (3.0, 1.5, -1.5, 0.5, -0.5):
        assert_same(autograph.convert(pure_chain)(f32(x)), pure_chain(f32(x)))
    xs = jnp.array([3.0, 1.5, -1.5, 0.5, -0.5])
    assert_same(jax.vmap(converted(pure_chain))(xs), jnp.stack([pure_chain(v) for v in xs]))
    assert_same(jax.grad(converted(pure_chain))(f32(1.5)), f32(2.0))


def test_a_test_with_an_effect_stays_nested():
    code = autograph.to_code(ticked_in_elif)
    assert 'ag.if_chain(' not in code and code.count('ag.if_stmt(') == 3


# --- `and` / `or`: a later operand runs only where Python evaluates it -----------------

def ticked_operands(x, c):
    y = 0.0
    if x > 0 and c.tick() > 1:
        y = 1.0
    elif x < -2 or c.tick() > 2:
        y = 2.0
    z = x > 1 and c.tick() > 0
    k = 0
    while k < 3 and (x > k or c.tick() > 5):
        k += 1
    return y, z, k, c.n


def ticked_return(x, c):
    return x < 0 or c.tick() > 0


def _run(fn, x):
    """(fn's value, the ticks it made) for a fresh counter."""
    c = Counter()
    return fn(x, c), c.n


@pytest.mark.parametrize('x', [2.0, 0.5, -1.0, -3.0])
@pytest.mark.parametrize('fn', [ticked_operands, ticked_return])
def test_a_later_operand_with_an_effect_runs_where_python_runs_it(fn, x):
    expected = _run(fn, x)
    converted_fn = autograph.convert(fn)
    for arg in (x, f32(x)):
        for _ in range(2):   # the second call reuses the trace
            assert_same(_run(converted_fn, arg), expected)
    value, _ = _run(jax.jit(converted(fn), static_argnums=1), f32(x))
    assert_same(value[:3] if fn is ticked_operands else value,
                expected[0][:3] if fn is ticked_operands else expected[0])


def test_a_later_operand_with_an_effect_is_staged_under_the_first():
    code = autograph.to_code(ticked_operands)
    assert 'ag.and_(' not in code and 'ag.or_(' not in code
    jaxpr = jax.make_jaxpr(lambda x: converted(ticked_operands)(x, Counter()))(f32(1.0))
    # (the counter's new value is chosen by the operand before it: a cond, or a select
    # where the branches are cheap, see runtime.staging.cheap)
    assert {'cond', 'select_n'} & {e.primitive.name for e in jaxpr.jaxpr.eqns}


def pure_operands(x, n):
    return x > 0 and jnp.abs(x) < n


def test_operands_without_effects_keep_the_expression_form():
    assert 'ag.and_(' in autograph.to_code(pure_operands)
    for x in (2.0, -1.0, 5.0):
        assert_same(autograph.convert(pure_operands)(f32(x), 3.0), pure_operands(f32(x), 3.0))


def logged_operands(xs, log):
    total = 0.0
    for x in xs:
        if x > 0 and logged_test(log, x):
            total = total + x
    return total


def test_a_helper_logging_in_a_later_operand_logs_where_python_does():
    xs = np.array([2.0, -1.0, 0.5, 3.0], np.float32)
    python_log, log = [], []
    expected = logged_operands(xs, python_log)
    assert_same(autograph.convert(logged_operands, jit=False)(list(xs), log), expected)
    assert log == python_log


# --- `x if c else y`, and such expressions inside larger ones --------------------------

def ticked_branch(x, c):
    r = c.tick() * x if x > 0 else -x
    return r, c.n


def ticked_inside(x, c):
    before = (c.n, x > 0 and c.tick() > 1)   # `c.n` is read before the tick
    total = jnp.sum(jnp.stack([x, (c.tick() if x < -1 else 0) * 1.0]))
    y = 1.0
    y += (x > 0.5 or c.tick() > 0)
    return before, total, y, c.n


def ticked_nested_branches(x, c):
    return (c.tick() if x > 1 else (c.tick() + c.tick() if x > 0 else 0)), c.n


@pytest.mark.parametrize('x', [2.0, 0.75, 0.25, -1.0, -3.0])
@pytest.mark.parametrize('fn', [ticked_branch, ticked_inside, ticked_nested_branches])
def test_a_branch_or_operand_inside_an_expression_runs_where_python_runs_it(fn, x):
    expected = _run(fn, x)
    converted_fn = autograph.convert(fn)
    for arg in (x, f32(x)):
        for _ in range(2):   # the second call reuses the trace
            assert_same(_run(converted_fn, arg), expected)


@pytest.mark.parametrize('fn', [ticked_branch, ticked_nested_branches])
def test_under_vmap_each_element_ticks_as_python(fn):
    xs = [2.0, 0.75, -1.0]
    expected = [_run(fn, x) for x in xs]
    ticks = jax.vmap(lambda x: converted(fn)(x, Counter()))(jnp.array(xs, jnp.float32))
    assert_same(ticks, tuple(jnp.array([e[0][i] for e in expected]) for i in range(2)))


def test_effects_in_expressions_are_staged_under_their_tests():
    code = autograph.to_code(ticked_inside)
    assert 'ag.if_exp(' not in code and 'ag.and_(' not in code and 'ag.or_(' not in code
    assert 'ag.if_exp(' in autograph.to_code(lambda x: x if x > 0 else -x)


# --- in lambdas and comprehensions: the runtime finds the effect ------------------------

def ticked_in_lambda(x, c):
    f = lambda v: c.tick() * v if v > 0 else -v   # noqa: E731
    g = lambda v: v < 0 or c.tick() > 1            # noqa: E731
    return f(x), g(x), c.n


def ticked_in_comprehensions(xs, c):
    kept = sum([v for v in xs if v > 0 and c.tick() > 1])
    mapped = sum(c.tick() * v if v > 1 else 0 for v in xs)
    return kept, mapped, c.n


@pytest.mark.parametrize('x', [2.0, -1.0])
def test_a_lambdas_branch_or_operand_runs_where_python_runs_it(x):
    expected = _run(ticked_in_lambda, x)
    for arg in (x, f32(x)):
        assert_same(_run(autograph.convert(ticked_in_lambda), arg), expected)


@pytest.mark.parametrize('xs', [[1.0, 2.0, -1.0], [-1.0, 3.0, 0.5, 2.0]])
def test_a_comprehensions_filter_or_branch_runs_where_python_runs_it(xs):
    expected = _run(ticked_in_comprehensions, xs)
    for arg in (xs, jnp.asarray(xs, jnp.float32)):
        assert_same(_run(autograph.convert(ticked_in_comprehensions), arg), expected)


# --- a `while` test with an effect: evaluated as often as Python evaluates it ------------

def ticked_while_test(x, c):
    k = 0
    while k + c.tick() < x + 6:
        k += 1
    return k, c.n


def ticked_chained_while_test(x, c):
    k = 0
    while 0 < x < c.tick() + 3 and k < 3:
        k += 1
        x = x + 1
    return k, c.n


@pytest.mark.parametrize('x', [-1.0, 2.0, 5.0])
@pytest.mark.parametrize('fn', [ticked_while_test, ticked_chained_while_test])
def test_a_while_test_with_an_effect_runs_as_often_as_pythons(fn, x):
    expected = _run(fn, x)
    converted_fn = autograph.convert(fn)
    for arg in (x, f32(x)):
        for _ in range(2):
            assert_same(_run(converted_fn, arg), expected)


def ticked_items(xs, c):
    listed = sum([c.tick() * v for v in xs if v > 0])
    generated = max((c.tick() + v for v in xs if v < 0), default=0.0)
    return listed, generated, c.n


@pytest.mark.parametrize('xs', [[1.0, -2.0, 3.0], [-1.0, -2.0, 0.5]])
def test_a_reduced_comprehensions_item_is_computed_only_where_kept(xs):
    expected = _run(ticked_items, xs)
    for arg in (xs, jnp.asarray(xs, jnp.float32)):
        assert_same(_run(autograph.convert(ticked_items), arg), expected)
    assert 'ag.kept_item(' in autograph.to_code(ticked_items)
    assert 'ag.kept_item(' not in autograph.to_code(lambda xs: sum(v for v in xs if v > 0))
