"""Corpus of public functions, fourth batch, learning rules and simulations: three
perceptrons (a helper's `1 if s > 0 else -1`, an `if/elif` whose `op` no `else` binds, the
inner loop's `j` read after that loop), Adam as a small class driven to convergence (the
driver is the test's), a heat-bath Ising script on a list of spins and a dict of
neighbours, a leapfrog script writing items of two arrays, and an adaptive Runge-Kutta
whose `while` starts on Python floats and whose error is Python's `max` over an array;
two k-means taking `jnp.mean` of masked rows.
Edits: `np.` becomes `jnp.` where traced values flow; NumPy's global random state (or
Python's `random`) becomes a key passed in; printing dropped.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""

import jax
import jax.numpy as jnp
import pytest

import autograph

from tests.peers.corpus_harness import agree, agree_grad, agree_vmap, key


# --- kgawelek/MachineLearning: scripts/perceptron/perceptron.py (the script made a function)

def predict(x, w):
    total_stimulation = jnp.dot(x, w)
    y_pred = 1 if total_stimulation > 0 else -1
    return y_pred


def perceptron_script(X, y, w, eta, epochs):
    ones = jnp.ones((X.shape[0], 1))

    X_1 = jnp.append(X.copy(), ones, axis=1)

    for i in range(epochs):
        for x, y_target in zip(X_1, y):
            y_pred = predict(x,w)
            delta_w = eta * (y_target - y_pred) * x
            w += delta_w
    return w


X_KG = jnp.arange(-25, 25, 1).reshape(10, 5)
Y_KG = jnp.array([1, -1, -1, 1, -1, 1, -1, -1, 1, -1])


def test_perceptron_helper_conditional_expression_in_place_add():
    w0 = jax.random.uniform(key(0), (6,))
    agree(perceptron_script, (X_KG, Y_KG, w0, 0.01, 10), (X_KG, -Y_KG, w0 - 0.5, 0.01, 10))
    agree_vmap(lambda w: perceptron_script(X_KG, Y_KG, w, 0.01, 3),
               jax.random.uniform(key(1), (3, 6)) - 0.5)


# --- DevanshAshar/sem5: AI/perceptron.py (the script made a function) --------------------

def perceptron_epochs(X, W, d, c, epochs):
    for i in range(epochs):
        for j in range(len(X)):
            net = jnp.dot(X[j], W)
            if (net <= 0):
                op = -1
            elif net > 0:
                op = 1
            error = d[j] - op
            dW = c*error*X[j]
            W += dW
    return W


X_DA = jnp.array([[1, -2, 0, -1], [0, 1.5, -0.5, -1], [-1, 1, 0.5, -1]])
W_DA = jnp.array([1, -1, 0, 0.5])
D_DA = jnp.array([-1, -1, 1])


def test_perceptron_if_elif_without_else():
    agree(perceptron_epochs, (X_DA, W_DA, D_DA, 0.1, 1), (X_DA, -W_DA, D_DA, 0.1, 4))
    agree_vmap(lambda W: perceptron_epochs(X_DA, W, D_DA, 0.1, 3),
               jnp.stack([W_DA, -W_DA, W_DA * 0.1]))


def test_perceptron_if_elif_nan_leaves_op_unbound_as_python():
    W = jnp.array([jnp.nan, 0.0, 0.0, 0.0])
    with pytest.raises(UnboundLocalError):
        perceptron_epochs(X_DA, W, D_DA, 0.1, 1)
    with pytest.raises(UnboundLocalError):
        autograph.convert(perceptron_epochs)(X_DA, W, D_DA, 0.1, 1)


# --- Ayesh17/Project2: perceptron.py (perceptron_train) ----------------------------------

def perceptron_train(X,Y):
    weights = jnp.zeros(len(X[0]))
    bias=0
    #do for 1D arrays too
    for i in range(len(X)):
        a=0

        for j in range(len(X[0])):
            a += X[i][j] * weights[j] + bias
        if (a * Y[i] <= 0):
            weights[j] = weights[j] + X[i][j]*Y[i]
            bias = bias + Y[i]
    return weights, bias


def test_perceptron_inner_loop_index_read_after_the_loop():
    X = jax.random.normal(key(3), (6, 3))
    Y = jnp.array([1, -1, 1, 1, -1, -1])
    agree(perceptron_train, (X, Y), (-X, Y), (X * 0.0, Y))
    agree_vmap(perceptron_train, jnp.stack([X, -X, X[::-1]]), Y, in_axes=(0, None))


# --- weka511/smac: homework_8/C1.py (the script made a function) -------------------------

def heat_bath_ising(S, key, L=4, nsteps=40, T=2.0):
    N = L * L
    nbr = {i : ((i // L) * L + (i + 1) % L, (i + L) % N,
                (i // L) * L + (i - 1) % L, (i - L) % N) \
                                        for i in range(N)}
    beta = 1.0 / T
    E = -0.5 * sum(S[k] * sum(S[nn] for nn in nbr[k]) \
                                    for k in range(N))
    Energies = []
    for step in range(nsteps):
        key, k1, k2 = jax.random.split(key, 3)
        k = int(jax.random.randint(k1, (), 0, N - 1 + 1))
        Upsilon = jax.random.uniform(k2, (), minval=0.0, maxval=1.0)
        h = sum(S[nn] for nn in nbr[k])
        Sk_old = S[k]
        S[k] = -1
        if Upsilon < 1.0 / (1.0 + jnp.exp(-2.0 * beta * h)):
            S[k] = 1
        if S[k] != Sk_old:
            E -= 2.0 * h * S[k]
        Energies.append(E)

    return S, sum(Energies) / float(len(Energies) * N)


def test_heat_bath_ising_list_of_spins_energy_list():
    s0 = [1, -1, -1, 1] * 4
    # (`int(...)` of a draw makes the loop run as Python, each step traced: few steps)
    agree(lambda k: heat_bath_ising(list(s0), k, nsteps=12), (key(0),), (key(1),))
    agree_vmap(lambda k: heat_bath_ising(list(s0), k, nsteps=6), jax.random.split(key(2), 3))


# --- habib256/algo-chaos: 9.NObjetsEnOrbite/Leapfrog.py (the script made a function) -----

def f_leapfrog(x):
    return -x


def leapfrog(x0, v0, k=5, N=16):
    h = 2*jnp.pi/N       # step size

    x = jnp.empty(k*N+1) # positions
    v = jnp.empty(k*N+1) # velocities

    # Initial conditions
    x[0] = x0
    v[0] = v0
    anew = f_leapfrog(x[0])

    # leapfrog method
    for i in range(1, k*N+1):
        aold = anew
        x[i] = x[i-1] + v[i-1]*h + 0.5*aold*h**2
        anew = f_leapfrog(x[i])
        v[i] = v[i-1] + 0.5*(aold + anew)*h
    return x, v


def test_leapfrog_item_writes_of_two_arrays():
    agree(leapfrog, (jnp.float32(0.0), jnp.float32(1.0)), (jnp.float32(0.5), jnp.float32(-0.2)))


# --- NikitaAM2020/numerical-methods: lab2/main.py (f, runge_kutta_adaptive) ---------------

def f(t, y):
    y1_prime = (y[1] - y[0]) * t
    y2_prime = (y[1] + y[0]) * t
    return jnp.array([y1_prime, y2_prime])

def runge_kutta_adaptive(t0, T, y0, epsilon, epsilon_M):
    t = t0
    y = jnp.array(y0)
    tau = 0.1  # Initial step size
    iterations = 0  # Initialize iteration count

    while abs(T - t) >= epsilon_M:
        if t + tau > T:
            tau = T - t

        k1 = tau * f(t, y)
        k2 = tau * f(t + tau / 2, y + k1 / 2)
        k3 = tau * f(t + tau, y - k1 + 2 * k2)

        y_next = y + (k1 + 4 * k2 + k3) / 6

        max_diff = max(abs(y_next - y)) / ((2 ** 3 - 1) * max(1, max(abs(y_next))))
        tau_H = tau * min(5, max(0.1, 0.9 * (epsilon / max_diff) ** (1 / 4)))

        if max_diff <= epsilon:
            t = t + tau
            y = y_next
            tau = min(tau_H, T - t)
            iterations += 1
        else:
            tau = tau_H
            y_next = y
            iterations += 1
    return t, y, iterations


def test_adaptive_rk_python_float_start_and_max_over_an_array():
    agree(runge_kutta_adaptive, (0.0, 1.0, [1.0, 0.0], 1e-4, 1e-5),
          (0.0, 1.0, [0.5, 0.5], 1e-4, 1e-5))
    agree(runge_kutta_adaptive, (jnp.float32(0.0), jnp.float32(1.0), jnp.array([1.0, 0.0]),
                                 1e-4, 1e-5), (jnp.float32(0.2), jnp.float32(0.8),
                                               jnp.array([0.3, -1.0]), 1e-3, 1e-5))
    agree_vmap(lambda y0: runge_kutta_adaptive(0.0, 1.0, y0, 1e-4, 1e-5),
               jnp.array([[1.0, 0.0], [0.0, 2.0], [0.2, 0.2]]))


# --- maciejsikora2302/PINN_IGA_Masters: adam_solution.py (AdamOptim, grad_function) ------

class AdamOptim():
    def __init__(self, learning_rate=0.01, beta1=0.9, beta2=0.999, epsilon=1e-8):
        self.m_dw, self.v_dw = 0, 0
        self.m_db, self.v_db = 0, 0
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.learning_rate = learning_rate
    def update(self, t, w, dw):
        ## dw, db are from current minibatch
        ## momentum beta 1
        # *** weights *** #
        self.m_dw = self.beta1*self.m_dw + (1-self.beta1)*dw
        # *** biases *** #

        ## rms beta 2
        # *** weights *** #
        self.v_dw = self.beta2*self.v_dw + (1-self.beta2)*(dw**2)
        # *** biases *** #

        ## bias correction
        m_dw_corr = self.m_dw/(1-self.beta1**t)
        v_dw_corr = self.v_dw/(1-self.beta2**t)

        ## update weights and biases
        w = w - self.learning_rate*(m_dw_corr/(jnp.sqrt(v_dw_corr)+self.epsilon))
        return w


def grad_function(m):
    return 2*m-2


def adam_until_converged(w, tol, learning_rate):
    adam = AdamOptim(learning_rate=learning_rate)
    t = 1
    converged = False
    while not converged:
        dw = grad_function(w)
        w_old = w
        w = adam.update(t, w=w, dw=dw)
        if abs(w - w_old) < tol or t >= 500:
            converged = True
        else:
            t += 1
    return w, t, adam.m_dw, adam.v_dw


def test_adam_int_moments_become_traced_in_a_while():
    # rtol 1e-3: with `t` traced, `self.beta2**t` is a float32 power (plain Python takes it
    # in float64), and `1 - 0.999**t` cancels; Adam oscillating about the minimum then
    # sums terms of either sign into `m_dw` (checked against a float64 run: the plain
    # float32 run and the converted one are both within 3e-6 of it)
    calls = ((jnp.float32(0.0), 1e-4, 0.05), (jnp.float32(3.0), 1e-4, 0.05))
    agree(adam_until_converged, *calls, rtol=1e-3, atol=5e-6)
    agree_vmap(lambda w: adam_until_converged(w, 1e-4, 0.05), jnp.array([0.0, 1.0, 4.0]),
               rtol=1e-3, atol=5e-6)


# --- Riyadirl/AILab_python: KMeans/main.py (the script made a function) ------------------

def kmeans_script(X, centroid_old, epochs):
    # Initialize centroid_new array with zeros
    centroid_new = jnp.zeros_like(centroid_old)

    for e in range(epochs):

        # Assign points to centroids/clusters
        label = jnp.zeros(X.shape[0], dtype=int)
        for i, x in enumerate(X):
            dist = jnp.linalg.norm(x - centroid_old, axis=1)
            label[i] = jnp.argmin(dist)

        # Update centroids
        for j in range(centroid_new.shape[0]):
            centroid_new[j] = jnp.mean(X[label == j], axis=0)

        # Check stop condition
        diff = jnp.max(jnp.abs(centroid_new - centroid_old))
        if diff < 1E-7:
            break
        else:
            centroid_old = centroid_new.copy()

    return centroid_old


def blobs(k, n=9):
    k1, k2 = jax.random.split(k)
    centres = jnp.array([[0.0, 0.0], [4.0, 4.0], [0.0, 5.0]])
    return centres[jnp.arange(n) % 3] + 0.5 * jax.random.normal(k1, (n, 2)), \
        jax.random.normal(k2, (3, 2)) * 2.0


def test_kmeans_script_masked_means_and_break():
    X, c0 = blobs(key(0))
    X1, c1 = blobs(key(1))
    agree(kmeans_script, (X, c0, 40), (X1, c1, 40))   # (neither breaks: 40 epochs suffice)
    far = c0.at[2].set(jnp.array([50.0, 50.0]))   # a cluster that no point joins: nan
    agree(kmeans_script, (X, far, 5))
    agree_vmap(lambda c: kmeans_script(X, c, 100), jnp.stack([c0, c1, c0[::-1]]))


# --- GuanchengZhou/2023-2024XJTUMachineLearningCourseHomework: kmeans/kmeans.py (k_means)

def k_means(a, key, k=3, lim_iter=100):
    n = len(a)

    # init
    center_ids = jax.random.choice(key, n, (k,))
    centers = jnp.array([a[i] for i in center_ids])
    run_flag = True
    iter = 0

    while run_flag and (iter<lim_iter):
        iter += 1
        delta = (jnp.repeat(jnp.expand_dims(a, axis=1), k, axis=1)-centers)
        dis = jnp.einsum('ijk,ijk->ij', delta, delta)
        _class = jnp.argmin(dis, axis=1)
        new_centers = []
        for i in range(k):
            new_centers.append(jnp.mean(a[_class==i], axis=0))
        new_centers = jnp.array(new_centers)
        if (new_centers == centers).all():
            run_flag = False
        else:
            run_flag = True
        centers = jnp.array(new_centers)
    return centers, iter


def test_kmeans_int_points_float_centres_in_a_while():
    a = jax.random.randint(key(5), (10, 2), 0, 100)
    agree(k_means, (a, key(6), 3, 15), (a, key(7), 3, 15), (a[::-1], key(8), 3, 15))
    agree_vmap(lambda k: k_means(a, k, 3, 15), jax.random.split(key(9), 3))
