"""Corpus of public functions, optimisation continued: conjugate gradient, power iteration
and Jacobi iteration (TheAlgorithms/Python), numpy-ml's Adam in a training loop and a
k-means class, with the edits a user makes moving NumPy code to JAX.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.peers.corpus_harness import agree, agree_grad, agree_vmap


# --- TheAlgorithms/Python linear_algebra -------------------------------------------------

def _is_matrix_spd(matrix):
    assert jnp.shape(matrix)[0] == jnp.shape(matrix)[1]
    if jnp.allclose(matrix, matrix.T) is False:
        return False
    eigen_values, _ = jnp.linalg.eigh(matrix)
    return bool(jnp.all(eigen_values > 0))


def conjugate_gradient(spd_matrix, load_vector, max_iterations=1000, tol=1e-8):
    assert jnp.shape(spd_matrix)[0] == jnp.shape(spd_matrix)[1]
    assert jnp.shape(load_vector)[0] == jnp.shape(spd_matrix)[0]
    assert _is_matrix_spd(spd_matrix)
    x0 = jnp.zeros((jnp.shape(load_vector)[0], 1))
    r0 = jnp.copy(load_vector)
    p0 = jnp.copy(r0)
    error_residual = 1e9
    error_x_solution = 1e9
    error = 1e9
    iterations = 0
    while error > tol:
        w = jnp.dot(spd_matrix, p0)
        alpha = jnp.dot(r0.T, r0) / jnp.dot(p0.T, w)
        x = x0 + alpha * p0
        r = r0 - alpha * w
        beta = jnp.dot(r.T, r) / jnp.dot(r0.T, r0)
        p = r + beta * p0
        error_residual = jnp.linalg.norm(r - r0)
        error_x_solution = jnp.linalg.norm(x - x0)
        error = jnp.maximum(error_residual, error_x_solution)
        x0 = jnp.copy(x)
        r0 = jnp.copy(r)
        p0 = jnp.copy(p)
        iterations += 1
        if iterations > max_iterations:
            break
    return x


def power_iteration(input_matrix, vector, error_tol=1e-12, max_iterations=100):
    assert jnp.shape(input_matrix)[0] == jnp.shape(input_matrix)[1]
    assert jnp.shape(input_matrix)[0] == jnp.shape(vector)[0]
    assert jnp.iscomplexobj(input_matrix) == jnp.iscomplexobj(vector)
    is_complex = jnp.iscomplexobj(input_matrix)
    if is_complex:
        assert jnp.array_equal(input_matrix, input_matrix.conj().T)
    convergence = False
    lambda_previous = 0
    iterations = 0
    error = 1e12
    while not convergence:
        w = jnp.dot(input_matrix, vector)
        vector = w / jnp.linalg.norm(w)
        vector_h = vector.conj().T if is_complex else vector.T
        lambda_ = jnp.dot(vector_h, jnp.dot(input_matrix, vector))
        error = jnp.abs(lambda_ - lambda_previous) / lambda_
        iterations += 1
        if error <= error_tol or iterations >= max_iterations:
            convergence = True
        lambda_previous = lambda_
    if is_complex:
        lambda_ = jnp.real(lambda_)
    return float(lambda_), vector


def strictly_diagonally_dominant(table):
    rows, cols = table.shape
    is_diagonally_dominant = True
    for i in range(rows):
        total = 0
        for j in range(cols - 1):
            if i == j:
                continue
            else:
                total += table[i][j]
        if table[i][i] <= total:
            raise ValueError("Coefficient matrix is not strictly diagonally dominant")
    return is_diagonally_dominant


def jacobi_iteration_method(coefficient_matrix, constant_matrix, init_val, iterations):
    rows1, cols1 = coefficient_matrix.shape
    rows2, cols2 = constant_matrix.shape
    if rows1 != cols1:
        raise ValueError(f"Coefficient matrix dimensions must be nxn but received {rows1}x{cols1}")
    if iterations <= 0:
        raise ValueError("Iterations must be at least 1")
    table = jnp.concatenate((coefficient_matrix, constant_matrix), axis=1)
    rows, _cols = table.shape
    strictly_diagonally_dominant(table)
    denominator = jnp.diag(coefficient_matrix)
    val_last = table[:, -1]
    masks = ~jnp.eye(coefficient_matrix.shape[0], dtype=bool)
    no_diagonals = coefficient_matrix[masks].reshape(-1, rows - 1)
    _i_row, i_col = jnp.where(masks)
    ind = i_col.reshape(-1, rows - 1)
    for _ in range(iterations):
        arr = jnp.take(init_val, ind)
        sum_product_rows = jnp.sum((-1) * no_diagonals * arr, axis=1)
        new_val = (sum_product_rows + val_last) / denominator
        init_val = new_val
    return new_val


SPD = jnp.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
SPD2 = jnp.array([[5.0, 0.3, 1.0], [0.3, 2.0, 0.4], [1.0, 0.4, 3.0]])


def test_conjugate_gradient():
    solve = lambda m, b: conjugate_gradient(m, b, tol=1e-5)
    agree(solve, (SPD, jnp.array([[1.0], [2.0], [3.0]])),
          (SPD2, jnp.array([[0.5], [-1.0], [2.0]])),
          rtol=1e-4)


def test_conjugate_gradient_not_spd_raises_as_python():
    with pytest.raises(AssertionError):
        autograph.convert(conjugate_gradient)(-SPD, jnp.ones((3, 1)), 1000, 1e-5)


def test_power_iteration():
    agree(lambda m, v: power_iteration(m, v, error_tol=1e-6),
          (SPD, jnp.array([1.0, 0.0, 0.0])), (SPD2, jnp.array([0.3, 1.0, 0.2])), rtol=1e-4)


def test_power_iteration_vmap_over_start_vectors():
    agree_vmap(lambda v: power_iteration(SPD, v, error_tol=1e-6)[1],
               jnp.array([[1.0, 0.0, 0.0], [0.3, 1.0, 0.2]]), rtol=1e-4)


def test_jacobi_iteration_method():
    coefficient = jnp.array([[4.0, 1.0, 1.0], [1.0, 5.0, 2.0], [-2.0, 1.0, 6.0]])
    agree(lambda c, k, x: jacobi_iteration_method(c, k, x, 8),
          (coefficient, jnp.array([[2.0], [-6.0], [-4.0]]), jnp.array([0.5, -0.5, -0.5])),
          (coefficient * 1.5, jnp.array([[1.0], [2.0], [3.0]]), jnp.zeros(3)))


def test_jacobi_not_dominant_raises_as_python():
    bad = jnp.array([[1.0, 2.0], [3.0, 1.0]])
    with pytest.raises(ValueError, match='not strictly diagonally dominant'):
        autograph.convert(lambda c, k: jacobi_iteration_method(c, k, jnp.zeros(2), 3))(
            bad, jnp.ones((2, 1)))


# --- ddbourgin/numpy-ml Adam, MarioROT/IML-MAI k-means ------------------------------------

def norm(x):
    return jnp.linalg.norm(x)


class Adam:
    def __init__(self, lr=0.001, decay1=0.9, decay2=0.999, eps=1e-7, clip_norm=None):
        self.cache = {}
        self.cur_step = 0
        self.hyperparameters = {"id": "Adam", "lr": lr, "eps": eps, "decay1": decay1,
                                "decay2": decay2, "clip_norm": clip_norm}

    def lr_scheduler(self, step, cur_loss):
        return self.hyperparameters["lr"]

    def update(self, param, param_grad, param_name, cur_loss=None):
        C = self.cache
        H = self.hyperparameters
        d1, d2 = H["decay1"], H["decay2"]
        eps, clip_norm = H["eps"], H["clip_norm"]
        lr = self.lr_scheduler(self.cur_step, cur_loss)
        if param_name not in C:
            C[param_name] = {"t": 0, "mean": jnp.zeros_like(param_grad),
                             "var": jnp.zeros_like(param_grad)}
        t = jnp.inf if clip_norm is None else clip_norm
        if norm(param_grad) > t:
            param_grad = param_grad * t / norm(param_grad)
        t = C[param_name]["t"] + 1
        var = C[param_name]["var"]
        mean = C[param_name]["mean"]
        C[param_name]["t"] = t
        C[param_name]["var"] = d2 * var + (1 - d2) * param_grad ** 2
        C[param_name]["mean"] = d1 * mean + (1 - d1) * param_grad
        self.cache = C
        v_hat = C[param_name]["var"] / (1 - d2 ** t)
        m_hat = C[param_name]["mean"] / (1 - d1 ** t)
        update = lr * m_hat / (jnp.sqrt(v_hat) + eps)
        return param - update


def adam_fit(w, target, clip_norm=None, steps=60, tol=1e-3):
    """The user's training loop around numpy-ml's optimizer (not from the repository)."""
    opt = Adam(lr=0.1, clip_norm=clip_norm)
    loss = jnp.sum((w - target) ** 2)
    for step in range(steps):
        if loss < tol:
            break
        grad = 2 * (w - target)
        w = opt.update(w, grad, "W", loss)
        loss = jnp.sum((w - target) ** 2)
    return w, loss, opt.cache["W"]["t"]


@pytest.mark.parametrize('clip_norm', [None, 0.5])
def test_adam_training_loop(clip_norm):
    agree(lambda w, t: adam_fit(w, t, clip_norm), (jnp.zeros(3), jnp.array([1.0, -2.0, 0.5])),
          (jnp.ones(3), jnp.array([0.0, 0.5, 0.2])), rtol=1e-4, atol=1e-5)


def test_adam_grad_through_the_loop():
    final_loss = lambda t: adam_fit(jnp.zeros(3), t, steps=5, tol=0.0)[1]
    agree_grad(final_loss, jnp.array([1.0, -2.0, 0.5]))


class KMeans:
    def __init__(self, k=3, max_iters=100):
        self.k = k
        self.max_iters = max_iters

    def fit(self, data, key):
        self.centroids = data[jax.random.choice(key, data.shape[0], (self.k,), replace=False)]
        prev_labels = jnp.zeros(data.shape[0])
        for _ in range(self.max_iters):
            labels = self._assign_to_clusters(data)
            if jnp.all(labels == prev_labels):
                break
            prev_labels = labels
            self.centroids = jnp.array([data[labels == i].mean(axis=0) for i in range(self.k)])
            self.labels_ = self._assign_to_clusters(data)

    def predict(self, data):
        return self._assign_to_clusters(data)

    def _assign_to_clusters(self, data):
        distances_to_centroids = jnp.linalg.norm(data[:, jnp.newaxis] - self.centroids, axis=2)
        return jnp.argmin(distances_to_centroids, axis=1)


def kmeans_labels(data, key):
    model = KMeans(k=2, max_iters=10)
    model.fit(data, key)
    return model.centroids, model.predict(data)


def test_kmeans_fit():
    # `prev_labels` is float32 zeros before the fit loop and the int32 labels after an
    # iteration: the breaking path never reads it again, so it need not agree there.
    data = jnp.array([[0.0, 0.1], [0.2, 0.0], [0.1, 0.3], [3.0, 3.1], [2.9, 3.3], [3.2, 2.8]])
    agree(kmeans_labels, (data, jax.random.PRNGKey(0)), (data[::-1], jax.random.PRNGKey(3)))
