"""Corpus of public functions, numerical linear algebra: LU with partial pivoting,
Doolittle (two ways), Thomas, Gauss-Seidel, Cholesky (two ways), Gram-Schmidt, Jacobi
eigenvalue rotations and Lanczos, from course and project repositories, with the edits a
user makes moving NumPy code to JAX. (Root finding: test_corpus_more_algorithms.py.)

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.peers.corpus_harness import agree, agree_grad, agree_vmap, plain

A1 = jnp.array([[1.0, 2.0, 0.5, 0.1], [4.0, 1.0, 0.3, 0.2],
                [0.5, 0.2, 3.0, 1.0], [0.1, 0.3, 2.0, 5.0]])
A2 = jnp.array([[0.2, 1.0, 0.5, 3.0], [1.0, 2.0, 0.1, 0.4],
                [6.0, 0.2, 1.0, 1.0], [0.3, 4.0, 0.2, 0.5]])
B1, B2 = jnp.array([1.0, 2.0, 3.0, 4.0]), jnp.array([-1.0, 0.5, 2.0, 1.5])
SPD1 = jnp.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
SPD2 = jnp.array([[5.0, -1.0, 0.3], [-1.0, 4.0, 1.0], [0.3, 1.0, 3.0]])
DOM1 = jnp.array([[8.0, 1.0, 0.5], [1.0, 7.0, 1.0], [0.5, 1.0, 9.0]])
DOM2 = jnp.array([[6.0, -1.0, 1.0], [2.0, 9.0, -1.0], [1.0, 1.0, 7.0]])


# --- konthis/Arithmitiki_Analusi2: LU with partial pivoting, Gauss-Seidel ----------------

def Gauss(A, b):
    size = len(A)
    A = jnp.array(A)
    P = jnp.eye(size)
    for i in range(size - 1):
        maxRow = i
        for j in range(i + 1, size):
            if abs(A[j][i]) > abs(A[maxRow][i]):
                maxRow = j
        if maxRow != i:
            P[[maxRow, i]] = P[[i, maxRow]]
            A[[maxRow, i]] = A[[i, maxRow]]
        for k in range(i + 1, size):
            A[k][i] /= A[i][i]
            for j in range(i + 1, size):
                A[k][j] -= A[k][i] * A[i][j]
    L = jnp.eye(size)
    for i in range(size):
        for j in range(i):
            L[i][j] = A[i][j]
    U = jnp.zeros((size, size))
    for i in range(size):
        for j in range(i, size):
            U[i][j] = A[i][j]
    b = jnp.array(b)
    y = jnp.copy(jnp.dot(P, b))
    for i in range(size):
        if L[i][i] == 0:  # Division by 0
            y[i] = 0
            continue
        for j in range(i):
            y[i] = (y[i] - L[i][j] * y[j]) / L[i][i]
    x = jnp.zeros((size, 1))
    x[size - 1] = y[size - 1] / U[size - 1][size - 1]
    for i in range(size - 1, -1, -1):
        if U[i][i] == 0:  # Division by 0
            x[i] = 0
            continue
        xv = y[i]
        for j in range(i + 1, size):
            xv -= U[i][j] * x[j]
        xv /= U[i][i]
        x[i] = xv
    return x


def Gauss_Seidel(A, b, tol):
    size = len(A)
    x = jnp.zeros((2, size))
    while True:
        for i in range(size):
            x[1][i] = (b[i] -
                       sum([A[i][j] * x[1][j] for j in range(i - 1)]) -
                       sum([A[i][j] * x[0][j] for j in range(i + 1, size)])) / A[i][i]
        if abs(max(x[1] - x[0])) <= tol:
            return x[1]
        x[0] = x[1]


def test_lu_partial_pivoting_row_swaps():
    agree(Gauss, (A1, B1), (A2, B2), rtol=1e-4, atol=1e-5)


def test_gauss_seidel_while_true_return_vmap():
    agree(Gauss_Seidel, (DOM1, B1[:3], 1e-5), (DOM2, B2[:3], 1e-5), rtol=1e-4, atol=1e-5)
    agree_vmap(Gauss_Seidel, jnp.stack([DOM1, DOM2]), jnp.stack([B1[:3], B2[:3]]), 1e-5,
               in_axes=(0, 0, None), rtol=1e-4, atol=1e-5)


# --- gittasche/Numerical-Linear-Algebra: Doolittle with early returns --------------------

def doolittle(A):
    n = A.shape[0]
    L = jnp.identity(n)
    U = jnp.zeros((n, n))
    if A[0, 0] == 0:
        print('Factorization impossible')
        return
    U[0, :] = A[0, :] / L[0, 0]
    L[1:, 0] = A[1:, 0] / U[0, 0]
    for i in range(1, n):
        U[i, i:] = A[i, i:] - jnp.dot(L[i, :i], U[:i, i:])
        L[i + 1:, i] = (A[i + 1:, i] - jnp.dot(L[i + 1:, :i], U[:i, i])) / U[i, i]
        if U[i, i] == 0:
            print('Factorization impossible')
            return
    return L, U


def LU_solve(A, b):
    n = b.shape[0]
    L, U = doolittle(A)
    y = jnp.zeros(n)
    y[0] = b[0] / L[0, 0]
    for i in range(1, n):
        y[i] = (b[i] - jnp.dot(L[i, :i], y[:i])) / L[i, i]
    x = jnp.zeros(n)
    x[-1] = y[-1] / U[-1, -1]
    for i in range(n - 2, -1, -1):
        x[i] = (y[i] - jnp.dot(U[i, i:], x[i:])) / U[i, i]
    return x


def test_doolittle_returns_none_on_a_zero_pivot():
    singular = jnp.array([[0.0, 1.0, 2.0], [1.0, 2.0, 3.0], [2.0, 1.0, 1.0]])
    agree(doolittle, (SPD1,), (singular,))


def test_doolittle_lu_solve():
    agree(LU_solve, (SPD1, B1[:3]), (SPD2, B2[:3]), rtol=1e-4, atol=1e-5)


# --- VedJ0shi/Mathematical-Tests: Doolittle skipping zero entries, triangular solves ------

def LU_decomp(A):
    n = len(A[0])
    L = jnp.zeros((n, n))
    for k in range(0, n - 1):
        pivot = A[k, k]
        L[k, k] = 1  # Dolittle's L matrix has 1's along diagonal
        for j in range(k + 1, n):
            if A[j, k] != 0:
                front = A[j, k]
                lam = front / pivot
                A[j, k:] = A[j, k:] - lam * A[k, k:]
                L[j, k] = lam  # replaces initialized zero below the diagonal
    L[n - 1, n - 1] = 1
    return L, A


def tri_solver(T, v, upper=True):
    if not T.dtype == 'float64':
        T = T.astype('f')
    if not v.dtype == 'float64':
        v = v.astype('f')
    n = len(v)
    u = jnp.zeros(n)
    if upper:
        for k in range(n - 1, -1, -1):
            u[k] = (v[k] - jnp.dot(T[k, k + 1:], u[k + 1:])) / T[k, k]
    else:  # if lower
        for k in range(0, n):
            u[k] = (v[k] - jnp.dot(T[k, :k], u[:k])) / T[k, k]
    return u


def lu_then_solve(A, b):
    L, U = LU_decomp(A)
    return tri_solver(U, tri_solver(L, b, upper=False))


def test_lu_decomp_skipping_zeros_and_triangular_solves():
    sparse = SPD2.at[2, 0].set(0.0)
    agree(lu_then_solve, (SPD1, B1[:3]), (sparse, B2[:3]), rtol=1e-4, atol=1e-5)


# --- MaximeII/Analysis: Thomas algorithm -------------------------------------------------

def TDMAsolver(a, b, c, d):
    nf = len(d)  # number of equations
    ac, bc, cc, dc = map(jnp.array, (a, b, c, d))  # copy arrays
    for it in range(1, nf):
        mc = ac[it - 1] / bc[it - 1]
        bc[it] = bc[it] - mc * cc[it - 1]
        dc[it] = dc[it] - mc * dc[it - 1]
    xc = bc
    xc[-1] = dc[-1] / bc[-1]
    for il in range(nf - 2, -1, -1):
        xc[il] = (dc[il] - cc[il] * xc[il + 1]) / bc[il]
    return xc


TRI = (jnp.array([3.0, 1.0, 3.0]), jnp.array([10.0, 10.0, 7.0, 4.0]),
       jnp.array([2.0, 4.0, 5.0]), jnp.array([3.0, 4.0, 5.0, 6.0]))


def test_thomas_algorithm_aliased_copy():
    other = (TRI[0] * 0.5, TRI[1] + 1.0, -TRI[2], TRI[3][::-1])
    agree(TDMAsolver, TRI, other)


def test_thomas_algorithm_grad():
    # reference: jax.grad through jnp.linalg.solve (jax.grad cannot take the plain writes)
    a, b, c, d = TRI
    full = jnp.diag(b) + jnp.diag(a, -1) + jnp.diag(c, 1)
    reference = jax.jit(jax.grad(lambda d: jnp.sum(jnp.linalg.solve(full, d) ** 2)))(d)
    agree_grad(lambda d: jnp.sum(TDMAsolver(a, b, c, d) ** 2), d, reference=reference)


# --- zhouf7uci/fintech545 and computationalgeography/pycatch: Cholesky -------------------

def chol_psd(a):
    n = a.shape[0]
    root = jnp.zeros((n, n))
    for j in range(n):
        s = 0.0
        if j > 0:
            s = jnp.dot(root[j, :j], root[j, :j])
        temp = a[j, j] - s
        if temp <= 0:
            temp = 0.0
        root[j, j] = jnp.sqrt(temp)
        if root[j, j] == 0.0:
            root[j, j + 1:] = 0.0
        else:
            ir = 1.0 / root[j, j]
            for i in range(j + 1, n):
                s = jnp.dot(root[i, :j], root[j, :j])
                root[i, j] = (a[i, j] - s) * ir
    return root


def choleski(a):
    n = len(a)
    for k in range(n):
        try:
            a[k, k] = jnp.sqrt(a[k, k] - jnp.dot(a[k, 0:k], a[k, 0:k]))
        except ValueError:
            print('Matrix is not positive definite')
        for i in range(k + 1, n):
            a[i, k] = (a[i, k] - jnp.dot(a[i, 0:k], a[k, 0:k])) / a[k, k]
    for k in range(1, n): a[0:k, k] = 0.0
    return a


PSD = jnp.array([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 2.0]])   # a zero pivot


def test_cholesky_psd_zero_pivot_branch():
    agree(chol_psd, (SPD1,), (PSD,))


def test_cholesky_psd_grad():
    # reference: jnp.linalg.cholesky of the matrix made from the triangle chol_psd reads
    sym = lambda a: jnp.tril(a) + jnp.tril(a, -1).T
    reference = jax.jit(jax.grad(lambda a: jnp.sum(jnp.linalg.cholesky(sym(a)))))(SPD1)
    agree_grad(lambda a: jnp.sum(chol_psd(a)), SPD1, reference=reference)


def test_choleski_try_except_in_place():
    agree(choleski, (SPD1,), (SPD2,))


# --- EmadGhazal/py-numerics: modified Gram-Schmidt ---------------------------------------

def mgramr(A):
    m = A.shape[0]
    n = A.shape[1]
    Q = jnp.zeros((m, n))
    R = jnp.zeros((n, n))
    for i in range(n):
        a = A[:, i].reshape(m, 1)
        for j in range(i):
            q = Q[:, j].reshape(m, 1)
            R[j, i] = jnp.dot(jnp.transpose(q), a)
            a = a - q * R[j, i]
        R[i, i] = jnp.linalg.norm(a)
        Q[:, i] = (a / R[i, i]).reshape(m)
    return Q, R


def test_modified_gram_schmidt_unit_array_into_an_item():
    # `R[j, i] = jnp.dot(q.T, a)` writes a (1, 1) array into one item, which NumPy 2
    # refuses (older NumPy dropped the unit axes): the converted call raises as Python does
    for run in (lambda: plain(mgramr, A1[:, :3]), lambda: autograph.convert(mgramr)(A1[:, :3])):
        with pytest.raises(ValueError, match='setting an array element with a sequence'):
            run()


# --- g4dlle/Chislmet: Jacobi eigenvalue rotations ----------------------------------------

def elemMax(A):
    n = len(A)
    aMax = 0
    for i in range(n - 1):
        for j in range(i + 1, n):
            if abs(A[i, j]) >= aMax:
                aMax = abs(A[i, j])
                k = i
                l = j
    return aMax, k, l


def rotate(A, P, k, l):
    n = len(A)
    d = A[l, l] - A[k, k]
    if abs(A[k, l]) < abs(d) * 1.0e-36:
        t = A[k, l] / d
    else:
        phi = d / (2 * A[k, l])
        t = 1 / (abs(phi) + jnp.sqrt(1 + phi ** 2))
        if phi < 0:
            t = -t
    c = 1 / jnp.sqrt(1 + t ** 2)
    s = t * c
    tau = s / (1 + c)
    tt = A[k, l]
    A[k, l] = 0
    A[k, k] = A[k, k] - t * tt
    A[l, l] = A[l, l] + t * tt
    for i in range(k):
        tt = A[i, k]
        A[i, k] = tt - s * (A[i, l] + tau * tt)
        A[i, l] = A[i, l] + s * (tt - tau * A[i, l])
    for i in range(k + 1, l):
        tt = A[k, i]
        A[k, i] = tt - s * (A[i, l] + tau * A[k, i])
        A[i, l] = A[i, l] + s * (tt - tau * A[i, l])
    for i in range(l + 1, n):
        tt = A[k, i]
        A[k, i] = tt - s * (A[l, i] + tau * tt)
        A[l, i] = A[l, i] + s * (tt - tau * A[l, i])
    for i in range(n):
        tt = P[i, k]
        P[i, k] = tt - s * (P[i, l] + tau * P[i, k])
        P[i, l] = P[i, l] + s * (tt - tau * P[i, l])


def jacobi(A, tol=1.0e-12):
    n = len(A)
    rotMax = 5 * (n ** 2)
    P = jnp.identity(n)
    for i in range(rotMax):
        aMax, k, l = elemMax(A)
        if aMax < tol:
            return jnp.diagonal(A), P
        rotate(A, P, k, l)
    print('Jacobi method did not converge')


def test_jacobi_eigenvalue_rotations():
    # jacobi writes items of its parameter A (through rotate) and returns a value when
    # converged, None when it falls off the end: the report of the written parameter
    # nests the optional value.
    agree(jacobi, (SPD1, 1e-5), (SPD2, 1e-5), rtol=1e-4, atol=1e-5)


# --- NoahAmsel/lanczos-optimality: Lanczos with a list tail and a traced break ------------

def lanczos(A, q_1, k=None):
    assert jnp.allclose(A, A.T)  # this probably hurts performance
    n = A.shape[0]
    if k is None:
        k = n
    Q = [q_1 / jnp.linalg.norm(q_1)]
    alpha = []
    beta = []  # this is really beta_2, beta_3, ...
    for i in range(k):
        if i == 0:
            q_i_minus_1 = jnp.zeros(n)
            beta_i = 0
        else:
            q_i_minus_1 = Q[-2]
            beta_i = beta[-1]
        q_i = Q[-1]
        next_q = A @ q_i - beta_i * q_i_minus_1
        alpha_i = jnp.inner(next_q, q_i)
        alpha.append(alpha_i)
        next_q -= alpha_i * q_i
        next_beta = jnp.linalg.norm(next_q)
        if (i == k - 1) or (next_beta == 0):  # TODO: numerical zero?
            break
        next_q /= next_beta
        Q.append(next_q)
        beta.append(next_beta)
    Q = jnp.column_stack(Q)
    alpha = jnp.array(alpha)
    beta = jnp.array(beta)
    return Q, alpha, beta


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): after the traced `break` (next_beta == 0) no more vectors are '
    'appended, so the number of Lanczos vectors in Q is known only at run time'))
def test_lanczos_list_tail_and_break():
    agree(lanczos, (SPD1, B1[:3]), (SPD2, B2[:3]), rtol=1e-4, atol=1e-5)
