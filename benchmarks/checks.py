"""`make bench`: what run-time checks cost (an `assert` and a list index checked in range).

A vmapped (64 environments), scanned Acrobot-like step (RK4 integration, as gymnasium's),
with checks and without them, both converted; the ratio of their times is printed. Checks
are error values carried by the program (runtime.checks): the goal is a ratio <= 1.05.

Two ways to write it are measured: the converted rollout vmaps the converted step
(`jax.vmap(step)` inside the loop), and `jax.vmap` of a converted rollout.
"""
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import autograph  # noqa: E402

ENVS, STEPS, ROUNDS, CALLS = 64, 200, 15, 10
AVAIL_TORQUE = [-1.0, 0.0, +1]
TORQUES = jnp.array(AVAIL_TORQUE)


def dynamics(s, torque):
    m, l, lc, i, g = 1.0, 1.0, 0.5, 1.0, 9.8
    theta1, theta2, dtheta1, dtheta2 = s[0], s[1], s[2], s[3]
    d1 = m * lc ** 2 + m * (l ** 2 + lc ** 2 + 2 * l * lc * jnp.cos(theta2)) + 2 * i
    d2 = m * (lc ** 2 + l * lc * jnp.cos(theta2)) + i
    phi2 = m * lc * g * jnp.cos(theta1 + theta2 - jnp.pi / 2.0)
    phi1 = (-m * l * lc * dtheta2 ** 2 * jnp.sin(theta2)
            - 2 * m * l * lc * dtheta2 * dtheta1 * jnp.sin(theta2)
            + (m * lc + m * l) * g * jnp.cos(theta1 - jnp.pi / 2) + phi2)
    ddtheta2 = ((torque + d2 / d1 * phi1 - m * l * lc * dtheta1 ** 2 * jnp.sin(theta2)
                 - phi2) / (m * lc ** 2 + i - d2 ** 2 / d1))
    ddtheta1 = -(d2 * ddtheta2 + phi1) / d1
    return jnp.stack([dtheta1, dtheta2, ddtheta1, ddtheta2])


def rk4(s, torque, dt=0.2):
    k1 = dynamics(s, torque)
    k2 = dynamics(s + dt / 2 * k1, torque)
    k3 = dynamics(s + dt / 2 * k2, torque)
    k4 = dynamics(s + dt * k3, torque)
    return s + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def step_checked(s, a):
    assert jnp.all(jnp.isfinite(s)), 'the state diverged'
    torque = AVAIL_TORQUE[a]             # a list index, checked in range
    return rk4(s, torque)


def step_plain(s, a):
    torque = TORQUES[a]
    return rk4(s, torque)


def inner_vmap(step):
    def rollout(s, actions):
        for a in actions:
            s = jax.vmap(step)(s, a)
        return s
    return autograph.convert(rollout)


def outer_vmap(step):
    def rollout(s, actions):
        for a in actions:
            s = step(s, a)
        return s
    return jax.jit(jax.vmap(autograph.convert(rollout), in_axes=(0, 1)))


def timed(fn, args):
    """Seconds of one call."""
    start = time.perf_counter()
    jax.block_until_ready(fn(*args))
    return time.perf_counter() - start


def measure(make):
    """(checked / plain, plain seconds): the fastest of many interleaved calls of each.
    On a shared machine most calls wait for a core (their medians vary by 20% run to
    run); the fastest call is the program's own time."""
    s = jnp.zeros((ENVS, 4)) + 0.1
    actions = jax.random.randint(jax.random.key(0), (STEPS, ENVS), 0, 3)
    checked, plain = make(step_checked), make(step_plain)
    assert jnp.allclose(checked(s, actions), plain(s, actions))
    checked_times, plain_times = [], []
    for _ in range(ROUNDS * CALLS):   # interleaved
        checked_times.append(timed(checked, (s, actions)))
        plain_times.append(timed(plain, (s, actions)))
    return min(checked_times) / min(plain_times), min(plain_times)


def main():
    for name, make in (('converted rollout, jax.vmap(step) inside', inner_vmap),
                       ('jax.vmap of a converted rollout', outer_vmap)):
        ratio, seconds = measure(make)
        print(f'checks ({ENVS} envs x {STEPS} steps, {name}): '
              f'{ratio:.3f}x the time without them ({seconds * 1e3:.2f} ms per rollout)')


if __name__ == '__main__':
    main()
