"""The examples of the tf.function guides (shared/seeds), written for JAX."""
import jax
import jax.numpy as jnp


def sign_steps(x):
    if jnp.sum(x) > 0:
        y = x * x
    else:
        y = -x // 2
    return y


def squash(x):
    """Seed 003: `while tf.reduce_sum(x) > 1: x = tf.tanh(x)`."""
    while jnp.sum(x) > 1:
        x = jnp.tanh(x)
    return x


def fizzbuzz_count(n):
    """Seed 003 fizzbuzz, counting instead of printing, over a range that may be traced."""
    fizz = 0
    buzz = 0
    fizzbuzz = 0
    for i in range(1, n + 1):
        if i % 15 == 0:
            fizzbuzz += 1
        elif i % 3 == 0:
            fizz += 1
        elif i % 5 == 0:
            buzz += 1
    return fizz, buzz, fizzbuzz


def collatz_steps(a):
    """Seed 003 `next_collatz`, iterated to 1."""
    steps = 0
    while a > 1:
        if a % 2 == 0:
            a = a // 2
        else:
            a = 3 * a + 1
        steps += 1
    return steps


def rnn_step(x, state):
    return jnp.tanh(x + state)


def dynamic_rnn(rnn_cell, input_data, initial_state):
    """Seed 003 `dynamic_rnn`: accumulate states in a list, stack them after the loop."""
    state = initial_state
    states = []
    for x in input_data:
        state = rnn_cell(x, state)
        states.append(state)
    return jnp.stack(states)


def newton_sqrt(a, tolerance=1e-6):
    x = a
    for _ in range(50):
        next_x = 0.5 * (x + a / x)
        if jnp.abs(next_x - x) < tolerance:
            break
        x = next_x
    return x


def first_negative(xs):
    for i, x in enumerate(xs):
        if x < 0:
            return i
    return -1


def dense_layer(x, w, b):
    return add(jnp.matmul(x, w), b)


def add(a, b):
    return a + b


def relu_layers(x, weights):
    for w in weights:
        x = jax.nn.relu(x @ w)
    return x
