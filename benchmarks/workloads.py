"""Benchmark workloads: each in three variants computing the same result.

`plain` is ordinary Python (the seeds' examples from examples/seeds.py where they exist),
run eagerly on jax arrays and through `autograph.convert`; `lax` is the hand-written
`lax` version (run under `jax.jit`): the limit to match.
"""
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from examples import seeds


@dataclasses.dataclass
class Workload:
    name: str
    plain: object          # the Python function
    lax: object            # the hand-written lax function
    args: tuple            # arguments (arrays are traced)
    wrap: object = None    # applied to both variants before jit (e.g. jax.vmap)
    eager: bool = True     # whether running `plain` eagerly is affordable


# --- the seeds' model: 100 small dense layers -------------------------------------------

def dense_model(x, params):
    for w, b in params:
        x = jax.nn.relu(x @ w + b)
    return x


def dense_params():
    rng = np.random.default_rng(0)
    sizes = [784] + [64] * 100
    return [(jnp.asarray(rng.normal(size=(m, n)) / np.sqrt(m), jnp.float32),
             jnp.zeros(n, jnp.float32)) for m, n in zip(sizes, sizes[1:])]


# --- collatz step counts (vmap of a per-element while) ---------------------------------

def collatz_lax(a):
    def body(state):
        a, steps = state
        a = lax.cond(a % 2 == 0, lambda a: a // 2, lambda a: 3 * a + 1, a)
        return a, steps + 1
    return lax.while_loop(lambda s: s[0] > 1, body, (a, 0))[1]


# --- squash: while sum(x) > 1: x = tanh(x) ----------------------------------------------

def squash_lax(x):
    return lax.while_loop(lambda x: jnp.sum(x) > 1, jnp.tanh, x)


# --- fizzbuzz counting over a traced range ----------------------------------------------

def fizzbuzz_lax(n):
    def body(i, counts):
        fizz, buzz, both = counts
        return lax.cond(
            i % 15 == 0, lambda: (fizz, buzz, both + 1),
            lambda: lax.cond(i % 3 == 0, lambda: (fizz + 1, buzz, both),
                             lambda: lax.cond(i % 5 == 0, lambda: (fizz, buzz + 1, both),
                                              lambda: (fizz, buzz, both))))
    return lax.fori_loop(1, n + 1, body, (0, 0, 0))


# --- a dynamic RNN accumulating its states in a list ------------------------------------

def rnn(xs, state, w):
    states = []
    for x in xs:
        state = jnp.tanh(x + state @ w)
        states.append(state)
    return jnp.stack(states)


def rnn_lax(xs, state, w):
    def step(state, x):
        state = jnp.tanh(x + state @ w)
        return state, state
    return lax.scan(step, state, xs)[1]


# --- Newton's square root with a tolerance break ----------------------------------------

def newton(a):
    x = a
    for _ in range(100):
        next_x = 0.5 * (x + a / x)
        if jnp.abs(next_x - x) < 1e-6:
            break
        x = next_x
    return x


def newton_lax(a):
    def cond(state):
        i, x, done = state
        return jnp.logical_and(i < 100, jnp.logical_not(done))

    def body(state):
        i, x, _ = state
        next_x = 0.5 * (x + a / x)
        done = jnp.abs(next_x - x) < 1e-6
        return i + 1, jnp.where(done, x, next_x), done
    return lax.while_loop(cond, body, (0, a, False))[1]


# --- bisection for a root of x^3 - x - c ------------------------------------------------

def bisection(c):
    lo, hi = jnp.float32(0.0), jnp.float32(10.0)
    while hi - lo > 1e-5:
        mid = (lo + hi) / 2
        if mid ** 3 - mid - c > 0:
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


def bisection_lax(c):
    def body(state):
        lo, hi = state
        mid = (lo + hi) / 2
        return lax.cond(mid ** 3 - mid - c > 0, lambda: (lo, mid), lambda: (mid, hi))
    lo, hi = lax.while_loop(lambda s: s[1] - s[0] > 1e-5, body,
                            (jnp.float32(0.0), jnp.float32(10.0)))
    return (lo + hi) / 2


def bisection_break(c):
    """Bisection with a tolerance `break`: the step runs under `if not did_break:`."""
    lo, hi = jnp.float32(0.0), jnp.float32(10.0)
    for _ in range(100):
        if hi - lo < 1e-5:
            break
        mid = (lo + hi) / 2
        if mid ** 3 - mid - c > 0:
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


def bisection_break_lax(c):
    def cond(state):
        i, lo, hi = state
        return jnp.logical_and(i < 100, hi - lo >= 1e-5)

    def body(state):
        i, lo, hi = state
        mid = (lo + hi) / 2
        above = mid ** 3 - mid - c > 0
        return i + 1, jnp.where(above, lo, mid), jnp.where(above, mid, hi)
    _, lo, hi = lax.while_loop(cond, body, (0, jnp.float32(0.0), jnp.float32(10.0)))
    return (lo + hi) / 2


# --- Mandelbrot escape counts: vmap of a per-pixel while --------------------------------

def mandelbrot(c):
    z = jnp.complex64(0)
    count = 0
    while count < 50:
        if jnp.abs(z) > 2:
            break
        z = z * z + c
        count += 1
    return count


def mandelbrot_lax(c):
    def cond(state):
        z, count = state
        return jnp.logical_and(count < 50, jnp.abs(z) <= 2)
    return lax.while_loop(cond, lambda s: (s[0] * s[0] + c, s[1] + 1),
                          (jnp.complex64(0), 0))[1]


def mandelbrot_break(c):
    """The escape test after the step: the step count runs under `if not did_break:`."""
    z = jnp.complex64(0)
    count = 0
    for _ in range(50):
        z = z * z + c
        if jnp.abs(z) > 2:
            break
        count += 1
    return count


def mandelbrot_break_lax(c):
    def cond(state):
        i, z, count, done = state
        return jnp.logical_and(i < 50, jnp.logical_not(done))

    def body(state):
        i, z, count, _ = state
        z = z * z + c
        done = jnp.abs(z) > 2
        return i + 1, z, jnp.where(done, count, count + 1), done
    return lax.while_loop(cond, body, (0, jnp.complex64(0), 0, False))[2]


def mandelbrot_grid(size=256):
    re, im = jnp.meshgrid(jnp.linspace(-2, 1, size), jnp.linspace(-1.5, 1.5, size))
    return (re + 1j * im).astype(jnp.complex64).reshape(-1)


# --- a training step with jax.grad through a loop ---------------------------------------

def unrolled_loss(w, xs, ys):
    loss = 0.0
    for x, y in zip(xs, ys):
        pred = jnp.tanh(x @ w)
        loss = loss + jnp.mean((pred - y) ** 2)
    return loss


def train_step(w, xs, ys):
    return w - 0.1 * jax.grad(unrolled_loss)(w, xs, ys)


def train_step_lax(w, xs, ys):
    def loss(w):
        def step(total, xy):
            x, y = xy
            return total + jnp.mean((jnp.tanh(x @ w) - y) ** 2), None
        return lax.scan(step, 0.0, (xs, ys))[0]
    return w - 0.1 * jax.grad(loss)(w)


# --- natural loops over a Python range (staged as one loop, not unrolled) ---------------

def range_rnn(xs, state, w):
    states = []
    for t in range(xs.shape[0]):
        state = jnp.tanh(xs[t] + state @ w)
        states.append(state)
    return jnp.stack(states)


def sum_with_if(x):
    total = 0.0
    for i in range(x.shape[0]):
        if x[i] > 0:
            total = total + x[i]
        else:
            total = total - 0.5
    return total


def sum_with_if_lax(x):
    def body(i, total):
        return lax.cond(x[i] > 0, lambda: total + x[i], lambda: total - 0.5)
    return lax.fori_loop(0, x.shape[0], body, 0.0)


EULER_STEPS = 2000


def euler(y):
    dt = 0.001
    for _ in range(EULER_STEPS):
        y = y + dt * (jnp.sin(y) - 0.5 * y)
    return y


def euler_lax(y):
    dt = 0.001
    return lax.fori_loop(0, EULER_STEPS, lambda _, y: y + dt * (jnp.sin(y) - 0.5 * y), y)


def natural_loops(n_rnn=1000, n_sum=500):
    """The three natural range loops, as workloads (also used by loop_scaling.py)."""
    rng = np.random.default_rng(1)
    rnn_args = (jnp.asarray(rng.normal(size=(n_rnn, 16)), jnp.float32), jnp.zeros(16),
                jnp.asarray(rng.normal(size=(16, 16)) * 0.3, jnp.float32))
    return [
        Workload(f'range rnn {n_rnn} + append', range_rnn, rnn_lax, rnn_args),
        Workload(f'range sum with if {n_sum}', sum_with_if, sum_with_if_lax,
                 (jnp.asarray(rng.normal(size=n_sum), jnp.float32),)),
        Workload(f'range euler {EULER_STEPS}', euler, euler_lax,
                 (jnp.linspace(-2., 2., 64),)),
    ]


def make_workloads():
    rng = np.random.default_rng(0)
    xs = jnp.asarray(rng.normal(size=(32, 16)), jnp.float32)
    return [
        Workload('dense 100 layers', dense_model, dense_model,
                 (jnp.asarray(rng.normal(size=(20, 784)), jnp.float32), dense_params())),
        Workload('collatz (vmap)', seeds.collatz_steps, collatz_lax,
                 (jnp.arange(1, 1025, dtype=jnp.int32),), wrap=jax.vmap, eager=False),
        Workload('squash while', seeds.squash, squash_lax, (jnp.linspace(1., 3., 64),)),
        Workload('fizzbuzz range', seeds.fizzbuzz_count, fizzbuzz_lax, (jnp.int32(1000),),
                 eager=False),
        Workload('dynamic rnn', rnn, rnn_lax,
                 (xs, jnp.zeros(16), jnp.asarray(rng.normal(size=(16, 16)) * 0.3,
                                                 jnp.float32))),
        Workload('newton break', newton, newton_lax, (jnp.float32(612.0),)),
        Workload('bisection', bisection, bisection_lax, (jnp.float32(5.0),)),
        Workload('bisection break', bisection_break, bisection_break_lax,
                 (jnp.float32(5.0),)),
        Workload('mandelbrot 256x256', mandelbrot, mandelbrot_lax, (mandelbrot_grid(),),
                 wrap=jax.vmap, eager=False),
        Workload('mandelbrot break 256x256', mandelbrot_break, mandelbrot_break_lax,
                 (mandelbrot_grid(),), wrap=jax.vmap, eager=False),
        Workload('mandelbrot break, one point', mandelbrot_break, mandelbrot_break_lax,
                 (jnp.complex64(-0.75 + 0.1j),), eager=False),
        Workload('train step (grad)', train_step, train_step_lax,
                 (jnp.asarray(rng.normal(size=(16, 4)) * 0.1, jnp.float32),
                  xs.reshape(8, 4, 16), jnp.zeros((8, 4, 4))), eager=False),
    ] + natural_loops()
