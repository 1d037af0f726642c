"""PennyLane's AutoGraph tests for `if`/`elif`/`else`, restated for plain JAX.

Upstream: PennyLaneAI/pennylane, tests/capture/autograph/test_if_else.py at commit
4ac3a0fc72c26333c91f8f4c58f2dcd9e9a9a27c (earlier named test_conditionals.py, commit
da0cd1da8122b211a6f82885de92a87c5e39ef62). PennyLane's `run_autograph` + `make_jaxpr` is
`autograph.convert`; a circuit that only hosts the control flow becomes arithmetic on a
small state with the same branch shape. Every case is compared with the same function run
as plain Python, with traced arguments (a staged `lax.cond`) and with Python ones.
"""
import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same, converted, staged


def both(fn, *args):
    """`fn` converted matches plain Python with Python arguments and with JAX arrays."""
    assert_same(autograph.convert(fn)(*args), fn(*args))
    arrays = [jnp.asarray(a) for a in args]
    assert_same(autograph.convert(fn)(*arrays), fn(*arrays))


# --- conditions known while tracing ---------------------------------------------------------

def test_constant_truthy_condition_is_not_staged():
    # upstream: TestConditionals.test_cond_on_known_truthy_values (a non-empty string as
    # the condition: only the taken branch is traced, and no cond is staged)
    def f(x):
        if 'abc':
            return 2 * x
        return (4 * x, 5)
    for x in (2.0, -0.5):
        assert_same(autograph.convert(f)(jnp.float32(x)), f(jnp.float32(x)))
    assert staged(f, jnp.float32(0.5)) == set()


def test_constant_elif_chain_picks_the_first_truthy_branch():
    # upstream: TestConditionals.test_elif_on_known_truthy_values (None is falsy, a
    # non-empty tuple truthy: the chain resolves while tracing)
    def f(x):
        if None:
            out = 1
        elif (1, 2):
            out = 2 * x
        else:
            out = 4 + x ** 2 * 5
        return out
    assert_same(autograph.convert(f)(jnp.float32(2.0)), f(jnp.float32(2.0)))
    assert staged(f, jnp.float32(2.0)) == set()


# --- staged conditions ----------------------------------------------------------------------

def simple_cond(n):
    if n > 4:
        res = n ** 2
    else:
        res = n
    return res


def test_simple_cond_needs_conversion():
    # upstream: TestConditionals.test_simple_cond (unconverted, JAX refuses the traced
    # condition; converted, it is one cond)
    with pytest.raises(jax.errors.TracerBoolConversionError):
        jax.make_jaxpr(simple_cond)(1)
    assert staged(simple_cond, jnp.int32(0)) == {'cond'}


@pytest.mark.parametrize('n', range(7))
def test_simple_cond(n):
    # upstream: TestConditionals.test_simple_cond (values for 0..6)
    both(simple_cond, n)


def test_simple_cond_under_vmap():
    # the same condition decided per element of a batch
    ns = jnp.arange(7)
    assert_same(jax.vmap(converted(simple_cond))(ns), jnp.array([simple_cond(n) for n in range(7)]))


def cond_one_else_if(x):
    if x > 2.7:
        res = x * 4
    elif x > 1.4:
        res = x * 2
    else:
        res = x
    return res


def cond_many_else_if(x):
    if x > 4.8:
        res = x * 8
    elif x > 2.7:
        res = x * 4
    elif x > 1.4:
        res = x * 2
    else:
        res = x
    return res


@pytest.mark.parametrize('x', [4, 2, 1, 4.0, 2.0, 1.0])
def test_cond_one_else_if(x):
    # upstream: TestConditionals.test_cond_one_else_if (traced with an int, compared with a
    # float bound: the comparison promotes as Python's does)
    both(cond_one_else_if, x)


@pytest.mark.parametrize('x', [5, 3, 2, -3])
def test_cond_many_else_if(x):
    # upstream: TestConditionals.test_cond_many_else_if
    both(cond_many_else_if, x)
    assert staged(cond_many_else_if, jnp.int32(x)) == {'cond'}


@pytest.mark.parametrize('x', [-1.0, 2.0, 3.5, 6.0])
def test_elif_chain_gradient(x):
    # the elif chain under jax.grad: the derivative of the branch taken
    grad = jax.grad(converted(cond_many_else_if))(jnp.float32(x))
    slope = 8 if x > 4.8 else 4 if x > 2.7 else 2 if x > 1.4 else 1
    assert grad == slope


@pytest.mark.parametrize('x', [0, 5, 7])
def test_branch_flips_state_before_a_measurement(x):
    # upstream: TestConditionals.test_qubit_manipulation_cond (an X gate on one branch
    # only, then a measurement): the gate is a flip of a 0/1 state, the measurement its
    # expectation
    def f(x):
        state = jnp.array([1.0, 0.0])
        if x > 4:
            state = state[::-1]
        return state[0] - state[1]
    both(f, x)


def test_condition_in_a_called_function():
    # upstream: TestConditionals.test_nested_cond (the branch is in a helper the converted
    # function calls: the helper is converted too)
    def inner(x):
        if x > 3:
            return x ** 2
        return x ** 3

    def fn(x):
        return inner(x)
    with pytest.raises(jax.errors.TracerBoolConversionError):
        jax.make_jaxpr(fn)(4)
    for x in (5, 2):
        both(fn, x)
    assert staged(fn, jnp.int32(0)) == {'cond'}


def test_return_in_both_branches():
    # upstream: TestConditionals.test_multiple_return
    def f(x):
        if x > 0:
            return 25
        else:
            return 60
    for x in (1, 0, -3):
        both(f, x)


def test_early_return_skips_the_rest():
    # upstream: TestConditionals.test_multiple_return_early (a truthiness test on the
    # argument itself; the code after the early return runs only on the other path)
    def f(x):
        if x:
            return x
        x = x + 2
        return x
    for x in (1.0, 0.0, -2.5):
        both(f, x)


def test_users_own_lax_cond_is_left_alone():
    # upstream: TestConditionals.test_cond_decorator (a function that already spells its
    # branch with the library's cond: conversion keeps it, and it computes the same)
    def f(n):
        def square():
            return n ** 2

        def same():
            return n
        return jax.lax.cond(n > 4, square, same)
    for n in (6, 2):
        assert autograph.convert(f)(jnp.int32(n)) == (n ** 2 if n > 4 else n)
    assert 'jax.lax.cond, n > 4, square, same' in autograph.to_code(f)
    assert staged(f, jnp.int32(2)) == {'cond'}


# --- branches that leave a variable unbound, or bind unlike types ---------------------------

def test_variable_bound_in_one_branch_only():
    # upstream: TestConditionals.test_branch_return_mismatch (PennyLane rejects the
    # program: "Some branches did not define a value for variable 'res'"). Python reads
    # 'res' fine when the branch ran and raises UnboundLocalError when it did not; a staged
    # condition keeps both, checked when the program runs.
    def circuit(val):
        if val:
            res = val * 3
        return res
    assert autograph.convert(circuit)(jnp.int32(2)) == circuit(2)
    with pytest.raises(UnboundLocalError, match="'res'"):
        circuit(0)
    with pytest.raises(UnboundLocalError, match="'res'"):
        autograph.convert(circuit)(jnp.int32(0))


@pytest.mark.parametrize('val1,val2', [(True, False), (False, True), (False, False)])
def test_branches_binding_int_and_float(val1, val2):
    # upstream: TestConditionals.test_branch_multi_return_type_mismatch (PennyLane raises
    # "Mismatch in output abstract values"). Python gives the int or the float of the
    # branch taken; the staged result carries one dtype for both, with the same value.
    def circuit(val1, val2):
        if val1:
            res = 1
        elif val2:
            res = 0.0
        else:
            res = 2
        return res
    expected = circuit(val1, val2)
    assert autograph.convert(circuit)(val1, val2) == expected
    assert type(autograph.convert(circuit)(val1, val2)) is type(expected)
    traced = autograph.convert(circuit)(jnp.bool_(val1), jnp.bool_(val2))
    assert traced == expected


@pytest.mark.parametrize('switch', [True, False])
def test_branches_returning_different_expressions(switch):
    # upstream: TestConditionals.test_multiple_return_different_measurements (each branch
    # returns a different measurement: here a different function of the same argument)
    def f(switch, x):
        if switch:
            return jnp.sin(x)
        return jnp.cos(x)
    both(f, switch, 0.3)
    assert staged(f, jnp.bool_(switch), jnp.float32(0.3)) == {'cond'}
