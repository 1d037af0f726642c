"""Corpus of public functions, second batch, filters and coding: a bootstrap particle
filter kept as an object (resampling under a traced effective-sample-size test), two
Kalman filter classes (one converts the measurement with `float(z)` and reports its state
with `float`), two median filters (shifted copies and `jnp.median`; `sorted` of windows
with a helper), and a run-length encoder / decoder on int arrays. Edits: `np.`/`math.`
become `jnp.` where traced values flow; NumPy's global random state becomes a key the
particle filter holds (split per draw); `scipy.stats.norm(...).pdf` becomes
`jax.scipy.stats.norm.pdf`; drivers looping over measurements are the tests'.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import math

import jax
import jax.numpy as jnp
import pytest
from jax.scipy.stats import norm

import autograph
from tests.peers.corpus_harness import agree, agree_grad, agree_vmap, f32, i32, key

ZS = jnp.array([0.2, 0.5, 0.1, -0.3, 0.4, 0.9])


# --- ortslil64/tangle-network-particle-filter: particle_filter ----------------------------

class particle_filter():
    def __init__(self, X0, P0, R, Q, key, Np = 100):
        self.key = key
        self.Np = Np
        self.R = R
        self.Q = Q
        self.P = P0
        self.W = jnp.ones(Np)/Np
        self.key, k = jax.random.split(self.key)
        self.X = X0 + P0 * jax.random.normal(k, (Np,))

    def predict(self, dt):
        self.key, k = jax.random.split(self.key)
        self.X = jnp.sin(dt*self.X) + self.Q * jax.random.normal(k, (self.Np,))

    def update(self, z):
        self.W = self.W * norm.pdf(self.X, loc = z, scale = self.R)
        if jnp.sum(self.W) == 0:
            self.W = jnp.ones(self.Np)/self.Np
        else:
            self.W = self.W/jnp.sum(self.W)

        Neff = 1/(jnp.sum(jnp.power(self.W, 2)))
        if Neff < (2/3)*self.Np:
            print("Performing resample...")
            self.key, k1, k2 = jax.random.split(self.key, 3)
            idxs = jax.random.choice(k1, self.Np, shape = (self.Np,), p = self.W)
            self.X = self.X[idxs]
            self.X = self.X + 0.1*self.Q * jax.random.normal(k2, (self.Np,))
            print("Done resample!")

    def estimate(self):
        return self.X.T.dot(self.W)


def track(zs, k):
    pf = particle_filter(f32(0.0), f32(1.0), f32(0.3), f32(0.2), k, Np=32)
    out = []
    for z in zs:
        pf.predict(0.5)
        pf.update(z)
        out.append(pf.estimate())
    return jnp.stack(out)


def test_particle_filter_resampling_object():
    agree(track, (ZS, key(0)), (ZS[::-1], key(1)), rtol=1e-4, atol=1e-5)


# --- S1ngularD2ality/eidonic-language-elol: glyph_857 (float(z), float state) -------------

class glyph_857:
    def __init__(self, dt=1.0, process_var=1e-2, meas_var=1e-1):
        self.dt = dt
        self.F = jnp.array([[1, dt],[0, 1]], dtype=float)
        self.H = jnp.array([[1, 0]], dtype=float)
        self.Q = process_var * jnp.array([[dt**4/4, dt**3/2],[dt**3/2, dt**2]])
        self.R = jnp.array([[meas_var]])
        self.x = jnp.zeros((2,1))
        self.P = jnp.eye(2)

    def predict(self):
        self.x = self.F @ self.x
        self.P = self.F @ self.P @ self.F.T + self.Q

    def update(self, z):
        z = jnp.array([[float(z)]])
        y = z - self.H @ self.x
        S = self.H @ self.P @ self.H.T + self.R
        K = self.P @ self.H.T @ jnp.linalg.inv(S)
        self.x = self.x + K @ y
        I = jnp.eye(2)
        self.P = (I - K @ self.H) @ self.P

    def state(self):
        return float(self.x[0,0]), float(self.x[1,0])


def glyph_track(zs):
    kf = glyph_857(dt=0.5)
    states = []
    for z in zs:
        kf.predict()
        kf.update(z)
        states.append(kf.state())
    return states


def test_kalman_float_of_traced_measurement():
    agree(glyph_track, (ZS,), (ZS * 2.0 + 1.0,), rtol=1e-4)
    agree_vmap(glyph_track, jnp.stack([ZS, ZS[::-1]]), rtol=1e-4)


# --- xenon1919/Radar-Object-Detection-using-Data-Merging-and-Fusion: KalmanFilter -------

class KalmanFilter:
    def __init__(self, dim_x, dim_z):
        self.dim_x = dim_x
        self.dim_z = dim_z

        self.x = jnp.zeros((dim_x, 1))
        self.P = jnp.eye(dim_x)
        self.F = jnp.eye(dim_x)
        self.H = jnp.zeros((dim_z, dim_x))
        self.R = jnp.eye(dim_z)
        self.Q = jnp.eye(dim_x)

    def predict(self):
        self.x = jnp.dot(self.F, self.x)
        self.P = jnp.dot(self.F, jnp.dot(self.P, self.F.T)) + self.Q

    def update(self, z):
        y = z - jnp.dot(self.H, self.x)
        S = jnp.dot(self.H, jnp.dot(self.P, self.H.T)) + self.R
        K = jnp.dot(self.P, jnp.dot(self.H.T, jnp.linalg.inv(S)))
        self.x = self.x + jnp.dot(K, y)
        self.P = self.P - jnp.dot(K, jnp.dot(self.H, self.P))


def radar_track(zs, q):
    kf = KalmanFilter(2, 1)
    kf.F = jnp.array([[1.0, 1.0], [0.0, 1.0]])
    kf.H[0, 0] = 1.0
    kf.Q = kf.Q * q
    for z in zs:
        kf.predict()
        kf.update(z.reshape(1, 1))
    return kf.x[0, 0]


def radar_track_without_writes(zs, q):
    """The gradient reference: radar_track with `kf.H` set whole (jax.grad of the plain
    function cannot write into a JAX array)."""
    kf = KalmanFilter(2, 1)
    kf.F = jnp.array([[1.0, 1.0], [0.0, 1.0]])
    kf.H = jnp.array([[1.0, 0.0]])
    kf.Q = kf.Q * q
    for z in zs:
        kf.predict()
        kf.update(z.reshape(1, 1))
    return kf.x[0, 0]


def test_kalman_class_item_write_into_attribute():
    agree(radar_track, (ZS, f32(0.1)), (ZS[::-1], f32(0.5)), rtol=1e-4)
    reference = jax.grad(lambda zs: radar_track_without_writes(zs, f32(0.1)))(ZS)
    agree_grad(lambda zs: radar_track(zs, f32(0.1)), ZS, reference=reference)


# --- gistable/gistable: medfilt (shifted copies, jnp.median) ------------------------------

def medfilt (x, k):
    assert k % 2 == 1, "Median filter length must be odd."
    assert x.ndim == 1, "Input must be one-dimensional."
    k2 = (k - 1) // 2
    y = jnp.zeros ((len (x), k), dtype=x.dtype)
    y[:,k2] = x
    for i in range (k2):
        j = k2 - i
        y[j:,i] = x[:-j]
        y[:j,i] = x[0]
        y[:-j,-(i+1)] = x[j:]
        y[-j:,-(i+1)] = x[-1]
    return jnp.median (y, axis=1)


SIGNAL = jnp.array([0.0, 0.1, 1.5, 0.3, 0.4, 0.5, 1.5, 0.7, 0.8, 0.9])


def medfilt_without_writes(x, k):
    """The gradient reference: medfilt's shifted copies as clipped gathers (jax.grad of
    the plain function cannot write into a JAX array)."""
    k2 = (k - 1) // 2
    positions = jnp.arange(len(x))[:, None] + jnp.arange(-k2, k2 + 1)[None, :]
    return jnp.median(x[jnp.clip(positions, 0, len(x) - 1)], axis=1)


def test_medfilt_shifted_copies():
    agree(lambda x: medfilt(x, 5), (SIGNAL,), (SIGNAL[::-1],))
    reference = jax.grad(lambda x: jnp.sum(medfilt_without_writes(x, 5) ** 2))(SIGNAL)
    agree_grad(lambda x: jnp.sum(medfilt(x, 5) ** 2), SIGNAL, reference=reference)


# --- notkaramel/dpm-lab-code: median_filter (sorted windows, a helper) --------------------

def median(arr):
    N = len(arr)
    arr = sorted(arr)
    if N%2==1:
        return arr[ math.ceil(N/2) ]
    else:
        return (arr[N//2] + arr[N//2 + 1]) / 2


def median_filter(samples, width):
    N = len(samples)

    result = []
    for i in range(0, N, width):
        m = median(samples[i:i+width])
        for j in range(min(width, N-i)):
            result.append(m)

    return result


def test_median_filter_sorted_windows():
    run = lambda s: median_filter(s[:9], 3)
    agree(run, (SIGNAL,), (SIGNAL[::-1],))


# --- shinonome-inc/lossless_challenge_ryo: runlength_encode / runlength_decode ------------

def runlength_encode(data):
    out = []

    cnt = 1
    for i in range(1, len(data)):
        if data[i] == data[i-1]:
            cnt += 1
            continue

        out.append(data[i-1])

        if cnt != 1:
            out.append(data[i-1])
            out.append(cnt)
            cnt = 1

    if cnt == 1:
        out.append(data[-1])
    else:
        out.append(data[-1])
        out.append(data[-1])
        out.append(cnt)

    return out


def runlength_decode(data, size=28**2):
    out = []
    decode_flag = False
    continue_flag = False

    for i in range(0, len(data)-1):
        if continue_flag:
            continue_flag = False
            continue

        if decode_flag:
            out += [data[i]]*data[i+1]
            decode_flag = False
            continue_flag = True
            continue

        if data[i] == data[i+1]:
            decode_flag = True
        else:
            out.append(data[i])

    if len(out) != size:
        out.append(data[-1])

    return out


RUNS = jnp.array([0, 0, 0, 1, 2, 2, 0, 0, 0, 0], i32)


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the code has as many items as the data have runs: a list '
    'whose length is known only at run time'))
def test_runlength_encode():
    agree(runlength_encode, (RUNS,), (RUNS[::-1],))


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `[data[i]] * data[i+1]` repeats an item a traced number of '
    'times: a list whose length is known only at run time'))
def test_runlength_decode():
    code = jnp.array([0, 0, 3, 1, 2, 2, 2, 0, 0, 4], i32)
    agree(lambda d: runlength_decode(d, 10), (code,), (code[::-1],))
