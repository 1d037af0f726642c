"""Corpus of public functions, ODE solvers: RK4 per component, RKF45 with an error
estimate, Dormand-Prince with step control and `break`, adaptive RKF45 that grows its
output, implicit Euler with a Newton loop and an early `return`, Adams predictor-corrector,
velocity Verlet through a helper that writes its arguments (the SDE solvers are in
test_corpus_sde.py). Edits: `np.` becomes `jnp.`, Python 2 `xrange` becomes `range`.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.peers.corpus_harness import agree, agree_vmap, close, converted, f32


def lotka(x, t):
    return jnp.array([x[0] - 0.5 * x[0] * x[1], 0.3 * x[0] * x[1] - 0.4 * x[1]])


def decay(t, y):
    return -0.8 * y + jnp.sin(t)


# --- ucfilho/Disciplina_Metodos_Numericos_2020: rk4 (component loop, item writes) ---------

def rk4_components(f, x0, t):
    nx = len(x0)
    n = len(t)
    x = jnp.array([x0] * n)
    k1 = jnp.zeros(nx, dtype=float)
    k2 = jnp.zeros(nx, dtype=float)
    k3 = jnp.zeros(nx, dtype=float)
    k4 = jnp.zeros(nx, dtype=float)
    h = t[1] - t[0]
    for i in range(n - 1):
        for j in range(nx):
            k1[j] = h * f(x[i, :], t[i])[j]
            k2[j] = h * f(x[i, :] + 0.5 * k1[j], t[i] + 0.5 * h)[j]
            k3[j] = h * f(x[i, :] + 0.5 * k2[j], t[i] + 0.5 * h)[j]
            k4[j] = h * f(x[i, :] + k3[j], t[i + 1])[j]
            x[i + 1, j] = x[i, j] + (k1[j] + 2.0 * (k2[j] + k3[j]) + k4[j]) / 6.0
    return x


def test_rk4_component_loop():
    run = lambda x0, t: rk4_components(lotka, x0, t)
    t = jnp.linspace(0.0, 2.0, 9)
    agree(run, (jnp.array([1.0, 0.5]), t), (jnp.array([2.0, 1.0]), t * 0.5))


# --- Henrynaut/Py622: rk45 (RKF45 with a per-step error estimate) -------------------------

C = dict(c20=0.25, c30=0.375, c40=12 / 13, c60=0.5, c21=0.25, c31=3 / 32, c32=9 / 32,
         c41=1932 / 2197, c42=-7200 / 2197, c43=7296 / 2197, c51=439 / 216, c52=-8.0,
         c53=3680 / 513, c54=-845 / 4104, c61=-8 / 27, c62=2.0, c63=-3544 / 2565,
         c64=1859 / 4104, c65=-11 / 40, a1=25 / 216, a3=1408 / 2565, a4=2197 / 4104,
         a5=-0.2, b1=16 / 135, b3=6656 / 12825, b4=28561 / 56430, b5=-0.18, b6=2 / 55)


def rk45(f, x0, t):
    c20, c30, c40, c60 = C['c20'], C['c30'], C['c40'], C['c60']
    c21, c31, c32, c41, c42, c43 = C['c21'], C['c31'], C['c32'], C['c41'], C['c42'], C['c43']
    c51, c52, c53, c54 = C['c51'], C['c52'], C['c53'], C['c54']
    c61, c62, c63, c64, c65 = C['c61'], C['c62'], C['c63'], C['c64'], C['c65']
    a1, a3, a4, a5 = C['a1'], C['a3'], C['a4'], C['a5']
    b1, b3, b4, b5, b6 = C['b1'], C['b3'], C['b4'], C['b5'], C['b6']
    n = len(t)
    x = jnp.array([x0] * n)
    e = jnp.array([0 * x0] * n)
    for i in range(n - 1):
        h = t[i + 1] - t[i]
        k1 = h * f(x[i], t[i])
        k2 = h * f(x[i] + c21 * k1, t[i] + c20 * h)
        k3 = h * f(x[i] + c31 * k1 + c32 * k2, t[i] + c30 * h)
        k4 = h * f(x[i] + c41 * k1 + c42 * k2 + c43 * k3, t[i] + c40 * h)
        k5 = h * f(x[i] + c51 * k1 + c52 * k2 + c53 * k3 + c54 * k4, t[i] + h)
        k6 = h * f(x[i] + c61 * k1 + c62 * k2 + c63 * k3 + c64 * k4 + c65 * k5,
                   t[i] + c60 * h)
        x[i + 1] = x[i] + a1 * k1 + a3 * k3 + a4 * k4 + a5 * k5
        x5 = x[i] + b1 * k1 + b3 * k3 + b4 * k4 + b5 * k5 + b6 * k6
        e[i + 1] = abs(x5 - x[i + 1])
    return (x, e)


def test_rk45_with_error_estimate():
    run = lambda x0, t: rk45(lotka, x0, t)
    t = jnp.linspace(0.0, 3.0, 13)
    # the error estimate is a difference of two close float32 values: absolute tolerance
    agree(run, (jnp.array([1.0, 0.5]), t), (jnp.array([2.0, 1.0]), t * 0.5), atol=1e-5)


# --- tivole/Numerary: odedopri (Dormand-Prince, step control, flags set before `break`) ----

def odedopri(fxy, x0, y0, x1, tol, hmax, hmin, maxiter):
    a21, a31, a32 = 1.0 / 5.0, 3.0 / 40.0, 9.0 / 40.0
    a41, a42, a43 = 44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0
    a51, a52, a53, a54 = 19372.0 / 6561.0, -25360.0 / 2187.0, 64448.0 / 6561.0, -212.0 / 729.0
    a61, a62, a63, a64, a65 = (9017.0 / 3168.0, -355.0 / 33.0, 46732.0 / 5247.0,
                               49.0 / 176.0, -5103.0 / 18656.0)
    a71, a72, a73, a74, a75, a76 = (35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0,
                                    -2187.0 / 6784.0, 11.0 / 84.0)
    c2, c3, c4, c5 = 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0
    b1, b3, b4, b5, b6, b7 = (35.0 / 384.0, 500.0 / 1113.0, 125.0 / 192.0,
                              -2187.0 / 6784.0, 11.0 / 84.0, 0.0)
    b1p, b3p, b4p, b5p, b6p, b7p = (5179.0 / 57600.0, 7571.0 / 16695.0, 393.0 / 640.0,
                                    -92097.0 / 339200.0, 187.0 / 2100.0, 1.0 / 40.0)
    x = x0
    y = y0
    h = hmax
    for i in range(maxiter):
        K1 = fxy(x, y)
        K2 = fxy(x + c2 * h, y + h * (a21 * K1))
        K3 = fxy(x + c3 * h, y + h * (a31 * K1 + a32 * K2))
        K4 = fxy(x + c4 * h, y + h * (a41 * K1 + a42 * K2 + a43 * K3))
        K5 = fxy(x + c5 * h, y + h * (a51 * K1 + a52 * K2 + a53 * K3 + a54 * K4))
        K6 = fxy(x + h, y + h * (a61 * K1 + a62 * K2 + a63 * K3 + a64 * K4 + a65 * K5))
        K7 = fxy(x + h, y + h * (a71 * K1 + a72 * K2 + a73 * K3 + a74 * K4 + a75 * K5
                                 + a76 * K6))
        error = abs((b1 - b1p) * K1 + (b3 - b3p) * K3 + (b4 - b4p) * K4 + (b5 - b5p) * K5
                    + (b6 - b6p) * K6 + (b7 - b7p) * K7)
        # error control
        delta = 0.84 * pow(tol / error, (1.0 / 5.0))
        if (error < tol):
            x = x + h
            y = y + h * (b1 * K1 + b3 * K3 + b4 * K4 + b5 * K5 + b6 * K6)
        if (delta <= 0.1):
            h = h * 0.1
        elif (delta >= 4.0):
            h = h * 4.0
        else:
            h = delta * h
        if (h > hmax):
            h = hmax
        if (x >= x1):
            flag = 0
            break
        elif (x + h > x1):
            h = x1 - x
        elif (h < hmin):
            flag = 1
            break
    maxiter = maxiter - i
    if (i <= 0):
        flag = 2
    return (y, flag, maxiter)


def cubic_rhs(x, y):
    return 3.0 * y / x + x * x * x + x


@pytest.mark.parametrize('hmin', [0.01, 0.3])   # 0.3: leaves by `flag = 1; break`
def test_dormand_prince_odedopri(hmin):
    run = lambda y0, x1: odedopri(cubic_rhs, 1.0, y0, x1, 1e-3, 0.5, hmin, 60)
    # float32 steps: a rejected or accepted step may flip near tol; loose rtol on y
    agree(run, (f32(3.0), f32(2.0)), (f32(1.0), f32(1.6)), rtol=1e-4)


# --- fusion809/python-scripts: RKF45 that appends each accepted step ----------------------

def RKF45(f, t0, tf, dtInitial, params, conds, epsilon):
    i = 0
    t = jnp.array([t0])
    depVars = conds
    dt = dtInitial
    while (t[i] < tf):
        dt = min([dt, tf - t[i]])
        K1 = f(params, t[i], depVars[i, :], dt)
        K2 = f(params, t[i] + dt / 4, depVars[i, :] + jnp.multiply(1 / 4, K1), dt)
        K3 = f(params, t[i] + 3 * dt / 8, depVars[i, :] + jnp.multiply(3 / 32, K1)
               + jnp.multiply(9 / 32, K2), dt)
        K4 = f(params, t[i] + 12 * dt / 13, depVars[i, :] + jnp.multiply(1932 / 2197, K1)
               + jnp.multiply(-7200 / 2197, K2) + jnp.multiply(7296 / 2197, K3), dt)
        K5 = f(params, t[i] + dt, depVars[i, :] + jnp.multiply(439 / 216, K1)
               + jnp.multiply(-8, K2) + jnp.multiply(3680 / 513, K3)
               + jnp.multiply(-845 / 4104, K4), dt)
        K6 = f(params, t[i] + dt / 2, depVars[i, :] + jnp.multiply(-8 / 27, K1)
               + jnp.multiply(2, K2) + jnp.multiply(-3544 / 2565, K3)
               + jnp.multiply(1859 / 4104, K4) + jnp.multiply(-11 / 40, K5), dt)
        depVars1 = depVars[i, :] + jnp.multiply(25 / 216, K1) + jnp.multiply(1408 / 2565, K3)
        depVars2 = depVars[i, :] + jnp.multiply(16 / 135, K1) + jnp.multiply(6656 / 12825, K3)
        Rarr = jnp.abs((depVars2 - depVars1) / dt)
        R = max(Rarr)
        s = (epsilon / (2 * R)) ** (1 / 4)
        if R <= epsilon:
            t = jnp.append(t, jnp.array([t[i] + dt]), axis=0)
            depVars = jnp.append(depVars, jnp.array([depVars1]), axis=0)
            i += 1
        dt *= s
    return t, depVars


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the arrays grown by jnp.append under a traced condition have a '
    'length known only at run time'))
def test_rkf45_growing_arrays():
    rhs = lambda p, t, y, dt: dt * jnp.array([-p * y[0]])
    run = lambda y0: RKF45(rhs, 0.0, 1.0, 0.5, 0.7, y0[None, :], 1e-2)
    agree(run, (jnp.array([1.0]),), (jnp.array([2.0]),))


# --- swiser/MATH5620: implicit_euler + euler_newton (early return, Newton while loop) ------

def euler_newton(function, derivative, u1, u2, t1, t2, tolerance, max_iters):
    error = tolerance * 10
    count = 0
    u_old = u2
    while error > tolerance and count < max_iters:
        u_new = u_old - function(u1, u_old, t1, t2) / float(derivative(t1, t2, u_old))
        error = abs(u_new - u_old)
        u_old = u_new
        count += 1
    return u_new


def implicit_euler(u_prime, newton_derivative, u0, t0, t_final, delta_t):
    time = t0
    u_old = u0
    u_new = u0
    iterator = 1
    newton_function = lambda u1, u2, t1, t2: u2 - u1 - (t2 - t1) * u_prime(u2, t2)
    while (time < t_final):
        if ((time + delta_t) > t_final):
            delta_t = t_final - time
            u_guess = u_old + delta_t * u_prime(u_old, time)
            u_new = euler_newton(newton_function, newton_derivative, u_old, u_guess, time,
                                 time + delta_t, 10 ** -6, 1000)
            return u_new
        u_guess = u_old + delta_t * u_prime(u_old, time)
        u_new = euler_newton(newton_function, newton_derivative, u_old, u_guess, time,
                             time + delta_t, 10 ** -6, 1000)
        u_old = u_new
        time = iterator * delta_t
        iterator += 1
    return u_new


def stiff(u, t):
    return -5.0 * u ** 3 + jnp.cos(t)


def stiff_newton_derivative(t1, t2, u):
    return 1.0 + (t2 - t1) * 15.0 * u ** 2


def test_implicit_euler_newton():
    # t_final 1.05: the last step is shortened, and the function returns from the loop
    run = lambda u0, dt: implicit_euler(stiff, stiff_newton_derivative, u0, 0.0, 1.05, dt)
    agree(run, (f32(1.0), f32(0.1)), (f32(-0.5), f32(0.2)), rtol=1e-4)
    # per element: its own Newton iterations, time steps and last step
    agree_vmap(run, jnp.array([1.0, 0.2]), jnp.array([0.1, 0.25]), rtol=1e-4)


def test_implicit_euler_grad_of_initial_value():
    # `float(...)` of the Newton derivative: plain JAX cannot differentiate the plain
    # function, so the reference is a central difference of the plain function
    loss = lambda u0: implicit_euler(stiff, stiff_newton_derivative, u0, 0.0, 0.5, 0.1)
    fd = (loss(0.81) - loss(0.79)) / 0.02
    close(jax.grad(converted(loss))(f32(0.8)), fd, rtol=2e-2)


# --- swiser/MATH5620: adams_bashforth4 / adams_moulton3 predictor-corrector ---------------

def RK_4(u_prime, u0, t0, t_final, delta_t):
    # swiser/MATH5620 HW5/runge_kutta.md is a helper of the same author; the classic step
    u, t = u0, t0
    while t < t_final - 1e-9:
        k1 = u_prime(u, t)
        k2 = u_prime(u + delta_t * k1 / 2, t + delta_t / 2)
        k3 = u_prime(u + delta_t * k2 / 2, t + delta_t / 2)
        k4 = u_prime(u + delta_t * k3, t + delta_t)
        u = u + delta_t * (k1 + 2 * k2 + 2 * k3 + k4) / 6
        t += delta_t
    return u


def adams_bashforth4(u_prime, u1, u2, u3, u4, delta_t, t):
    first = (55.0 / 24.0) * u_prime(u4, t - delta_t * 1.0)
    second = (-59.0 / 24.0) * u_prime(u3, t - delta_t * 2.0)
    third = (37.0 / 24.0) * u_prime(u2, t - delta_t * 3.0)
    fourth = (-3.0 / 8.0) * u_prime(u1, t - delta_t * 4.0)
    return u4 + delta_t * (first + second + third + fourth)


def adams_moulton3(u_prime, u0, t0, t_final, delta_t):
    u1 = u0
    u2 = RK_4(u_prime, u0, t0, t0 + delta_t * 1.0, delta_t)
    u3 = RK_4(u_prime, u0, t0, t0 + delta_t * 2.0, delta_t)
    u4 = RK_4(u_prime, u0, t0, t0 + delta_t * 3.0, delta_t)
    time = t0 + delta_t * 4.0
    while time < t_final:
        predictor = adams_bashforth4(u_prime, u1, u2, u3, u4, delta_t, time)
        first = (3.0 / 8.0) * u_prime(predictor, t_final)
        second = (19.0 / 24.0) * u_prime(u4, t_final - delta_t * 1.0)
        third = (-5.0 / 24.0) * u_prime(u3, t_final - delta_t * 2.0)
        fourth = (1.0 / 24.0) * u_prime(u2, t_final - delta_t * 3.0)
        u5 = u4 + delta_t * (first + second + third + fourth)
        u1 = u2
        u2 = u3
        u3 = u4
        u4 = u5
        time += delta_t
    return u5


def test_adams_predictor_corrector():
    f = lambda u, t: -0.5 * u + jnp.sin(t)
    run = lambda u0, t_final: adams_moulton3(f, u0, 0.0, t_final, 0.1)
    agree(run, (f32(1.0), f32(0.7)), (f32(2.0), f32(0.9)), rtol=1e-4)


# --- pepborrell/FPU-simulation: vverlet (a helper writes rows of its arguments) -----------

def acc(q):
    alpha0 = 1
    beta0 = 2
    alpha = alpha0 / 3
    beta = beta0 / 4
    fa = lambda r: -r - alpha * r ** 2 - beta * r ** 3
    q1 = jnp.roll(q, 1)
    dif_q = q1 - q
    a = jnp.zeros(len(q))
    a += fa(dif_q)
    dif_q1 = jnp.roll(dif_q, -1)
    a -= fa(dif_q1)
    a[0] = a[-1] = 0
    return a


def vverlet_step(x, v, dt, i):
    aux_acc = acc(x[i])
    x[i + 1] = x[i] + v[i] * dt + 0.5 * aux_acc * dt ** 2
    aux_acc_dt = acc(x[i + 1])
    v[i + 1] = v[i] + 0.5 * (aux_acc + aux_acc_dt) * dt


def vverlet(x, v, dt, time):
    for i in range(time - 1):
        vverlet_step(x, v, dt, i)


def fpu_chain(x, v, dt):
    vverlet(x, v, dt, x.shape[0])
    return x, v


def fpu_start(q1, p1, time=12, size=6):
    x, v = np.zeros((time, size), np.float32), np.zeros((time, size), np.float32)
    x[0, 1], v[0, 1] = q1, p1
    return x, v


def test_velocity_verlet_writes_through_a_helper():
    agree(fpu_chain, (*fpu_start(1.0, 2.0), f32(0.05)), (*fpu_start(0.5, -1.0), f32(0.1)))
