"""Corpus of public functions, second batch, line searches: Armijo backtracking with an
early `return` from a traced `while`, and a strong-Wolfe search (Nocedal and Wright,
algorithm 3.5) whose `zoom` is a nested function over closures `phi`/`dphi`, with
`continue`, `return` from a range loop and a `raise` after it. Edits: none but the
module-level constants kept as module constants.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax.numpy as jnp
import pytest

import autograph
from tests.peers.corpus_harness import agree, agree_vmap, f32

# --- jameswu5/Optimisation: step_selection.backtracking, step_selection.wolfe -------------

RHO = 0.4
C = 0.3
ALPHA_BAR = 1
min_step = 1e-4


def backtracking(f, df, x, p):
    alpha = ALPHA_BAR
    while f(x + alpha * p) > f(x) + C * alpha * df(x).T @ p:
        alpha *= RHO
        if alpha < min_step:
            return min_step
    return alpha


MAX_ITERATIONS = 5000
C1 = 1e-4
C2 = 0.2


def wolfe(f, df, x, p):
    phi = lambda alpha: f(x + alpha * p)
    dphi = lambda alpha: p.T @ df(x + alpha * p)

    alpha_max = 2
    prev_alpha = 0
    alpha = alpha_max / 2

    phi_0 = phi(0)
    dphi_0 = dphi(0)

    def zoom(alpha_low, alpha_high):
        for _ in range(MAX_ITERATIONS):
            alpha_j = (alpha_low + alpha_high) / 2

            phi_j = phi(alpha_j)
            if phi_j > phi_0 + C1 * alpha_j * dphi_0 or phi_j >= phi(alpha_low):
                alpha_high = alpha_j
                continue

            dphi_j = dphi(alpha_j)
            if abs(dphi_j) <= -C2 * dphi_0:
                return alpha_j

            if dphi_j * (alpha_high - alpha_low) >= 0:
                alpha_high = alpha_low
            alpha_low = alpha_j

        raise Exception(f"Maximum iterations reached in zoom.")

    for i in range(MAX_ITERATIONS):
        if phi(alpha) > phi_0 + C1 * alpha * dphi_0 or (phi(alpha) >= phi(prev_alpha) and i > 0):
            return zoom(prev_alpha, alpha)

        if abs(dphi(alpha)) <= -C2 * dphi_0:
            return alpha

        if dphi(alpha) >= 0:
            return zoom(alpha, prev_alpha)

        prev_alpha, alpha = alpha, (alpha + alpha_max) / 2

    raise Exception(f"Maximum iterations reached in wolfe.")


def rosenbrock(x):
    return (1.0 - x[0]) ** 2 + 10.0 * (x[1] - x[0] ** 2) ** 2


def rosenbrock_grad(x):
    return jnp.array([-2.0 * (1.0 - x[0]) - 40.0 * x[0] * (x[1] - x[0] ** 2),
                      20.0 * (x[1] - x[0] ** 2)])


X0 = jnp.array([-1.2, 1.0])
X1 = jnp.array([0.5, -0.3])


def test_backtracking_return_from_while():
    run = lambda x: backtracking(rosenbrock, rosenbrock_grad, x, -rosenbrock_grad(x))
    agree(run, (X0,), (X1,))
    agree_vmap(run, jnp.stack([X0, X1, jnp.array([2.0, 2.0])]))


def test_wolfe_nested_zoom_with_continue_and_raise():
    run = lambda x: wolfe(rosenbrock, rosenbrock_grad, x, -rosenbrock_grad(x))
    agree(run, (X0,), (X1,))
    agree_vmap(run, jnp.stack([X0, X1, jnp.array([2.0, 2.0])]))
