"""PennyLane Catalyst's AutoGraph tests, restated for plain JAX.

Upstream: PennyLaneAI/catalyst, frontend/test/pytest/test_autograph.py (classes
TestIntegration, TestConditionals, TestForLoops, TestWhileLoops, TestFallback,
TestLogicalOps, TestMixed, TestDisableAutograph). Quantum operations are replaced by
arithmetic on the loop/branch state; Catalyst's `qjit(autograph=True)` is
`autograph.convert`. Every case is compared with the same function run as plain Python;
the array cases run with traced arguments (staged `lax` control flow).
"""
import jax
import jax.numpy as jnp
import pytest

import autograph
from autograph.runtime.loops import loop_policy
from tests.helpers import assert_same, staged


def both(fn, *args):
    """`fn` converted matches plain Python with Python arguments and with JAX arrays."""
    expected = fn(*args)
    assert_same(autograph.convert(fn)(*args), expected)
    arrays = [jnp.asarray(a) for a in args]
    assert_same(autograph.convert(fn)(*arrays), fn(*arrays))
    return expected


# --- TestIntegration ----------------------------------------------------------------------

def test_callable_object():
    # upstream: TestIntegration.test_callable_object
    class Square:
        def __call__(self, x):
            return x ** 2
    assert autograph.convert(Square())(3) == 9
    assert autograph.convert(Square())(jnp.int32(3)) == 9


def test_lambda():
    # upstream: TestIntegration.test_lambda
    fn = lambda x: x ** 2  # noqa: E731
    assert autograph.convert(fn)(jnp.float32(4)) == 16
    assert 'x ** 2' in autograph.to_code(fn)


def test_nested_function_is_converted():
    # upstream: TestIntegration.test_nested_function / TestCodePrinting.test_nested_function
    def inner(x):
        if x > 2:
            x = x ** 2
        return x

    def fn(x):
        return inner(x)
    for x in (1, 4):
        assert autograph.convert(fn)(jnp.int32(x)) == fn(x)
    assert 'if_stmt' in autograph.to_code(inner)


# --- TestConditionals ---------------------------------------------------------------------

def simple_cond(n):
    if n > 4:
        res = n ** 2
    else:
        res = n
    return res


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


@pytest.mark.parametrize('n', range(7))
def test_simple_cond(n):
    # upstream: TestConditionals.test_simple_cond
    both(simple_cond, n)


@pytest.mark.parametrize('x', [4.0, 2.0, 1.0])
def test_cond_one_else_if(x):
    # upstream: TestConditionals.test_cond_one_else_if
    both(cond_one_else_if, x)


@pytest.mark.parametrize('x', [5.0, 3.0, 2.0, -3.0])
def test_cond_many_else_if(x):
    # upstream: TestConditionals.test_cond_many_else_if
    both(cond_many_else_if, x)
    assert staged(cond_many_else_if, jnp.float32(x)) == {'cond'}


def test_branch_without_else_is_checked_when_read():
    # upstream: TestConditionals.test_branch_return_mismatch ("Some branches did not define
    # a value for variable 'res'"): with a traced condition, 'res' has no value on one path;
    # here, as in Python, reading it raises UnboundLocalError on that path only.
    def f(x):
        if x > 0:
            res = x * 2
        return res
    assert autograph.convert(f)(jnp.float32(1)) == 2.0
    with pytest.raises(UnboundLocalError, match="'res'"):
        autograph.convert(f)(jnp.float32(-1))
    assert f(1.0) == 2.0 and autograph.convert(f)(1.0) == 2.0   # Python condition: fine


def test_elif_mixing_literal_and_array():
    # upstream: TestConditionals.test_branch_no_multi_return_mismatch (one branch assigns
    # a Python number, the others an array: the number is weakly typed).
    def f(x):
        if x > 1:
            res = x * 2
        elif x > 0:
            res = 0.0
        else:
            res = x - 1
        return res
    for x in (2.0, 0.5, -1.0):
        both(f, x)


def test_multiple_return():
    # upstream: TestConditionals.test_multiple_return
    def f(x):
        if x > 0:
            return 25
        else:
            return 60
    for x in (1, 0):
        both(f, x)


def test_multiple_return_early():
    # upstream: TestConditionals.test_multiple_return_early (a run-time print after an
    # early return runs only when the program takes that path).
    printed = []

    def f(x):
        if not x > 1:
            return 0
        jax.debug.callback(lambda: printed.append('illegal fruit'))
        return 1
    g = autograph.convert(f)
    assert g(jnp.float32(0)) == 0
    jax.effects_barrier()
    assert printed == []
    assert g(jnp.float32(3)) == 1
    jax.effects_barrier()
    assert printed == ['illegal fruit']


def test_multiple_return_mismatched_structure():
    # upstream: TestConditionals.test_multiple_return_mismatched_type
    def f(switch):
        if switch:
            return (switch, switch)
        return switch
    with pytest.raises(autograph.ControlFlowError, match='the return value is tuple of 2'):
        autograph.convert(f)(jnp.bool_(True))


# --- TestForLoops -------------------------------------------------------------------------

def rotate(angle, x):
    """Stands in for a rotation gate: mixes the state with the angle."""
    return jnp.cos(angle) * x + jnp.sin(angle)


def test_for_in_array():
    # upstream: TestForLoops.test_for_in_array
    def f(params):
        state = 1.0
        for x in params:
            state = rotate(x, state)
        return state
    params = jnp.array([0.0, 1 / 4 * jnp.pi, 2 / 4 * jnp.pi])
    assert_same(autograph.convert(f)(params), f(params))
    assert staged(f, params) == {'scan'}


def test_for_in_array_unpack():
    # upstream: TestForLoops.test_for_in_array_unpack
    def f(params):
        state = 1.0
        for x1, x2 in params:
            state = rotate(x1, state)
            state = rotate(x2, state)
        return state
    params = jnp.array([[0.0, 1 / 4 * jnp.pi], [2 / 4 * jnp.pi, jnp.pi]])
    assert_same(autograph.convert(f)(params), f(params))


def test_for_in_numeric_list_and_list_of_lists():
    # upstream: TestForLoops.test_for_in_numeric_list / test_for_in_numeric_list_of_list
    def f(x):
        params = [[0.0, 1 / 4 * jnp.pi], [2 / 4 * jnp.pi, jnp.pi]]
        for xx in params:
            for p in xx:
                x = rotate(p, x)
        return x
    both(f, 1.0)


def test_for_in_object_list():
    # upstream: TestForLoops.test_for_in_object_list (not convertible to an array: Python)
    def f(x):
        for s in ['0', '1', '2']:
            x = rotate(int(s) / 4 * jnp.pi, x)
        return x
    both(f, 1.0)


def test_for_in_static_range():
    # upstream: TestForLoops.test_for_in_static_range
    def f(x):
        for i in range(3):
            x = x * 2 + i
        return x
    both(f, 1.0)


def test_for_in_static_range_indexing_array_and_lists():
    # upstream: TestForLoops.test_for_in_static_range_indexing_array /
    # _indexing_numeric_list / _indexing_object_list: all give Python's values (Catalyst
    # warns and falls back for the lists).
    def from_array(x):
        params = jnp.array([0.0, 1 / 4 * jnp.pi, 2 / 4 * jnp.pi])
        for i in range(3):
            x = rotate(params[i], x)
        return x

    def from_numbers(x):
        params = [0.0, 1 / 4 * jnp.pi, 2 / 4 * jnp.pi]
        for i in range(3):
            x = rotate(params[i], x)
        return x

    def from_strings(x):
        params = ['0', '1', '2']
        for i in range(3):
            x = rotate(int(params[i]) / 4 * jnp.pi, x)
        return x
    for f in (from_array, from_numbers, from_strings):
        both(f, 1.0)


def test_for_in_dynamic_range():
    # upstream: TestForLoops.test_for_in_dynamic_range / _indexing_array
    def f(n):
        params = jnp.array([0.0, 1 / 4 * jnp.pi, 2 / 4 * jnp.pi])
        x = 1.0
        for i in range(n):
            x = rotate(params[i], x)
        return x
    assert_same(autograph.convert(f)(jnp.int32(3)), f(3))
    assert 'while' in staged(f, jnp.int32(3))


def test_for_in_dynamic_range_indexing_python_list_is_a_named_error():
    # upstream: TestForLoops.test_for_in_dynamic_range_indexing_numeric_list /
    # _object_list: Catalyst raises TracerIntegerConversionError; we name the list.
    def f(n):
        params = ['0', '1', '2']
        x = 1.0
        for i in range(n):
            x = rotate(int(params[i]) * jnp.pi, x)
        return x
    with pytest.raises(autograph.ControlFlowError, match='params'):
        autograph.convert(f)(jnp.int32(3))


def test_for_in_enumerate_array():
    # upstream: TestForLoops.test_for_in_enumerate_array / _no_unpack / _start
    def unpacked(params):
        out = jnp.zeros(5)
        for i, x in enumerate(params):
            out = out.at[i].set(jnp.cos(x))
        return out

    def not_unpacked(params):
        out = jnp.zeros(5)
        for v in enumerate(params):
            out = out.at[v[0]].set(jnp.cos(v[1]))
        return out

    def with_start(params):
        out = jnp.zeros(5)
        for i, x in enumerate(params, start=2):
            out = out.at[i].set(jnp.cos(x))
        return out
    params = jnp.array([0.0, 1 / 4 * jnp.pi, 2 / 4 * jnp.pi])
    for f in (unpacked, not_unpacked, with_start):
        assert_same(autograph.convert(f)(params), f(params))


def test_for_in_enumerate_nested_unpack():
    # upstream: TestForLoops.test_for_in_enumerate_nested_unpack
    def f(params):
        out = jnp.zeros(3)
        for i, (x1, x2) in enumerate(params):
            out = out.at[i].set(jnp.cos(x1 + x2))
        return out
    params = jnp.array([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
    assert_same(autograph.convert(f)(params), f(params))


def test_for_in_enumerate_lists():
    # upstream: TestForLoops.test_for_in_enumerate_numeric_list / _object_list
    def numbers(x):
        for i, p in enumerate([0.0, 1.0, 2.0]):
            x = x * p + i
        return x

    def strings(x):
        for i, s in enumerate(['0', '1', '2']):
            x = x * int(s) + i
        return x
    both(numbers, 1.5)
    both(strings, 1.5)


def test_for_in_dict_items():
    # upstream: TestForLoops.test_for_in_other_iterable_object
    def f(x):
        params = {'a': 0.0, 'b': 1 / 4 * jnp.pi, 'c': 2 / 4 * jnp.pi}
        for k, v in params.items():
            x = rotate(v, x) + len(k)
        return x
    both(f, 1.0)


def test_loop_carried_value():
    # upstream: TestForLoops.test_loop_carried_value
    def f1():
        acc = 0
        for x in [0, 4, 5]:
            acc = acc + x
        return acc

    def f2(acc):
        for x in [0, 4, 5]:
            acc = acc + x
        return acc

    def f3():
        acc = 0
        for x in [0, 4, 5]:
            acc += x
        return acc
    assert autograph.convert(f1)() == 9
    both(f2, 2)
    assert autograph.convert(f3)() == 9


def test_iteration_element_access_after_the_loop():
    # upstream: TestForLoops.test_iteration_element_access (+ _no_init, an xfail upstream)
    def f1(acc):
        for x in [0, 4, 5]:
            acc = acc + x
        return x, acc

    def f2(acc):
        l = jnp.array([0, 4, 5])  # noqa: E741
        for i in range(3):
            acc = acc + l[i]
        return i, acc

    def f3(acc):
        for i, x in enumerate([0, 4, 5]):
            acc = acc + x
        return i, x, acc

    def f4(xs):
        acc = 0
        for x in xs:
            acc = acc + x
        return x, acc
    for f in (f1, f2, f3):
        both(f, 0)
    xs = jnp.array([0, 4, 5])
    assert_same(autograph.convert(f4)(xs), f4(xs))


def test_temporary_loop_variable():
    # upstream: TestForLoops.test_temporary_loop_variable
    def f1(acc):
        for x in [0, 4, 5]:
            c = 2
            acc = acc + c * x
        return acc

    def f2(xs):
        acc = 0
        for x in xs:
            c = x * 2
            acc = acc + c
        return acc
    both(f1, 0)
    xs = jnp.array([0, 4, 5])
    assert_same(autograph.convert(f2)(xs), f2(xs))


def test_uninitialized_variables():
    # upstream: TestForLoops.test_uninitialized_variables: reading a variable that a
    # loop over nothing never assigned is Python's UnboundLocalError, converted or not.
    def f1(xs):
        for x in xs:
            acc = acc + x  # noqa: F821
        return acc

    def f2(xs):
        for x in xs:
            c = 2 * x
        return c
    for f in (f1, f2):
        with pytest.raises(UnboundLocalError):
            f([])
        with pytest.raises(UnboundLocalError):
            autograph.convert(f)([])


def test_loop_variable_changing_type_is_a_named_error():
    # upstream: TestForLoops.test_init_with_invalid_jax_type / _mismatched_type: a
    # staged loop carries 'x' with one type; a str before it cannot be carried. Over an
    # array of a length known while tracing the loop then runs as Python (as a loop
    # over a range does): Python's values; over more rows than it unrolls, the error.
    def f(xs):
        x = ''
        acc = 0
        for x in xs:
            acc = acc + x
        return x, acc
    assert_same(autograph.convert(f)(jnp.array([0, 4, 5])), f(jnp.array([0, 4, 5])))
    empty = jnp.zeros(0, jnp.int32)
    assert autograph.convert(f)(empty) == f(empty) == ('', 0)   # (no iteration)
    with pytest.raises(autograph.ControlFlowError, match="'x'"):
        autograph.convert(f)(jnp.arange(loop_policy.LONGEST_ARRAY_UNROLL + 1))


def test_python_list_index_fallback_gives_python_values():
    # upstream: TestForLoops.test_ignore_warnings
    def f(acc):
        data = [0, 4, 5]
        for i in range(3):
            acc = acc + data[i]
        return acc
    both(f, 0)


# --- TestWhileLoops -----------------------------------------------------------------------

@pytest.mark.parametrize('init,inc,limit', [(0, 1, 3), (0.0, 1.0, 3.0)])
def test_whileloop_basic(init, inc, limit):
    # upstream: TestWhileLoops.test_whileloop_basic
    def f(limit):
        i = init
        while i < limit:
            i += inc
        return i
    both(f, limit)
    assert staged(f, jnp.asarray(limit)) == {'while'}


def test_whileloop_complex():
    # upstream: TestWhileLoops.test_whileloop_basic (the complex case: a complex counter
    # compared through its real part, since complex numbers have no order)
    def f(limit):
        i = 0.0 + 0j
        while i.real < limit:
            i += 1.0 + 0j
        return i
    both(f, 3.0)


def test_whileloop_multiple_variables():
    # upstream: TestWhileLoops.test_whileloop_multiple_variables
    def f(param):
        a = 0
        b = 0
        while a < param:
            a += 1
            b += 1
        return b
    both(f, 3)


def test_whileloop_scaling_state():
    # upstream: TestWhileLoops.test_whileloop_qjit (gates replaced by arithmetic)
    def f(p):
        w = int(0)
        acc = 0.0
        while w < 4:
            acc = rotate(p, acc)
            p *= 0.5
            w += 1
        return acc, p
    both(f, 2.0 ** 4)


def test_whileloop_temporary_variable():
    # upstream: TestWhileLoops.test_whileloop_temporary_variable
    def f(acc):
        while acc < 3:
            c = 2
            acc = acc + c
        return acc
    both(f, 0)


def test_whileloop_forloop_interop():
    # upstream: TestWhileLoops.test_whileloop_forloop_interop
    def f(acc):
        while acc < 5:
            acc = acc + 1
            for x in [1, 2, 3]:
                acc += x
        return acc
    both(f, 0)


def test_whileloop_cond_interop():
    # upstream: TestWhileLoops.test_whileloop_cond_interop
    def f(acc):
        while acc < 5:
            if acc < 2:
                acc += 1
            else:
                acc += 2
        return acc
    both(f, 0)
    assert staged(f, jnp.int32(0)) == {'while', 'cond'}


def test_whileloop_exception():
    # upstream: TestWhileLoops.test_whileloop_exception: a raise in a loop that runs
    def f(acc):
        while acc < 5:
            raise RuntimeError('Test failure')
        return acc
    with pytest.raises(RuntimeError, match='Test failure'):
        autograph.convert(f)(0)


def test_while_uninitialized_variable():
    # upstream: TestWhileLoops.test_uninitialized_variables
    def f(pred):
        while pred:
            x = 3
            pred = False
        return x
    assert autograph.convert(f)(True) == 3
    with pytest.raises(UnboundLocalError):
        autograph.convert(f)(False)


def test_while_init_with_invalid_type():
    # upstream: TestWhileLoops.test_init_with_invalid_jax_type
    def f(pred):
        x = ''
        while pred:
            x = 3
            pred = False
        return x
    assert autograph.convert(f)(True) == 3
    with pytest.raises(autograph.ControlFlowError, match="'x'"):
        autograph.convert(f)(jnp.bool_(True))


# --- TestFallback -------------------------------------------------------------------------

def test_loop_whose_shape_grows_runs_as_python():
    # upstream: TestFallback.test_postbinding_errors_for / _while: each iteration changes
    # the array's shape, so the loop cannot be one staged loop; Python semantics still hold.
    def with_for(arr):
        for _ in range(2):
            arr = jnp.kron(arr, arr)
        return arr

    def with_while(arr):
        while len(arr) < 16:
            arr = jnp.kron(arr, arr)
        return arr
    arr = jnp.array([1, 2])
    assert_same(autograph.convert(with_for)(arr), with_for(arr))
    assert_same(autograph.convert(with_while)(arr), with_while(arr))


def test_loop_over_strings_runs_as_python():
    # upstream: TestFallback.test_prebinding_errors_for / _while
    def with_for(arr):
        string = 'hi'
        for _ in range(2):
            arr = arr + 3
        for i in range(1, 4):
            string = string * i
        return arr, len(string)

    def with_while(arr):
        string = 'hi'
        i = 1
        while arr[0] < 7:
            arr = arr + 3
        while len(string) < 12:
            string = string * i
            i += 1
        return arr, len(string)
    arr = jnp.array([1, 2])
    for f in (with_for, with_while):
        assert_same(autograph.convert(f)(arr), f(arr))


# --- TestLogicalOps -----------------------------------------------------------------------

def test_logical_basics():
    # upstream: TestLogicalOps.test_logical_basics
    def f1(param):
        return param > 0.0 and param < 1.0 and param <= 2.0

    def f2(param):
        return param > 1.0 or param < 0.0 or param == 0.5

    def f3(param):
        return not param > 1.0
    for f in (f1, f2, f3):
        for p in (0.5, 1.5, -1.0):
            both(f, p)


@pytest.mark.parametrize('python_object', ['string', [0, 1, 2], [], {1: 2}, {}])
def test_logical_with_python_objects(python_object):
    # upstream: TestLogicalOps.test_logical_with_python_objects
    def f():
        r1 = True and python_object
        r2 = False or python_object
        r3 = not python_object
        return r1 is python_object, r2 is python_object, r3
    assert autograph.convert(f, jit=False)() == f()


def test_logical_accepts_non_scalars():
    # upstream: TestLogicalOps.test_logical_accepts_non_scalars
    a, b = jnp.array([0, 1]), jnp.array([1, 1])
    assert_same(autograph.convert(lambda a, b: a and b)(a, b), jnp.logical_and(a, b))
    assert_same(autograph.convert(lambda a, b: a or b)(a, b), jnp.logical_or(a, b))
    assert_same(autograph.convert(lambda a: not a)(a), jnp.logical_not(a))


@pytest.mark.parametrize('s,d', [(True, True), (True, False), (False, True), (False, False)])
def test_logical_mixture_static_dynamic(s, d):
    # upstream: TestLogicalOps.test_logical_mixture_static_dynamic_default. Catalyst
    # raises TracerBoolConversionError when the traced value comes first; we select as
    # Python would.
    traced = jnp.bool_(d)
    assert bool(autograph.convert(lambda d: s and d)(traced)) == (s and d)
    assert bool(autograph.convert(lambda d: s or d)(traced)) == (s or d)
    assert bool(autograph.convert(lambda d: not d)(traced)) == (not d)
    assert bool(autograph.convert(lambda d: d and s)(traced)) == (d and s)
    assert bool(autograph.convert(lambda d: d or s)(traced)) == (d or s)


# --- TestMixed ----------------------------------------------------------------------------

def test_hand_written_lax_loops_inside_converted_code():
    # upstream: TestMixed.test_no_python_loops / test_cond_if_for_loop_for
    def f(x):
        acc = 0
        if x < 3:
            def body(_, acc):
                for i in range(5):
                    acc += jax.lax.cond(i % 2 == 0, lambda: i, lambda: 0)
                return acc
            acc = jax.lax.fori_loop(0, 3, body, acc)
        return acc
    for x in (2, 3):
        assert int(autograph.convert(f)(jnp.int32(x))) == f(x)


def test_cond_or():
    # upstream: TestMixed.test_cond_or
    def f(x):
        if x <= 0.0 or x >= 1.0:
            y = 1
        else:
            y = 0
        return y
    for x in (0.0, 1.0, 0.5):
        both(f, x)


def test_while_and():
    # upstream: TestMixed.test_while_and
    def f(param):
        n = 0
        while param < 0.5 and n < 3:
            param *= 1.5
            n += 1
        return n
    for p in (0.4, 0.1):
        both(f, p)


# --- TestDisableAutograph -----------------------------------------------------------------

def test_do_not_convert_decorator():
    # upstream: TestDisableAutograph.test_disable_autograph_decorator
    @autograph.do_not_convert
    def f():
        x = 6
        if x > 5:
            y = x ** 2
        else:
            y = x ** 3
        return y

    def g(x, n):
        for _ in range(n):
            x = x + f()
        return x
    assert_same(autograph.convert(g)(jnp.float32(0.4), 6), g(0.4, 6))
    assert_same(autograph.convert(g)(jnp.float32(0.4), jnp.int32(6)), g(0.4, 6))
    assert 'if_stmt' not in autograph.to_code(g)
