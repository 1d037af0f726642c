"""Corpus of public functions, second batch, an adaptive Runge-Kutta-Fehlberg solver: the
step builds its stages in a list from comprehensions over the earlier stages, picks the
next step size under a traced `if` with `min`, and the solver runs `while t < tf`,
appending every step to two lists it never returns. Edits: the array-module parameter's
default `ncp = np` becomes `ncp = jnp` (the solver calls the step with the default).

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax.numpy as jnp

from tests.peers.corpus_harness import agree, agree_grad, agree_vmap, f32


# --- ThomasYangth/NHWP-SP: rk45_step, rk45 -------------------------------------------------

def rk45_step(func, t, y, h, tol=1e-6, ncp = jnp):
    c = ncp.array([0, 1/4, 3/8, 12/13, 1, 1/2])
    a = [
        [],
        [1/4],
        [3/32, 9/32],
        [1932/2197, -7200/2197, 7296/2197],
        [439/216, -8, 3680/513, -845/4104],
        [-8/27, 2, -3544/2565, 1859/4104, -11/40]
    ]
    b = ncp.array([16/135, 0, 6656/12825, 28561/56430, -9/50, 2/55])
    b_star = ncp.array([25/216, 0, 1408/2565, 2197/4104, -1/5, 0])

    k = []
    for i in range(6):
        y_temp = y + h * ncp.sum(ncp.array([a[i][j] * k[j] for j in range(i)]), axis=0)[:,ncp.newaxis] if i > 0 else y
        k.append(func(y_temp.flatten(), t + c[i] * h))

    y_new = y + h * ncp.sum(ncp.array([b[i] * k[i] for i in range(6)]), axis=0)[:,ncp.newaxis]
    y_new_star = y + h * ncp.sum(ncp.array([b_star[i] * k[i] for i in range(6)]), axis=0)[:,ncp.newaxis]

    error = ncp.linalg.norm(y_new - y_new_star, ord=ncp.inf)
    if error > tol:
        h_new = h * min(0.9 * (tol / error)**0.2, 1.0)
    else:
        h_new = h * min(0.9 * (tol / error)**0.25, 1.5)

    return t + h, y_new, h_new


def rk45(func, t_span, y0, h0=0.1, tol=1e-6, ncp = jnp):
    t0, tf = t_span
    t = t0
    y = ncp.array(y0, dtype=float)
    h = h0

    t_vals = [t]
    y_vals = [y]

    while t < tf:
        if t + h > tf:
            h = tf - t
        t, y, h = rk45_step(func, t, y, h, tol)
        t_vals.append(t)
        y_vals.append(y)

    return y


def damped(y, t):
    return jnp.array([y[1], -y[0] - 0.1 * y[1]])


Y0 = jnp.array([[1.0], [0.0]])


# The error estimate is the difference of two nearly equal solutions: rounded in float32,
# it differs by a few tenths of a percent between a compiled program and operations run
# one by one (jax.jit of the plain function gives the compiled value), and the next step
# size goes with its fifth root.
ERROR_RTOL = 2e-3


def test_rk45_step_stage_lists_and_min_under_a_traced_if():
    run = lambda y, h: rk45_step(damped, f32(0.0), y, h, 1e-4)
    agree(run, (Y0, f32(0.1)), (Y0[::-1], f32(0.5)), rtol=ERROR_RTOL)


def test_rk45_while_with_lists_it_never_returns():
    run = lambda y, tf: rk45(damped, (f32(0.0), tf), y, f32(0.1), 1e-4)
    agree(run, (Y0, f32(2.0)), (Y0[::-1], f32(3.0)), rtol=ERROR_RTOL, atol=1e-5)
    agree_vmap(run, jnp.stack([Y0, Y0[::-1]]), jnp.array([2.0, 1.0]), rtol=ERROR_RTOL,
               atol=1e-5)
    # (at tf = 2.0 the steps of 0.1 end on a last step of about zero, whose error
    # estimate is 0: `(tol / error)**0.2` is inf, and its derivative times the zero
    # cotangent `min` gives the operand it does not choose is NaN, where Python's `min`
    # differentiates the chosen operand only; XLA's optimiser folds that away at its
    # default level, not at the level `make test` sets)
    agree_grad(lambda tf: jnp.sum(run(Y0, tf)), f32(2.05))
