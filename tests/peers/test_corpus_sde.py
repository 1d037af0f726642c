"""Corpus of public functions, SDE solvers: Euler-Maruyama over paths with the noise passed
in, and an Ornstein-Uhlenbeck script made a function with its draws from a `jax.random`
key. Edits: `np.` becomes `jnp.`, random draws come from a key.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax
import jax.numpy as jnp

from tests.peers.corpus_harness import agree, f32, key


# --- WShaSH/numerical-for-SDE: Euler_Maruyama (column writes, noise passed in) ------------

def Euler_Maruyama(t0, T, y0, ndt, M, f, g, dWt):
    dt = (T - t0) / ndt
    t = jnp.linspace(t0, T, ndt + 1)
    y = jnp.zeros((M, ndt + 1))
    y[:, 0] = y0
    for i in range(1, ndt + 1):
        y[:, i] = y[:, i - 1] + f(t[i - 1], y[:, i - 1]) * dt + g(t[i - 1], y[:, i - 1]) \
            * dWt[:, i - 1]
    return y


def test_euler_maruyama_paths():
    run = lambda y0, dW: Euler_Maruyama(0.0, 1.0, y0, 10, 3, lambda t, y: -y,
                                        lambda t, y: 0.3 * y, dW)
    dW = jax.random.normal(key(0), (3, 10)) * jnp.sqrt(0.1)
    agree(run, (f32(1.0), dW), (f32(2.0), dW[::-1]))


# --- iantowey/sandbox: Euler-Maruyama for an Ornstein-Uhlenbeck process (script body) -----

def ornstein_uhlenbeck(rng, y_init, num_sims=2, t_init=3, t_end=7, N=12):
    dt = float(t_end - t_init) / N
    c_theta, c_mu, c_sigma = 0.7, 1.5, 0.06
    mu = lambda y, t: c_theta * (c_mu - y)
    sigma = lambda y, t: c_sigma

    def dW(k, delta_t):
        return jax.random.normal(k) * jnp.sqrt(delta_t)
    ts = jnp.arange(t_init, t_end, dt)
    ys = jnp.zeros(N)
    ys[0] = y_init
    runs = []
    for _ in range(num_sims):
        for i in range(1, ts.size):
            t = (i - 1) * dt
            y = ys[i - 1]
            rng, k = jax.random.split(rng)
            ys[i] = y + mu(y, t) * dt + sigma(y, t) * dW(k, dt)
        runs.append(ys.copy())
    return runs


def test_ornstein_uhlenbeck_script_as_function():
    agree(ornstein_uhlenbeck, (key(0), f32(0.0)), (key(1), f32(2.0)))
