"""`make demo`: convert a function with data-dependent control flow, show the code, run it."""
import inspect
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import autograph  # noqa: E402


def normalize(x, threshold):
    """Halve x until its norm is under the threshold; flip it if it sums negative."""
    steps = 0
    while jnp.linalg.norm(x) > threshold:
        x = x / 2
        steps += 1
    if jnp.sum(x) < 0:
        x = -x
    elif steps == 0:
        x = x * 0
    return x, steps


def section(title):
    print(f'\n=== {title} ' + '=' * (70 - len(title)))


def main():
    section('Your function')
    print(inspect.getsource(normalize))
    section('autograph.to_code(normalize)')
    print(autograph.to_code(normalize))
    converted = autograph.convert(normalize)
    x = jnp.array([3.0, -4.0, 12.0])
    section('jax.make_jaxpr: the condition is traced, so `while` and `if` are staged')
    jaxpr = jax.make_jaxpr(converted)(x, 1.0)
    print(jaxpr)
    text = str(jaxpr)
    print(f'staged primitives: while={"while[" in text}, cond={"cond[" in text}')
    section('Results (converted and compiled vs plain Python)')
    for threshold in (1.0, 100.0):
        print(f'threshold={threshold}:')
        print(f'  converted : {converted(x, threshold)}')
        print(f'  plain     : {normalize(x, threshold)}')


if __name__ == '__main__':
    main()
