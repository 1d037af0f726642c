"""Corpus of public functions, signal processing: Goertzel (a list state shifted by slice
assignment, and per-bin loops over a set), dynamic time warping (an array table, a
chained-index table, lists of lists), peak detection that appends under data conditions,
framed zero-crossing rates, an attack/release envelope follower, and a pulse-width
pulse-frequency modulator around a Schmitt trigger. Edits: `np.` becomes `jnp.`,
`np.matrix` an array, `sys.maxint` `float('inf')`, `print`s of results become returns.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import math

import jax.numpy as jnp
import pytest

import autograph
from tests.peers.corpus_harness import agree, agree_grad, agree_vmap, close, f32, plain

SAMPLE_FREQ = 8000.0


def tone(freq, n=40, phase=0.0):
    return jnp.sin(2 * jnp.pi * freq / SAMPLE_FREQ * jnp.arange(n) + phase)


# --- nickodell/morse-code: gz_dsp (Goertzel; list state, s[1:3] = s[0:2]) ----------------

def gz_dsp(matrix, freq):
    normalized_freq = freq / SAMPLE_FREQ
    coeff = 2 * math.cos(2 * math.pi * normalized_freq)
    s = [0, 0, 0]
    for sample in matrix:
        sample = float(sample)
        s[0] = sample + (coeff * s[1]) - s[2]
        s[1:3] = s[0:2]
    return (s[1] ** 2) + (s[2] ** 2) - (s[1] * s[2] * coeff)


def test_goertzel_list_state():
    run = lambda x: gz_dsp(x, 600.0)
    # a resonator over 40 samples: float32 vs the plain run's Python floats (float64)
    agree(run, (tone(600.0),), (tone(900.0, phase=0.3),), rtol=2e-4, atol=1e-3)
    # `float(sample)` of a batched value
    agree_vmap(run, jnp.stack([tone(600.0), tone(400.0)]), rtol=2e-4, atol=1e-3)


# --- tirinox/bass_extractor: goertzel (bins from a set, (re, im, power) per bin) ----------

def goertzel(samples, sample_rate, *freqs):
    window_size = len(samples)
    f_step = sample_rate / float(window_size)
    f_step_normalized = 1.0 / window_size
    bins = set()
    for f_range in freqs:
        f_start, f_end = f_range
        k_start = int(math.floor(f_start / f_step))
        k_end = int(math.ceil(f_end / f_step))
        if k_end > window_size - 1: raise ValueError('frequency out of range %s' % k_end)
        bins = bins.union(range(k_start, k_end))
    n_range = range(0, window_size)
    freqs = []
    results = []
    for k in bins:
        f = k * f_step_normalized
        w_real = 2.0 * math.cos(2.0 * math.pi * f)
        w_imag = math.sin(2.0 * math.pi * f)
        d1, d2 = 0.0, 0.0
        for n in n_range:
            y = samples[n] + w_real * d1 - d2
            d2, d1 = d1, y
        results.append((0.5 * w_real * d1 - d2, w_imag * d1,
                        d2 ** 2 + d1 ** 2 - w_real * d1 * d2))
        freqs.append(f * sample_rate)
    return freqs, results


def test_goertzel_bins():
    run = lambda x: goertzel(x, SAMPLE_FREQ, (400, 700), (1000, 1300))
    x1, x2 = tone(600.0, 20), tone(1200.0, 20, phase=1.0)
    agree(run, (x1,), (x2,), rtol=1e-4, atol=1e-4)
    agree_grad(lambda x: run(x)[1][0][2], x1, atol=1e-3)


def test_goertzel_out_of_range_raises_as_python():
    with pytest.raises(ValueError, match='out of range'):
        autograph.convert(lambda x: goertzel(x, SAMPLE_FREQ, (7000, 7900)))(tone(600.0))


# --- simpleParadox/jwlab_eeg: DTW (cumulative table, np.min of a list of three) -----------

def DTW(a, b):
    an = a.size
    bn = b.size
    pointwise_distance = jnp.abs(a.reshape(-1, 1) - b.reshape(1, -1))
    cumdist = jnp.ones((an + 1, bn + 1)) * jnp.inf
    cumdist[0, 0] = 0
    for ai in range(an):
        for bi in range(bn):
            minimum_cost = jnp.min(jnp.array([cumdist[ai, bi + 1],
                                              cumdist[ai + 1, bi],
                                              cumdist[ai, bi]]))
            cumdist[ai + 1, bi + 1] = pointwise_distance[ai, bi] + minimum_cost
    return cumdist[an, bn]


A7 = jnp.array([0.0, 1.0, 2.0, 1.5, 0.5, 0.0, -0.5])
B6 = jnp.array([0.0, 0.8, 2.1, 0.9, 0.1, -0.4])


def test_dtw_table():
    agree(DTW, (A7, B6), (B6[::-1].take(jnp.arange(7) % 6), A7[:6] * 2))
    agree_vmap(DTW, jnp.stack([A7, -A7]), B6, in_axes=(0, None))


# --- Diegodesantos1/Paper-Markov: dtw (matrix[i][j] written) -------------------------------

def dtw_chained(a, b):
    n, m = len(a), len(b)
    matrix = jnp.zeros((n + 1, m + 1))
    matrix[0, 1:], matrix[1:, 0] = jnp.inf, jnp.inf
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            list_values = [matrix[i - 1][j - 1], matrix[i - 1][j], matrix[i][j - 1]]
            matrix[i][j] = abs(a[i - 1] - b[j - 1]) + min(list_values)
    matrix = matrix[::-1]
    return matrix


def test_dtw_chained_index_writes():
    agree(dtw_chained, (A7[:5], B6[:4]), (A7[2:], B6[::-1][:4]))


# --- frZheng/muti_od_codes: dtw (lists of lists, min of three) ---------------------------

def Distance(x, y):
    return abs(x - y)


def dtw_lists(X, Y):
    Lx = len(X)
    Ly = len(Y)
    M = [[Distance(X[i], Y[j]) for i in range(Lx)] for j in range(Ly)]
    D = [[0 for i in range(Lx + 1)] for j in range(Ly + 1)]
    D[0][0] = 0
    for i in range(1, Lx + 1):
        D[0][i] = float('inf')
    for j in range(1, Ly + 1):
        D[j][0] = float('inf')
    for i in range(1, Ly + 1):
        for j in range(1, Lx + 1):
            D[i][j] = M[i - 1][j - 1] + min(D[i - 1][j], D[i - 1][j - 1], D[i][j - 1])
    minD = D[Ly][Lx]
    return minD


def test_dtw_lists_of_lists():
    agree(dtw_lists, (A7[:5], B6[:4]), (A7[2:] * 2, B6[::-1][:4]))
    agree_grad(lambda a: dtw_lists(a, B6[:4]), A7[:5])


# --- fabiansinz/locker: peakdet (appends under data conditions; lookformax flag) ----------

def peakdet(v, delta=None):
    maxtab = []
    maxidx = []
    mintab = []
    minidx = []
    v = jnp.asarray(v)
    mn, mx = jnp.inf, -jnp.inf
    mnpos, mxpos = jnp.nan, jnp.nan
    lookformax = True
    for i in range(len(v)):
        this = v[i]
        if this > mx:
            mx = this
            mxpos = i
        if this < mn:
            mn = this
            mnpos = i
        if lookformax:
            if this < mx - delta:
                maxtab.append(mx)
                maxidx.append(mxpos)
                mn = this
                mnpos = i
                lookformax = False
        else:
            if this > mn + delta:
                mintab.append(mn)
                minidx.append(mnpos)
                mx = this
                mxpos = i
                lookformax = True
    return (jnp.asarray(maxtab), jnp.asarray(maxidx, dtype=int), jnp.asarray(mintab),
            jnp.asarray(minidx, dtype=int))


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the peaks appended under traced conditions make lists whose '
    'length is known only at run time'))
def test_peakdet_variable_number_of_peaks():
    x = jnp.sin(jnp.arange(20.0) * 0.9) + 0.1 * jnp.arange(20.0)
    agree(lambda v: peakdet(v, 0.3), (x,), (-x,))


# --- f-matano44/pySATEN-mirror: zcr (frames with Python bounds, a boolean-mask select) ----

def zcr(y, win_length, hop_length):
    zc = jnp.zeros(int(math.ceil(len(y) / hop_length)))
    for i in range(len(zc)):
        idx = i * hop_length
        zc_start = int(max(0, idx - (win_length / 2)))
        zc_end = int(min(idx + (win_length / 2), len(y) - 1))
        target = y[zc_start:zc_end]
        sign_arr = jnp.sign(target)[target != 0 & ~jnp.isnan(target)]
        zc[i] = sum(abs(jnp.diff(sign_arr)) != 0) / hop_length
    return zc


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the selection by a traced boolean mask (`x[mask]`, then its '
    '`jnp.diff`) has a length known only at run time'))
def test_zero_crossing_rate_frames():
    y = jnp.sin(jnp.arange(24.0) * 1.3) * jnp.where(jnp.arange(24) % 5 == 0, 0.0, 1.0)
    run = lambda y: zcr(y, 6, 4)
    agree(run, (y,), (jnp.cos(jnp.arange(24.0) * 0.4),))
    agree_vmap(run, jnp.stack([y, -y]))


# --- Maerorr/fft-playground: EnvelopeFollower.process (an attribute array written per sample)

class EnvelopeFollower:
    def __init__(self, att, rel, sr):
        self.att = jnp.exp(-1 / (att * sr * 1e-3))
        self.rel = jnp.exp(-1 / (rel * sr * 1e-3))
        self.env = 0

    def process(self, buffer):
        self.env = jnp.zeros(len(buffer))
        last_env = -100.0
        for i, xn in enumerate(buffer):
            cur_env = 0.0
            if xn > last_env:
                cur_env = self.att * (last_env - xn) + xn
            else:
                cur_env = self.rel * (last_env - xn) + xn
            last_env = cur_env
            self.env[i] = cur_env

    def get_envelope(self):
        return self.env


def envelope(buffer):
    follower = EnvelopeFollower(1.0, 5.0, 8000)
    follower.process(buffer)
    return follower.get_envelope()


DECAYING = jnp.abs(jnp.sin(jnp.arange(24.0) * 0.5)) * jnp.exp(-jnp.arange(24.0) / 10)


def test_envelope_follower():
    # attack where the signal rises above the envelope, release where it falls below
    agree(envelope, (DECAYING,), (DECAYING[::-1],))


def test_envelope_follower_method_converted_alone():
    # the bound method converted on its own: the array it writes into `self.env` is
    # written back to the object after each call
    ours, theirs = EnvelopeFollower(1.0, 5.0, 8000), EnvelopeFollower(1.0, 5.0, 8000)
    process = autograph.convert(ours.process)
    for buffer in (DECAYING, DECAYING[::-1] * 2):
        process(buffer)
        close(ours.env, plain(lambda b: (theirs.process(b), theirs.env)[1], buffer))


# --- kirtan2605/B.Tech_Project: pwpfm + dual_schmitt_trigger (a value set on some paths) ---

def dual_schmitt_trigger(ip, op_prev):

    # Dual Schmitt Trigger Parameters calculation!!

    Um = 0.05
    OFF = 0

    h = 0.03
    U_on = 0.045
    U_off = (U_on - h)

    # returning pwpf_output
    if (ip < -U_on ):
        pwpfm_op = -Um
    if (ip > U_on ):
        pwpfm_op = Um
    if (ip > -U_off and ip < U_off):
        pwpfm_op = OFF
    if (ip < -U_off and ip > -U_on) or (ip > U_off and ip < U_on) :
        pwpfm_op = op_prev

    return pwpfm_op


def pwpfm(ip, error_prev, error_lpf_prev,  op_prev, Dt):

    # pwpfm gain parameter
    k_pm = 1

    # lpf parameters
    km = 4.3
    tm = 0.35

    ip = k_pm*ip

    error = ip - op_prev

    T = (2*tm)/Dt
    error_lpf = (km*(error + error_prev) + T*error_lpf_prev)/(T+1)

    pwpfm_value = dual_schmitt_trigger(error_lpf, op_prev)

    #pwm_value = 0

    return_list = [pwpfm_value, error, error_lpf]
    return return_list


def modulate(command, Dt):
    """The user's simulation loop: the modulator's state fed back each step."""
    op, error, error_lpf = 0.0, 0.0, 0.0
    pulses = []
    for ip in command:
        op, error, error_lpf = pwpfm(ip, error, error_lpf, op, Dt)
        pulses.append(op)
    return jnp.stack(pulses)


def test_pulse_width_pulse_frequency_modulator():
    # pulses of +Um, -Um and OFF, held inside the hysteresis band (pwpfm_op = op_prev)
    command = 0.03 * jnp.sin(jnp.arange(30.0) * 0.3)
    agree(modulate, (command, f32(0.1)), (command * 2 + 0.01, f32(0.05)))
