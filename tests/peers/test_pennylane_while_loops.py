"""PennyLane's AutoGraph tests for `while` loops, restated for plain JAX.

Upstream: PennyLaneAI/pennylane, tests/capture/autograph/test_autograph_while_loop.py at
commit 4ac3a0fc72c26333c91f8f4c58f2dcd9e9a9a27c (earlier test_while_loop.py, removed in
commit a9e0e409e7). Its `run_autograph` + `make_jaxpr` is `autograph.convert`; a circuit
that rotates each wire in a while loop becomes updates of a state vector; PennyLane's
own `while_loop` decorator is `jax.lax.while_loop` written by the user. Each case is
compared with the same function run as plain Python (on JAX arrays where Python's own
numbers would compare differently: complex numbers have no order in Python).
"""
import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same, converted, site, staged


@pytest.mark.parametrize('init,inc,limit', [
    (0, 1, 3), (0.0, 1.0, 3.0), (0, 2, 7), (0.0, 0.75, 2.0)])
def test_whileloop_basic(init, inc, limit):
    # upstream: TestWhileLoops.test_whileloop_basic (int and float counters)
    def f(limit):
        i = init
        while i < limit:
            i += inc
        return i
    assert_same(autograph.convert(f)(jnp.asarray(limit)), f(jnp.asarray(limit)))
    assert autograph.convert(f)(limit) == f(limit)
    assert staged(f, jnp.asarray(limit)) == {'while'}


def test_whileloop_complex_counter():
    # upstream: TestWhileLoops.test_whileloop_basic (0j, 1+0j, limit 3+0j): a complex
    # counter against a traced complex limit (JAX orders complex numbers as NumPy does,
    # by real then imaginary part; Python's complex has no order, so the reference runs
    # on the same JAX arrays unconverted)
    def f(limit):
        i = 0.0 + 0j
        while i < limit:
            i += 1.0 + 0j
        return i
    limit = jnp.complex64(3.0 + 0j)
    assert_same(autograph.convert(f)(limit), f(limit))


@pytest.mark.parametrize('param', [0, 3, 5])
def test_whileloop_multiple_variables(param):
    # upstream: TestWhileLoops.test_whileloop_multiple_variables
    def f(param):
        a = 0
        b = 0
        while a < param:
            a += 1
            b += 1
        return b
    assert autograph.convert(f)(jnp.int32(param)) == f(param)
    assert_same(jax.vmap(converted(f))(jnp.arange(5)), jnp.array([f(p) for p in range(5)]))


def test_whileloop_rotating_each_wire():
    # upstream: TestWhileLoops.test_whileloop_qnode (a rotation on wire w by a halving
    # angle p, while w < 4): the loop's bound is a Python int, the angle traced
    def f(p):
        state = jnp.ones(4)
        w = int(0)
        while w < 4:
            state = state.at[w].set(jnp.cos(p) * state[w])
            p *= 0.5
            w += 1
        return state
    assert_same(autograph.convert(f)(jnp.float32(1.2)), f(jnp.float32(1.2)))
    grad = jax.grad(lambda p: converted(f)(p).sum())(jnp.float32(1.2))
    assert_same(grad, jax.grad(lambda p: f(p).sum())(jnp.float32(1.2)))


def test_whileloop_temporary_variable():
    # upstream: TestWhileLoops.test_whileloop_temporary_variable
    def f1(acc):
        while acc < 3:
            c = 2
            acc = acc + c
        return acc
    for acc in (0, 1, 5):
        assert autograph.convert(f1)(jnp.int32(acc)) == f1(acc)
    assert autograph.convert(f1)(0) == f1(0)


def test_whileloop_with_a_python_for_loop_inside():
    # upstream: TestWhileLoops.test_whileloop_forloop_interop
    def f1(acc):
        while acc < 5:
            acc = acc + 1
            for x in [1, 2, 3]:
                acc += x
        return acc
    for acc in (0, 4, 9):
        assert autograph.convert(f1)(jnp.int32(acc)) == f1(acc)
    assert staged(f1, jnp.int32(0)) == {'while'}


def test_whileloop_with_a_traced_for_loop_inside():
    # the same with the inner loop over a traced array (a loop nested in a loop)
    def f1(acc, xs):
        while acc < 5:
            acc = acc + 1
            for x in xs:
                acc += x
        return acc
    xs = jnp.array([1, 2, 3])
    assert autograph.convert(f1)(jnp.int32(0), xs) == f1(0, xs)
    assert autograph.convert(f1)(jnp.int32(0), xs[:0]) == f1(0, xs[:0])


def test_whileloop_with_a_condition_inside():
    # upstream: TestWhileLoops.test_whileloop_cond_interop
    def f1(acc):
        while acc < 5:
            if acc < 2:
                acc += 1
            else:
                acc += 2
        return acc
    for acc in (0, 3, 6):
        assert autograph.convert(f1)(jnp.int32(acc)) == f1(acc)
    assert autograph.convert(f1)(0) == f1(0) == sum([1, 1, 2, 2])


def test_whileloop_raising():
    # upstream: TestWhileLoops.test_whileloop_exception (a raise in the body of a loop
    # whose condition is a Python value: raised as Python raises it)
    def f1():
        acc = 0
        while acc < 5:
            raise RuntimeError('Test failure')
        return acc
    with pytest.raises(RuntimeError, match='Test failure'):
        autograph.convert(f1)()


def test_whileloop_raising_under_a_traced_condition():
    # the same with a traced bound: raised when the program runs and enters the loop
    def f1(limit):
        acc = 0
        while acc < limit:
            raise RuntimeError('Test failure')
        return acc
    assert autograph.convert(f1)(jnp.int32(0)) == f1(0)
    with pytest.raises(RuntimeError, match='Test failure'):
        f1(5)
    with pytest.raises(RuntimeError, match='Test failure'):
        autograph.convert(f1)(jnp.int32(5))


def test_loop_whose_test_reads_nothing_it_changes():
    # the loop above with a body that may not raise: where it does not, Python loops
    # forever, and the program raises a named error instead of hanging
    def f1(limit, x):
        acc = 0
        while acc < limit:
            if x < 0:
                raise ValueError('negative')
        return acc
    assert autograph.convert(f1)(jnp.int32(0), jnp.int32(1)) == f1(0, 1)
    with pytest.raises(ValueError, match='negative'):
        autograph.convert(f1)(jnp.int32(3), jnp.int32(-1))
    with pytest.raises(autograph.ControlFlowError, match='never ends') as info:
        autograph.convert(f1)(jnp.int32(3), jnp.int32(1))
    assert site(f1, 'while acc < limit') in str(info.value)


def test_variable_bound_only_in_the_body():
    # upstream: TestWhileLoops.test_uninitialized_variables (PennyLane: "'x' is
    # potentially uninitialized"): as in Python, 'x' is read fine after the loop ran and
    # is UnboundLocalError when it did not
    def f(pred):
        while pred:
            x = 3
            pred = False
        return x
    assert autograph.convert(f)(jnp.bool_(True)) == f(True)
    with pytest.raises(UnboundLocalError, match="'x'"):
        f(False)
    with pytest.raises(UnboundLocalError, match="'x'"):
        autograph.convert(f)(jnp.bool_(False))


def test_variable_changing_from_str_to_int_in_a_staged_loop():
    # upstream: TestWhileLoops.test_init_with_invalid_jax_type ("'x' was initialized with
    # type <class 'str'>"). With a Python condition the loop runs as Python's; with a
    # traced one, a str cannot be carried by a staged loop that makes it an int: a named
    # error at the user's line
    def f(pred):
        x = ''
        while pred:
            x = 3
            pred = False
        return x
    for pred in (True, False):
        assert autograph.convert(f)(pred) == f(pred)
    with pytest.raises(autograph.ControlFlowError, match="'x'") as info:
        autograph.convert(f)(jnp.bool_(False))
    assert site(f, 'while pred') in str(info.value)


def test_users_own_while_loop_is_left_alone():
    # upstream: TestWhileLoops.test_while_loop (a function already written with the
    # library's while loop, its condition reading a closure variable)
    n = 6

    def loop(i):
        return jax.lax.while_loop(lambda i: i < n, lambda i: i + 1, i)
    for i in (0, 4, 9):
        assert autograph.convert(loop)(jnp.int32(i)) == max(i, n)
    assert staged(loop, jnp.int32(0)) == {'while'}
