"""Corpus of public functions, simulation: Conway's game of life, a 1-D cellular automaton,
Nagel-Schreckenberg traffic, an Ising Metropolis sweep, a Gillespie SSA and an n-body step
with Body objects, with the edits a user makes moving NumPy (or `random`) code to JAX:
random draws come from a `jax.random` key passed in.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.peers.corpus_harness import agree, agree_grad, i32


# --- TheAlgorithms/Python cellular_automata -----------------------------------------------

def new_generation(cells):   # conways_game_of_life.py
    next_generation = []
    for i in range(len(cells)):
        next_generation_row = []
        for j in range(len(cells[i])):
            neighbour_count = 0
            if i > 0 and j > 0:
                neighbour_count += cells[i - 1][j - 1]
            if i > 0:
                neighbour_count += cells[i - 1][j]
            if i > 0 and j < len(cells[i]) - 1:
                neighbour_count += cells[i - 1][j + 1]
            if j > 0:
                neighbour_count += cells[i][j - 1]
            if j < len(cells[i]) - 1:
                neighbour_count += cells[i][j + 1]
            if i < len(cells) - 1 and j > 0:
                neighbour_count += cells[i + 1][j - 1]
            if i < len(cells) - 1:
                neighbour_count += cells[i + 1][j]
            if i < len(cells) - 1 and j < len(cells[i]) - 1:
                neighbour_count += cells[i + 1][j + 1]
            alive = cells[i][j] == 1
            if (alive and 2 <= neighbour_count <= 3) or (not alive and neighbour_count == 3):
                next_generation_row.append(1)
            else:
                next_generation_row.append(0)
        next_generation.append(next_generation_row)
    return next_generation


GLIDER = jnp.array([[0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [1, 1, 1, 0, 0], [0, 0, 0, 0, 0],
                    [0, 0, 0, 0, 0]], i32)
BLINKER = jnp.array([[0, 1, 0, 0, 0], [0, 1, 0, 0, 0], [0, 1, 0, 0, 0], [0, 0, 0, 1, 1],
                     [0, 0, 0, 1, 1]], i32)


def test_game_of_life_generations():
    def run(cells):
        for _ in range(4):
            cells = jnp.array(new_generation(cells))
        return cells
    agree(run, (GLIDER,), (BLINKER,))


def new_generation_1d(cells, rule, time):   # one_dimensional.py
    population = len(cells[0])
    next_generation = []
    for i in range(population):
        left_neighbor = 0 if i == 0 else cells[time][i - 1]
        right_neighbor = 0 if i == population - 1 else cells[time][i + 1]
        situation = 7 - int(f"{left_neighbor}{cells[time][i]}{right_neighbor}", 2)
        next_generation.append(rule[situation])
    return next_generation


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the neighbourhood is read by formatting traced cells into text '
    "and parsing it back (`int(f'...', 2)`): text made from a traced value has no value, "
    'nor a length, before the program runs'))
def test_one_dimensional_automaton():
    rule = [0, 0, 0, 1, 1, 1, 1, 0]          # rule 30
    agree(lambda cells: new_generation_1d(cells, rule, 0),
          (jnp.array([[0, 0, 0, 1, 0, 0, 0]], i32),), (jnp.array([[1, 0, 0, 1, 1, 0, 1]], i32),))


def get_distance(highway_now, car_index):   # nagel_schrekenberg.py
    distance = 0
    cells = highway_now[car_index + 1:]
    for cell in range(len(cells)):  # May need a better name for this
        if cells[cell] != -1:  # If the cell is not empty then
            return distance  # we have the distance we wanted
        distance += 1
    return distance + get_distance(highway_now, -1)


def update(highway_now, probability, max_speed, key):
    number_of_cells = len(highway_now)
    next_highway = [-1] * number_of_cells
    for car_index in range(number_of_cells):
        if highway_now[car_index] != -1:
            next_highway[car_index] = min(highway_now[car_index] + 1, max_speed)
            dn = get_distance(highway_now, car_index) - 1
            next_highway[car_index] = min(next_highway[car_index], dn)
            if jax.random.uniform(jax.random.fold_in(key, car_index)) < probability:
                next_highway[car_index] = max(next_highway[car_index] - 1, 0)
    return next_highway


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): get_distance recurses (`get_distance(highway, -1)`) only where '
    'no car is ahead, which a traced `if` decides: the depth of the recursion is known '
    'only at run time, and it is refused 16 levels deep'))
def test_nagel_schreckenberg_update():
    highway = jnp.array([0, -1, -1, 2, -1, 1, -1, -1], i32)
    agree(lambda h, key: update(h, 0.3, 5, key), (highway, jax.random.PRNGKey(0)),
          (highway[::-1], jax.random.PRNGKey(1)))


# --- Ising Metropolis sweeps ----------------------------------------------------------------

def mcmove2d(config, beta, L, key):   # jrsmoura/FrustratedSystems
    for i in range(L):
        key, ka, kb, kr = jax.random.split(key, 4)
        a = jax.random.randint(ka, (), 0, L)
        b = jax.random.randint(kb, (), 0, L)
        s = config[a, b]
        nb = config[(a+1) % L, b] + config[(a-1) % L, b] + config[a, (b+1) % L] + config[a, (b-1) % L]
        cost = 2*s*nb
        if cost < 0:
            s *= -1
        elif jax.random.uniform(kr) < jnp.exp(-cost*beta):
            s *= -1
        config[a, b] = s
    return config


N = 6


SPINS = jnp.where(jax.random.uniform(jax.random.PRNGKey(7), (N, N)) < 0.5, -1, 1).astype(i32)


def test_ising_metropolis_sweep():
    sweep = lambda config, beta, key: mcmove2d(config, beta, N, key)
    agree(sweep, (SPINS, jnp.float32(0.4), jax.random.PRNGKey(0)),
          (-SPINS, jnp.float32(1.0), jax.random.PRNGKey(1)))


# --- every-algorithm/python Gillespie SSA ----------------------------------------------------

def gillespie_simulation(initial_counts, propensity_functions, reaction_updates, t_max, key):
    counts = initial_counts[:]
    t = 0.0
    trajectory = [(t, counts[:])]
    while t < t_max:
        propensities = [func(counts) for func in propensity_functions]
        a0 = sum(propensities)
        if a0 == 0:
            break
        key, k1, k2 = jax.random.split(key, 3)
        r1 = jax.random.uniform(k1)
        r2 = jax.random.uniform(k2)
        tau = (-1.0 / a0) * jnp.log(r1)
        t += tau
        threshold = r2 * a0
        cumulative = 0.0
        reaction_index = None
        for i, a in enumerate(propensities):
            cumulative += a
            if cumulative >= threshold:
                reaction_index = i
                break
        if reaction_index is None:
            break  # numerical issue, stop simulation
        for species_index, delta in reaction_updates[reaction_index].items():
            counts[species_index] += delta
        trajectory.append((t, counts[:]))
    return trajectory


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the trajectory grows by one item per reaction, a number known '
    'only at run time (a while loop on the traced time)'))
def test_gillespie_decay():
    ssa = lambda n, key: gillespie_simulation(
        [n], [lambda counts: 1.0 * counts[0]], [{0: -1}], 2.0, key)
    agree(ssa, (jnp.int32(5), jax.random.PRNGKey(0)), (jnp.int32(3), jax.random.PRNGKey(1)))


# --- TheAlgorithms/Python physics/n_body_simulation.py --------------------------------------

class Body:
    def __init__(self, position_x, position_y, velocity_x, velocity_y, mass=1.0, size=1.0,
                 color="blue"):
        self.position_x = position_x
        self.position_y = position_y
        self.velocity_x = velocity_x
        self.velocity_y = velocity_y
        self.mass = mass
        self.size = size
        self.color = color

    def update_velocity(self, force_x, force_y, delta_time):
        self.velocity_x += force_x * delta_time
        self.velocity_y += force_y * delta_time

    def update_position(self, delta_time):
        self.position_x += self.velocity_x * delta_time
        self.position_y += self.velocity_y * delta_time


class BodySystem:
    def __init__(self, bodies, gravitation_constant=1.0, time_factor=1.0, softening_factor=0.0):
        self.bodies = bodies
        self.gravitation_constant = gravitation_constant
        self.time_factor = time_factor
        self.softening_factor = softening_factor

    def update_system(self, delta_time):
        for body1 in self.bodies:
            force_x = 0.0
            force_y = 0.0
            for body2 in self.bodies:
                if body1 != body2:
                    dif_x = body2.position_x - body1.position_x
                    dif_y = body2.position_y - body1.position_y
                    distance = (dif_x**2 + dif_y**2 + self.softening_factor) ** (1 / 2)
                    force_x += self.gravitation_constant * body2.mass * dif_x / distance**3
                    force_y += self.gravitation_constant * body2.mass * dif_y / distance**3
            body1.update_velocity(force_x, force_y, delta_time * self.time_factor)
        for body in self.bodies:
            body.update_position(delta_time * self.time_factor)


def orbit(positions, steps=6):
    """The user's driver: three bodies stepped `steps` times (DELTA_TIME of the module)."""
    system = BodySystem([Body(positions[k, 0], positions[k, 1], 0.0, 0.1 * k) for k in range(3)],
                        softening_factor=0.1)
    for _ in range(steps):
        system.update_system(0.02)
    return [(b.position_x, b.position_y, b.velocity_x, b.velocity_y) for b in system.bodies]


POSITIONS = jnp.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.5]])


def test_n_body_system_steps():
    agree(orbit, (POSITIONS,), (POSITIONS[::-1] * 1.3,), rtol=1e-4, atol=1e-5)
    agree_grad(lambda p: orbit(p, 2)[0][0], POSITIONS)
