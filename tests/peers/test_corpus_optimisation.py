"""Corpus of public functions, optimisation: root finders (bisection, Newton-Raphson,
secant, square root), golden-section searches and backtracking line searches, with the
edits a user makes moving NumPy code to JAX. Tolerances are float32's: the originals'
defaults of 1e-7 or 1e-14 are passed as float32-sized arguments where a float32 loop would
never meet them.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import math

import jax.numpy as jnp
import pytest

import autograph
from tests.peers.corpus_harness import agree, agree_grad, agree_vmap, f32


# --- TheAlgorithms/Python maths/numerical_analysis ----------------------------------------

def bisection(function, a, b):
    start = a
    end = b
    if function(a) == 0:  # one of the a or b is a root for the function
        return a
    elif function(b) == 0:
        return b
    elif function(a) * function(b) > 0:
        raise ValueError("could not find root in given interval.")
    else:
        mid = start + (end - start) / 2.0
        while abs(start - mid) > 10**-7:  # until precisely equals to 10^-7
            if function(mid) == 0:
                return mid
            elif function(mid) * function(start) < 0:
                end = mid
            else:
                start = mid
            mid = start + (end - start) / 2.0
        return mid


def cubic(x):
    return x * x * x + x - 0.5           # a root near 0.45: float32 steps finer than 1e-7


def equation(x):
    return 10 - x * x


def bisection_2(a, b):
    if equation(a) * equation(b) >= 0:
        raise ValueError("Wrong space!")
    c = a
    while (b - a) >= 0.01:
        c = (a + b) / 2
        if equation(c) == 0.0:
            break
        if equation(c) * equation(a) < 0:
            b = c
        else:
            a = c
    return c


def calc_derivative(f, x, delta_x=1e-3):
    return (f(x + delta_x / 2) - f(x - delta_x / 2)) / delta_x


def newton_raphson(f, x0=0, max_iter=100, step=1e-6, max_error=1e-6, log_steps=False):
    def f_derivative(x):
        return calc_derivative(f, x, step)

    a = x0  # Set initial guess
    steps = []
    for _ in range(max_iter):
        if log_steps:  # Log intermediate steps
            steps.append(a)
        error = abs(f(a))
        if error < max_error:
            return a, error, steps
        if f_derivative(a) == 0:
            raise ZeroDivisionError("No converging solution found, zero derivative")
        a -= f(a) / f_derivative(a)  # Calculate next estimate
    raise ArithmeticError("No converging solution found, iteration limit reached")


def secant_f(x):
    return 8 * x - 2 * jnp.exp(-x)


def secant_method(lower_bound, upper_bound, repeats):
    x0 = lower_bound
    x1 = upper_bound
    for _ in range(repeats):
        x0, x1 = x1, x1 - (secant_f(x1) * (x1 - x0)) / (secant_f(x1) - secant_f(x0))
    return x1


def intersection(function, x0, x1):
    x_n = x0
    x_n1 = x1
    while True:
        if x_n == x_n1 or function(x_n1) == function(x_n):
            raise ZeroDivisionError("float division by zero, could not find root")
        x_n2 = x_n1 - (function(x_n1) / ((function(x_n1) - function(x_n)) / (x_n1 - x_n)))
        if abs(x_n2 - x_n1) < 10**-5:
            return x_n2
        x_n = x_n1
        x_n1 = x_n2


def fx(x, a):
    return jnp.power(x, 2) - a


def get_initial_point(a):
    start = 2.0
    while start <= a:
        start = jnp.power(start, 2)
    return start


def square_root_iterative(a, max_iter=9999, tolerance=1e-14):
    if a < 0:
        raise ValueError("math domain error")
    value = get_initial_point(a)
    for _ in range(max_iter):
        prev_value = value
        value = value - fx(value, a) / (2 * value)
        if abs(prev_value - value) < tolerance:
            return value
    return value


def half(x):
    return x * x - 0.25                  # a root at 0.5, exact in float32


@pytest.mark.parametrize('function, a, b, a2, b2', [(cubic, 0.0, 1.0, 0.1, 0.9),
                                                    (half, 0.5, 1.0, 0.0, 2.0)])
def test_bisection(function, a, b, a2, b2):
    # half on (0.5, 1.0): f(a) == 0 returns `a` at once; then a search on the same trace
    agree(lambda lo, hi: bisection(function, lo, hi), (f32(a), f32(b)), (f32(a2), f32(b2)))


def test_bisection_raises_as_python():
    with pytest.raises(ValueError, match='could not find root'):
        bisection(cubic, f32(1.0), f32(2.0))
    with pytest.raises(ValueError, match='could not find root'):
        autograph.convert(lambda lo, hi: bisection(cubic, lo, hi))(f32(1.0), f32(2.0))


def test_bisection_2():
    agree(bisection_2, (f32(-2.0), f32(5.0)), (f32(0.0), f32(6.0)))


@pytest.mark.parametrize('x0, x1', [(1.0, 1.5), (3.0, 0.5)])
def test_newton_raphson(x0, x1):
    square = lambda x: x * x - 2.0
    agree(lambda x: newton_raphson(square, x, step=1e-3, max_error=1e-4),
          (f32(x0),), (f32(x1),))


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the list appended to once per iteration of a staged loop left '
    'by `return` is returned: its length is the trip count, known only at run time'))
def test_newton_raphson_logging_steps():
    # log_steps=True: the list of iterates has as many items as the loop ran steps
    square = lambda x: x * x - 2.0
    agree(lambda x: newton_raphson(square, x, step=1e-3, max_error=1e-4, log_steps=True),
          (f32(1.0),), (f32(3.0),))


def test_secant_method():
    agree(lambda lo, hi: secant_method(lo, hi, 5), (f32(1.0), f32(3.0)), (f32(0.0), f32(2.0)))
    agree_grad(lambda lo: secant_method(lo, f32(3.0), 5), f32(1.0))


def test_intersection():
    cube = lambda x: x * x * x - 2 * x - 5
    agree(lambda a, b: intersection(cube, a, b), (f32(3.0), f32(3.5)), (f32(1.0), f32(4.0)))


def test_intersection_raises_as_python():
    flat = lambda x: 0.0 * x + 1.0
    with pytest.raises(ZeroDivisionError):
        autograph.convert(lambda a, b: intersection(flat, a, b))(f32(3.0), f32(3.5))


@pytest.mark.parametrize('a, a2', [(10.0, 3.0), (100.0, 0.5)])
def test_square_root_iterative(a, a2):
    agree(lambda v: square_root_iterative(v, tolerance=1e-6), (f32(a),), (f32(a2),))



# --- golden-section searches and backtracking line searches --------------------------------

gr = (math.sqrt(5) + 1) / 2
invphi = (math.sqrt(5) - 1) / 2  # 1 / phi


def gss_tycho(f, a, b, tol=1e-5):
    c = b - (b - a) / gr
    d = a + (b - a) / gr
    while abs(b - a) > tol:
        if f(c) < f(d):  # f(c) > f(d) to find the maximum
            b = d
        else:
            a = c
        c = b - (b - a) / gr
        d = a + (b - a) / gr
    return (b + a) / 2


def gss_powell(f, a, b, tolerance=1e-5):
    while b - a > tolerance:
        c = b - (b - a) * invphi
        d = a + (b - a) * invphi
        if f(c) < f(d):
            b = d
        else:  # f(c) > f(d) to find the maximum
            a = c
    return (b + a) / 2


def backtracking(f, df, x, alpha, beta):
    t = 1
    dx = - df(x)
    while f(x + t*dx) > f(x) + alpha * t * (df(x) * dx):
        t = beta * t
    return t


class Rosenbrock:
    def function(self, x):
        return (1 - x[0]) ** 2 + 10 * (x[1] - x[0] ** 2) ** 2

    def get_gradient(self, x):
        return jnp.array([-2 * (1 - x[0]) - 40 * x[0] * (x[1] - x[0] ** 2),
                          20 * (x[1] - x[0] ** 2)])


def backtracking_line_search(f, x, d, alpha, rho=0.5, beta=10e-4):
    f_x = f.function(x)
    nabla_f_x = f.get_gradient(x)
    y, g = f_x, nabla_f_x
    while f.function(x + alpha * d) > y + beta * alpha * (nabla_f_x @ d):
        alpha *= rho
    return alpha


@pytest.mark.parametrize('gss', [gss_tycho, gss_powell])
def test_golden_section_searches(gss):
    # atol: the search tolerance. XLA's compiled sin() rounds f near the flat minimum
    # otherwise than eager JAX does, so a comparison f(c) < f(d) can go the other way
    # (the converted function run without jit agrees exactly)
    bowl = lambda x: (x - 2) ** 2 + 0.1 * jnp.sin(5 * x)
    agree(lambda a, b: gss(bowl, a, b, 1e-4), (f32(1.0), f32(5.0)), (f32(-1.0), f32(3.0)),
          atol=2e-4)
    if gss is gss_powell:
        agree_vmap(lambda a: gss(bowl, a, a + 4.0, 1e-4), jnp.array([0.0, 1.0]), atol=2e-4)


def test_backtracking_scalar():
    f = lambda x: x ** 4 - 3 * x
    df = lambda x: 4 * x ** 3 - 3
    agree(lambda x: backtracking(f, df, x, 0.3, 0.5), (f32(2.0),), (f32(-1.0),))


def test_backtracking_line_search_with_an_objective_object():
    rosen = Rosenbrock()
    search = lambda x: backtracking_line_search(rosen, x, -rosen.get_gradient(x), 1.0)
    agree(search, (jnp.array([-1.0, 2.0]),), (jnp.array([0.5, 0.1]),))
