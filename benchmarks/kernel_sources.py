"""Element-wise kernels as people write them for Numba: loops over indices, items read and
written one at a time, outputs preallocated by the caller. The very same functions run as
CPython, under `numba.njit` and converted by autograph (benchmarks/kernels.py), and each
has a hand-vectorised JAX version to compare with.

They use only what all three accept: array methods and arithmetic, `abs`/`min`, `range`,
`x ** 0.5` rather than `np.sqrt` (a NumPy ufunc cannot take a JAX tracer).
"""
import jax
import jax.numpy as jnp
from jax import lax


# --- sorting ----------------------------------------------------------------------------

def bubble_sort(a):
    a = a.copy()
    n = a.shape[0]
    for i in range(n):
        for j in range(n - i - 1):
            if a[j] > a[j + 1]:
                a[j], a[j + 1] = a[j + 1], a[j]
    return a


def bubble_sort_jax(a):
    return jnp.sort(a)


# --- dynamic programming: dynamic time warping -------------------------------------------

def dtw(x, y, cost):
    """`cost` is (n + 1, m + 1), +inf everywhere but cost[0, 0] = 0."""
    n, m = x.shape[0], y.shape[0]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d = abs(x[i - 1] - y[j - 1])
            cost[i, j] = d + min(cost[i - 1, j], cost[i, j - 1], cost[i - 1, j - 1])
    return cost[n, m]


def dtw_jax(x, y, cost):
    """Row by row: each row is a scan along j over the previous row."""
    def row(previous, xi):
        d = jnp.abs(xi - y)

        def cell(left, inputs):
            up, diagonal, dj = inputs
            value = dj + jnp.minimum(jnp.minimum(up, left), diagonal)
            return value, value
        _, values = lax.scan(cell, jnp.inf, (previous[1:], previous[:-1], d))
        current = jnp.concatenate([jnp.array([jnp.inf], previous.dtype), values])
        return current, None
    last, _ = lax.scan(row, cost[0], x)
    return last[-1]


# --- dynamic programming: DTW's accumulated cost with step directions (librosa's shape) ---

def dtw_steps(C, D, steps, moves, weights_add, weights_mul):
    """Accumulated cost `D` ((n + 1, m + 1), +inf but D[0, 0] = 0) of the cost matrix `C`
    (n, m) over the step directions `moves` ((k, 2)), each with its weights, and the
    direction of the best step into each cell (`steps`): two range loops over the cells,
    a loop over the directions, an item write of both arrays under an `if`."""
    for i in range(1, D.shape[0]):
        for j in range(1, D.shape[1]):
            for idx, w_add, w_mul in zip(range(moves.shape[0]), weights_add, weights_mul):
                cur_cost = (D[i - moves[idx, 0], j - moves[idx, 1]]
                            + w_mul * C[i - 1, j - 1] + w_add)
                if cur_cost < D[i, j]:
                    D[i, j] = cur_cost
                    steps[i, j] = idx
    return D, steps


def dtw_steps_jax(C, D, steps, moves, weights_add, weights_mul):
    """One fori_loop over the cells, the directions unrolled: the best cost and its
    direction chosen by selects, then both items written by one `lax.cond` (two
    unconditional writes would let XLA read D inside the write of `steps`, unordered
    with D's own write, and copy D on every step)."""
    width = D.shape[1] - 1

    def cell(k, carry):
        D, steps = carry
        i, j = 1 + k // width, 1 + k % width
        best, arg = D[i, j], steps[i, j]
        for idx in range(moves.shape[0]):
            cost = (D[i - moves[idx, 0], j - moves[idx, 1]]
                    + weights_mul[idx] * C[i - 1, j - 1] + weights_add[idx])
            better = cost < best
            best, arg = jnp.where(better, cost, best), jnp.where(better, idx, arg)
        return lax.cond(best < D[i, j], lambda D, steps: (
            D.at[i, j].set(best), steps.at[i, j].set(arg)), lambda D, steps: (D, steps),
            D, steps)
    return lax.fori_loop(0, (D.shape[0] - 1) * width, cell, (D, steps))


# --- stencil: 2-D convolution -------------------------------------------------------------

def conv2d(image, filt, result):
    M, N = image.shape
    Mf, Nf = filt.shape
    Mf2, Nf2 = Mf // 2, Nf // 2
    for i in range(Mf2, M - Mf2):
        for j in range(Nf2, N - Nf2):
            num = 0.0
            for ii in range(Mf):
                for jj in range(Nf):
                    num += filt[Mf - 1 - ii, Nf - 1 - jj] * image[i - Mf2 + ii, j - Nf2 + jj]
            result[i, j] = num
    return result


def conv2d_jax(image, filt, result):
    Mf2, Nf2 = filt.shape[0] // 2, filt.shape[1] // 2
    inner = jax.scipy.signal.convolve2d(image, filt, mode='valid')
    return result.at[Mf2:image.shape[0] - Mf2, Nf2:image.shape[1] - Nf2].set(inner)


# --- n-body: accelerations -----------------------------------------------------------------

def nbody(pos, mass, acc):
    n = pos.shape[0]
    for i in range(n):
        ax = 0.0
        ay = 0.0
        az = 0.0
        for j in range(n):
            if i != j:
                dx = pos[j, 0] - pos[i, 0]
                dy = pos[j, 1] - pos[i, 1]
                dz = pos[j, 2] - pos[i, 2]
                r2 = dx * dx + dy * dy + dz * dz + 0.01
                inv = mass[j] / (r2 * r2 ** 0.5)
                ax += dx * inv
                ay += dy * inv
                az += dz * inv
        acc[i, 0] = ax
        acc[i, 1] = ay
        acc[i, 2] = az
    return acc


def nbody_jax(pos, mass, acc):
    d = pos[None, :, :] - pos[:, None, :]
    r2 = jnp.sum(d * d, axis=-1) + 0.01
    inv = mass[None, :] / (r2 * r2 ** 0.5)
    inv = inv * (1 - jnp.eye(pos.shape[0], dtype=pos.dtype))
    return jnp.sum(d * inv[..., None], axis=1)


# --- escape time: a Julia set ---------------------------------------------------------------

def julia(zr, zi, c_re, c_im, out):
    h, w = zr.shape
    for i in range(h):
        for j in range(w):
            x = zr[i, j]
            y = zi[i, j]
            k = 0
            while k < 100 and x * x + y * y < 4.0:
                x, y = x * x - y * y + c_re, 2.0 * x * y + c_im
                k += 1
            out[i, j] = k
    return out


def julia_jax(zr, zi, c_re, c_im, out):
    def step(_, state):
        x, y, k = state
        going = x * x + y * y < 4.0
        x2, y2 = x * x - y * y + c_re, 2.0 * x * y + c_im
        return (jnp.where(going, x2, x), jnp.where(going, y2, y), k + going)
    _, _, k = lax.fori_loop(0, 100, step, (zr, zi, jnp.zeros(zr.shape, out.dtype)))
    return k
