"""Corpus of public functions, sampling: Metropolis(-Hastings), HMC/leapfrog, slice
sampling, Gibbs, rejection sampling and an Ising Metropolis sweep (the object samplers are
in test_corpus_mcmc_objects.py). The edits are a user's when moving NumPy code to JAX:
`np.` becomes `jnp.`, and random draws come from a `jax.random` key passed in (or a key
held by the object) instead of NumPy's global state.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.peers.corpus_harness import agree, agree_grad, agree_vmap, f32, key


def log_target(x):
    return -0.5 * jnp.sum((x - 1.0) ** 2) - 0.1 * jnp.sum(x ** 4)


# --- troystribling/dotfiles: metropolis ----------------------------------------------------

def metropolis(p, qsample, rng, nsample=10000, x0=0.0):
    x = x0
    samples = jnp.zeros(nsample)
    for i in range(0, nsample):
        rng, k1, k2 = jax.random.split(rng, 3)
        x_star = qsample(k1, x)
        accept = jax.random.uniform(k2)
        px_star = p(x_star)
        px = p(x)
        α = px_star / px
        if accept < α:
            x = x_star
        samples[i] = x
    return samples


def run_metropolis(rng, x0):
    return metropolis(lambda x: jnp.exp(log_target(x)),
                      lambda k, x: x + 0.8 * jax.random.normal(k), rng, 15, x0)


def test_metropolis_random_walk():
    agree(run_metropolis, (key(0), f32(0.0)), (key(1), f32(2.0)))


# --- stephlj/slopey: run_mh (nested helpers, min(0., score), conditional expression) -------

def run_mh(init_theta, logp_diff, proposal_distn, N, rng, callback=None):
    logq_diff, propose = proposal_distn

    def log_acceptance_prob(theta, new_theta):
        score = logp_diff(theta, new_theta) + logq_diff(theta, new_theta)
        return min(0., score)

    def flip_coin(k, p):
        return jax.random.uniform(k) < p

    def step(theta, k):
        k1, k2 = jax.random.split(k)
        new_theta = propose(k1, theta)
        alpha = jnp.exp(log_acceptance_prob(theta, new_theta))
        accept = flip_coin(k2, alpha)
        if callback: callback(alpha, theta, accept)
        return new_theta if accept else theta

    theta = init_theta
    thetas = []
    for n in range(N):
        rng, k = jax.random.split(rng)
        theta = step(theta, k)
        thetas.append(theta)

    return thetas


def slopey_chain(rng, theta0):
    diff = lambda a, b: log_target(b) - log_target(a)
    proposal = (lambda a, b: 0.0, lambda k, t: t + 0.5 * jax.random.normal(k, t.shape))
    return jnp.stack(run_mh(theta0, diff, proposal, 10, rng))


def test_run_mh_nested_helpers():
    agree(slopey_chain, (key(3), jnp.zeros(2)), (key(4), jnp.ones(2)))


# --- chenhh/ml-ai: metropolis with burn-in and thinning (writes at a traced index j) -------

def metropolis_thinned(F, qdraw, nsamp, x_init, burnin, rng, thinning=2, beta=1):
    samples = jnp.empty((nsamp, 2))
    x_prev = x_init
    accepted = 0
    j = 0
    for i in range((nsamp + burnin) * thinning):
        rng, k1, k2 = jax.random.split(rng, 3)
        x_star = qdraw(k1, x_prev, beta)
        logp_star = jnp.log(F(x_star[0], x_star[1]))
        logp_prev = jnp.log(F(x_prev[0], x_prev[1]))
        logpdfratio_p = logp_star - logp_prev
        u = jax.random.uniform(k2)
        if jnp.log(u) <= logpdfratio_p:
            x_prev = x_star
            if i >= burnin * thinning and i % thinning == 0:
                samples[j] = x_star
                j += 1
                accepted += 1
        else:  # we always get a sample
            if i >= burnin * thinning and i % thinning == 0:
                samples[j] = x_prev
                j += 1
    return samples, accepted


def binormal(x, y):
    return jnp.exp(-0.5 * (x ** 2 + (y / 1.5) ** 2))


def binormal_draw(k, xprev, beta=1):
    return xprev + beta * jnp.array([1.0, 1.5]) * jax.random.normal(k, (2,))


def test_metropolis_thinned_counts_and_samples():
    run = lambda rng, x: metropolis_thinned(binormal, binormal_draw, 12, x, 3, rng)
    agree(run, (key(0), jnp.zeros(2)), (key(5), jnp.array([2.0, -1.0])))


# --- BerenMillidge/HMC_implementation: leapfrog_integrator, hamiltonian_MCMC ---------------

def leapfrog_integrator(q, p, dVdq, path_len, step_size):
    q, p = jnp.copy(q), jnp.copy(p)
    p -= step_size * dVdq(q) / 2
    for _ in range(int(path_len / step_size) - 1):
        q += step_size * p
        p -= step_size * dVdq(q)
    q += step_size * p
    p -= step_size * dVdq(q) / 2
    return q, -p


def hamiltonian_MCMC(n_samples, negative_log_prob, dVdq, initial_position, rng,
                     path_len=1, step_size=0.5):
    samples = [initial_position]
    k_mom, rng = jax.random.split(rng)
    momenta = jax.random.normal(k_mom, [n_samples, initial_position.shape[0]])
    logpdf = lambda p: -0.5 * p ** 2 - 0.5 * jnp.log(2 * jnp.pi)
    for i in range(n_samples):
        q_new, p_new = leapfrog_integrator(samples[-1], momenta[i, :], dVdq,
                                           path_len=path_len, step_size=step_size)
        start_log_p = negative_log_prob(samples[-1]) - jnp.sum(logpdf(momenta[i, :]))
        new_log_p = negative_log_prob(q_new) - jnp.sum(logpdf(p_new))
        rng, k = jax.random.split(rng)
        if jnp.log(jax.random.uniform(k)) < start_log_p - new_log_p:
            samples.append(q_new)
        else:
            samples.append(jnp.copy(samples[-1]))
    return jnp.array(samples[1:])


neg_log = lambda q: -log_target(q)


def test_leapfrog_integrator():
    run = lambda q, p: leapfrog_integrator(q, p, jax.grad(neg_log), 1.0, 0.25)
    agree(run, (jnp.zeros(3), jnp.ones(3)), (jnp.ones(3), -jnp.ones(3)))
    agree_grad(lambda q: jnp.sum(run(q, jnp.ones(3))[0] ** 2), jnp.array([0.1, 0.2, 0.3]))


def test_hamiltonian_mcmc_list_of_samples():
    run = lambda rng, q: hamiltonian_MCMC(3, neg_log, jax.grad(neg_log), q, rng,
                                          path_len=0.75, step_size=0.25)
    agree(run, (key(0), jnp.zeros(2)), (key(9), jnp.array([2.0, -1.0])))


# --- mlskit/astromlskit: slice_sample (stepping out, shrinkage, while True / break) --------

def slice_sample(init, iters, sigma, loglike, rng, step_out=True):
    # set up empty sample holder
    D = len(init)
    samples = jnp.zeros((D, iters))
    # initialize
    xx = init.copy()
    for i in range(iters):
        rng, k_perm = jax.random.split(rng)
        perm = jax.random.permutation(k_perm, D)
        last_llh = loglike(xx)
        for d in perm:
            rng, k1, k2 = jax.random.split(rng, 3)
            llh0 = last_llh + jnp.log(jax.random.uniform(k1))
            rr = jax.random.uniform(k2)
            x_l = xx.copy()
            x_l[d] = x_l[d] - rr * sigma[d]
            x_r = xx.copy()
            x_r[d] = x_r[d] + (1 - rr) * sigma[d]
            if step_out:
                llh_l = loglike(x_l)
                while llh_l > llh0:
                    x_l[d] = x_l[d] - sigma[d]
                    llh_l = loglike(x_l)
                llh_r = loglike(x_r)
                while llh_r > llh0:
                    x_r[d] = x_r[d] + sigma[d]
                    llh_r = loglike(x_r)
            x_cur = xx.copy()
            while True:
                rng, k3 = jax.random.split(rng)
                xd = jax.random.uniform(k3) * (x_r[d] - x_l[d]) + x_l[d]
                x_cur[d] = xd.copy()
                last_llh = loglike(x_cur)
                if last_llh > llh0:
                    xx[d] = xd.copy()
                    break
                elif xd > xx[d]:
                    x_r[d] = xd
                elif xd < xx[d]:
                    x_l[d] = xd
                else:
                    raise RuntimeError('Slice sampler shrank too far.')
        samples[:, i] = xx.copy().ravel()
    return samples


def test_slice_sample():
    # step_out=True: the stepping-out loops and then the shrinkage loop of step_out=False
    run = lambda rng, x: slice_sample(x, 4, jnp.array([0.5, 1.0]), log_target, rng, True)
    agree(run, (key(0), np.zeros(2, np.float32)), (key(3), np.array([1.0, 2.0], np.float32)))


# --- LiangZhisama/Probability-Theory: gibbs_sampling (a row written from a list) -----------

def p_x1_given_x2(k, x2, mu, sigma):
    mu = mu[0] + sigma[0][1] / sigma[1][1] * (x2 - mu[1])
    sigma = sigma[0][0] - sigma[0][1] * sigma[1][0] / sigma[1][1]
    return mu + sigma * jax.random.normal(k)


def p_x2_given_x1(k, x1, mu, sigma):
    mu = mu[1] + sigma[1][0] / sigma[0][0] * (x1 - mu[0])
    sigma = sigma[1][1] - sigma[1][0] * sigma[0][1] / sigma[0][0]
    return mu + sigma * jax.random.normal(k)


def gibbs_sampling(mu, sigma, samples_period, rng):
    samples = jnp.zeros((samples_period, 2))
    rng, k0 = jax.random.split(rng)
    x2 = jax.random.uniform(k0) * 10
    for i in range(samples_period):
        rng, k1, k2 = jax.random.split(rng, 3)
        x1 = p_x1_given_x2(k1, x2, mu, sigma)
        x2 = p_x2_given_x1(k2, x1, mu, sigma)
        samples[i, :] = [x1, x2]
    return samples


def test_gibbs_sampling():
    sig = jnp.array([[1.0, 0.7], [0.7, 1.0]])
    run = lambda rng, mu: gibbs_sampling(mu, sig, 8, rng)
    agree(run, (key(0), jnp.array([2.0, 4.0])), (key(1), jnp.array([0.0, -1.0])))


# --- jiye-ML/Probalistic-Graphical-Model-21-Sample-Method: rejection_sampling ---------------

class Gaussian:
    def __init__(self, rng):
        self.key, self.ndim = rng, 1

    def draw(self):
        self.key, k = jax.random.split(self.key)
        return 2.0 * jax.random.normal(k, (1,))

    def pdf(self, x):
        return jnp.exp(-x[0] ** 2 / 8.0) / jnp.sqrt(8.0 * jnp.pi)


def rejection_sampling(func, rv, k, n, rng):
    assert hasattr(rv, "draw"), "the distribution has no method to draw random samples"
    sample = []
    while len(sample) < n:
        sample_candidate = rv.draw()
        accept_proba = func(sample_candidate) / (k * rv.pdf(sample_candidate))
        rng, u = jax.random.split(rng)
        if jax.random.uniform(u) < accept_proba:
            sample.append(sample_candidate[0])
    sample = jnp.asarray(sample)
    return sample


def bimodal(x):
    return jnp.exp(-(x[0] - 1.0) ** 2) + 0.5 * jnp.exp(-(x[0] + 1.5) ** 2)


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the list appended to under a traced condition, carried by the '
    'while loop, has a length known only at run time (a fixed-size buffer is the JAX form)'))
def test_rejection_sampling_until_n_accepted():
    run = lambda rng: rejection_sampling(bimodal, Gaussian(jax.random.fold_in(rng, 1)),
                                         3.0, 5, rng)
    agree(run, (key(0),), (key(1),))


# --- FergusFettes/Lattice: Ising MonteCarloUpdate (A[a][b] written, `or`, int() index) -----

def MonteCarloUpdate(A, nSteps, cost, rng, N):
    for _ in range(nSteps):
        rng, k1, k2, k3 = jax.random.split(rng, 4)
        a = (jax.random.uniform(k1) * N).astype(int)
        b = (jax.random.uniform(k2) * N).astype(int)
        nb = A[a][b] * (A[(a + 1) % N][b] + A[(a - 1) % N][b] + A[a][(b + 1) % N]
                        + A[a][(b - 1) % N])
        if nb <= 0 or jax.random.uniform(k3) < cost[int(nb / 4)]:
            A[a][b] = -A[a][b]
    return A


def test_ising_monte_carlo_update():
    beta = 0.4
    cost = jnp.array([1.0, jnp.exp(-4 * beta), jnp.exp(-8 * beta)])
    run = lambda A, rng: MonteCarloUpdate(A, 10, cost, rng, 5)
    spins = lambda s: np.where(np.random.default_rng(s).random((5, 5)) > 0.5, 1, -1)
    agree(run, (spins(0), key(0)), (spins(1), key(1)))
    agree_vmap(run, np.stack([spins(2), spins(3)]), jax.vmap(key)(jnp.arange(2)))
