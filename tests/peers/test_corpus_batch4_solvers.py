"""Corpus of public functions, fourth batch, iterative solvers: a conjugate gradient with
an early return and `max` of traced values, two Gauss-Seidel codes (a script whose
`x0 = x1` makes the two names one array after the first sweep, and a forward
substitution inside a `for ... break`), two backtracking line searches (whose step starts
as the Python int 1 and halves in a staged `while`) and two coordinate-descent Lassos (a
soft threshold giving an array or the int 0 over a path of calls that each write the
caller's start; a class writing through a view `ww = self.w_[1:]`). Edits: `np.`
becomes `jnp.` where traced values flow; tolerances a float32 run cannot meet are passed
as arguments.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax
import jax.numpy as jnp
import pytest

import autograph

from tests.peers.corpus_harness import agree, agree_grad, agree_vmap, key

SPD = jnp.array([[4.0, 1.0, 0.0, 0.5],
                 [1.0, 3.0, 0.2, 0.0],
                 [0.0, 0.2, 2.0, 0.3],
                 [0.5, 0.0, 0.3, 5.0]])
RHS = jnp.array([1.0, -2.0, 0.5, 3.0])


# --- SealUofI/SemPy: sempy/iterative.py (cg) --------------------------------------------

def cg(A,b,tol=1e-8):
    assert b.ndim==1

    n=b.size
    x=jnp.zeros((n,),dtype=jnp.float32)

    norm_b=jnp.dot(b,b)
    TOL=max(tol*tol*norm_b,tol*tol)

    r=b
    rdotr=jnp.dot(r,r)
    niter=0

    if rdotr<1.e-20:
        return x,niter

    p=r
    while niter<100 and rdotr>TOL:
        Ap=A(p)
        pAp=jnp.dot(p,Ap)

        alpha=rdotr/pAp

        x=x+alpha*p
        r=r-alpha*Ap

        rdotr0=rdotr
        rdotr=jnp.dot(r,r)
        beta=rdotr/rdotr0

        p=r+beta*p
        niter=niter+1

    return x,niter


def cg_matrix(M, b):
    return cg(lambda v: M @ v, b, 1e-3)


def test_cg_early_return_and_max_of_traced_values():
    agree(cg_matrix, (SPD, RHS), (SPD + jnp.eye(4), RHS[::-1]), (SPD, jnp.zeros(4)))
    agree_vmap(cg_matrix, SPD, jnp.stack([RHS, jnp.zeros(4), -RHS]), in_axes=(None, 0))


def test_cg_grad_through_the_while():
    agree_grad(lambda b, M: jnp.sum(cg_matrix(M, b)[0] ** 2), RHS, SPD)


# --- ogulcano/Numerical-Python: Gauss-Siedel.py (the script made a function) -------------

def gauss_siedel(A, b):
    n = len(b)

    x0 = jnp.ones(n)
    x1 = jnp.zeros(n)
    for _ in range(10):
        for i in range(n):
            k1 = 0
            for j in range(i):
                k1 += A[i,j]*x1[j]
            k2 = 0
            for j in range(i+1,n):
                k2 += A[i,j]*x0[j]
            x1[i] = (1/A[i,i])*(b[i] - k1 -k2)
        x0 = x1
    return x0


def test_gauss_seidel_script_names_one_array_after_the_first_sweep():
    A = jnp.array([[4.0, 0.0, 1.0], [1.0, 4.0, 1.0], [1.0, 0.0, 4.0]])
    b = jnp.array([3.0, -1.0, 2.0])
    agree(gauss_siedel, (A, b), (A + 1.0, b * 2.0))


# --- azer89/Numerical_Python: gauss-seidel_matrix.py (forwardsub, GSstep, GSsolve) -------

def forwardsub(L, b):
    row, col = jnp.shape(L)
    y = b.copy()

    # first row
    y[0] = y[0] / L[0][0]

    for i in range(1, col):   # iterate rows
        for j in range(0, i): # iterate columns
            y[i] = y[i] - L[i][j] * y[j]
        y[i] = y[i] / L[i][i]

    return y


def GSstep(A, u0, f, DminL=None, U=None):

    # the user can feed the precomputed (D - L) and U to speed up computation
    if DminL is None or U is None:
        # create a diagonal matrix D
        D_vec = jnp.diag(A)
        D = jnp.zeros(jnp.shape(A))
        for i in range(len(D_vec)):
            D[i, i] = D_vec[i]

        # create lower-triangular matrix
        L = -jnp.tril(A) + D

        # create upper-triangular matrix
        U = -jnp.triu(A) + D

        # calculate D - L once
        DminL = D - L

    # b + U x_{n}
    right_side = f + jnp.dot(U, u0)

    # calculate x_{n+1} using forward substitution
    return forwardsub(DminL, right_side)


def GSsolve(A, f, u0, maxIter = 100, tol = 1e-10):

    # precompute A = D - L - U (optional)
    # create a diagonal matrix D
    D_vec = jnp.diag(A)
    D = jnp.zeros(jnp.shape(A))
    for i in range(len(D_vec)):
        D[i, i] = D_vec[i]

    # create lower-triangular matrix
    L = -jnp.tril(A) + D

    # create upper-triangular matrix
    U = -jnp.triu(A) + D

    # calculate D - L once
    DminL = D - L

    x_new = u0.copy()

    for iter in range(maxIter):
        x_new = GSstep(A, x_new, f, DminL, U)
        Ax = jnp.dot(A, x_new)
        residual = jnp.linalg.norm(f - Ax)
        if residual < tol:
            print("stopped after ", iter, " iterations")
            break

    # return the solution
    return x_new


def test_gauss_seidel_step_none_defaults():
    agree(GSstep, (SPD, jnp.zeros(4), RHS), (SPD * 2.0, RHS, -RHS))


def test_gauss_seidel_solve_forward_substitution_and_break():
    agree(GSsolve, (SPD, RHS, jnp.zeros(4), 100, 1e-4), (SPD + 1.0, -RHS, RHS, 100, 1e-4))
    agree(lambda A, f, u0: GSsolve(A, f, u0, 30), (SPD, RHS, jnp.zeros(4)))
    agree_vmap(lambda f: GSsolve(SPD, f, jnp.zeros(4), 50, 1e-4), jnp.stack([RHS, RHS * 1e-6]))


# --- aliaksei-katsar/Digit_Recognition_Random_Subspace_Optimization: armijo.py (armijo) --

def armijo(f, x, gradf, s, gamma=0.01, beta=0.5) -> float:
    sigma = 1
    fx = f(x)
    slope = gamma * jnp.dot(gradf.flatten(), s.flatten())
    while f(x + sigma * s) - fx >= sigma * slope and sigma > gamma:
        sigma *= beta
    return sigma


def rosenbrock(x):
    return (1.0 - x[0]) ** 2 + 100.0 * (x[1] - x[0] ** 2) ** 2


def armijo_step(x):
    g = jax.grad(rosenbrock)(x)
    return armijo(rosenbrock, x, g, -g)


def test_armijo_int_step_halved_in_a_staged_while():
    agree(armijo_step, (jnp.array([-1.2, 1.0]),), (jnp.array([1.0, 1.0]),))
    agree_vmap(armijo_step, jnp.array([[-1.2, 1.0], [0.5, 0.1], [1.0, 1.0]]))


# --- sbhambr1/StatisticalML-Course: backtrack_line_search.py (backtrack) -----------------

f = lambda x: (x[0]**2 + 5*(x[1]**2))
dfx1 = lambda x: (2*x[0])
dfx2 = lambda x: (10*x[1])


def backtrack(x0, dfx1, dfx2, t, alpha, beta, count):
    while (f(x0) - (f(x0 - t*jnp.array([dfx1(x0), dfx2(x0)])) + alpha * t * jnp.dot(jnp.array([dfx1(x0), dfx2(x0)]), jnp.array([dfx1(x0), dfx2(x0)])))) < 0:
        t *= beta
        print("""

########################
###   iteration {}   ###
########################
        """.format(count))
        print("Inequality: ",  f(x0) - (f(x0 - t*jnp.array([dfx1(x0), dfx2(x0)])) + alpha * t * jnp.dot(jnp.array([dfx1(x0), dfx2(x0)]), jnp.array([dfx1(x0), dfx2(x0)]))))
        count += 1
    return t


def test_backtracking_formatted_prints_in_a_staged_while():
    run = lambda x0: backtrack(x0, dfx1, dfx2, 1, 0.4, 0.9, 1)
    agree(run, (jnp.array([5.0, 1.0]),), (jnp.array([0.0, 0.0]),))
    agree_vmap(run, jnp.array([[5.0, 1.0], [0.0, 0.0], [-2.0, 0.3]]))


# --- tdharvey02/hw3: q3.py (soft_threshold, coordinate_descent_lasso) --------------------

def soft_threshold(rho,lamda):
    if rho < - lamda:
        return (rho + lamda)
    elif rho >  lamda:
        return (rho - lamda)
    else:
        return 0

def coordinate_descent_lasso(theta,X,y,lamda = .01, num_iters=100, intercept = False):
    m,n = X.shape
    X = X / (jnp.linalg.norm(X,axis = 0))
    for i in range(num_iters):
        for j in range(n):
            X_j = X[:,j].reshape(-1,1)
            y_pred = X @ theta
            rho = X_j.T @ (y - y_pred  + theta[j]*X_j)
            if intercept == True:
                if j == 0:
                    theta[j] =  rho
                else:
                    theta[j] =  soft_threshold(rho, lamda)

            if intercept == False:
                theta[j] =  soft_threshold(rho, lamda)

    return theta.flatten()


def lasso_data(k, m=12, n=4):
    k1, k2 = jax.random.split(k)
    X = jax.random.normal(k1, (m, n))
    y = (X @ jnp.array([1.5, 0.0, -2.0, 0.05]) + 0.1 * jax.random.normal(k2, (m,)))
    return X, y.reshape(-1, 1)


def lasso_path(X, y, lamda):
    m,n = X.shape
    initial_theta = jnp.ones((n,1))
    theta_list = list()
    for l in lamda:
        theta = coordinate_descent_lasso(initial_theta,X,y,lamda = l, num_iters=20)
        theta_list.append(theta)
    theta_lasso = jnp.stack(theta_list).T
    return theta_lasso


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `soft_threshold` gives the (1, 1) array `rho - lamda` or the '
    'Python int 0 by a traced test: a result whose shape is known only at run time '
    '(NumPy then writes either into `theta[j]`)'))
def test_lasso_soft_threshold_array_or_python_zero():
    agree(lambda X, y: lasso_path(X, y, [0.1, 1.0, 3.0]), lasso_data(key(0)), lasso_data(key(1)))


# --- wizplan/ml-essence: 05/lasso.py (soft_thresholding, Lasso) --------------------------

def soft_thresholding(x, y):
    return jnp.sign(x) * max(abs(x) - y, 0)

class Lasso:
    def __init__(self, lambda_, tol=0.0001, max_iter=1000):
        self.lambda_ = lambda_
        self.tol = tol
        self.max_iter = max_iter
        self.w_ = None

    def fit(self, X, t):
        n, d = X.shape
        self.w_ = jnp.zeros(d + 1)
        avgl1 = 0.
        for _ in range(self.max_iter):
            avgl1_prev = avgl1
            self._update(n, d, X, t)
            avgl1 = jnp.abs(self.w_).sum() / self.w_.shape[0]
            if abs(avgl1 - avgl1_prev) <= self.tol:
                break

    def _update(self, n, d, X, t):
        self.w_[0] = (t - jnp.dot(X, self.w_[1:])).sum() / n
        w0vec = jnp.ones(n) * self.w_[0]
        for k in range(d):
            ww = self.w_[1:]
            ww[k] = 0
            q = jnp.dot(t - w0vec - jnp.dot(X, ww), X[:, k])
            r = jnp.dot(X[:, k], X[:, k])
            self.w_[k + 1] = soft_thresholding(q / r, self.lambda_)

    def predict(self, X):
        if X.ndim == 1:
            X = X.reshape(X.shape[0], 1)
        Xtil = jnp.c_ [jnp.ones(X.shape[0]), X]
        return jnp.dot(Xtil, self.w_)


def lasso_fit_predict(X, t, lambda_):
    model = Lasso(lambda_, max_iter=200)
    model.fit(X, t)
    return model.w_, model.predict(X[:3])


def test_lasso_class_view_write_and_break():
    X, y = lasso_data(key(3))
    X2, y2 = lasso_data(key(4))
    agree(lasso_fit_predict, (X, y[:, 0], 0.5), (X2, y2[:, 0], 2.0), rtol=1e-4, atol=1e-5)
    agree_vmap(lambda t: lasso_fit_predict(X, t, 0.5), jnp.stack([y[:, 0], y2[:, 0]]),
               rtol=1e-4, atol=1e-5)
