"""Corpus of public functions, fifth batch, root finding: three bisections (tuple assignment
in a `while`; an `exit` under a traced test of the bracket and a `break` on an exact zero; a
`while True` left by a `break`) and three Newton-Raphsons (`return` inside a `for` and
`None` on a zero derivative or after the last iteration; `while True` returning `None` or
a tuple; a tuple whose first item is `None` after `maxiter`). Edits: `math.`/`np.`
become `jnp.` where traced values flow; prints kept.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax
import jax.numpy as jnp
import pytest

import autograph

from tests.peers.corpus_harness import agree, agree_grad, agree_vmap, plain


def cubic(x):
    return x ** 3 - 2.0 * x - 1.5


# --- QuantEcon/QuantEcon.py: bisection.py (bisect) ----------------------------------------

def bisect(f, a, b, tol=10e-5):
    """
    Implements the bisection root finding algorithm, assuming that f is a
    real-valued function on [a, b] satisfying f(a) < 0 < f(b).
    """
    lower, upper = a, b

    while upper - lower > tol:
        middle = 0.5 * (upper + lower)
        # === if root is between lower and middle === #
        if f(middle) > 0:
            lower, upper = lower, middle
        # === if root is between middle and upper  === #
        else:
            lower, upper = middle, upper

    return 0.5 * (upper + lower)


def test_bisect_tuple_assignment_in_a_traced_while():
    agree(lambda a, b: bisect(cubic, a, b), (jnp.float32(1.0), jnp.float32(2.5)),
          (jnp.float32(0.5), jnp.float32(3.0)))
    agree_vmap(lambda a: bisect(cubic, a, 3.0), jnp.array([1.0, 1.5, 0.0]))


# --- wessware/algorithms_and_computations: bisection_method.py (math_bisection) -----------

def math_bisection(f, a, b, tol):
    if f(a) * f(b) >= 0:
        print("Bisection method fails.")
        exit(0)

    c = a
    while (b - a) >= tol:
        c = (a + b) / 2
        if f(c) == 0.0:
            break
        if f(c) * f(a) < 0:
            b = c
        else:
            a = c
    return c


def test_math_bisection_exit_under_a_traced_test_and_break_on_zero():
    agree(lambda a, b: math_bisection(cubic, a, b, 1e-4),
          (jnp.float32(1.0), jnp.float32(2.5)), (jnp.float32(0.5), jnp.float32(3.0)))
    # f(c) == 0 exactly at the first midpoint: the `break` is taken
    agree(lambda a, b: math_bisection(lambda x: x - 1.0, a, b, 1e-4),
          (jnp.float32(0.0), jnp.float32(2.0)), (jnp.float32(-1.0), jnp.float32(3.0)))
    # no sign change: `exit(0)`, when the program runs, as Python's SystemExit
    bad = (jnp.float32(3.0), jnp.float32(4.0))
    run = lambda a, b: math_bisection(lambda x: x - 1.0, a, b, 1e-4)   # noqa: E731
    for call in (lambda: plain(run, *bad), lambda: autograph.convert(run)(*bad)):
        with pytest.raises(SystemExit) as info:
            call()
        assert info.value.code == 0


# --- sdrave/braunschweig09: bisec/c/bisec.py (bisec) --------------------------------------

def bisec(f, a, b, tol=1e-4):
    while True:
        c = (a + b)/2
        y = f(c)
        if abs(y) < 1e-4:
            break
        if y > 0:
            b = c
        else:
            a = c

    return y


def test_bisec_while_true_left_by_a_break():
    agree(lambda a, b: bisec(cubic, a, b), (jnp.float32(1.0), jnp.float32(2.5)),
          (jnp.float32(0.5), jnp.float32(3.0)))
    agree_vmap(lambda a: bisec(cubic, a, jnp.float32(3.0)), jnp.array([1.0, 1.5, 0.0]))


def test_bisect_grad_of_the_root_in_a_parameter():
    agree_grad(lambda c: bisect(lambda x: x ** 3 - c, jnp.float32(0.0), jnp.float32(3.0)),
               jnp.float32(2.0))


def dcubic(x):
    return 3.0 * x ** 2 - 2.0


# --- DiegoAlb09/4to-Semestre: Programacion_Cientifica/Metodos_Numericos/M_Newton_Raphson.py -

def newton_raphson(fun,der,x0, e, N):
    for n in range(N + 1):
        #Se revisa que la funcion no sea 0
        f_x = fun(x0)
        if f_x < e:
            print("La raiz es: ", x0)
            return x0
        #Se revisa que la derivada no sea 0
        d_f = der(x0)
        if d_f == 0:
            print("La derivada es 0")
            return None

        #Siguiente punto
        x0 = x0 - f_x / d_f
    print("El metodo fracaso despues de %d iteraciones" % N)
    return None


def test_newton_return_inside_a_for_or_none():
    # f(x0) < e at once (the original tests f, not |f|); after some steps; never (None)
    agree(lambda x0: newton_raphson(cubic, dcubic, x0, 1e-4, 8), (jnp.float32(0.5),),
          (jnp.float32(3.0),))
    agree(lambda x0: newton_raphson(cubic, dcubic, x0, 1e-4, 1), (jnp.float32(3.0),))
    # a zero derivative at the start: None
    agree(lambda x0: newton_raphson(lambda x: x ** 2 + 1.0, lambda x: 2.0 * x, x0, 1e-4, 4),
          (jnp.float32(0.0),), (jnp.float32(2.0),))


# --- isaachernandez24/Calculo-numerico: newton_raphson.py (newton_raphson) ----------------

def newton_raphson_while(x0, tol, fx, dfx):
    iteracion = 1
    while True:
        derivada = dfx(x0)
        if derivada == 0:
            print("La derivada es cero. El método no puede continuar.")
            return None

        x1 = x0 - fx(x0) / derivada
        error = abs(x1 - x0)

        if error < tol:
            return x1, error

        x0 = x1
        iteracion += 1


def test_newton_while_true_returns_a_tuple_or_none():
    agree(lambda x0: newton_raphson_while(x0, 1e-4, cubic, dcubic), (jnp.float32(3.0),),
          (jnp.float32(1.5),))
    agree(lambda x0: newton_raphson_while(x0, 1e-4, lambda x: x ** 2 - 2.0,
                                          lambda x: 2.0 * x),
          (jnp.float32(0.0),), (jnp.float32(1.0),))


# --- 1694kyle/Trading: NonLinear/newtons.py (newton) --------------------------------------

def newton(f, df, x, tol=0.001, maxiter=100):
    """
    :param f: The function to solve
    :param df: The derivative function of f
    :param x: Initial guess value of x
    :param tol: The precision of the solution
    :param maxiter: Maximum number of iterations
    :return: The x-axis value of the root,
                number of iterations used
    """
    n = 1

    while n <= maxiter:
        x1 = x - f(x)/df(x)
        if abs(x1 - x) < tol:  # Root is very close
            return x1, n
        else:
            x = x1
            n += 1

    return None, n


def test_newton_tuple_with_none_after_maxiter():
    agree(lambda x: newton(cubic, dcubic, x), (jnp.float32(3.0),), (jnp.float32(1.5),))
    agree(lambda x: newton(cubic, dcubic, x, 1e-3, 2), (jnp.float32(3.0),),
          (jnp.float32(1.7),))


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): under jax.vmap each element of the batch may give `None` or a '
    'root (`return None, n` after `maxiter`), a structure known only at run time; here '
    'every element converges, but which kind each gives is decided by a traced test'))
def test_newton_optional_root_under_vmap():
    agree_vmap(lambda x: newton(cubic, dcubic, x)[0], jnp.array([3.0, 1.5, 2.0]))
