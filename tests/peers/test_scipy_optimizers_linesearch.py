"""Line searches and multivariate minimizers in the style of SciPy's
`scipy/optimize/_linesearch.py` (an Armijo backtracking search that returns None when it
fails, a strong-Wolfe search whose `zoom` calls cubic and quadratic interpolation helpers
that return None on a degenerate fit, optional arguments that start as None) and of
`_optimize.py` (Nelder-Mead, forward-difference gradients, gradient descent calling a line
search in its loop), written afresh for JAX values. Each case compares the converted
function with the same function run as plain Python on the same inputs."""
import jax
import jax.numpy as jnp
import pytest

from tests.peers.scipy_harness import agree, agree_converted, agree_optional, f32


def armijo(phi, phi0, derphi0, c1=1e-4, alpha0=1.0, amin=0.0):
    """Backtracking to sufficient decrease by quadratic, then cubic, interpolation:
    (alpha, phi(alpha)), or (None, last phi) when alpha falls to amin."""
    phi_a0 = phi(alpha0)
    if phi_a0 <= phi0 + c1 * alpha0 * derphi0:
        return alpha0, phi_a0
    alpha1 = -derphi0 * alpha0 ** 2 / 2.0 / (phi_a0 - phi0 - derphi0 * alpha0)
    phi_a1 = phi(alpha1)
    if phi_a1 <= phi0 + c1 * alpha1 * derphi0:
        return alpha1, phi_a1
    while alpha1 > amin:
        scale = alpha0 ** 2 * alpha1 ** 2 * (alpha1 - alpha0)
        r1 = phi_a1 - phi0 - derphi0 * alpha1
        r0 = phi_a0 - phi0 - derphi0 * alpha0
        a = (alpha0 ** 2 * r1 - alpha1 ** 2 * r0) / scale
        b = (-alpha0 ** 3 * r1 + alpha1 ** 3 * r0) / scale
        alpha2 = (-b + jnp.sqrt(abs(b ** 2 - 3 * a * derphi0))) / (3.0 * a)
        phi_a2 = phi(alpha2)
        if phi_a2 <= phi0 + c1 * alpha2 * derphi0:
            return alpha2, phi_a2
        if (alpha1 - alpha2) > alpha1 / 2.0 or (1 - alpha2 / alpha1) < 0.96:
            alpha2 = alpha1 / 2.0
        alpha0, alpha1 = alpha1, alpha2
        phi_a0, phi_a1 = phi_a1, phi_a2
    return None, phi_a1


def cubic_min(a, fa, fpa, b, fb, c, fc):
    """Minimizer of the cubic through (a, fa) with slope fpa, (b, fb), (c, fc); None when
    the fit is degenerate."""
    db, dc = b - a, c - a
    denom = (db * dc) ** 2 * (db - dc)
    if denom == 0:
        return None
    rb, rc = fb - fa - fpa * db, fc - fa - fpa * dc
    A = (dc ** 2 * rb - db ** 2 * rc) / denom
    B = (-dc ** 3 * rb + db ** 3 * rc) / denom
    radical = B * B - 3 * A * fpa
    if radical < 0 or A == 0:
        return None
    return a + (-B + jnp.sqrt(radical)) / (3 * A)


def quad_min(a, fa, fpa, b, fb):
    """Minimizer of the parabola through (a, fa) with slope fpa and (b, fb); None when it
    has none."""
    db = b - a
    curvature = (fb - fa - fpa * db) / (db * db)
    if curvature <= 0:
        return None
    return a - fpa / (2.0 * curvature)


def zoom(a_lo, a_hi, phi_lo, phi_hi, derphi_lo, phi, derphi, phi0, derphi0, c1, c2,
         maxiter=10, interpolate=True):
    """Shrink [a_lo, a_hi] to a step with the strong Wolfe conditions:
    (alpha, phi, derphi), all None after maxiter rounds. Without `interpolate`, it bisects."""
    i = 0
    phi_rec, a_rec = phi0, 0.0
    while True:
        dalpha = a_hi - a_lo
        if dalpha < 0:
            a, b = a_hi, a_lo
        else:
            a, b = a_lo, a_hi
        if not interpolate:
            a_j = a_lo + 0.5 * dalpha
        elif i > 0:
            cchk = 0.2 * dalpha
            a_j = cubic_min(a_lo, phi_lo, derphi_lo, a_hi, phi_hi, a_rec, phi_rec)
        if interpolate and (i == 0 or a_j is None or a_j > b - cchk or a_j < a + cchk):
            qchk = 0.1 * dalpha
            a_j = quad_min(a_lo, phi_lo, derphi_lo, a_hi, phi_hi)
            if a_j is None or a_j > b - qchk or a_j < a + qchk:
                a_j = a_lo + 0.5 * dalpha
        phi_aj = phi(a_j)
        if phi_aj > phi0 + c1 * a_j * derphi0 or phi_aj >= phi_lo:
            phi_rec, a_rec = phi_hi, a_hi
            a_hi, phi_hi = a_j, phi_aj
        else:
            derphi_aj = derphi(a_j)
            if abs(derphi_aj) <= -c2 * derphi0:
                a_star, val_star, slope_star = a_j, phi_aj, derphi_aj
                break
            if derphi_aj * (a_hi - a_lo) >= 0:
                phi_rec, a_rec = phi_hi, a_hi
                a_hi, phi_hi = a_lo, phi_lo
            else:
                phi_rec, a_rec = phi_lo, a_lo
            a_lo, phi_lo, derphi_lo = a_j, phi_aj, derphi_aj
        i += 1
        if i > maxiter:
            a_star = val_star = slope_star = None
            break
    return a_star, val_star, slope_star


def wolfe_search(phi, derphi, phi0=None, old_phi0=None, derphi0=None, c1=1e-4, c2=0.9,
                 amax=None, maxiter=10, interpolate=True):
    """A step with the strong Wolfe conditions: (alpha, phi(alpha), phi0, derphi(alpha));
    alpha is None when rounding stops the search."""
    if phi0 is None:
        phi0 = phi(0.0)
    if derphi0 is None:
        derphi0 = derphi(0.0)
    alpha0 = 0.0
    if old_phi0 is not None and derphi0 != 0:
        alpha1 = min(1.0, 1.01 * 2 * (phi0 - old_phi0) / derphi0)
        if alpha1 < 0:
            alpha1 = 1.0
    else:
        alpha1 = 1.0
    if amax is not None:
        alpha1 = min(alpha1, amax)
    phi_a1 = phi(alpha1)
    phi_a0, derphi_a0 = phi0, derphi0
    for i in range(maxiter):
        if alpha1 == 0 or (amax is not None and alpha0 > amax):
            alpha_star, phi_star, derphi_star = None, phi0, None
            break
        if phi_a1 > phi0 + c1 * alpha1 * derphi0 or (phi_a1 >= phi_a0 and i > 0):
            alpha_star, phi_star, derphi_star = zoom(
                alpha0, alpha1, phi_a0, phi_a1, derphi_a0, phi, derphi, phi0, derphi0, c1, c2,
                interpolate=interpolate)
            break
        derphi_a1 = derphi(alpha1)
        if abs(derphi_a1) <= -c2 * derphi0:
            alpha_star, phi_star, derphi_star = alpha1, phi_a1, derphi_a1
            break
        if derphi_a1 >= 0:
            alpha_star, phi_star, derphi_star = zoom(
                alpha1, alpha0, phi_a1, phi_a0, derphi_a1, phi, derphi, phi0, derphi0, c1, c2,
                interpolate=interpolate)
            break
        alpha2 = 2 * alpha1
        if amax is not None:
            alpha2 = min(alpha2, amax)
        alpha0, alpha1 = alpha1, alpha2
        phi_a0, phi_a1, derphi_a0 = phi_a1, phi(alpha1), derphi_a1
    else:
        alpha_star, phi_star, derphi_star = alpha1, phi_a1, None
    return alpha_star, phi_star, phi0, derphi_star


def rosen(x):
    return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


def along(f, x, p):
    """phi(alpha) = f(x + alpha p) and its derivative, as a line search sees them."""
    phi = lambda alpha: f(x + alpha * p)
    derphi = lambda alpha: jnp.dot(jax.grad(f)(x + alpha * p), p)
    return phi, derphi



# --- strong Wolfe with a bisecting zoom (no optional values in its loop) -----------------

@pytest.mark.parametrize('start', [(-1.2, 1.0), (0.5, 0.5), (1.5, 2.5)])
def test_wolfe_search_bisecting_zoom(start):
    def search(x):
        phi, derphi = along(rosen, x, -jax.grad(rosen)(x))
        return wolfe_search(phi, derphi, interpolate=False)
    agree_optional(search, jnp.array(start, jnp.float32))
    agree(lambda s: wolfe_search(lambda a: (a * s - 0.7) ** 2, lambda a: 2 * s * (a * s - 0.7),
                                 interpolate=False), 0.25)


def test_wolfe_search_bisecting_zoom_with_given_values():
    def search(x):
        g = jax.grad(rosen)(x)
        phi, derphi = along(rosen, x, -g)
        return wolfe_search(phi, derphi, phi0=rosen(x), old_phi0=rosen(x) + 1.0,
                            derphi0=-jnp.dot(g, g), amax=0.5, interpolate=False)
    agree_optional(search, jnp.array([-1.2, 1.0], jnp.float32))


def test_zoom_bisecting_directly():
    phi = lambda a: (a - 0.3) ** 2 - 0.5 * a
    derphi = lambda a: 2 * (a - 0.3) - 0.5
    search = lambda lo, hi: zoom(lo, hi, phi(lo), phi(hi), derphi(lo), phi, derphi, phi(0.),
                                 derphi(0.), 1e-4, 0.1, interpolate=False)
    agree_optional(search, f32(0.), f32(2.))


# --- Armijo --------------------------------------------------------------------------------

@pytest.mark.parametrize('start', [(-1.2, 1.0), (0.5, 0.5), (2.0, 2.0)])
def test_armijo_along_the_steepest_descent(start):
    def search(x):
        p = -jax.grad(rosen)(x)
        phi, _ = along(rosen, x, p)
        return armijo(phi, rosen(x), jnp.dot(jax.grad(rosen)(x), p))
    agree_optional(search, jnp.array(start, jnp.float32))


def test_armijo_failure_returns_none_as_python():
    # an uphill direction never decreases: alpha shrinks below amin and the result is None
    def search(s):
        phi = lambda a: (1.0 + a * s) ** 2
        return armijo(phi, phi(0.0), -2.0 * s, amin=0.01)
    assert agree_optional(search, f32(1.))[0] is None


# --- strong Wolfe with zoom ----------------------------------------------------------------

@pytest.mark.parametrize('start', [(-1.2, 1.0), (0.5, 0.5), (1.5, 2.5)])
def test_wolfe_search_defaults_computed_inside(start):
    def search(x):
        phi, derphi = along(rosen, x, -jax.grad(rosen)(x))
        return wolfe_search(phi, derphi)
    agree_converted(search, jnp.array(start, jnp.float32))   # (under jax.jit: see zoom)


@pytest.mark.parametrize('start', [(-1.2, 1.0), (0.5, 0.5)])
def test_wolfe_search_with_given_values_and_amax(start):
    def search(x):
        g = jax.grad(rosen)(x)
        phi, derphi = along(rosen, x, -g)
        return wolfe_search(phi, derphi, phi0=rosen(x), old_phi0=rosen(x) + 1.0,
                            derphi0=-jnp.dot(g, g), amax=0.5)
    agree_converted(search, jnp.array(start, jnp.float32))


def test_wolfe_search_scaled_direction():
    phi = lambda a: (a - 0.7) ** 2 * (a + 1.0)
    derphi = lambda a: 2 * (a - 0.7) * (a + 1.0) + (a - 0.7) ** 2
    agree_converted(lambda s: wolfe_search(lambda a: phi(a * s), lambda a: s * derphi(a * s)),
                    f32(0.25))


def test_wolfe_search_python_floats_run_as_python():
    phi = lambda a: (a - 0.7) ** 2 * (a + 1.0)
    derphi = lambda a: 2 * (a - 0.7) * (a + 1.0) + (a - 0.7) ** 2
    agree(lambda s: wolfe_search(lambda a: phi(a * s), lambda a: s * derphi(a * s)), 0.25)


def test_zoom_directly():
    # zoom gives (None, None, None) after maxiter rounds: a path the compiled program has
    # (decided by traced values), so inside the caller's jax.jit the result is the named
    # error; converted with its own jit, Python's value.
    phi = lambda a: (a - 0.3) ** 2 - 0.5 * a
    derphi = lambda a: 2 * (a - 0.3) - 0.5
    agree_optional(lambda lo, hi: zoom(lo, hi, phi(lo), phi(hi), derphi(lo), phi, derphi, phi(0.),
                              derphi(0.), 1e-4, 0.1), f32(0.), f32(2.))


def test_interpolation_helpers_none_or_value():
    for args in [(f32(0.), f32(1.), f32(-1.), f32(1.), f32(2.)),   # a minimum
                 (f32(0.), f32(1.), f32(-1.), f32(1.), f32(-2.))]:  # concave: None
        agree_optional(quad_min, *args)
    agree_optional(cubic_min, f32(0.), f32(1.), f32(-1.), f32(1.), f32(0.5), f32(2.), f32(3.))
    agree_optional(cubic_min, f32(0.), f32(1.), f32(-1.), f32(1.), f32(0.5), f32(1.), f32(0.5))


def test_optional_refined_then_carried_by_a_while_loop():
    # minimal: Python gives -0.5 (the converted code raised UnboundLocalError for 'x')
    def halve_or_shift(x):
        while x > 0.1:
            y = none_above_three(x)
            if y is None:
                y = 0.5 * x
            x = y
        return x
    agree(halve_or_shift, f32(10.))


def test_optional_refined_then_carried_by_a_for_loop():
    # the same refinement carried by a range loop works (the contrast to the above)
    def halve_or_shift(x):
        for _ in range(10):
            y = none_above_three(x)
            if y is None:
                y = 0.5 * x
            x = y * 1.0
        return x
    agree(halve_or_shift, f32(10.))


def none_above_three(x):
    if x > 3.0:
        return None
    return x - 3.0
