"""Corpus of public functions, filtering: systematic resampling (two forms), a Kalman
filter over a list of measurements, alpha-beta and IIR filters kept as objects whose state
outlives a call, a circular-buffer FIR, and direct-form convolution and IIR loops. Edits:
`np.` becomes `jnp.`, Python 2 `xrange` becomes `range`, the uniform draw is an argument,
the `matrix` helper class becomes `@`.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax.numpy as jnp
import pytest

import autograph
from tests.peers.corpus_harness import agree, agree_grad, agree_vmap, close, f32

WEIGHTS = jnp.array([0.1, 0.25, 0.05, 0.3, 0.2, 0.1])
WEIGHTS2 = jnp.array([0.3, 0.05, 0.15, 0.1, 0.25, 0.15])


# --- oscfri/car-detection: systematic_resample (list of cumulative sums, while j += 1) ------

def systematic_resample(weights, u):
    n = weights.shape[0]
    w = 1. / n
    indices = []
    C = [0.0]
    for i in range(n):
        C.append(C[i] + weights[i])
    j = 0
    u0 = u * w
    for u in range(n):
        while u0 + u * w > C[j]:
            j += 1
        indices.append(j - 1)
    return indices


def test_systematic_resample_list_cdf():
    agree(systematic_resample, (WEIGHTS, f32(0.5)), (WEIGHTS2, f32(0.9)))


# --- ingmarschuster/smcdss: resample (cumsum, while cnw[j] < u, item writes) --------------

def resample(w, u):
    n = w.shape[0]
    cnw = n * jnp.cumsum(w)
    j = 0
    i = jnp.empty(n, dtype="int")
    for k in range(n):
        while cnw[j] < u:
            j = j + 1
        i[k] = j
        u = u + 1.
    return i


def test_smc_resample_indices():
    agree(resample, (WEIGHTS, f32(0.5)), (WEIGHTS2, f32(0.05)))
    # per row: the while loop runs as many steps as its own weights ask
    agree_vmap(resample, jnp.stack([WEIGHTS, WEIGHTS2]), jnp.array([0.3, 0.9]))


# --- ChenBohan/Udacity-CarND-State-Estimation-01-Kalman-Filters: kalman_filter -------------

F = jnp.array([[1., 1.], [0., 1.]])
H = jnp.array([[1., 0.]])
R = jnp.array([[1.]])
I = jnp.eye(2)
U = jnp.zeros((2, 1))


def kalman_filter(x, P, measurements):
    for n in range(len(measurements)):
        # measurement
        Z = jnp.array([[measurements[n]]])
        y = Z - (H @ x)
        S = H @ P @ H.transpose() + R
        K = P @ H.transpose() @ jnp.linalg.inv(S)
        x = x + K @ y
        P = (I - (K @ H)) @ P
        # prediction
        x = (F @ x) + U
        P = F @ P @ F.transpose()
    return x, P


def kalman_run(ms, as_list):
    x0, P0 = jnp.zeros((2, 1)), jnp.eye(2) * 1000.0
    return kalman_filter(x0, P0, [ms[i] for i in range(len(ms))] if as_list else ms)


@pytest.mark.parametrize('as_list', [True, False])
def test_kalman_filter_over_measurements(as_list):
    ms = jnp.array([1.0, 2.0, 3.0, 3.5, 5.0])
    run = lambda m: kalman_run(m, as_list)
    # inverse of a 1000-scaled covariance in float32: relative tolerance of a few ulps more
    agree(run, (ms,), (ms * 0.5 + 1.0,), rtol=1e-4, atol=1e-4)
    if not as_list:
        agree_grad(lambda m: jnp.sum(kalman_run(m, False)[0]), ms)


# --- 404wired/2024: alpha-beta Filter (state in attributes between calls) -----------------

class AlphaBeta:
    def __init__(self, dt=0.5, alpha=0.012, beta=0.0):
        self.dt = dt
        self.alpha = alpha
        self.beta = beta
        self.reset()

    def filter(self, xm):
        xk = self.xk_1 + (self.vk_1 * self.dt)
        vk = self.vk_1
        rk = xm - xk
        xk += self.alpha * rk
        vk += (self.beta * rk) / self.dt
        self.xk_1 = xk
        self.vk_1 = vk
        return xk

    def reset(self):
        self.xk_1 = 0.0
        self.vk_1 = 0.0


def test_alpha_beta_filter_method_called_per_sample():
    signal = jnp.sin(jnp.linspace(0, 3, 8)) * 4.0
    plain, conv = AlphaBeta(alpha=0.5, beta=0.2), AlphaBeta(alpha=0.5, beta=0.2)
    step = autograph.convert(conv.filter)
    for v in signal:
        close(step(v), plain.filter(v))
        close((conv.xk_1, conv.vk_1), (plain.xk_1, plain.vk_1))


def alpha_beta_run(signal):
    f = AlphaBeta(alpha=0.5, beta=0.2)
    out = []
    for v in signal:
        out.append(f.filter(v))
    return jnp.stack(out), f.vk_1


def test_alpha_beta_filter_in_a_loop():
    s = jnp.sin(jnp.linspace(0, 3, 8)) * 4.0
    agree(alpha_beta_run, (s,), (s[::-1],))
    agree_grad(lambda s: alpha_beta_run(s)[1], s)


# --- mmasenlle/welding_transfer_functions: Filter1.step (transposed direct form II) -------

class Filter1:
    def __init__(self, b, a):
        self.a = jnp.array(a)
        self.b = jnp.zeros(self.a.size)
        self.b[self.b.size - len(b):] = b
        self.x = jnp.zeros(self.b.size - 1)

    def step(self, u):
        y = (self.b[0] * u) + self.x[0]
        for i in range(1, self.x.size):
            self.x[i - 1] = (self.b[i] * u) + self.x[i] - (self.a[i] * y)
        self.x[-1] = (self.b[-1] * u) - (self.a[-1] * y)
        return y


def iir_run(b, a, signal):
    f = Filter1(b, a)
    ys = []
    for u in signal:
        ys.append(f.step(u))
    return jnp.stack(ys), f.x


B2, A2 = jnp.array([0.2, 0.3]), jnp.array([1.0, -0.5, 0.1])


def test_filter1_object_in_a_loop():
    s = jnp.cos(jnp.arange(10.0))
    agree(iir_run, (B2, A2, s), (B2 * 2, A2 * jnp.array([1.0, 0.5, 0.5]), s[::-1]))
    agree_vmap(iir_run, jnp.stack([B2, -B2]), A2, s, in_axes=(0, None, None))


# --- vcoutasso/PDS: conv and slow_filter (nested loops, Python index guards) --------------

def conv(x, h):
    N = len(x)
    K = len(h)
    y = jnp.zeros(N)
    for n in range(N):
        for k in range(K):
            if 0 <= n - k:
                y[n] += h[k] * x[n - k]
    return y


def slow_filter(b, a, x):
    N = len(x)
    M = len(b)
    K = len(a)
    y = jnp.zeros(N)
    a /= a[0]
    b /= a[0]
    for n in range(N):
        for k in range(M):
            if 0 <= n - k:
                y[n] += b[k] * x[n - k]
        for k in range(1, K):
            if 0 <= n - k:
                y[n] -= a[k] * y[n - k]
    return y


def test_direct_convolution():
    x = jnp.sin(jnp.arange(12.0))
    agree(conv, (x, jnp.array([0.5, 0.3, 0.2])), (x[::-1], jnp.array([1.0, -1.0, 0.5])))


def test_direct_form_iir():
    x = jnp.sin(jnp.arange(12.0))
    a = jnp.array([2.0, -0.6, 0.2])
    agree(slow_filter, (jnp.array([0.4, 0.2]), a, x), (jnp.array([1.0, 0.0]), a * 1.5, -x))


# --- starodubtsevm/alsen_rx: fir.proc (a list as circular buffer, index wrap-around) ------

class Fir:
    def __init__(self, h):
        self.index = 0
        self.h = h
        self.size = len(self.h)
        self._data = [0] * self.size

    def proc(self, sample):
        if len(self._data) == self.size:
            self._data[self.index] = sample
        else:
            self._data.append(sample)
        self.index = (self.index + 1) % self.size
        acc = 0
        indx = self.index
        for j in range(self.size):
            acc = acc + self._data[indx] * self.h[j]
            if indx == ((self.size) - 1):
                indx = 0
            else:
                indx += 1
        return acc


def fir_run(h, signal):
    f = Fir(h)
    return jnp.stack([f.proc(s) for s in signal])


def test_circular_buffer_fir():
    h = jnp.array([0.1, 0.2, 0.4, 0.2, 0.1])
    s = jnp.cos(jnp.arange(6.0) * 0.7)
    agree(fir_run, (h, s), (h[::-1] * 2, -s))
