"""Corpus of public functions, fifth batch, numerics and small classes: two power
iterations (a `while` on a norm printing each iterate; a `while flag` whose flag a traced
`if` clears and whose `val_old` starts as the int 0), a gradient descent that returns
nothing when it runs out of iterations, a PLU decomposition that swaps rows by fancy
indexing inside a `for ... break`, a Kalman filter class whose int matrices become float in
the first update, and two early-stopping classes whose best loss starts as `None` (one
returning None, then a bool). Edits: `np.` becomes `jnp.` where traced values flow; NumPy's
global random state becomes a key argument; `np.matrix` products become `@`; drivers that
call the classes in a loop are the tests'.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import types

import jax
import jax.numpy as jnp
import pytest

import autograph

from tests.peers.corpus_harness import agree, agree_grad, agree_vmap, key, plain


# --- KhaoulaDER/holbertonschool-math: 0x06-Math_Eigenvalues_and_Eigenvectors/1-power.py ---

def power(A, tol, key):
    n = jnp.shape(A)[0]
    x = jax.random.uniform(key, (n,))
    Ax = jnp.dot(A, x)
    nAx = jnp.linalg.norm(Ax)
    l = nAx / jnp.linalg.norm(x)
    i=1
    while(jnp.linalg.norm(Ax - l * x) > tol):
        x = Ax / nAx
        Ax = jnp.dot(A, x)
        nAx = jnp.linalg.norm(Ax)
        l = nAx / jnp.linalg.norm(x)
        print('Iteration no. ', i)
        print(x)
        i= i+1
    return l, x


SYM = jnp.array([[4.0, 1.0, 0.0],
                 [1.0, 2.0, 0.5],
                 [0.0, 0.5, 1.0]])


def test_power_iteration_prints_each_iterate_in_a_traced_while():
    agree(lambda A, k: power(A, 1e-3, k), (SYM, key(0)), (SYM + jnp.eye(3), key(1)),
          rtol=1e-4, atol=1e-5)
    agree_vmap(lambda A: power(A, 1e-3, key(2)), jnp.stack([SYM, SYM + jnp.eye(3)]),
               rtol=1e-4, atol=1e-5)


# --- WangXueFei11/homework: 04.py (eig_power) ---------------------------------------------

def eig_power(A,v0,eps):
    uk = v0
    flag = 1
    val_old = 0
    n = 0
    while flag:
        n = n+1
        vk = A @ uk
        val = vk[jnp.argmax(jnp.abs(vk))]
        uk = vk/val
        if (jnp.abs(val-val_old)<eps):
            flag = 0
        val_old = val
    return val, uk


def test_eig_power_flag_cleared_by_a_traced_if_and_int_start():
    A = jnp.array([[2.0, 1.0], [4.0, 5.0]])
    v0 = jnp.array([[1.0], [1.0]])
    agree(lambda A, v: eig_power(A, v, 1e-4), (A, v0), (A.T + 1.0, v0 * 2.0))
    agree_vmap(lambda v: eig_power(A, v, 1e-4), jnp.stack([v0, v0 * jnp.array([[1.0], [-2.0]]),
                                                          v0 + jnp.array([[0.5], [2.0]])]))


def test_eig_power_grad_through_the_flag_loop():
    agree_grad(lambda A: eig_power(A, jnp.array([[1.0], [1.0]]), 1e-4)[0][0],
               jnp.array([[2.0, 1.0], [4.0, 5.0]]))


# --- azapat47/pypacho: anarray/gradient_descent.py (gradient_descent) ---------------------

def gradient_descent(A,b,alpha,x0,np,N=25,tol=0.01):
    iter=0
    error = tol+1
    x = x0
    while (error > tol)&(iter <= N):
        grad = A.transpose() @ (A@x - b)
        xn = x - alpha*grad
        error = np.norm(x - xn)
        x = xn
        iter = iter + 1
    if (iter > N):
        print("Se ha excedido el número de iteraciones. Procedimiento FALLIDO")
    else:
        return x


NORM = types.SimpleNamespace(norm=jnp.linalg.norm)
LSQ_A = jnp.array([[3.0, 0.5], [0.5, 2.0], [0.0, 1.0]])
LSQ_B = jnp.array([1.0, -1.0, 0.5])


def test_gradient_descent_converged_returns_the_iterate():
    agree(lambda A, b, x0: gradient_descent(A, b, 0.1, x0, NORM, 200, 1e-4),
          (LSQ_A, LSQ_B, jnp.zeros(2)), (LSQ_A, -LSQ_B, jnp.ones(2)))


def test_gradient_descent_out_of_iterations_returns_none_as_python():
    agree(lambda A, b, x0: gradient_descent(A, b, 0.1, x0, NORM, 3, 1e-4),
          (LSQ_A, LSQ_B, jnp.zeros(2)))


def test_gradient_descent_result_given_to_jnp_sum():
    agree(lambda A, b, x0: jnp.sum(gradient_descent(A, b, 0.1, x0, NORM, 200, 1e-4)),
          (LSQ_A, LSQ_B, jnp.zeros(2)))


# --- paulohdiniz/MAP3122-Tomografia-computadorizada: teste.py (plu) -----------------------

def plu(A, n):

    #Allocate space for P, L, and U
    U = A.copy()
    L = jnp.eye(n, dtype=jnp.float32)
    P = jnp.eye(n, dtype=jnp.float32)

    #Loop over rows
    for i in range(n):

        #Permute rows if needed
        for k in range(i, n):
            if ~jnp.isclose(U[i, i], 0.0):
                break
            U[[k, k+1]] = U[[k+1, k]]
            P[[k, k+1]] = P[[k+1, k]]

        #Eliminate entries below i with row
        #operations on U and #reverse the row
        #operations to manipulate L
        factor = U[i+1:, i] / U[i, i]
        L[i+1:, i] = factor
        U[i+1:] -= factor[:, jnp.newaxis] * U[i]

    return P, L, U


def plu_array_index(A, n):
    """`plu` with the row lists `[k, k+1]` written `jnp.array([k, k+1])`, as JAX asks."""
    U = A.copy()
    L = jnp.eye(n, dtype=jnp.float32)
    P = jnp.eye(n, dtype=jnp.float32)
    for i in range(n):
        for k in range(i, n):
            if ~jnp.isclose(U[i, i], 0.0):
                break
            U[jnp.array([k, k+1])] = U[jnp.array([k+1, k])]
            P[jnp.array([k, k+1])] = P[jnp.array([k+1, k])]
        factor = U[i+1:, i] / U[i, i]
        L[i+1:, i] = factor
        U[i+1:] -= factor[:, jnp.newaxis] * U[i]
    return P, L, U


PLU_A = jnp.array([[7.0, 3.0, -1.0, 2.0], [3.0, 8.0, 1.0, -4.0],
                   [-1.0, 1.0, 4.0, -1.0], [2.0, -4.0, -1.0, 6.0]])
# a zero first pivot: rows 0 and 1 are swapped before the `break`
PLU_Z = jnp.array([[0.0, 1.0, 2.0, 1.0], [1.0, 2.0, 3.0, 0.0],
                   [4.0, 5.0, 7.0, 1.0], [2.0, 0.0, 1.0, 3.0]])


def test_plu_fancy_row_swap_inside_a_for_break():
    agree(lambda A: plu(A, 4), (PLU_A,), (PLU_Z,), rtol=1e-4, atol=1e-5)


def test_plu_array_row_swap_inside_a_for_break():
    agree(lambda A: plu_array_index(A, 4), (PLU_A,), (PLU_Z,), rtol=1e-4, atol=1e-5)
    agree_vmap(lambda A: plu_array_index(A, 4), jnp.stack([PLU_A, PLU_Z]),
               rtol=1e-4, atol=1e-5)


def test_plu_singular_last_pivot_raises_index_error_as_python():
    S = jnp.array([[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [2.0, 1.0, 2.0]])
    with pytest.raises(IndexError):
        plain(lambda A: plu_array_index(A, 3), S)
    with pytest.raises(IndexError):
        autograph.convert(lambda A: plu_array_index(A, 3))(S)


# --- SZucchini/tf-reid: src/models/kalman.py (KalmanFilter, the second one) ---------------

class KalmanFilter:
    def __init__(self, x0, dt=1):
        self.F = jnp.array([[1, dt], [0, 1]])
        self.H = jnp.array([1, 0]).reshape(1, 2)
        self.Q = jnp.diag(jnp.array([1, 1]))
        self.R = jnp.array([25]).reshape(1, 1)
        self.x = x0
        self.P = jnp.diag(jnp.array([1, 1]))

    def predict(self):
        self.x = jnp.dot(self.F, self.x)
        self.P = jnp.dot(jnp.dot(self.F, self.P), self.F.T) + self.Q
        return self.x[0]

    def update(self, z):
        K = jnp.dot(jnp.dot(self.P, self.H.T),
                   jnp.linalg.inv(jnp.dot(jnp.dot(self.H, self.P), self.H.T) + self.R))
        self.x = self.x + jnp.dot(K, (z - jnp.dot(self.H, self.x)))
        self.P = self.P - jnp.dot(jnp.dot(K, self.H), self.P)
        return self.x[0]


def track(x0, zs):
    kf = KalmanFilter(x0)
    out = []
    for z in zs:
        kf.predict()
        out.append(kf.update(z))
    return jnp.stack(out), kf.P


X0 = jnp.array([[0.0], [1.0]])
ZS = jnp.array([1.2, 1.9, 3.4, 3.8, 5.1, 6.3])


def test_kalman_class_int_covariance_becomes_float_in_the_loop():
    agree(track, (X0, ZS), (X0 * 2.0, ZS[::-1]))
    agree_vmap(track, jnp.stack([X0, X0 * 2.0]), jnp.stack([ZS, ZS[::-1]]))


def test_kalman_grad_through_the_loop():
    agree_grad(lambda zs, x0: jnp.sum(track(x0, zs)[0] ** 2), ZS, X0)


# --- sgol13/tudelft-nlp-fact-checking: src/early_stopping.py (EarlyStopping) --------------

class EarlyStopping:
    def __init__(self, patience: int = 3):
        self._patience = patience
        self._counter = 0
        self._lowest_loss = None

    def __call__(self, val_loss) -> bool:
        score = -val_loss

        if self._lowest_loss is None:
            self._lowest_loss = val_loss
        elif val_loss > self._lowest_loss:
            self._counter += 1

            print(f'Early stopping counter: {self._counter}/{self._patience}')

            return self._counter >= self._patience
        else:
            self._lowest_loss = score
            self._counter = 0
            return False


def epochs_until_stopped(losses):
    stopper = EarlyStopping(patience=2)
    epochs = 0
    for loss in losses:
        epochs += 1
        if stopper(loss):
            break
    return epochs, stopper._counter, stopper._lowest_loss


LOSSES = jnp.array([1.0, 0.8, 0.9, 0.85, 0.95, 0.7, 0.6, 0.65])


def test_early_stopping_none_first_then_bool_in_a_loop_with_break():
    agree(epochs_until_stopped, (LOSSES,), (-LOSSES,), (jnp.sort(LOSSES)[::-1],))


# --- CS-433/ml-project-2-teamsas: src/early_stopping.py (EarlyStopping) -------------------

class EarlyStoppingFlag:
    def __init__(self, patience=10, delta=0, verbose=False):
        self.patience = patience
        self.delta = delta
        self.counter = 0
        self.best_score = None
        self.early_stop = False
        self.verbose = verbose

    def __call__(self, val_loss):
        score = -val_loss
        if self.best_score is None:
            self.best_score = score
        elif score < self.best_score + self.delta:
            self.counter += 1
            if self.verbose:
                print(f"EarlyStopping counter: {self.counter}/{self.patience}")
            if self.counter >= self.patience:
                self.early_stop = True
        else:
            self.best_score = score
            self.counter = 0


def epochs_until_flagged(losses):
    stopper = EarlyStoppingFlag(patience=2, verbose=True)
    epochs = 0
    for loss in losses:
        stopper(loss)
        epochs += 1
        if stopper.early_stop:
            break
    return epochs, stopper.counter, stopper.best_score, stopper.early_stop


def test_early_stopping_optional_best_score_and_flag_in_a_loop():
    agree(epochs_until_flagged, (LOSSES,), (-LOSSES,), (jnp.sort(LOSSES)[::-1],))


def test_early_stopping_flag_under_vmap():
    """The loop over 8 losses surely runs its first iteration (the traced `break` comes
    after `stopper(loss)`), which sets `stopper.best_score` (None before the loop) under
    `if self.best_score is None:` and keeps it in the `elif`/`else` (where the test is
    false, the attribute is narrowed to its value): a value on every path (a strict xfail
    before: runtime.staging.loops' `_runs_first`, runtime.operators.conditionals'
    `_narrow_chain`)."""
    agree_vmap(epochs_until_flagged, jnp.stack([LOSSES, -LOSSES, LOSSES[::-1]]))
