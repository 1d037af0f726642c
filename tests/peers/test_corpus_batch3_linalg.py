"""Corpus of public functions, third batch, numerical linear algebra: three power
iterations (a `for ... break` script made a function with a sign flip under a traced `if`,
a `while not converge` loop counting its iterations, a `while dif > tol` loop from a
random start), classical Gram-Schmidt QR with item writes into rows, and a Jacobi
eigenvalue solver with nested helper functions writing the matrix in place and returning
from inside its rotation loop. Edits: `np.`/`math.` become `jnp.` where traced values
flow; NumPy's global random state becomes a key passed in.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax
import jax.numpy as jnp

from tests.peers.corpus_harness import agree, agree_grad, agree_vmap, f32, key

S = jnp.array([[-30.0, 10.0, 20.0], [10.0, 40.0, -50.0], [20.0, -50.0, -10.0]])
SPD = jnp.array([[7.0, 2.5, 2.0, 1.5], [2.5, 8.0, 2.5, 2.0], [2.0, 2.5, 9.0, 2.5],
                 [1.5, 2.0, 2.5, 10.0]])


# --- superlattice/comphy2019: chapter9/example9.4.py (the script made a function) ------

def example9_4(s, v):
    for i in range(100):
        vOld = v.copy()
        z = jnp.dot(s, v)
        zMag = jnp.sqrt(jnp.dot(z, z))
        v = z/zMag
        if jnp.dot(vOld, v) < 0.0:
            sign = -1.0
            v = -v
        else: sign = 1.0
        if jnp.sqrt(jnp.dot(vOld - v, vOld - v)) < 1.0e-3: break

    lam = sign*zMag
    return i, lam


def test_power_iteration_script_for_break_sign():
    agree(example9_4, (S, jnp.array([1.0, 0.0, 0.0])), (S.T * 0.5, jnp.array([0.0, 1.0, 0.0])),
          rtol=1e-4)
    agree_vmap(example9_4, S, jnp.eye(3), in_axes=(None, 0), rtol=1e-4)


# --- AntiInsect/numerical_algorithms: power_iteration ------------------------------------

def power_iteration(matrix, approx, eps):

    # we do with column vector
    eigenvector = approx.T / jnp.linalg.norm(approx)
    iters = 0
    converge = False

    while not converge:
        iters += 1
        eigenvector_new = matrix @ eigenvector

        # Normalization
        eigenvector_new /= jnp.linalg.norm(eigenvector_new)

        converge = jnp.linalg.norm(eigenvector_new - eigenvector) <= eps
        eigenvector = eigenvector_new

    # compute the Rayleigh quotient
    eigenvalue_max = jnp.dot(eigenvector.T, matrix @ eigenvector) / jnp.dot(eigenvector.T, eigenvector)

    return eigenvector.reshape(-1,), eigenvalue_max.item(), iters


def test_power_iteration_while_not_converge_item():
    v = jnp.array([[0.3, 0.9, 0.1, 0.5]])
    agree(power_iteration, (SPD, v, f32(1e-5)), (SPD * 2.0, v[:, ::-1], f32(1e-4)), rtol=1e-4)


# --- SoutoSebastian/TP2-ALC: TP2/funciones.py (metodo_potencia) --------------------------

def metodo_potencia (A, key, tol = 0.0001):
    n = jnp.shape(A)[0]
    tol = 0.0001                    #tolerancia pedida para que se deje de ejecutar el while
    dif = tol + 1
    v = jax.random.uniform(key, (n,1))         #comienzo con un vector random

    while (dif > tol) :
        v_1 = A@v
        v_1 = v_1 / jnp.linalg.norm(v_1,2)
        dif =jnp.linalg.norm((v-v_1),2)
        v = v_1

    autovals = jnp.zeros(n)
    product = A@v

    #coeficiente de Rayleigh:
    w = A @ v
    autovalor = ((v.T @ w) / (v.T @ v))[0][0]

    return autovalor, v


def test_metodo_potencia_keyed_start():
    agree(metodo_potencia, (SPD, key(0)), (SPD + 1.0, key(1)), rtol=1e-4)


# --- aisu-programming/Numerical-Method: hw10_QR_factorization.py -------------------------

def Gram_Schmidt_orthogonalization(matrix, A):
    Y = jnp.zeros(matrix.shape)
    Q = jnp.zeros(matrix.shape)
    R = jnp.zeros((matrix.shape[1], matrix.shape[1]))

    for i in range(len(Y)):
        Y[i] = A[i]
        for j in range(i):
            Y[i] -= jnp.dot(Q[j], jnp.dot(jnp.transpose(Q[j]), A[i]))
        Q[i] = Y[i] / jnp.linalg.norm(Y[i])

    for i in range(R.shape[0]):
        for j in range(R.shape[1]):
            if i == j: R[i][j] = jnp.linalg.norm(Y[i])
            elif i < j: R[i][j] = jnp.dot(jnp.transpose(Q[i]), A[j])

    return Q, R


def test_gram_schmidt_row_item_writes_and_grad():
    A = jnp.array([[4., 0., 3.], [8., 2., 6.], [1., -2., 7.]])
    agree(Gram_Schmidt_orthogonalization, (A, A), (A.T, A.T), rtol=1e-4)

    def loss(A):
        Q, R = Gram_Schmidt_orthogonalization(A, A)
        return jnp.sum(R) + jnp.sum(Q[2])

    agree_grad(loss, A, reference=jax.grad(lambda A: _gs_reference(A))(A))


def _gs_reference(A):
    rows, norms = [], []
    for i in range(A.shape[0]):
        y = A[i]
        for q in rows:
            y = y - q * jnp.dot(q, A[i])
        norms.append(jnp.linalg.norm(y))
        rows.append(y / norms[-1])
    r = sum(norms) + sum(jnp.dot(rows[i], A[j]) for i in range(3) for j in range(i + 1, 3))
    return r + jnp.sum(rows[2])


# --- LosPiesDescalzos/AppliedMathematics: lab-4/jacobi.py (jacobi, max_elem, rotate) ----

def jacobi(a, tol=1.0e-9):  # Jacobi method
    def max_elem(a):  # Find largest off-diag. element a[k,l]
        n = len(a)
        a_max = 0.0
        for i in range(n - 1):
            for j in range(i + 1, n):
                if abs(a[i, j]) >= a_max:
                    a_max = abs(a[i, j])
                    k = i
                    l = j

        return a_max, k, l

    def rotate(a, p, k, l):  # Rotate to make a[k,l] = 0
        n = len(a)
        a_diff = a[l, l] - a[k, k]
        if abs(a[k, l]) < abs(a_diff) * 1.0e-36:
            t = a[k, l] / a_diff
        else:
            phi = a_diff / (2.0 * a[k, l])
            t = 1.0 / (abs(phi) + jnp.sqrt(phi ** 2 + 1.0))
            if phi < 0.0:
                t = -t

        c = 1.0 / jnp.sqrt(t ** 2 + 1.0)
        s = t * c
        tau = s / (1.0 + c)
        temp = a[k, l]
        a[k, l] = 0.0
        a[k, k] = a[k, k] - t * temp
        a[l, l] = a[l, l] + t * temp
        for i in range(k):  # Case of i < k
            temp = a[i, k]
            a[i, k] = temp - s * (a[i, l] + tau * temp)
            a[i, l] = a[i, l] + s * (temp - tau * a[i, l])
        for i in range(k + 1, l):  # Case of k < i < l
            temp = a[k, i]
            a[k, i] = temp - s * (a[i, l] + tau * a[k, i])
            a[i, l] = a[i, l] + s * (temp - tau * a[i, l])
        for i in range(l + 1, n):  # Case of i > l
            temp = a[k, i]
            a[k, i] = temp - s * (a[l, i] + tau * temp)
            a[l, i] = a[l, i] + s * (temp - tau * a[l, i])
        for i in range(n):  # Update transformation matrix
            temp = p[i, k]
            p[i, k] = temp - s * (p[i, l] + tau * p[i, k])
            p[i, l] = p[i, l] + s * (temp - tau * p[i, l])

    n = len(a)
    max_rot = 5 * (n ** 2)  # Set limit on number of rotations
    p = jnp.identity(n) * 1.0  # Initialize transformation matrix
    for i in range(max_rot):  # Jacobi rotation loop
        aMax, k, l = max_elem(a)
        if aMax < tol:
            return jnp.diagonal(a)  # , p
        rotate(a, p, k, l)

    print('Jacobi method did not converge')


def test_jacobi_nested_helpers_in_place_return_in_loop():
    A3 = SPD[:3, :3]
    agree(jacobi, (A3, f32(1e-4)), (A3 * 0.5 + jnp.eye(3), f32(1e-4)), rtol=1e-4, atol=1e-4)


# --- stephenhky/MoguNumerics: mogu/spectral/lanzcos.py (lanzcos) -------------------------

def lanzcos(M, k, key):
    assert M.shape[0] == M.shape[1]
    assert (M == M.T).all()
    d = M.shape[1]
    assert k <= d

    a = jnp.zeros(k+1)
    b = jnp.zeros(k)
    v = jnp.zeros((d, k+1))

    v[:, 0] = jax.random.uniform(key, shape=(d,))
    v[:, 0] /= jnp.linalg.norm(v[:, 0])

    a[0] = v[:, 0].T @ M @ v[:, 0]
    v[:, 1] = M @ v[:, 0] - a[0] * v[:, 0]
    v[:, 1] /= jnp.linalg.norm(v[:, 1])

    for i in range(1, k):
        a[i] = v[:, i].T @ M @ v[:, i]
        b[i-1] = v[:, i-1].T @ M @ v[:, i]
        v[:, i+1] = M @ v[:, i] - a[i] * v[:, i] - b[i-1] * v[:, i-1]
        v[:, i+1] /= jnp.linalg.norm(v[:, i+1])

    return a, b, v


def test_lanczos_column_writes_and_asserts():
    # without re-orthogonalisation the last Lanczos vector amplifies float32 rounding
    # (NumPy's products in the plain run, XLA's in the converted one; both are as far from
    # a float64 run): atol 1e-3 for the third vector, 1e-5 for two
    agree(lanzcos, (SPD, 3, key(0)), (SPD * 0.5, 3, key(1)), rtol=1e-3, atol=1e-3)
    agree(lanzcos, (SPD, 2, key(0)), (SPD * 0.5, 2, key(1)), rtol=1e-4, atol=1e-5)
