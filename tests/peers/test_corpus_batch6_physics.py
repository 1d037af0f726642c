"""Corpus of public functions, sixth batch, particles and steppers: a gas in a box that
flips velocity items and counts wall hits per step into an array grown by `np.append`, a
wall bounce that writes positions and velocities through boolean masks under
`if np.any(mask)`, a particle box script that writes a history array through a row index
and a mask together, an n-body force step on lists that are class attributes (shared by
all instances, filled by `append` from a random source), a low-variance particle
resampler whose `while u > c` walks the cumulative weights, and an adaptive Heun stepper
class whose `while fe < 1.` rejects steps and keeps the step size in an attribute between
calls. Edits: `np.` becomes `jnp.` where traced values flow; NumPy's or Python's random
state becomes a key argument; scripts become functions of their initial state (sizes from
the arrays' shapes, fewer particles and steps); plotting and file output dropped; drivers
are the tests'.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph

from tests.peers.corpus_harness import agree, agree_grad, agree_vmap, close, key, plain


# --- RhoDShuXue/EurekaHacks: gas.py (script) ----------------------------------------------

def gas(hydro_pos, hydroV, oxy_pos, oxyV, n_steps):
    hydro_particles = hydro_pos.shape[0]
    oxy_particles = oxy_pos.shape[0]
    collisions = jnp.array([])

    for steps in range(n_steps):
        hydro_pos += hydroV
        oxy_pos += oxyV
        num_collision = 0

        for a in range(hydro_particles):
            for b in range(2):
                if hydro_pos[a,b] < 0 or hydro_pos[a,b] > 1:
                    hydroV[a,b] *= -1
                    num_collision += 1

        for c in range(oxy_particles):
            for d in range(2):
                if oxy_pos[c,d] < 0 or oxy_pos[c,d] > 1:
                    oxyV[c,d] *= -1
                    num_collision += 1

        collisions = jnp.append(collisions, num_collision)

    return hydro_pos, hydroV, oxy_pos, oxyV, collisions


def test_gas_velocity_item_flips_and_a_count_appended_per_step():
    k1, k2, k3, k4 = jax.random.split(key(0), 4)
    start = (jax.random.uniform(k1, (3, 2)), jax.random.uniform(k2, (3, 2)) * 0.3,
             jax.random.uniform(k3, (2, 2)), jax.random.uniform(k4, (2, 2)) * 0.3)
    agree(lambda hp, hv, op, ov: gas(hp, hv, op, ov, 4), start,
          tuple(1.0 - a if i % 2 == 0 else -a for i, a in enumerate(start)))


def test_gas_converted_changes_numpy_arguments_in_place():
    k1, k2, k3, k4 = jax.random.split(key(9), 4)
    start = [np.array(jax.random.uniform(k1, (3, 2))), np.array(jax.random.uniform(k2, (3, 2))),
             np.array(jax.random.uniform(k3, (2, 2))), np.array(jax.random.uniform(k4, (2, 2)))]
    given, expected = [a.copy() for a in start], [a.copy() for a in start]
    out = autograph.convert(gas)(*given, 3)
    close(out, gas(*expected, 3))
    close(given, expected)   # `hydro_pos += hydroV`, `hydroV[a,b] *= -1`: NumPy's in place


# --- MandoBug/MMV: backend/mmv/sim/physics.py (wall_bounce) -------------------------------

def wall_bounce(x: np.ndarray, v: np.ndarray, L: float) -> None:
    """
    Reflect particles that hit the walls of the box.

    x : (N, 2) array of positions
    v : (N, 2) array of velocities
    L : box length

    If a particle goes past 0 or L, we reflect its position
    and flip the sign of its velocity on that axis.
    """
    for axis in (0, 1):  # x- and y-axes
        # find particles beyond the right/top wall
        over = x[:, axis] > L
        if jnp.any(over):
            x[over, axis] = 2 * L - x[over, axis]
            v[over, axis] *= -1

        # find particles beyond the left/bottom wall
        under = x[:, axis] < 0
        if jnp.any(under):
            x[under, axis] = -x[under, axis]
            v[under, axis] *= -1


def bounced(x, v):
    """The test's wrapper: `wall_bounce` changes its arguments and returns None."""
    wall_bounce(x, v, 1.0)
    return x, v


POS = jnp.array([[0.5, 1.2], [-0.1, 0.3], [1.05, -0.2], [0.4, 0.6]])
VEL = jnp.array([[0.1, 0.2], [-0.3, 0.1], [0.2, -0.4], [0.0, 0.1]])


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `x[over, axis] = 2 * L - x[over, axis]` under the traced '
    '`if jnp.any(over)` reads a selection of as many items as the traced mask has true '
    'values, a run-time length (the project names the line: BooleanMaskIndex). Before, '
    'the read under the `if` was JAX\'s raw NonConcreteBooleanIndexError (a tuple index '
    'with a computed part is now read through ag.getitem)'))
def test_wall_bounce_masked_writes_under_any_of_the_mask():
    agree(bounced, (POS, VEL), (POS * 0.5 + 0.2, -VEL))


# --- iOknes/AST2000: particlebox.py (script) ----------------------------------------------

def particlebox(r_init, v_init, N, dt, l):
    pN, dim = r_init.shape

    r = jnp.zeros((N, pN, dim))
    v = jnp.zeros((N, pN, dim))
    r[0] = r_init
    v[0] = v_init

    for i in range(N-1):
        v[i+1] = v[i]
        r[i+1] = r[i] + v[i+1] * dt
        v[i+1, r[i+1] < 0] = -v[i+1, r[i+1] < 0]
        v[i+1, r[i+1] > l] = -v[i+1, r[i+1] > l]
        r[i+1, r[i+1] < 0] = -r[i+1, r[i+1] < 0]
        r[i+1, r[i+1] > l] = r[i+1, r[i+1] > l] - 2 * (r[i+1, r[i+1] > l] - l)

    return r, v


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `v[i+1, r[i+1] < 0] = -v[i+1, r[i+1] < 0]` selects as many '
    'items as the traced mask has true values, a run-time number (the project names the '
    'line: BooleanMaskIndex)'))
def test_particle_box_history_rows_written_through_masks():
    r0 = jax.random.uniform(key(1), (5, 3))
    v0 = jax.random.normal(key(2), (5, 3))
    run = lambda r, v: particlebox(r, v, 8, 0.1, 1)
    agree(run, (r0, v0), (r0[::-1], -v0 * 2.0))
    agree_vmap(run, jnp.stack([r0, r0[::-1]]), jnp.stack([v0, -v0 * 2.0]))


# --- aakashkardam/CUDA: nbody-simulation/nbody-cpu-only.py (Body) -------------------------

SOFTENING = 1e-9
class Body:
    x=[]
    y=[]
    z=[]
    vx=[]
    vy=[]
    vz=[]

    def randomizeBodies(self,key,n):
        for i in range(n):
           kx, ky, kz, kvx, kvy, kvz = jax.random.split(jax.random.fold_in(key, i), 6)
           self.x.append(jax.random.uniform(kx, minval=-1.0, maxval=1.0)) # generates a random number between -1.0 to 1.0
           self.y.append(jax.random.uniform(ky, minval=-1.0, maxval=1.0))
           self.z.append(jax.random.uniform(kz, minval=-1.0, maxval=1.0))
           self.vx.append(jax.random.uniform(kvx, minval=-1.0, maxval=1.0))
           self.vy.append(jax.random.uniform(kvy, minval=-1.0, maxval=1.0))
           self.vz.append(jax.random.uniform(kvz, minval=-1.0, maxval=1.0))


    def bodyForce(self, dt, n):
        for i in range(n):
            Fx=0.0
            Fy=0.0
            Fz=0.0
            for j in range(n):
                dx=self.x[j] - self.x[i]
                dy=self.y[j] - self.y[i]
                dz=self.z[j] - self.z[i]
                distSqr = dx*dx + dy*dy + dz*dz + SOFTENING
                invDist = jnp.sqrt(distSqr)
                invDist3 = invDist**3

                Fx += dx*invDist3
                Fy += dy*invDist3
                Fz += dz*invDist3
            self.vx[i] += dt*Fx
            self.vy[i] += dt*Fy
            self.vz[i] += dt*Fz


def body_force_step(key, dt):
    """The test's driver, as the module's `__main__` (4 bodies): the class's lists are
    emptied first, since every run appends to the same lists."""
    for name in ('x', 'y', 'z', 'vx', 'vy', 'vz'):
        getattr(Body, name).clear()
    B = Body()
    B.randomizeBodies(key, 4)
    B.bodyForce(dt, 4)
    return jnp.stack(B.vx), jnp.stack(B.vy), jnp.stack(B.vz)


def test_nbody_force_item_updates_of_class_attribute_lists():
    agree(body_force_step, (key(3), 0.01), (key(4), 0.05))


def test_nbody_class_lists_hold_the_concrete_values_after_a_converted_call():
    autograph.convert(body_force_step)(key(5), 0.01)
    after_converted = [list(Body.vx), list(Body.x)]
    plain(body_force_step, key(5), 0.01)
    assert not any(isinstance(item, jax.core.Tracer) for items in after_converted
                   for item in items)
    close([[np.asarray(item) for item in items] for items in after_converted],
          [[np.asarray(item) for item in items] for items in (Body.vx, Body.x)])


# --- chaitanya1123/Robot-Localization-using-Particle-Filtering: -------------------------
# --- Particle-Filter-master/code/resample.py (resampleParticles) --------------------------

def resampleParticles(X, weights, key):
    N = len(X)
    XNew = jnp.zeros(X.shape)

    k = 0
    sumWeights=0
    for i in range(N):
        sumWeights += weights[i] #Normalization Step

    normWeights = weights*1.0/sumWeights
    r = jax.random.uniform(key, minval=0, maxval=1.0/N)

    c = normWeights[0]
    i = 0
    for m in range(N):
        u = r + m*(1.0/N)
        while u > c:
            i = i + 1
            c = c + normWeights[i]
        XNew[k] = X[i]
        k=k+1
    return XNew


PARTICLES = jnp.array([[7.0, 5.0, 4.0], [1.0, 2.0, 5.0], [4.0, 5.0, 9.0], [5.0, 6.0, 3.4],
                       [0.3, 4.0, 6.0]])
WEIGHTS = jnp.array([1.0, 20.0, 30.0, 40.0, 100.0])


def test_low_variance_resampler_while_over_cumulative_weights():
    agree(resampleParticles, (PARTICLES, WEIGHTS, key(6)), (PARTICLES, WEIGHTS[::-1], key(7)))
    agree_vmap(lambda w: resampleParticles(PARTICLES, w, key(8)),
               jnp.stack([WEIGHTS, WEIGHTS[::-1], jnp.ones(5), jnp.array([0.0, 0.0, 1.0, 0.0, 0.0])]))


# --- markusschmitt/vmc_jax: jVMC/util/stepper.py (AdaptiveHeun) --------------------------

class AdaptiveHeun:

    def __init__(self, timeStep=1e-3, tol=1e-8, maxStep=1):
        self.dt = timeStep
        self.tolerance = tol
        self.maxStep = maxStep

    def step(self, t, f, y, normFunction=jnp.linalg.norm, **rhsArgs):

        fe = 0.5

        dt = self.dt

        yInitial = y.copy()

        while fe < 1.:

            y = yInitial.copy()
            k0 = f(y, t, **rhsArgs, intStep=0)
            y += dt * k0
            k1 = f(y, t + dt, **rhsArgs, intStep=1)
            dy0 = 0.5 * dt * (k0 + k1)

            # now with half step size
            y -= 0.5 * dt * k0
            k10 = f(y, t + 0.5 * dt, **rhsArgs, intStep=2)
            dy1 = 0.25 * dt * (k0 + k10)
            y = yInitial + dy1
            k01 = f(y, t + 0.5 * dt, **rhsArgs, intStep=3)
            y += 0.5 * dt * k01
            k11 = f(y, t + dt, **rhsArgs, intStep=4)
            dy1 += 0.25 * dt * (k01 + k11)

            # compute deviation
            updateDiff = normFunction(dy1 - dy0)
            fe = self.tolerance / updateDiff

            if 0.2 > 0.9 * fe**0.33333:
                tmp = 0.2
            else:
                tmp = 0.9 * fe**0.33333
            if tmp > 2.:
                tmp = 2.

            realDt = dt
            dt *= tmp

            if dt > self.maxStep:
                dt = self.maxStep

        # end while

        self.dt = dt

        return yInitial + dy1, realDt


def linear_rhs(y, t, mat, intStep):
    """The test's right-hand side, as the module's commented example: `mat @ y`."""
    return mat @ y


def heun_trajectory(y, mat, n_steps, tol):
    """The test's driver, as the module's commented example (a real matrix)."""
    stepper = AdaptiveHeun(timeStep=0.5, tol=tol, maxStep=1)
    t = 0.
    for k in range(n_steps):
        y, dt = stepper.step(t, linear_rhs, y, mat=mat)
        t += dt
    return y, t, stepper.dt


ROTATION = jnp.array([[0.0, 1.0], [-1.0, -0.1]])


def test_adaptive_heun_step_rejection_while_with_attribute_step_size():
    run = lambda y0, mat: heun_trajectory(y0, mat, 3, 1e-3)
    agree(run, (jnp.array([1.0, 0.0]), ROTATION), (jnp.array([0.5, -2.0]), ROTATION * 3.0),
          rtol=1e-4, atol=1e-5)
    agree_vmap(lambda y0: heun_trajectory(y0, ROTATION, 2, 1e-3),
               jnp.array([[1.0, 0.0], [0.5, -2.0], [0.0, 4.0]]), rtol=1e-4, atol=1e-5)


def test_adaptive_heun_grad_through_the_rejection_loop():
    agree_grad(lambda y0: jnp.sum(heun_trajectory(y0, ROTATION, 1, 1e-3)[0] ** 2),
               jnp.array([1.0, 0.5]))


def advance(stepper, y, mat):
    """The test's caller: one step of a stepper the caller keeps between calls."""
    return stepper.step(0., linear_rhs, y, mat=mat)


def test_adaptive_heun_stepper_kept_by_the_caller_between_converted_calls():
    stepper, twin = (AdaptiveHeun(timeStep=0.5, tol=1e-3, maxStep=1) for _ in range(2))
    step = autograph.convert(advance)
    y, y_plain = jnp.array([1.0, 0.0]), jnp.array([1.0, 0.0])
    for _ in range(3):
        y, dt = step(stepper, y, ROTATION)
        y_plain, dt_plain = plain(advance, twin, y_plain, ROTATION)
        close((y, dt, stepper.dt), (y_plain, dt_plain, twin.dt), rtol=1e-4, atol=1e-5)
        assert not isinstance(stepper.dt, jax.core.Tracer)
