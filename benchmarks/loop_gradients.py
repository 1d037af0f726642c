"""`make bench`, part 2: `jax.grad` through a `while` loop whose trip count is data.

The converted loop (reverse mode by default: checkpointed, see runtime/staging/loop_autodiff.py)
against the hand-written alternative, a `lax.scan` over a known bound with a done flag,
which stores every step. Also the undifferentiated loop against `lax.while_loop`.
Memory is XLA's own account of the compiled program (temporaries + outputs), time the
median of interleaved calls. Writes its section of BENCHMARKS.md (after benchmarks/run.py).
"""
import os
import platform
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

import autograph  # noqa: E402
from autograph.runtime.staging.loop_autodiff import CHECKPOINTS  # noqa: E402
from benchmarks import report  # noqa: E402

STATE = 1000           # floats in the loop state
STEPS = (100, 1000, 10000)
ROUNDS = 7
SECTION = '## Gradients through loops with a run-time trip count'


def relax(x, n):
    """Damped iteration for `n` steps, `n` an array: the trip count is run-time data."""
    k = 0
    while k < n:
        x = x - 0.01 * jnp.tanh(x)
        k += 1
    return jnp.sum(x * x)


def scan_relax(length):
    """The hand-written reverse-differentiable version: a scan over a known bound."""
    def loss(x, n):
        def step(carry, _):
            x, k = carry
            new = jnp.where(k < n, x - 0.01 * jnp.tanh(x), x)
            return (new, k + 1), None
        (x, _), _ = lax.scan(step, (x, 0), None, length=length)
        return jnp.sum(x * x)
    return loss


def while_relax(x, n):
    def body(c):
        return c[0] - 0.01 * jnp.tanh(c[0]), c[1] + 1
    x, _ = lax.while_loop(lambda c: c[1] < n, body, (x, 0))
    return jnp.sum(x * x)


def seconds(fn, args):
    jax.block_until_ready(fn(*args))
    samples = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        jax.block_until_ready(fn(*args))
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def memory_mb(fn, args):
    stats = fn.lower(*args).compile().memory_analysis()
    return (stats.temp_size_in_bytes + stats.output_size_in_bytes) / 2**20


def compile_seconds(fn, args):
    start = time.perf_counter()
    fn.lower(*args).compile()
    return time.perf_counter() - start


def main():
    x = jnp.linspace(1.0, 3.0, STATE, dtype=jnp.float32)
    converted = autograph.convert(relax)
    rows = []
    for steps in STEPS:
        n = jnp.int32(steps)
        ours = jax.jit(jax.grad(converted))
        scan = jax.jit(jax.grad(scan_relax(steps)))
        np.testing.assert_allclose(ours(x, n), scan(x, n), rtol=1e-4, atol=1e-30)
        t_ours, t_scan = seconds(ours, (x, n)), seconds(scan, (x, n))
        plain, lax_while = jax.jit(converted), jax.jit(while_relax)
        p_ours, p_lax = seconds(plain, (x, n)), seconds(lax_while, (x, n))
        rows.append((steps, t_ours * 1e3, t_scan * 1e3, memory_mb(ours, (x, n)),
                     memory_mb(scan, (x, n)), p_ours * 1e3, p_lax * 1e3))
    compile_ours = compile_seconds(jax.jit(jax.grad(converted)), (x, n))
    compile_scan = compile_seconds(jax.jit(jax.grad(scan_relax(STEPS[-1]))), (x, n))
    write(rows, compile_ours, compile_scan)


def write(rows, compile_ours, compile_scan):
    lines = [
        f'`benchmarks/loop_gradients.py` on {platform.machine()} / '
        f'{jax.default_backend()}, jax {jax.__version__}: `jax.jit(jax.grad(f))` of a '
        f'`while k < n` loop over a float32[{STATE}] state, `n` an argument (run-time '
        f'data), converted (reverse mode, {CHECKPOINTS} '
        f'checkpoints) vs a hand-written `lax.scan` over the exact trip count with a done '
        f'flag (which needs the bound in advance and stores every step). Memory: XLA\'s '
        f'temporaries + outputs of the compiled gradient. Median of {ROUNDS} calls.',
        '',
        '| trip count | grad ms: converted | grad ms: scan | grad MB: converted | '
        'grad MB: scan | no grad ms: converted | no grad ms: lax.while_loop |',
        '|---|---|---|---|---|---|---|',
    ]
    for steps, t_ours, t_scan, m_ours, m_scan, p_ours, p_lax in rows:
        lines.append(f'| {steps} | {t_ours:.2f} | {t_scan:.2f} | {m_ours:.2f} | '
                     f'{m_scan:.2f} | {p_ours:.3f} | {p_lax:.3f} |')
    lines += [
        '',
        f'- Compiling the gradient: {compile_ours:.2f} s converted vs {compile_scan:.2f} s '
        f'for the scan (the checkpointing schedule is a sizeable program).',
        '- The converted gradient\'s memory does not depend on the trip count (the '
        'compiled program is the same for every `n`); the scan\'s grows linearly. '
        'The price is recomputation: each step runs a few times on the backward pass.',
        '- Without differentiation the converted loop is a plain `lax.while_loop`.',
    ]
    section = '\n'.join(lines)
    report.write_section(SECTION, section)
    print(section)


if __name__ == '__main__':
    main()
