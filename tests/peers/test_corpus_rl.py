"""Corpus of public functions, RL environments: a grid-world step function kept as an
object with an array state, numpy-ml's multinomial bandit with its epsilon-greedy policy,
and the windy and cliff-walking grid worlds of Sutton and Barto's book (steps and a
Q-learning episode), with the edits a user makes moving NumPy code to JAX: random draws
come from a `jax.random` key passed in.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
from collections import defaultdict

import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.peers.corpus_harness import agree, i32, key


# --- philiptkd/DQN grid_env.py, ddbourgin/numpy-ml bandits ------------------------------------

class GridEnv():
    def __init__(self, size):
        self.size = size
        self.state = None
        self.num_actions = 4    # left, right, up, down
        self.action_space = [0, 1, 2, 3]

    def reset(self):
        self.state = jnp.array([0, 0])

    def step(self, action):
        assert action in self.action_space
        assert self.state is not None
        done = False
        reward = 0
        if action == 0:     #left
            self.state[0] = (self.state[0] - 1) % self.size
        elif action == 1:   #right
            self.state[0] = (self.state[0] + 1) % self.size
        elif action == 2:   #down
            self.state[1] = (self.state[1] + 1) % self.size
        else:   #if action == 3:   #down
            self.state[1] = (self.state[1] - 1) % self.size
        if self.state[0] == self.size//2 and self.state[1] == self.size//2:
            done = True
            reward = 1
        return self.state, reward, done, {}


def grid_episode(actions):
    env = GridEnv(5)
    env.reset()
    total = 0
    for action in actions:
        state, reward, done, _ = env.step(action)
        total += reward
        if done:
            break
    return env.state, total


def test_grid_world_episode():
    agree(grid_episode, (jnp.array([1, 1, 2, 2, 3, 0], i32),),
          (jnp.array([0, 0, 3, 3, 1, 1], i32),))


def test_grid_world_bad_action_raises_as_python():
    with pytest.raises(AssertionError):
        autograph.convert(grid_episode)(jnp.array([1, 7], i32))


class MultinomialBandit:
    def __init__(self, payoffs, payoff_probs):
        self.step = 0
        self.n_arms = len(payoffs)
        self.payoffs = payoffs
        self.payoff_probs = payoff_probs
        self.arm_evs = jnp.array([sum(p * v) for p, v in zip(payoff_probs, payoffs)])
        self.best_ev = jnp.max(self.arm_evs)
        self.best_arm = jnp.argmax(self.arm_evs)

    def pull(self, arm_id, key, context=None):
        assert arm_id < self.n_arms
        self.step += 1
        return self._pull(arm_id, key, context)

    def _pull(self, arm_id, key, context):
        payoffs = self.payoffs[arm_id]
        probs = self.payoff_probs[arm_id]
        return jax.random.choice(key, payoffs, p=probs)


class EpsilonGreedy:
    def __init__(self, epsilon=0.05, ev_prior=0.5):
        self.step = 0
        self.ev_estimates = {}
        self.is_initialized = False
        self.epsilon = epsilon
        self.ev_prior = ev_prior
        self.pull_counts = defaultdict(lambda: 0)

    def act(self, bandit, key, context=None):
        k1, k2 = jax.random.split(key)
        if not self.is_initialized:
            self._initialize_params(bandit)
        arm_id = self._select_arm(bandit, k1, context)
        rwd = self._pull_arm(bandit, arm_id, k2, context)
        self._update_params(arm_id, rwd, context)
        return rwd, arm_id

    def _pull_arm(self, bandit, arm_id, key, context):
        self.step += 1
        return bandit.pull(arm_id, key, context)

    def _initialize_params(self, bandit):
        self.ev_estimates = {i: self.ev_prior for i in range(bandit.n_arms)}
        self.is_initialized = True

    def _select_arm(self, bandit, key, context=None):
        k1, k2 = jax.random.split(key)
        if jax.random.uniform(k1) < self.epsilon:
            arm_id = jax.random.choice(k2, bandit.n_arms)
        else:
            ests = self.ev_estimates
            (arm_id, _) = max(ests.items(), key=lambda x: x[1])
        return arm_id

    def _update_params(self, arm_id, reward, context=None):
        E, C = self.ev_estimates, self.pull_counts
        C[arm_id] += 1
        E[arm_id] += (reward - E[arm_id]) / (C[arm_id])


def play(payoffs, probs, key):
    bandit = MultinomialBandit(payoffs, probs)
    policy = EpsilonGreedy(epsilon=0.3)
    total = 0.0
    for t in range(6):
        rwd, arm = policy.act(bandit, jax.random.fold_in(key, t))
        total += rwd
    return total, policy.step


PAYOFFS = jnp.array([[0.0, 1.0], [0.0, 2.0], [1.0, 3.0]])
PROBS = jnp.array([[0.5, 0.5], [0.8, 0.2], [0.9, 0.1]])


def test_bandit_pulls():
    agree(lambda pay, p, arm, key: MultinomialBandit(pay, p).pull(arm, key),
          (PAYOFFS, PROBS, jnp.int32(1), jax.random.PRNGKey(0)),
          (PAYOFFS, PROBS[::-1], jnp.int32(2), jax.random.PRNGKey(4)))


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `pull_counts` is a defaultdict whose keys are the arms drawn '
    '(`C[arm_id] += 1` at a traced arm id creates the key), so which keys it has is known '
    'only at run time; the plain run fails too once it draws the arm with '
    'jax.random.choice (a JAX array is not hashable)'))
def test_epsilon_greedy_bandit_run():
    agree(play, (PAYOFFS, PROBS, jax.random.PRNGKey(0)),
          (PAYOFFS, PROBS[::-1], jax.random.PRNGKey(9)))


# --- ShangtongZhang/reinforcement-learning-an-introduction: windy and cliff grid worlds ----

# chapter06/windy_grid_world.py
WIND = [0, 0, 0, 1, 1, 1, 2, 2, 1, 0]
WORLD_HEIGHT, WORLD_WIDTH = 7, 10
ACTION_UP, ACTION_DOWN, ACTION_LEFT, ACTION_RIGHT = 0, 1, 2, 3
ACTIONS = [ACTION_UP, ACTION_DOWN, ACTION_LEFT, ACTION_RIGHT]


def windy_step(state, action):
    i, j = state
    if action == ACTION_UP:
        return [max(i - 1 - WIND[j], 0), j]
    elif action == ACTION_DOWN:
        return [max(min(i + 1 - WIND[j], WORLD_HEIGHT - 1), 0), j]
    elif action == ACTION_LEFT:
        return [max(i - WIND[j], 0), max(j - 1, 0)]
    elif action == ACTION_RIGHT:
        return [max(i - WIND[j], 0), min(j + 1, WORLD_WIDTH - 1)]
    else:
        assert False


def windy_walk(actions):
    """The user's driver: the state after the given actions from START."""
    state = [3, 0]
    for action in actions:
        state = windy_step(state, action)
    return state


def test_windy_grid_world_steps():
    # the wind of the column (`WIND[j]`, a Python list read at a traced index)
    agree(windy_walk, (jnp.array([3, 3, 3, 3, 3, 3, 0, 1, 2], i32),),
          (jnp.array([1, 3, 3, 0, 3, 2, 3, 3, 3], i32),))


def test_windy_grid_world_bad_action_raises_as_python():
    with pytest.raises(AssertionError):
        autograph.convert(windy_walk)(jnp.array([3, 7], i32))


# chapter06/cliff_walking.py (WORLD_HEIGHT 4, WORLD_WIDTH 12 there)
CLIFF_HEIGHT, CLIFF_WIDTH = 4, 12
EPSILON, ALPHA, GAMMA = 0.1, 0.5, 1
START = [3, 0]
GOAL = [3, 11]


def cliff_step(state, action):
    i, j = state
    if action == ACTION_UP:
        next_state = [max(i - 1, 0), j]
    elif action == ACTION_LEFT:
        next_state = [i, max(j - 1, 0)]
    elif action == ACTION_RIGHT:
        next_state = [i, min(j + 1, CLIFF_WIDTH - 1)]
    elif action == ACTION_DOWN:
        next_state = [min(i + 1, CLIFF_HEIGHT - 1), j]
    else:
        assert False

    reward = -1
    if (action == ACTION_DOWN and i == 2 and 1 <= j <= 10) or (
        action == ACTION_RIGHT and state == START):
        reward = -100
        next_state = START

    return next_state, reward


def choose_action(state, q_value, key):
    k1, k2 = jax.random.split(key)
    if jax.random.bernoulli(k1, EPSILON):
        return jax.random.choice(k2, jnp.array(ACTIONS))
    else:
        values_ = q_value[state[0], state[1], :]
        return jax.random.choice(k2, jnp.array(
            [action_ for action_, value_ in enumerate(values_) if value_ == jnp.max(values_)]))


def q_learning(q_value, key, step_size=ALPHA):
    state = START
    rewards = 0.0
    while state != GOAL:
        key, k = jax.random.split(key)
        action = choose_action(state, q_value, k)
        next_state, reward = cliff_step(state, action)
        rewards += reward
        # Q-Learning update
        q_value[state[0], state[1], action] += step_size * (
                reward + GAMMA * jnp.max(q_value[next_state[0], next_state[1], :]) -
                q_value[state[0], state[1], action])
        state = next_state
    return rewards


def cliff_walk(actions):
    """The user's driver: the state and the rewards after the given actions."""
    state, total = START, 0
    for action in actions:
        state, reward = cliff_step(state, action)
        total += reward
    return state, total


def test_cliff_walking_steps():
    # into the cliff (reward -100, back to START) and along its edge
    agree(cliff_walk, (jnp.array([0, 3, 1, 3, 3, 2, 1, 0], i32),),
          (jnp.array([3, 0, 3, 3, 1, 3, 0, 2], i32),))


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the greedy action is drawn from the actions whose value is the '
    'maximum, a list kept by a comprehension\'s traced `if`: its length is known only at '
    'run time'))
def test_cliff_walking_q_learning_episode():
    q = jnp.zeros((CLIFF_HEIGHT, CLIFF_WIDTH, 4))
    agree(q_learning, (q, key(0)), (q.at[:, :, ACTION_RIGHT].set(0.5), key(1)))
