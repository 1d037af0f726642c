"""Scalar minimizers in the style of SciPy's `scipy/optimize/_optimize.py` (golden-section
search, the downhill `bracket` search, Brent's method as a class whose `optimize()` sets
attributes, bounded minimization), written afresh for JAX values with the same Python
control flow: `while` loops left by `break`, flags set on some paths, values bound only
inside a loop, objective calls counted in a list by a wrapper. Each case compares the
converted function with the same function run as plain Python on the same inputs.

Tolerances suit float32 (about sqrt(eps), not SciPy's float64 defaults), and starting points
avoid steps whose branch hangs on an exact cancellation (Brent's parabola through two equal
points): XLA fuses multiply-adds in compiled code, so such a test would compare rounding,
not the converter. The paths of the cases below were checked step by step."""
import math

import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same
from tests.peers.scipy_harness import agree, agree_batched, agree_grad, f32, same_state

INV_PHI = 0.6180339887   # 1 / golden ratio
INV_PHI2 = 1.0 - INV_PHI  # the golden section's short side
GROW = 1.618034


def golden_search(func, lo, hi, tol=1e-3, maxiter=100):
    """Golden-section search of [lo, hi]: (x, f(x), iterations, calls)."""
    calls = [0]

    def f(x):
        calls[0] += 1
        return func(x)
    x0, x3 = lo, hi
    x1 = x0 + INV_PHI2 * (x3 - x0)
    x2 = x0 + INV_PHI * (x3 - x0)
    f1, f2 = f(x1), f(x2)
    steps = 0
    while steps < maxiter:
        if abs(x3 - x0) <= tol * (abs(x1) + abs(x2)):
            break
        if f2 < f1:
            x0, x1, f1 = x1, x2, f2
            x2 = INV_PHI * x1 + INV_PHI2 * x3
            f2 = f(x2)
        else:
            x3, x2, f2 = x2, x1, f1
            x1 = INV_PHI * x2 + INV_PHI2 * x0
            f1 = f(x1)
        steps += 1
    if f1 < f2:
        best, fbest = x1, f1
    else:
        best, fbest = x2, f2
    return best, fbest, steps, calls[0]


def bracket_minimum(func, xa=0.0, xb=1.0, grow_limit=110.0, maxiter=50):
    """Downhill search for xa, xb, xc with f(xb) below f(xa) and f(xc), growing the step
    by the golden ratio or a parabolic guess: (xa, xb, xc, fa, fb, fc, calls)."""
    fa, fb = func(xa), func(xb)
    if fa < fb:
        xa, xb = xb, xa
        fa, fb = fb, fa
    xc = xb + GROW * (xb - xa)
    fc = func(xc)
    calls = 3
    rounds = 0
    while fc < fb:
        t1 = (xb - xa) * (fb - fc)
        t2 = (xb - xc) * (fb - fa)
        gap = t2 - t1
        if abs(gap) < 1e-21:
            denom = 2e-21
        else:
            denom = 2.0 * gap
        w = xb - ((xb - xc) * t2 - (xb - xa) * t1) / denom
        wlim = xb + grow_limit * (xc - xb)
        if rounds > maxiter:
            raise RuntimeError('no bracket found: too many rounds')
        rounds += 1
        if (w - xc) * (xb - w) > 0.0:
            fw = func(w)
            calls += 1
            if fw < fc:
                xa, xb, fa, fb = xb, w, fb, fw
                break
            elif fw > fb:
                xc, fc = w, fw
                break
            w = xc + GROW * (xc - xb)
            fw = func(w)
            calls += 1
        elif (w - wlim) * (wlim - xc) >= 0.0:
            w = wlim
            fw = func(w)
            calls += 1
        elif (w - wlim) * (xc - w) > 0.0:
            fw = func(w)
            calls += 1
            if fw < fc:
                xb, xc = xc, w
                w = xc + GROW * (xc - xb)
                fb, fc = fc, fw
                fw = func(w)
                calls += 1
        else:
            w = xc + GROW * (xc - xb)
            fw = func(w)
            calls += 1
        xa, xb, xc = xb, xc, w
        fa, fb, fc = fb, fc, fw
    return xa, xb, xc, fa, fb, fc, calls


class BrentMinimizer:
    """Brent's method for a scalar minimum, kept as an object: `set_bracket`, then
    `optimize()` stores xmin, fval, iter and funcalls; `get_result` reads them."""

    def __init__(self, func, tol=1e-3, maxiter=100):
        self.func = func
        self.tol = tol
        self.maxiter = maxiter
        self.brack = None
        self.xmin = None
        self.fval = None
        self.iter = 0
        self.funcalls = 0

    def set_bracket(self, brack=None):
        self.brack = brack

    def bracket_info(self):
        if self.brack is None:
            return bracket_minimum(self.func)
        if len(self.brack) == 2:
            return bracket_minimum(self.func, xa=self.brack[0], xb=self.brack[1])
        xa, xb, xc = self.brack
        if xa > xc:
            xa, xc = xc, xa
        fa, fb, fc = self.func(xa), self.func(xb), self.func(xc)
        if not (fb < fa and fb < fc):
            raise ValueError('the bracket does not hold a minimum')
        return xa, xb, xc, fa, fb, fc, 3

    def optimize(self):
        xa, xb, xc, fa, fb, fc, calls = self.bracket_info()
        x = w = v = xb
        fx = fw = fv = fb
        if xa < xc:
            a, b = xa, xc
        else:
            a, b = xc, xa
        step = 0.0
        it = 0
        while it < self.maxiter:
            tol1 = self.tol * abs(x) + 1e-11
            tol2 = 2.0 * tol1
            mid = 0.5 * (a + b)
            if abs(x - mid) < tol2 - 0.5 * (b - a):
                break
            if abs(step) <= tol1:
                step = a - x if x >= mid else b - x
                rat = INV_PHI2 * step
            else:
                r = (x - w) * (fx - fv)
                q = (x - v) * (fx - fw)
                p = (x - v) * q - (x - w) * r
                q = 2.0 * (q - r)
                if q > 0.0:
                    p = -p
                q = abs(q)
                previous = step
                step = rat        # rat is bound: this branch never runs first
                if p > q * (a - x) and p < q * (b - x) and abs(p) < abs(0.5 * q * previous):
                    rat = p / q
                    u = x + rat
                    if (u - a) < tol2 or (b - u) < tol2:
                        rat = tol1 if mid - x >= 0 else -tol1
                else:
                    step = a - x if x >= mid else b - x
                    rat = INV_PHI2 * step
            if abs(rat) < tol1:
                u = x + tol1 if rat >= 0 else x - tol1
            else:
                u = x + rat
            fu = self.func(u)
            calls += 1
            if fu > fx:
                if u < x:
                    a = u
                else:
                    b = u
                if fu <= fw or w == x:
                    v, w, fv, fw = w, u, fw, fu
                elif fu <= fv or v == x or v == w:
                    v, fv = u, fu
            else:
                if u >= x:
                    a = x
                else:
                    b = x
                v, w, x = w, x, u
                fv, fw, fx = fw, fx, fu
            it += 1
        self.xmin = x
        self.fval = fx
        self.iter = it
        self.funcalls = calls

    def get_result(self, full_output=False):
        if full_output:
            return self.xmin, self.fval, self.iter, self.funcalls
        return self.xmin


def minimize_bounded(func, lo, hi, xatol=1e-3, maxfun=500):
    """Bounded scalar minimization (golden steps and parabolic fits inside [lo, hi]):
    (x, f(x), flag, calls); flag 1 when maxfun ran out, 2 on a NaN."""
    if lo > hi:
        raise ValueError('the lower bound exceeds the upper bound')
    root_eps = math.sqrt(2.2e-16)
    a, b = lo, hi
    far = a + INV_PHI2 * (b - a)
    near, x = far, far
    rat = e = 0.0
    fx = func(x)
    calls = 1
    fu = math.inf
    ffar = fnear = fx
    mid = 0.5 * (a + b)
    tol1 = root_eps * abs(x) + xatol / 3.0
    tol2 = 2.0 * tol1
    flag = 0
    while abs(x - mid) > tol2 - 0.5 * (b - a):
        golden = 1
        if abs(e) > tol1:
            golden = 0
            r = (x - near) * (fx - ffar)
            q = (x - far) * (fx - fnear)
            p = (x - far) * q - (x - near) * r
            q = 2.0 * (q - r)
            if q > 0.0:
                p = -p
            q = abs(q)
            r, e = e, rat
            if abs(p) < abs(0.5 * q * r) and p > q * (a - x) and p < q * (b - x):
                rat = p / q
                u = x + rat
                if (u - a) < tol2 or (b - u) < tol2:
                    rat = tol1 * (jnp.sign(mid - x) + ((mid - x) == 0))
            else:
                golden = 1
        if golden:
            e = a - x if x >= mid else b - x
            rat = INV_PHI2 * e
        u = x + (jnp.sign(rat) + (rat == 0)) * max(abs(rat), tol1)
        fu = func(u)
        calls += 1
        if fu <= fx:
            if u >= x:
                a = x
            else:
                b = x
            far, ffar = near, fnear
            near, fnear = x, fx
            x, fx = u, fu
        else:
            if u < x:
                a = u
            else:
                b = u
            if fu <= fnear or near == x:
                far, ffar = near, fnear
                near, fnear = u, fu
            elif fu <= ffar or far == x or far == near:
                far, ffar = u, fu
        mid = 0.5 * (a + b)
        tol1 = root_eps * abs(x) + xatol / 3.0
        tol2 = 2.0 * tol1
        if calls >= maxfun:
            flag = 1
            break
    if jnp.isnan(x) or jnp.isnan(fx) or jnp.isnan(fu):
        flag = 2
    return x, fx, flag, calls


def bumpy(x):
    return (x - 1.3) ** 2 + 0.25 * jnp.sin(3.0 * x)


def quartic(x):
    return (x * x - 2.0) ** 2 + 0.1 * x


# --- golden section ------------------------------------------------------------------------

@pytest.mark.parametrize('lo, hi', [(0.0, 3.0), (-2.0, 0.5)])
def test_golden_search_arrays_and_floats(lo, hi):
    search = lambda a, b: golden_search(bumpy, a, b)
    agree(search, f32(lo), f32(hi))
    agree(search, lo, hi)                        # Python floats: the loop runs as Python


def test_golden_search_converted_directly_with_the_objective_as_argument():
    expected = golden_search(quartic, f32(0.), f32(3.), 1e-3)
    assert_same(autograph.convert(golden_search)(quartic, f32(0.), f32(3.), 1e-3), expected)


def test_golden_search_zero_iterations_keeps_the_start():
    # maxiter=0: the loop body never runs; `steps` stays the Python 0
    agree(lambda a, b: golden_search(bumpy, a, b, maxiter=0), f32(0.), f32(3.))


def test_golden_search_vmap_over_the_left_end():
    agree_batched(lambda a: golden_search(bumpy, a, a + 3.0),
                  jnp.array([-1.0, 0.0, 0.5, 1.0], jnp.float32))


def test_golden_search_grad_of_the_minimum_value():
    def fmin(shift):
        return golden_search(lambda x: (x - shift) ** 2 + shift * x, f32(-3.), f32(3.))[1]
    agree_grad(fmin, f32(0.3))


# --- bracket -------------------------------------------------------------------------------

@pytest.mark.parametrize('xa, xb', [(0.0, 1.0), (3.0, 2.5), (-4.0, -3.9)])
def test_bracket_search(xa, xb):
    search = lambda a, b: bracket_minimum(quartic, a, b)
    agree(search, f32(xa), f32(xb))
    agree(search, xa, xb)


def test_bracket_search_vmap():
    agree_batched(lambda a: bracket_minimum(bumpy, a, a + 0.1),
                  jnp.array([-3.0, 0.0, 1.2, 4.0], jnp.float32))


def test_bracket_too_many_rounds_raises_as_python():
    slope = lambda x: -x                          # no minimum: the search never stops
    with pytest.raises(RuntimeError, match='too many rounds'):
        bracket_minimum(slope, 0.0, 1.0, maxiter=5)
    with pytest.raises(RuntimeError, match='too many rounds'):
        autograph.convert(bracket_minimum)(slope, 0.0, 1.0, 110.0, 5)
    with pytest.raises(RuntimeError, match='too many rounds'):
        autograph.convert(bracket_minimum)(slope, f32(0.), f32(1.), 110.0, 5)


# --- Brent's method as an object -----------------------------------------------------------

BRENT_STATE = ('xmin', 'fval', 'iter', 'funcalls')


def test_brent_object_state_after_two_optimize_calls():
    plain, conv = BrentMinimizer(bumpy), BrentMinimizer(bumpy)
    optimize = autograph.convert(conv.optimize)
    for brack in [(f32(0.), f32(1.)), (f32(0.), f32(1.4), f32(3.))]:
        plain.set_bracket(brack)
        conv.set_bracket(brack)
        plain.optimize()
        optimize()
        same_state(conv, plain, BRENT_STATE)
    assert_same(conv.get_result(full_output=True), plain.get_result(full_output=True))


def test_brent_object_default_bracket_with_python_floats():
    plain, conv = BrentMinimizer(quartic), BrentMinimizer(quartic)
    plain.optimize()
    autograph.convert(conv.optimize)()
    same_state(conv, plain, BRENT_STATE)


def test_brent_through_a_driver_function():
    def brent(func, brack, tol):
        solver = BrentMinimizer(func, tol=tol)
        solver.set_bracket(brack)
        solver.optimize()
        return solver.get_result(full_output=True)
    agree(lambda a, b: brent(bumpy, (a, b), 1e-3), f32(1.), f32(1.5))
    # (cheap branches computed side by side and selected round in another order than the
    # plain run's operations one by one; one of Brent's step choices then differs: a
    # minimum within the method's tol=1e-3 of Python's, in as many steps)
    agree(lambda a, b, c: brent(bumpy, (a, b, c), 1e-3), f32(1.), f32(1.3), f32(2.),
          atol=2e-3)
    agree_batched(lambda a: brent(bumpy, (a, a + 0.5), 1e-3), jnp.array([-2., 1., 2.]))


def test_brent_bad_bracket_raises_as_python():
    solver = BrentMinimizer(quartic)
    solver.set_bracket((0.0, 3.0, 1.0))            # f(1) is not below f(3)... nor f(0)
    with pytest.raises(ValueError, match='does not hold a minimum'):
        solver.optimize()
    conv = BrentMinimizer(quartic)
    conv.set_bracket((f32(0.), f32(3.), f32(1.)))
    with pytest.raises(ValueError, match='does not hold a minimum'):
        autograph.convert(conv.optimize)()
    assert conv.xmin is None                      # a failed call writes nothing back


# --- bounded minimization ------------------------------------------------------------------

@pytest.mark.parametrize('lo, hi', [(0.0, 3.0), (0.5, 2.5), (2.0, 2.5)])
def test_bounded_minimization(lo, hi):
    search = lambda a, b: minimize_bounded(bumpy, a, b)
    agree(search, f32(lo), f32(hi))
    agree(search, lo, hi)


def test_bounded_minimization_runs_out_of_calls():
    agree(lambda a, b: minimize_bounded(quartic, a, b, 1e-5, 4), f32(-3.), f32(3.))


def test_bounded_minimization_vmap_and_grad():
    agree_batched(lambda b: minimize_bounded(bumpy, b - 3.0, b), jnp.array([1., 2., 4.]))
    agree_grad(lambda c: minimize_bounded(lambda x: (x - c) ** 2 + c, f32(-5.), f32(5.))[1],
               f32(0.3))


def test_bounded_minimization_reversed_bounds_raise_as_python():
    with pytest.raises(ValueError, match='lower bound exceeds'):
        minimize_bounded(bumpy, 2.0, 1.0)
    with pytest.raises(ValueError, match='lower bound exceeds'):
        autograph.convert(minimize_bounded)(bumpy, f32(2.), f32(1.))


def test_bounded_minimization_nan_flag():
    agree(lambda a, b: minimize_bounded(lambda x: x * jnp.nan, a, b, 1e-5, 6),
          f32(0.), f32(1.))

