"""State that functions called from converted code change, where the caller cannot see
it by name: a counter in a closure a helper made, a global dict of Python numbers, an
array a nested `def` writes items of. Each is compared with the same function run as
plain Python (NumPy arrays where Python needs them to be writable)."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import counting


def same(a, b):
    for x, y in zip(jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)):
        np.testing.assert_allclose(np.asarray(x, np.float64), np.asarray(y, np.float64),
                                   rtol=1e-6)


def halvings(x):
    calls, f = counting(jnp.cos)
    while x > 1:
        x = x / 2 + 0 * f(x)
    return x, calls[0]


def counted_in_a_branch(x):
    calls, f = counting(jnp.sin)
    if x > 0:
        x = f(x)
    return x, calls[0]


@pytest.mark.parametrize('x', [20.0, 0.5])
def test_a_counter_a_helper_keeps_in_its_closure_counts_in_a_staged_while(x):
    same(autograph.convert(halvings)(jnp.float32(x)), halvings(jnp.float32(x)))
    same(jax.jit(autograph.convert(halvings, jit=False))(jnp.float32(x)),
         halvings(jnp.float32(x)))


@pytest.mark.parametrize('x', [1.0, -1.0])
def test_a_counter_a_helper_keeps_in_its_closure_counts_in_a_staged_if(x):
    same(autograph.convert(counted_in_a_branch)(jnp.float32(x)),
         counted_in_a_branch(jnp.float32(x)))


TALLY = {'calls': 0}


def tick():
    TALLY['calls'] += 1


def ticks(x):
    while x > 1:
        x = x / 2
        tick()
    return x, TALLY['calls']


def test_a_global_dict_of_python_numbers_a_helper_changes_in_a_staged_loop():
    try:
        expected = ticks(jnp.float32(20.0)), dict(TALLY)
        TALLY['calls'] = 0
        got = autograph.convert(ticks)(jnp.float32(20.0)), dict(TALLY)
        same(got, expected)
    finally:
        TALLY['calls'] = 0


def nonlocal_bumps(x):
    count = 0

    def bump():
        nonlocal count
        count += 1
    while x > 1:
        x = x / 2
        bump()
    return x, count


def test_a_nonlocal_counter_a_nested_helper_bumps_in_a_staged_loop():
    same(autograph.convert(nonlocal_bumps)(jnp.float32(20.0)),
         nonlocal_bumps(jnp.float32(20.0)))


def fills_through_a_nested_def(x, a):
    def fill(b, v):
        b[1] = v
    fill(a, x)
    return a


def fills_in_a_staged_if(x, a):
    def fill(b, v):
        for i in range(b.shape[0]):
            b[i] = v * i
    if x > 0:
        fill(a, x)
    return a


@pytest.mark.parametrize('fn', [fills_through_a_nested_def, fills_in_a_staged_if])
@pytest.mark.parametrize('x', [2.0, -1.0])
def test_a_nested_def_writing_items_of_an_array_it_is_given(fn, x):
    expected = fn(x, np.zeros(3, np.float32))           # NumPy: written in place
    same(autograph.convert(fn)(jnp.float32(x), jnp.zeros(3)), expected)
    same(jax.vmap(autograph.convert(fn), in_axes=(0, None))(
        jnp.float32([x, x]), jnp.zeros(3))[0], expected)
    grad = jax.grad(lambda v: autograph.convert(fn)(v, jnp.zeros(3)).sum())(jnp.float32(x))
    assert grad == pytest.approx(jax.grad(
        lambda v: jnp.stack([jnp.float32(0), v, jnp.float32(0)]).sum()
        if fn is fills_through_a_nested_def else
        jnp.where(v > 0, v * 3., 0.))(jnp.float32(x)))


def test_a_log_a_helper_appends_to_in_a_staged_branch_stays_a_trace_effect():
    log = []

    def note(v):
        log.append('called')
        return v

    @autograph.convert
    def f(x):
        if x > 0:
            x = note(x)
        return x
    same(f(jnp.float32(1.0)), 1.0)
    assert log == ['called']        # traced once, as tf.function's trace-time effects


# --- a global (or closure variable) both the function and a helper it calls assign -------

CNT = 0


def doubled(d):
    global CNT
    CNT = (CNT * 2 + d) % 10007


def counted_loop(x, n):
    global CNT
    k = 0
    while k < n:
        CNT = (CNT + k) % 10007
        doubled(k)
        k += 1
    if x > 0:
        CNT = CNT + 1
        doubled(3)
    return x + CNT


def _run_counted(fn, *args):
    global CNT
    CNT = 0
    first = fn(*args)
    return first, fn(*args), CNT   # (the second call starts where the first left CNT)


@pytest.mark.parametrize('x, n', [(1.0, 5), (-1.0, 0), (2.0, 3)])
def test_a_global_the_function_and_its_helper_both_assign(x, n):
    expected = _run_counted(counted_loop, x, n)
    same(_run_counted(autograph.convert(counted_loop), jnp.float32(x), jnp.int32(n)),
         expected)


def closure_counter(x, n):
    count = 0

    def bump(d):
        nonlocal count
        count = count * 2 + d

    k = 0
    while k < n:
        count = count + k
        bump(k)
        k += 1
    return x + count


@pytest.mark.parametrize('n', [0, 4])
def test_a_closure_variable_the_function_and_its_helper_both_assign(n):
    same(autograph.convert(closure_counter)(jnp.float32(1.0), jnp.int32(n)),
         closure_counter(1.0, n))
    same(jax.jit(autograph.convert(closure_counter, jit=False))(jnp.float32(1.0),
                                                                jnp.int32(n)),
         closure_counter(1.0, n))


def _made_counter():
    count = 0

    def bump():
        nonlocal count
        count += 1
        return count
    return bump


BUMP = _made_counter()


def bumped(x):
    return x + BUMP()


def test_a_counter_in_the_closure_of_a_helper_made_before_the_call_counts_each_call():
    """Python's `count` goes up on every call; a trace that took it for a constant ran
    `bump` once, when it traced (was 2.0 on every call: a silent wrong value)."""
    global BUMP
    BUMP = _made_counter()
    want = [bumped(1.0) for _ in range(3)]
    BUMP = _made_counter()
    converted = autograph.convert(bumped)
    same([converted(jnp.float32(1.0)) for _ in range(3)], want)
    assert BUMP.__closure__[0].cell_contents == 3
