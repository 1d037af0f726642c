"""Corpus of public functions, second batch, adaptive integration: a Dormand-Prince
integrator with step rejection that collects the accepted steps in lists (a `for` over
10000 steps with a `break`), and three recursive adaptive Simpson rules (halving the
tolerance at each split). Edits: `np.`/`math.` become `jnp.` where traced values flow; the
`print` of each accepted interval dropped (cpraveen/na).

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax.numpy as jnp
import pytest

import autograph
from tests.peers.corpus_harness import agree, f32


# --- burakbayramli/books: run_kut5.integrate (Dormand-Prince, rejected steps, lists) ------

def integrate(F,x,y,xStop,h,tol=1.0e-6):
    a1 = 0.2; a2 = 0.3; a3 = 0.8; a4 = 8/9; a5 = 1.0
    a6 = 1.0

    c0 = 35/384; c2 = 500/1113; c3 = 125/192
    c4 = -2187/6784; c5 = 11/84

    d0 = 5179/57600; d2 = 7571/16695; d3 = 393/640
    d4 = -92097/339200; d5 = 187/2100; d6 = 1/40

    b10 = 0.2
    b20 = 0.075; b21 = 0.225
    b30 = 44/45; b31 = -56/15; b32 = 32/9
    b40 = 19372/6561; b41 = -25360/2187; b42 = 64448/6561
    b43 = -212/729
    b50 = 9017/3168; b51 =-355/33; b52 = 46732/5247
    b53 = 49/176; b54 = -5103/18656
    b60 = 35/384; b62 = 500/1113; b63 = 125/192;
    b64 = -2187/6784; b65 = 11/84

    X = []
    Y = []
    X.append(x)
    Y.append(y)
    stopper = 0
    k0 = h*F(x,y)

    for i in range(10000):
        k1 = h*F(x + a1*h, y + b10*k0)
        k2 = h*F(x + a2*h, y + b20*k0 + b21*k1)
        k3 = h*F(x + a3*h, y + b30*k0 + b31*k1 + b32*k2)
        k4 = h*F(x + a4*h, y + b40*k0 + b41*k1 + b42*k2 + b43*k3)
        k5 = h*F(x + a5*h, y + b50*k0 + b51*k1 + b52*k2 + b53*k3 \
               + b54*k4)
        k6 = h*F(x + a6*h, y + b60*k0 + b62*k2 + b63*k3 + b64*k4 \
               + b65*k5)

        dy = c0*k0 + c2*k2 + c3*k3 + c4*k4 + c5*k5
        E = (c0 - d0)*k0 + (c2 - d2)*k2 + (c3 - d3)*k3  \
               + (c4 - d4)*k4 + (c5 - d5)*k5 - d6*k6
        e = jnp.sqrt(jnp.sum(E**2)/len(y))
        hNext = 0.9*h*(tol/e)**0.2

        if  e <= tol:
            y = y + dy
            x = x + h
            X.append(x)
            Y.append(y)
            if stopper == 1: break
            if abs(hNext) > 10.0*abs(h): hNext = 10.0*h

            if (h > 0.0) == ((x + hNext) >= xStop):
                hNext = xStop - x
                stopper = 1
            k0 = k6*hNext/h
        else:
            if abs(hNext) < 0.1*abs(h): hNext = 0.1*h
            k0 = k0*hNext/h

        h = hNext
    return jnp.array(X),jnp.array(Y)


def oscillator(x, y):
    return jnp.array([y[1], -y[0]])


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the accepted steps are collected in lists whose length the '
    'error estimates decide: known only at run time'))
def test_dormand_prince_collecting_accepted_steps():
    run = lambda y0, x_stop: integrate(oscillator, f32(0.0), y0, x_stop, f32(0.1), 1e-4)
    agree(run, (jnp.array([1.0, 0.0]), f32(2.0)), (jnp.array([0.0, 1.0]), f32(3.0)))


def last_step(y0, x_stop):
    """A caller that keeps only the end point of the integration."""
    X, Y = integrate(oscillator, f32(0.0), y0, x_stop, f32(0.1), 1e-4)
    return X[-1], Y[-1]


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): as above; the caller reads only the last item, but the '
    'lists are built in the integrator, whose result has the length of the run'))
def test_dormand_prince_end_point():
    agree(last_step, (jnp.array([1.0, 0.0]), f32(2.0)), (jnp.array([0.0, 1.0]), f32(3.0)))


# --- cpraveen/na: adaptive_simpson.simpson (recursion on a traced error) -----------------

def simpson1(f,a,b):
    h = 0.5*(b-a)
    c = 0.5*(a+b)
    return (h/3.0)*(f(a) + 4*f(c) + f(b))


def simpson(f,a,b,eps):
    c = 0.5*(a+b)
    i1 = simpson1(f,a,b)
    i2 = simpson1(f,a,c) + simpson1(f,c,b)
    err = jnp.abs(i2 - i1)
    if err < eps:
        return i2
    else:
        ep = 0.5*eps
        return simpson(f,a,c,ep) + simpson(f,c,b,ep)


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the recursion splits as deep as a traced error asks: a call '
    'depth known only at run time'))
def test_adaptive_simpson_recursion_on_traced_bounds():
    run = lambda b, eps: simpson(jnp.sqrt, 0.0, b, eps)
    agree(run, (f32(1.0), f32(0.005)), (f32(2.0), f32(0.01)))


def test_adaptive_simpson_python_bounds_traced_integrand():
    """The bounds and tolerance are Python numbers and the integrand closes over a
    traced scale: the error is traced, so the recursion is as in the case above."""
    run = lambda s: simpson(lambda x: s * jnp.sqrt(x), 0.0, 1.0, 0.005)
    with pytest.raises(autograph.ControlFlowError):
        autograph.convert(run)(f32(1.5))


# --- nrbjerg/CSB: quad_asr (recursive adaptive Simpson keeping f values) ------------------

def _quad_simpsons_mem(f, a, fa, b, fb):
    m = (a + b) / 2
    fm = f(m)
    return (m, fm, abs(b - a) / 6 * (fa + 4 * fm + fb))


def _quad_asr(f, a, fa, b, fb, eps, whole, m, fm):
    lm, flm, left  = _quad_simpsons_mem(f, a, fa, m, fm)
    rm, frm, right = _quad_simpsons_mem(f, m, fm, b, fb)
    delta = left + right - whole
    if abs(delta) <= 15 * eps:
        return left + right + delta / 15
    return _quad_asr(f, a, fa, m, fm, eps/2, left , lm, flm) +\
           _quad_asr(f, m, fm, b, fb, eps/2, right, rm, frm)


def quad_asr(f, a, b, eps):
    fa, fb = f(a), f(b)
    m, fm, whole = _quad_simpsons_mem(f, a, fa, b, fb)
    return _quad_asr(f, a, fa, b, fb, eps, whole, m, fm)


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): recursion as deep as a traced error asks'))
def test_quad_asr_recursion():
    run = lambda b: quad_asr(jnp.sin, 0.0, b, 1e-5)
    agree(run, (f32(1.0),), (f32(2.0),))


# --- sievers/phys512-2025: simp_adaptive (five-point step, recursion) --------------------

def lorentz(x):
    return 1/(1+x**2)


def simp_step(f,a,b):
    x=jnp.linspace(a,b,5)
    y=f(x)
    dx=x[1]-x[0]
    ans1=(y[0]+4*y[1]+2*y[2]+4*y[3]+y[4])*dx/3
    ans2=(y[0]+4*y[2]+y[4])*(2*dx)/3
    return ans1,jnp.abs(ans1-ans2)


def simp_adaptive(f,a,b,tol):
    val,err=simp_step(f,a,b)
    if err<tol:
        return val
    else:
        mid=(a+b)/2
        return simp_adaptive(f,a,mid,tol/2)+simp_adaptive(f,mid,b,tol/2)


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): recursion as deep as a traced error asks'))
def test_simp_adaptive_recursion():
    agree(simp_adaptive, (lorentz, f32(-5.0), f32(5.0), f32(1e-3)),
          (lorentz, f32(-2.0), f32(3.0), f32(1e-3)))


# --- brunsond/Numerical_PDEs_class: adaptive_integrator (an explicit stack in lists) ------

M = [[-0.9931285991851, 0.0176140071391521], [-0.9639719272779, 0.0406014298003869],
     [-0.9122344282513, 0.0626720483341091], [-0.8391169718222, 0.083276741576705],
     [-0.7463319064602, 0.101930119817240], [-0.6360536807265, 0.118194531961518],
     [-0.5108670019508, 0.131688638449177], [-0.3737060887154, 0.142096109318382],
     [-0.2277858511416, 0.149172986472604], [-0.076526521133, 0.152753387130726],
     [0.076526521133, 0.152753387130726], [0.227785851142, 0.149172986472604],
     [0.373706088715, 0.142096109318382], [0.510867001951, 0.131688638449177],
     [0.636053680727, 0.118194531961518], [0.746331906460, 0.101930119817240],
     [0.839116971822, 0.083276741576705], [0.912234428251, 0.0626720483341091],
     [0.963971927278, 0.0406014298003869], [0.993128599185, 0.0176140071391521]]


def quadrature_sum(a0,b0,f):
    x = []
    w = []
    S = []
    for i in range(0,20):
        x.append(0.5*(b0-a0)*M[i][0]+0.5*(b0+a0))
        w.append(0.5*(b0-a0)*M[i][1])
        S.append(w[i]*f(x[i]))
    return sum(S)


def adaptive_integrator(a0,b0,f):
    left_p = []; right_p = []; s = []
    left_p.append(a0); right_p.append(b0); s.append(quadrature_sum(a0,b0,f))
    j = 0
    I = 0
    for i in range(0,10000):
        c = 0.5*(left_p[j]+right_p[j])
        s1 = quadrature_sum(left_p[j],c,f)
        s2 = quadrature_sum(c,right_p[j],f)
        if abs(s1+s2-s[j])>1e-4:
            left_p.append(0);   right_p.append(0);  s.append(0)
            left_p[j+1] = left_p[j]
            right_p[j+1] = 0.5*(left_p[j]+right_p[j])
            s[j+1] = s1
            left_p[j] = 0.5*(left_p[j]+right_p[j])
            s[j] = s2
            j += 1
        else:
            I = I + s1 + s2
            j -= 1
            if (j==-1):
                return I


def test_gauss_legendre_sum_of_a_list():
    agree(lambda b: quadrature_sum(0.0, b, jnp.exp), (f32(1.0),), (f32(2.5),))


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the stack of intervals (three lists) grows where a traced '
    'error test says so: lists whose lengths are known only at run time'))
def test_adaptive_integrator_list_stack():
    run = lambda b: adaptive_integrator(0.0, b, lambda x: jnp.sqrt(x + 0.01))
    agree(run, (f32(1.0),), (f32(2.0),))
