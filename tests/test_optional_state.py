"""None in state (issue 20): a variable or attribute that is None on some paths and a
number or array on others is carried as an optional value (a placeholder and a presence
flag) through staged branches and loops and across calls of a converted method; `is None`
tests the flag; arithmetic on None raises Python's TypeError when the program runs.
Each case compares with the same Python run unconverted."""
import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, converted, primitives


class CartPole:
    """gymnasium's CartPole step (the physics, and `steps_beyond_terminated`, None while
    the pole stands, 0 when it falls, counted up after)."""

    def __init__(self, state=(0.01, 0.02, 0.19, 0.03)):
        self.gravity, self.masscart, self.masspole = 9.8, 1.0, 0.1
        self.total_mass = self.masspole + self.masscart
        self.length = 0.5
        self.polemass_length = self.masspole * self.length
        self.force_mag, self.tau = 10.0, 0.02
        self.theta_threshold_radians = 12 * 2 * math.pi / 360
        self.x_threshold = 2.4
        self.state = np.array(state, dtype=np.float32)
        self.steps_beyond_terminated = None

    def step(self, action):
        x, x_dot, theta, theta_dot = self.state
        force = self.force_mag if action == 1 else -self.force_mag
        costheta, sintheta = jnp.cos(theta), jnp.sin(theta)
        temp = (force + self.polemass_length * theta_dot**2 * sintheta) / self.total_mass
        thetaacc = (self.gravity * sintheta - costheta * temp) / (
            self.length * (4.0 / 3.0 - self.masspole * costheta**2 / self.total_mass))
        xacc = temp - self.polemass_length * thetaacc * costheta / self.total_mass
        x = x + self.tau * x_dot
        x_dot = x_dot + self.tau * xacc
        theta = theta + self.tau * theta_dot
        theta_dot = theta_dot + self.tau * thetaacc
        self.state = jnp.stack([x, x_dot, theta, theta_dot])
        terminated = (x < -self.x_threshold) | (x > self.x_threshold) | (
            theta < -self.theta_threshold_radians) | (theta > self.theta_threshold_radians)
        if not terminated:
            reward = 1.0
        elif self.steps_beyond_terminated is None:
            self.steps_beyond_terminated = 0
            reward = 1.0
        else:
            self.steps_beyond_terminated += 1
            reward = 0.0
        return self.state, reward, terminated


def test_cartpole_steps_beyond_terminated_across_calls():
    env, reference = CartPole(), CartPole()
    step = autograph.convert(env.step)
    seen = set()
    for t in range(8):
        got = step(jnp.int32(t % 2))
        expected = reference.step(t % 2)
        assert_same(got, expected)
        if reference.steps_beyond_terminated is None:
            assert env.steps_beyond_terminated is None
        else:
            assert not isinstance(env.steps_beyond_terminated, jax.core.Tracer)
            assert int(env.steps_beyond_terminated) == reference.steps_beyond_terminated
        seen.add(reference.steps_beyond_terminated is None)
    assert seen == {True, False}       # both paths were taken
    assert step.trace_count <= 3       # None, then 0 (an array), then counting: no more


def rollout(env, actions):
    total = 0.0
    for a in actions:   # a staged loop: the attribute is None before it, a count after
        _, r, _ = env.step(a)
        total += r
    return total


@pytest.mark.parametrize('steps', [3, 26])
def test_cartpole_rollout_in_a_staged_loop_over_two_calls(steps):
    actions = np.ones(steps, dtype=np.int32)
    env, reference = CartPole(), CartPole()
    f = autograph.convert(rollout)
    for _ in range(2):
        assert_same(f(env, jnp.asarray(actions)), rollout(reference, actions))
        assert (env.steps_beyond_terminated is None) == (
            reference.steps_beyond_terminated is None)
        if reference.steps_beyond_terminated is not None:
            assert int(env.steps_beyond_terminated) == reference.steps_beyond_terminated
        assert_same(env.state, reference.state)


class Counter:
    def __init__(self):
        self.since = None

    def update(self, x):
        if x > 0:
            self.since = 0
        elif self.since is not None:
            self.since = self.since + 1
        return x * 2


def test_an_attribute_none_or_a_count_over_successive_calls():
    counter, reference = Counter(), Counter()
    update = autograph.convert(counter.update)
    for x in (-1.0, 2.0, -1.0, -3.0, 4.0):
        assert_same(update(jnp.float32(x)), reference.update(x))
        assert (counter.since is None) == (reference.since is None)
        if reference.since is not None:
            assert int(counter.since) == reference.since


def last_positive(xs):
    last = None
    for x in xs:
        if x > 0:
            last = x
    return last


def count_or_none(n, x):
    found = None
    i = 0
    while i < n:
        if x * i > 1.0:
            found = i
        i = i + 1
    if found is None:
        return -1.0
    return found * 1.0


def last(xs):
    best = None
    for x in xs:
        best = x
    return best


@pytest.mark.parametrize('fn', [last_positive, last])
@pytest.mark.parametrize('xs', [[-1., 2., 3., -4.], [-1., -2.], []])
def test_none_then_a_value_in_a_scanned_loop(fn, xs):
    xs = jnp.array(xs, dtype=jnp.float32)
    expected = fn(xs)
    got = autograph.convert(fn)(xs)
    assert (got is None) == (expected is None)
    if expected is not None:
        assert_same(got, expected)


@pytest.mark.parametrize('n', [0, 2, 5])
def test_none_then_a_value_in_a_while_loop_tested_with_is_none(n):
    x = jnp.float32(0.6)
    expected = count_or_none(n, x)
    assert_same(autograph.convert(count_or_none)(jnp.int32(n), x), expected)
    assert_same(jax.jit(converted(count_or_none))(jnp.int32(n), x), expected)
    vmapped = jax.vmap(converted(count_or_none), in_axes=(0, None))(
        jnp.array([0, 2, 5], dtype=jnp.int32), x)
    assert_same(vmapped, jnp.array([count_or_none(m, x) for m in (0, 2, 5)]))


def count_down_unless_negative(x):
    while x > -5:
        if x < 0:
            return None
        x = x - 1.0
    return x


def newton_2d(x, y, maxit):
    """A root of x^2 + y^2 = 4, xy = 1; None where the Jacobian is singular."""
    for _ in range(maxit):
        det = 2 * x * x - 2 * y * y
        if abs(det) < 1e-12:
            return None
        f1, f2 = x * x + y * y - 4, x * y - 1
        dx = (f1 * x - f2 * 2 * y) / det
        dy = (2 * x * f2 - y * f1) / det
        x, y = x - dx, y - dy
        if abs(dx) + abs(dy) < 1e-6:
            break
    return x, y


@pytest.mark.parametrize('x', [2.5, -7.0, 0.5])
def test_return_none_inside_a_staged_while_loop(x):
    expected = count_down_unless_negative(x)
    got = autograph.convert(count_down_unless_negative)(jnp.float32(x))
    assert (got is None) == (expected is None)
    if expected is not None:
        assert_same(got, expected)


@pytest.mark.parametrize('start', [(2.0, 0.5), (1.0, 1.0)], ids=['root', 'singular'])
def test_return_none_inside_a_range_loop_with_a_break(start):
    expected = newton_2d(*start, 30)
    got = autograph.convert(newton_2d)(*map(jnp.float32, start), jnp.int32(30))
    assert (got is None) == (expected is None)
    if expected is not None:
        np.testing.assert_allclose(got, expected, rtol=1e-5)


def offset(x):
    y = None
    if x > 0:
        y = x * 3
    return y + 1.0


def test_arithmetic_on_none_raises_pythons_type_error_when_the_program_runs():
    assert_same(autograph.convert(offset)(jnp.float32(2.)), offset(2.))
    with pytest.raises(TypeError, match="unsupported operand type"):
        offset(-2.)
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \+: 'NoneType'"):
        autograph.convert(offset)(jnp.float32(-2.))


def line_search(x):
    phi = x * x
    if phi > 1.0:
        return None, phi
    return x * 0.5, phi


def test_none_inside_a_returned_tuple():
    f = autograph.convert(line_search)
    for x in (2., 0.5):
        expected, got = line_search(x), f(jnp.float32(x))
        assert (got[0] is None) == (expected[0] is None)
        assert_same(got, expected)
    assert f.trace_count == 1


def test_none_in_state_inside_someone_elses_jit_is_a_named_error():
    counter = Counter()
    update = autograph.convert(counter.update, jit=False)
    assert_same(update(2.0), 4.0)         # Python values: plain Python
    assert counter.since == 0
    fresh = Counter()
    with pytest.raises(autograph.ControlFlowError,
                       match=r"update\(\) leaves 'self.since' None at \S+:\d+ on some paths"):
        jax.jit(autograph.convert(fresh.update, jit=False))(jnp.float32(1.0))


class Careless:
    def __init__(self):
        self.since = None

    def update(self, x):
        if x > 0:
            self.since = 0
        self.since += 1
        return x


def test_an_increment_of_an_attribute_that_is_none_is_pythons_type_error():
    counted, reference = Careless(), Careless()
    update = autograph.convert(counted.update)
    for x in (1.0, -1.0):
        assert_same(update(jnp.float32(x)), reference.update(x))
        assert int(counted.since) == reference.since
    fresh, reference = Careless(), Careless()
    message = r"unsupported operand type\(s\) for \+=: 'NoneType' and 'int'"
    with pytest.raises(TypeError, match=message):
        reference.update(-1.0)
    with pytest.raises(TypeError, match=message):
        autograph.convert(fresh.update)(jnp.float32(-1.0))
    assert fresh.since is None and reference.since is None


def first_positive_weight(x):
    """An optional index found by a loop, narrowed by an early return (Viterbi/decoders):
    the read after the `if` sees the optional itself (passes.returns makes a conditional
    expression of it), which indexes a Python list."""
    idx = None
    for i in range(3):
        if x[i] > 0:
            idx = i
            break
    if idx is None:
        return 0.0
    return [1.0, 2.0, 3.0][idx]


def unchecked_index(x):
    idx = None
    if x[0] > 0:
        idx = 1
    return [1.0, 2.0, 3.0][idx]


@pytest.mark.parametrize('x', [[-1.0, 2.0, 3.0], [-1.0, -2.0, -3.0], [1.0, 2.0, 3.0]])
def test_an_optional_index_of_a_python_list(x):
    x = jnp.array(x)
    assert_same(autograph.convert(first_positive_weight)(x), first_positive_weight(x))
    batch = jnp.array([[-1.0, 2.0, 3.0], [-1.0, -2.0, -3.0]])
    assert_same(jax.vmap(converted(first_positive_weight))(batch),
                jnp.array([first_positive_weight(row) for row in batch]))


def test_a_none_index_raises_pythons_type_error_when_the_program_runs():
    fn = autograph.convert(unchecked_index)
    assert_same(fn(jnp.array([1.0, 0.0, 0.0])), unchecked_index(jnp.array([1.0, 0.0, 0.0])))
    with pytest.raises(TypeError, match='list indices must be integers or slices, not '
                                        'NoneType'):
        unchecked_index(jnp.array([-1.0, 0.0, 0.0]))
    with pytest.raises(TypeError, match='list indices must be integers or slices, not '
                                        'NoneType'):
        fn(jnp.array([-1.0, 0.0, 0.0]))


# --- a variable tested with `is None` / `is not None` that the branch only reads -------------

def bin_of(x):
    """None outside the histogram's range, else the bin: an optional result."""
    if x < 0 or x >= 4:
        return None
    return x


def count_in_bin(x, hist):
    b = bin_of(x)
    if b is not None:
        hist[int(b)] += 1
    return hist


def default_when_none(x):
    b = bin_of(x)
    if b is None or b < 1:
        return -1.0
    return b * 2.0


@pytest.mark.parametrize('x', [2, 7, -3])
def test_the_branch_that_tests_an_optional_reads_its_value(x):
    want = count_in_bin(x, np.zeros(4, np.int32))
    assert_same(autograph.convert(count_in_bin)(jnp.int32(x), jnp.zeros(4, jnp.int32)), want)
    assert_same(autograph.convert(default_when_none)(jnp.float32(x)),
                default_when_none(np.float32(x)))


def test_the_narrowed_branch_under_vmap():
    xs = np.array([2, 7, -3, 0], np.int32)
    got = jax.vmap(autograph.convert(count_in_bin, jit=False), in_axes=(0, None))(
        jnp.asarray(xs), jnp.zeros(4, jnp.int32))
    want = np.stack([count_in_bin(x, np.zeros(4, np.int32)) for x in xs])
    assert_same(got, want)


# --- a constant on some paths, another value on others (issue 28: runtime.values.choice) ----

def message_or_value(x, n):
    i = 0
    while x > 1.0 and i < n:
        x = x * 0.5
        i += 1
    if i == n:
        return 'no convergence'        # a str on this path ...
    return x                           # ... a float32 array on the other


def status_text(x):
    status = None
    if x > 3.0:
        status = 'large'
    if not status:                     # an optional str tested for its truth
        status = 'small' if x > 0.0 else 'negative'
    same = status == 'small'
    missing = status is None
    return status, same, missing


@pytest.mark.parametrize('x', [3.0, 100.0], ids=['value', 'message'])
def test_a_message_or_a_value_is_given_back_as_python_gives_it(x):
    for jit in (True, False):
        assert_same(autograph.convert(message_or_value, jit=jit)(jnp.float32(x), 4),
                    message_or_value(x, 4))


@pytest.mark.parametrize('x', [5.0, 1.0, -1.0])
def test_constants_chosen_by_traced_conditions_are_tested_and_compared(x):
    got = autograph.convert(status_text)(jnp.float32(x))
    assert got[0] == status_text(x)[0]
    assert bool(got[1]) == status_text(x)[1] and bool(got[2]) == status_text(x)[2]


def test_a_chosen_constant_used_as_text_or_under_a_callers_jit_is_a_named_error():
    def shout(x):
        word = 'up' if x > 0 else 'down'
        return word.upper()
    with pytest.raises(autograph.ControlFlowError, match='.upper of a value chosen'):
        autograph.convert(shout)(jnp.float32(1.0))
    with pytest.raises(autograph.ControlFlowError, match='a constant on some paths'):
        jax.jit(autograph.convert(message_or_value, jit=False), static_argnums=1)(
            jnp.float32(3.0), 4)


def halve_while_set(x):
    step = None
    if x > 1.0:
        step = x
    count = 0
    while step:                        # an optional value as a loop's test
        step = step * 0.5 if step > 0.25 else None
        count += 1
    return count


@pytest.mark.parametrize('x', [0.5, 3.0])
def test_an_optional_value_tested_for_its_truth_by_a_loop(x):
    assert int(autograph.convert(halve_while_set)(jnp.float32(x))) == halve_while_set(x)


# --- a loop with a `break` that surely runs its first iteration ---------------------------

def last_before_break(xs):
    b = None
    for x in xs:
        b = x
        if x > 0:
            break
    return b


def none_where_it_breaks_first(xs):
    b = None
    for x in xs:
        if x > 0:
            break
        b = x
    return b


def test_a_value_set_before_the_break_of_a_loop_that_surely_runs_is_no_optional():
    """`for x in xs` over 3 items surely runs its first iteration, whose `b = x` comes
    before the `break`: `b` has a value on every path, also inside jax.jit and jax.vmap
    (a ControlFlowError before, "None on some paths": runtime.staging.loops' `_runs_first`)."""
    rows = jnp.array([[-1.0, 2.0, 3.0], [1.0, -2.0, 3.0], [-1.0, -2.0, -3.0]])
    fn = autograph.convert(last_before_break)
    for row in rows:
        assert_same(fn(row), last_before_break(np.asarray(row)))
        assert_same(jax.jit(fn)(row), last_before_break(np.asarray(row)))
    assert_same(jax.vmap(fn)(rows), np.array([last_before_break(np.asarray(r)) for r in rows]))
    assert 'scan' in primitives(last_before_break, rows[0])   # (staged, not unrolled)


def test_a_value_set_after_the_break_stays_optional():
    """Where the `break` comes first, the first iteration may leave `b` None: Python's
    None there (and inside jax.vmap, the named error that says so)."""
    fn = autograph.convert(none_where_it_breaks_first)
    assert fn(jnp.array([1.0, 2.0])) is None
    assert_same(fn(jnp.array([-1.0, 2.0])), -1.0)
    with pytest.raises(autograph.ControlFlowError, match='None at .* on some paths'):
        jax.vmap(fn)(jnp.array([[-1.0, 2.0], [1.0, 1.0]]))


# --- `is None` tests in `if`/`elif` chains narrow variables and attributes ------------------

class Best:
    def __init__(self):
        self.best = None
        self.bad = 0

    def step(self, loss):
        if self.best is None:
            self.best = loss
        elif loss < self.best:
            self.best = loss
            self.bad = 0
        else:
            self.bad += 1


def best_of(losses):
    tracker = Best()
    for loss in losses:
        tracker.step(loss)
    return tracker.best, tracker.bad


def chain_on_a_variable(xs):
    best = None
    for x in xs:
        if best is None:
            best = x
        elif x > best:
            best = x
    return best


def chain_not_none_first(xs, y):
    best = None
    for x in xs:
        if x > y:
            best = x
    if best is not None:
        out = best * 2.0
    elif y > 0:
        out = y
    else:
        out = -y
    return out


@pytest.mark.parametrize('fn', [best_of, chain_on_a_variable])
def test_an_is_none_chain_narrows_its_elif_and_else(fn):
    """The `elif`/`else` of `if self.best is None:` are taken where it is not None: there
    it is its value, so after a loop that surely runs it has a value on every path, also
    inside jax.jit and jax.vmap (a ControlFlowError before, "None on some paths")."""
    rows = jnp.array([[3.0, 1.0, 2.0], [1.0, 2.0, 0.5], [0.0, 0.0, 0.0]])
    converted = autograph.convert(fn)
    for row in rows:
        assert_same(converted(row), fn(np.asarray(row)))
        assert_same(jax.jit(converted)(row), fn(np.asarray(row)))
    expected = [fn(np.asarray(row)) for row in rows]
    assert_same(jax.vmap(converted)(rows),
                jax.tree_util.tree_map(lambda *leaves: np.stack(leaves), *expected))


@pytest.mark.parametrize('y', [0.5, 5.0, -5.0])
def test_an_is_not_none_chain_narrows_its_own_branch(y):
    xs = jnp.array([1.0, 2.0])
    assert_same(autograph.convert(chain_not_none_first)(xs, y), chain_not_none_first(xs, y))
    assert_same(autograph.convert(chain_not_none_first)(xs, jnp.float32(y)),
                chain_not_none_first(xs, y))
