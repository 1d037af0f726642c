"""TensorFlow AutoGraph's reference tests for calls to builtins, print, lambdas, user
functions and namedtuples, restated for JAX.

Upstream: tensorflow/tensorflow, tensorflow/python/autograph/tests/ —
call_to_builtin_function_test.py, call_to_print_function_test.py,
call_to_lambda_function_test.py, call_to_user_function_test.py,
call_to_named_tuple_test.py. Upstream's `assertFunctionMatchesEager` runs each function
with Python values and again with every input a tensor; here: Python values, then JAX
arrays (traced under jit). `tf.print` is `jax.debug.print`; `tf.identity` is `jnp.asarray`.
"""
import collections
import unittest.mock

import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same


def matches_python(fn, *args):
    """Converted (jit) and converted eagerly give what `fn` gives, with these arguments."""
    expected = fn(*args)
    assert_same(autograph.convert(fn)(*args), expected)
    assert_same(autograph.convert(fn, jit=False)(*args), expected)


def as_arrays(*args):
    return jax.tree_util.tree_map(jnp.asarray, args)


# --- call_to_builtin_function_test.py -----------------------------------------------------

def dict_call(x):
    return dict(foo=x)


def dict_call_aliased(x):
    def fake_dict(x):
        return x

    dict = fake_dict  # noqa: A001 - the builtin's name rebound, as upstream
    return dict(x)


def dict_call_dynamic(x):
    def gen_dict():
        return dict

    d = gen_dict()
    return d(foo=x)


def len_call(x):
    return len(x)


def nested_call(x):
    return list(range(len(x)))


def nested_cast(x):
    return float(int(x))


def len_call_aliased(x):
    def fake_len(x):
        return x

    len = fake_len  # noqa: A001
    return len(x)


def len_call_dynamic(x):
    def gen_len():
        return len

    f = gen_len()
    return f(x)


def len_call_on_mock():
    x = unittest.mock.MagicMock()
    return len(x)


BUILTIN_CASES = [(dict_call, 1), (len_call, [1, 2]), (dict_call_aliased, 1),
                 (len_call_aliased, [1, 2]), (dict_call_dynamic, 1), (len_call_dynamic, [1, 2]),
                 (nested_call, []), (nested_call, [1, 2, 3])]


@pytest.mark.parametrize('fn, arg', BUILTIN_CASES)
def test_builtin_calls(fn, arg):
    # upstream: ReferenceTest.test_basic
    matches_python(fn, arg)


@pytest.mark.parametrize('fn, arg', BUILTIN_CASES)
def test_builtin_calls_on_arrays(fn, arg):
    # upstream: ReferenceTest.test_basic_tensor (all inputs tensors: a list of scalars)
    matches_python(fn, *as_arrays(arg))


@pytest.mark.parametrize('x', [2.7, -2.7, 3])
def test_nested_cast(x):
    # upstream: nested_cast (defined there, not run); int() truncates toward zero
    matches_python(nested_cast, x)
    assert float(autograph.convert(nested_cast)(jnp.float32(x))) == nested_cast(x)


def test_len_on_a_mock():
    # upstream: len_call_on_mock (defined there, not run)
    assert autograph.convert(len_call_on_mock)() == len_call_on_mock()


# --- call_to_print_function_test.py -------------------------------------------------------

def lone_print(x):
    print(x)


def print_multiple_values(x):
    print('x is', x)


def multiple_prints(x, y):
    jax.debug.print('x is {}', x)
    jax.debug.print('y is {}', y)


def print_with_nontf_values(x):
    print('x is', x, {'foo': 'bar'})


def print_in_cond(x):
    if x == 0:
        print(x)


def debug_print(x):
    jax.debug.print('{}', x)


@pytest.mark.parametrize('fn, args', [
    (lone_print, (1,)), (print_multiple_values, (1,)), (multiple_prints, (1, 2)),
    (print_with_nontf_values, (1,)), (print_in_cond, (0,)), (print_in_cond, (1,)),
    (debug_print, (0,))])
def test_print_with_python_values_prints_as_python(fn, args, capfd):
    # upstream: test_lone_print, test_print_multiple_values, test_multiple_prints,
    # test_print_with_nontf_values, test_print_in_cond, test_tf_print (Python inputs)
    fn(*args)
    expected = capfd.readouterr().out
    assert autograph.convert(fn)(*args) is None
    # (two jax.debug.print calls are unordered unless ordered=True: compare the lines)
    assert sorted(capfd.readouterr().out.splitlines()) == sorted(expected.splitlines())


def test_print_of_arrays(capfd):
    # upstream: the same tests with np.array([1, 2, 3]) inputs. A Python print of a traced
    # value runs once, while tracing, and says the value is traced; jax.debug.print (TF's
    # tf.print) prints the values on every call.
    x = jnp.array([1, 2, 3])
    autograph.convert(print_with_nontf_values)(x)
    out = capfd.readouterr().out
    assert out.startswith('x is ') and 'Tracer' in out and "{'foo': 'bar'}" in out
    g = autograph.convert(multiple_prints)
    g(x, 4)
    g(x, 4)
    assert capfd.readouterr().out.count('x is [1 2 3]') == 2


def test_print_in_a_staged_cond_runs_while_tracing(capfd):
    # upstream: test_print_in_cond with a tensor: tf.function traces both branches once
    autograph.convert(print_in_cond)(jnp.int32(1))
    assert capfd.readouterr().out.count('Tracer') == 1


# --- call_to_lambda_function_test.py ------------------------------------------------------

def inline_lambda(x):
    square = lambda x: x * x if x > 0 else -x  # noqa: E731
    return square(x)


def external_lambda(x, fn):
    return fn(x)


@pytest.mark.parametrize('x', [1, -2])
def test_lambdas(x):
    # upstream: ReferenceTest.test_inline, test_external
    matches_python(inline_lambda, x)
    matches_python(inline_lambda, jnp.int32(x))
    is_zero = lambda v: v == 0  # noqa: E731
    matches_python(external_lambda, x, is_zero)
    matches_python(external_lambda, jnp.int32(x), is_zero)


# --- call_to_user_function_test.py --------------------------------------------------------

def function_1(x):
    return x * x * x


def function_2(x):
    return -1 * x + 11


def factory(n):
    if n == 1:
        return function_1
    return function_2


def static_fn(x):
    a = function_1(x)
    b = function_2(x)
    return a + b


def factory_dynamic_fn(x):
    f = factory(1)
    a = f(x)
    f = factory(2)
    b = f(x)
    return a + b


def param_dynamic_fn(f, x):
    return f(x)


def variable_dynamic_fn(x):
    f = function_1
    a = f(x)
    f = function_2
    b = f(x)
    return a + b


def variable_dynamic_library_fn(x):
    f = jnp.asarray
    return f(x)


def dynamic_fn_with_kwargs(f, x):
    return f(x=x)


@pytest.mark.parametrize('make', [lambda v: v, jnp.int32], ids=['python', 'array'])
def test_user_function_calls(make):
    # upstream: ReferenceTest.test_basic, test_basic_tensor
    x = make(1)
    matches_python(static_fn, x)
    matches_python(factory_dynamic_fn, x)
    matches_python(param_dynamic_fn, function_1, x)
    matches_python(variable_dynamic_fn, x)
    matches_python(variable_dynamic_library_fn, x)
    matches_python(dynamic_fn_with_kwargs, function_1, x)


# --- call_to_named_tuple_test.py ----------------------------------------------------------

def inline_namedtuple(x):
    nt = collections.namedtuple('TestNamedTuple', ('a', 'b'))
    n = nt(a=1, b=x)
    return n


def external_namedtuple(x, nt):
    return nt(a=1, b=x)


class NamedTupleSubclass(collections.namedtuple('TestNamedTuple', ('a',))):

    def foo(self):
        return self.a + 1


def namedtuple_subclass(x):
    nt = NamedTupleSubclass(x)
    return nt.foo()


@pytest.mark.parametrize('make', [lambda v: v, jnp.int32], ids=['python', 'array'])
def test_namedtuples(make):
    # upstream: ReferenceTest.test_inline, test_external, test_subclass. A namedtuple made
    # inside the function is a new class per trace: compare its fields.
    x = make(1)
    got = autograph.convert(inline_namedtuple)(x)
    assert got._fields == ('a', 'b') and got.a == 1 and type(got.a) is int
    assert_same(tuple(got), tuple(inline_namedtuple(x)))
    nt = collections.namedtuple('TestNamedTuple', ('a', 'b'))
    matches_python(external_namedtuple, x, nt)
    assert type(autograph.convert(external_namedtuple)(x, nt)) is nt
    matches_python(namedtuple_subclass, x)
