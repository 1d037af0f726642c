"""Per-call cost of a converted function that logs to a list, over 1,000 calls (issue 32).

A list the function only appends to is a log (autograph/function/logs.py): not part of
the call key, not passed in, its new items appended after each call. So the cost of a
call must not grow with the list. Measured here: the mean time per call in each block
of 100 calls (1-100 ... 901-1000), the number of traces, and, side by side, the same
step written by hand (`jax.jit` returns the loss, Python appends it; interleaved
blocks, same process). Prints a table; writes nothing.
"""
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import autograph  # noqa: E402

CALLS = 1000
BLOCK = 100
LOSSES = []


def step(w, x):
    """One gradient-free update that logs its loss, as a training step logs."""
    loss = jnp.sum((w * x - 1.0) ** 2)
    if loss > 1.0:
        w = w - 0.01 * x
    LOSSES.append(loss)
    return w


@jax.jit
def _step_and_loss(w, x):
    loss = jnp.sum((w * x - 1.0) ** 2)
    return jnp.where(loss > 1.0, w - 0.01 * x, w), loss


def hand_written(w, x):
    """The same step as a JAX user writes it by hand: jit returns the loss, Python logs it."""
    w, loss = _step_and_loss(w, x)
    LOSSES.append(loss)
    return w


def main():
    converted = autograph.convert(step)
    w, x = jnp.ones(8), jnp.linspace(0.0, 1.0, 8)
    converted(w, x).block_until_ready()
    hand_written(w, x).block_until_ready()
    del LOSSES[:]
    rows = []
    for first in range(0, CALLS, BLOCK):
        times = {}
        for name, fn in (('converted', converted), ('jax.jit', hand_written)):
            start = time.perf_counter()
            for _ in range(BLOCK):
                out = fn(w, x)
            out.block_until_ready()
            times[name] = (time.perf_counter() - start) / BLOCK
        rows.append((first + 1, first + BLOCK, times))
    print(f'{len(LOSSES)} items logged over {CALLS} calls; traces: {converted.trace_count}')
    print('| calls | converted, µs/call | jax.jit + list.append, µs/call | ratio |')
    print('|---|---|---|---|')
    for lo, hi, times in rows:
        ratio = times['converted'] / times['jax.jit']
        print(f"| {lo}-{hi} | {times['converted'] * 1e6:.1f} | "
              f"{times['jax.jit'] * 1e6:.1f} | {ratio:.2f} |")


if __name__ == '__main__':
    main()
