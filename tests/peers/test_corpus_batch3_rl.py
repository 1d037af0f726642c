"""Corpus of public functions, third batch, RL environments and policies: two grid worlds
whose `step` dispatches an action through an `if`/`elif` chain of methods (one tests
`self.x in (0, 1, 2)` for walls), two epsilon-greedy action choices, and a Metropolis
Ising sweep on a Python list of spins with a dict of neighbour tuples (a script made a
function). Edits: NumPy's global random state (or Python's `random`) becomes a key passed
in; `math.exp` becomes `jnp.exp`; drivers running episodes are the tests'.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax
import jax.numpy as jnp

from tests.peers.corpus_harness import agree, agree_vmap, i32, key

ACTIONS = jnp.array([2, 2, 3, 3, 1, 0, 3, 3, 2, 2, 2, 3, 1], dtype=i32)


# --- SiWonSeong/RL_practice: TDLearning/GridWorld.py (GridWorld) -------------------------

class GridWorld:
    def __init__(self):
        self.x = 0
        self.y = 0

    def step(self, action):
        if action == 0:
            self.move_right()
        elif action == 1:
            self.move_left()
        elif action == 2:
            self.move_up()
        elif action == 3:
            self.move_down()

        reward = -1
        done = self.is_done()
        return (self.y, self.x), reward, done

    def move_right(self):
        self.x += 1
        if self.x > 3:
            self.x = 3

    def move_left(self):
        self.x -= 1
        if self.x < 0:
            self.x = 0

    def move_up(self):
        self.y += 1
        if self.y > 3:
            self.y = 3

    def move_down(self):
        self.y -= 1
        if self.y < 0:
            self.y = 0

    def is_done(self):
        if self.x == 3 and self.y == 3:
            return True
        else:
            return False


def grid_episode(actions):
    env = GridWorld()
    total = 0
    for a in actions:
        state, reward, done = env.step(a)
        total += reward
        if done:
            break
    return total, state, done


def test_grid_world_if_elif_methods_break_on_done():
    agree(grid_episode, (jnp.array([0, 0, 2, 2, 0, 2, 1, 3], dtype=i32),), (ACTIONS[:8],))
    agree_vmap(grid_episode, jnp.stack([ACTIONS[:8], jnp.array([0, 0, 0, 2, 2, 2, 1, 1])]))


# --- philosucker/SLOW_RL: GridWorld/MC_Control/env.py (GridWorld) -------------------------

class WallGridWorld:
    def __init__(self):
        # 좌표
        self.x = 0
        self.y = 0

    def step(self, a):
        # 0 ~ 3 왼 위 오 아
        if a == 0:
            self.move_left()
        elif a ==1:
            self.move_up()
        elif a == 2:
            self.move_right()
        elif a ==3:
            self.move_down()

        reward = -1
        done = self._is_done()
        return (self.x, self.y), reward, done

    def move_right(self):
        if self.y ==1 and self.x in (0,1,2):
            pass
        elif self.y == 3 and self.x in (2,3,4):
            pass
        elif self.y == 6:
            pass
        else:
            self.y +=1

    def move_up(self):
        if self.x == 1:
            pass
        elif self.x == 3 and self.y ==2:
            pass
        else:
            self.x -= 1

    def move_left(self):
        if self.y ==0:
            pass
        elif self.y ==3 and self.x in (0,1,2):
            pass
        elif self.y ==5 and self.x in (2,3,4):
            pass
        else:
            self.y -= 1

    def move_down(self):
        if self.x == 4:
            pass
        elif self.x == 1 and self.y ==4:
            pass
        else:
            self.x += 1

    def _is_done(self):
        if self.x == 4 and self.y ==6:
            return True
        return False


def wall_episode(actions):
    env = WallGridWorld()
    states = []
    for a in actions:
        state, reward, done = env.step(a)
        states.append(jnp.array(state))
    return jnp.stack(states), done


def test_wall_grid_world_in_tuple_tests():
    agree(wall_episode, (ACTIONS,), (ACTIONS[::-1],))
    agree_vmap(wall_episode, jnp.stack([ACTIONS, (ACTIONS + 1) % 4, (ACTIONS + 2) % 4]))


# --- MouseTrap-codes/rlmathtoolkit: bandits/policies/epsilon.py (greedy, e_greedy) ------

def greedy(q_t_values):
  return jnp.argmax(q_t_values)

def e_greedy(q_t_values, epsilon, key):
  k1, k2 = jax.random.split(key)
  if (jax.random.uniform(k1) < epsilon):
    return jax.random.randint(k2, (), 0, len(q_t_values))
  else:
    return greedy(q_t_values)


# --- NeuromatchAcademy/course-content: W2D5_Tutorial2_Solution_6f3c3877.py ---------------

def epsilon_greedy(q, epsilon, key):
  k1, k2 = jax.random.split(key)
  be_greedy = jax.random.uniform(k1) > epsilon
  if be_greedy:
    action = jnp.argmax(q)
  else:
    action = jax.random.choice(k2, len(q))

  return action


def choices(policy, q, epsilon, k):
    return [policy(q, epsilon, kk) for kk in jax.random.split(k, 6)]


def test_epsilon_greedy_policies():
    q = jnp.array([-2.0, 5.0, 0.0, 1.0])
    for policy in (e_greedy, epsilon_greedy):
        agree(lambda q, e, k: choices(policy, q, e, k), (q, 0.5, key(0)), (q[::-1], 0.3, key(1)))
        agree_vmap(lambda k: policy(q, 0.5, k), jax.random.split(key(2), 4))


# --- weka511/smac: lecture_8/markov_ising.py (the script made a function) ---------------

def markov_ising(S, key, L=4, nsteps=40, T=2.0):
    N = L * L
    nbr = {i : ((i // L) * L + (i + 1) % L, (i + L) % N,
                (i // L) * L + (i - 1) % L, (i - L) % N) \
                                        for i in range(N)}
    beta = 1.0 / T
    for step in range(nsteps):
        key, k1, k2 = jax.random.split(key, 3)
        k = int(jax.random.randint(k1, (), 0, N - 1 + 1))
        delta_E = 2.0 * S[k] * sum(S[nn] for nn in nbr[k])
        if jax.random.uniform(k2, (), minval=0.0, maxval=1.0) < jnp.exp(-beta * delta_E):
            S[k] *= -1
    return S, sum(S)


def test_markov_ising_list_of_spins_dict_of_neighbours():
    s0 = [1, -1] * 8
    agree(lambda k: markov_ising(list(s0), k), (key(0),), (key(1),))
