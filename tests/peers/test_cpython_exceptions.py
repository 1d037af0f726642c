"""What CPython's exception tests pin down about a function body -- the order of try /
except / else / finally, `except E as e` unbinding its name, `raise ... from`, implicit
context, bare `raise` -- restated as functions run plain and converted (python/cpython
Lib/test/test_exceptions.py and Lib/test/test_raise.py, commit
24a011edaba1c31914b016cb88f7e85df87a6734 of test_raise.py).

Each case runs on Python values and, where it computes on numbers, on JAX scalars, against
the same function run as plain Python. A `raise` under a traced condition is checked when
the compiled program runs; one that an enclosing `except` would have to catch cannot be:
the project says so, naming the user's `raise`.
"""
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import check, check_ints, site


def same_raise(fn, *args, error):
    """Plain and converted `fn` both raise `error`, with the same message."""
    with pytest.raises(error) as plain:
        fn(*args)
    with pytest.raises(error) as converted:
        autograph.convert(fn)(*args)
    assert str(converted.value) == str(plain.value)
    return plain.value, converted.value


# --- try / except / else / finally order ------------------------------------------------

def order(fail):
    log = []
    try:
        log.append('try')
        if fail:
            raise KeyError('k')
        log.append('after')
    except KeyError:
        log.append('except')
    else:
        log.append('else')
    finally:
        log.append('finally')
    log.append('end')
    return log


def nested_finally_before_outer_except(fail):
    log = []
    try:
        try:
            if fail:
                raise ValueError()
        finally:
            log.append('inner finally')
    except ValueError:
        log.append('outer except')
    return log


def first_matching_clause(kind):
    try:
        if kind == 0:
            raise KeyError()
        elif kind == 1:
            raise IndexError()
        raise ZeroDivisionError()
    except LookupError:
        return 'lookup'
    except (ZeroDivisionError, KeyError):
        return 'arith'


def return_from_except_skips_else(x):
    try:
        if x > 2:
            raise ValueError()
    except ValueError:
        return x * 10
    else:
        x = x + 1
    finally:
        x = x + 1000
    return x


def exception_in_loop_continues(n):
    caught = 0
    for i in range(n):
        try:
            if i % 3 == 0:
                raise RuntimeError(i)
        except RuntimeError as e:
            caught += e.args[0]
            continue
        caught += 100
    return caught


def finally_exception_replaces(x):
    try:
        try:
            raise KeyError(x)
        finally:
            raise ValueError(x + 1)
    except Exception as e:
        return type(e).__name__, e.args, type(e.__context__).__name__


@pytest.mark.parametrize('fail', [False, True])
def test_try_except_else_finally_order(fail):
    check(order, fail)


@pytest.mark.parametrize('fail', [False, True])
def test_inner_finally_runs_before_outer_except(fail):
    check(nested_finally_before_outer_except, fail)


@pytest.mark.parametrize('kind', [0, 1, 2])
def test_first_matching_except_clause(kind):
    check(first_matching_clause, kind)


@pytest.mark.parametrize('x', [1, 5])
def test_return_from_except_skips_else_but_runs_finally(x):
    check(return_from_except_skips_else, x)


@pytest.mark.parametrize('n', [0, 7])
def test_exception_in_loop_body_then_continue(n):
    check(exception_in_loop_continues, n)


def test_exception_in_finally_replaces_the_first():
    check(finally_exception_replaces, 3)


# --- except E as e unbinding ------------------------------------------------------------

def name_unbound_after_except():
    e = 1
    try:
        raise ValueError()
    except ValueError as e:  # noqa: F841
        pass
    return e  # noqa: F821


def name_bound_if_no_exception(x):
    e = x
    try:
        pass
    except ValueError as e:  # noqa: F841
        pass
    return e


def name_unbound_even_if_rebound_in_handler():
    try:
        raise ValueError()
    except ValueError as e:
        e = 5  # noqa: F841
    return e  # noqa: F821


def name_usable_inside_handler(x):
    try:
        raise ValueError(x)
    except ValueError as err:
        got = err.args[0] * 2
    return got


def test_except_as_unbinds_the_name():
    same_raise(name_unbound_after_except, error=UnboundLocalError)
    same_raise(name_unbound_even_if_rebound_in_handler, error=UnboundLocalError)


@pytest.mark.parametrize('x', [4])
def test_except_as_leaves_the_name_when_nothing_raised(x):
    check_ints(name_bound_if_no_exception, x)


@pytest.mark.parametrize('x', [4])
def test_except_as_usable_inside_handler(x):
    check_ints(name_usable_inside_handler, x)


# --- raise, raise from, context ----------------------------------------------------------

def raise_from(x):
    try:
        raise KeyError(x)
    except KeyError as e:
        raise ValueError('wrapped') from e


def raise_from_none():
    try:
        raise KeyError()
    except KeyError:
        raise ValueError('clean') from None


def implicit_context():
    try:
        raise KeyError('first')
    except KeyError:
        raise ValueError('second')


def bare_reraise_after_inner_handled():
    try:
        raise KeyError('outer')
    except KeyError:
        try:
            raise ValueError('inner')
        except ValueError:
            pass
        raise


def raise_class_not_instance():
    raise IndexError


def reraise_modified(x):
    try:
        raise ValueError(x)
    except ValueError as e:
        e.args = (x + 1,)
        raise


def test_raise_from_sets_cause():
    plain, conv = same_raise(raise_from, 3, error=ValueError)
    assert type(conv.__cause__) is type(plain.__cause__) is KeyError
    assert conv.__cause__.args == plain.__cause__.args
    assert conv.__suppress_context__ and plain.__suppress_context__


def test_raise_from_none_suppresses_context():
    plain, conv = same_raise(raise_from_none, error=ValueError)
    assert conv.__cause__ is None and plain.__cause__ is None
    assert conv.__suppress_context__ and plain.__suppress_context__


def test_raise_in_handler_sets_context():
    plain, conv = same_raise(implicit_context, error=ValueError)
    assert type(conv.__context__) is type(plain.__context__) is KeyError
    assert not conv.__suppress_context__


def test_bare_raise_reraises_the_handled_exception():
    same_raise(bare_reraise_after_inner_handled, error=KeyError)


def test_raise_a_class_instantiates_it():
    plain, conv = same_raise(raise_class_not_instance, error=IndexError)
    assert conv.args == plain.args == ()


def test_reraise_keeps_changes_to_the_exception():
    plain, conv = same_raise(reraise_modified, 1, error=ValueError)
    assert conv.args == plain.args


# --- raise under a condition on numbers ---------------------------------------------------

def checked_sqrt(x):
    if x < 0:
        raise ValueError('negative input')
    return x * x


def raise_in_loop(n):
    total = 0
    for i in range(n):
        if total > 10:
            raise OverflowError('too big')
        total += i
    return total


def caught_raise(x):
    try:
        if x < 0:
            raise ValueError('negative input')
        r = x + 1
    except ValueError:
        r = -1
    return r


@pytest.mark.parametrize('x', [3])
def test_raise_not_taken(x):
    check_ints(checked_sqrt, x)


@pytest.mark.parametrize('make', [int, jnp.int32])
def test_raise_taken_python_and_traced(make):
    same_raise(checked_sqrt, make(-2), error=ValueError)


@pytest.mark.parametrize('make', [int, jnp.int32])
def test_raise_in_loop(make):
    check(raise_in_loop, make(4))
    same_raise(raise_in_loop, make(9), error=OverflowError)


@pytest.mark.parametrize('x', [-2, 3])
def test_raise_caught_by_except(x):
    check(caught_raise, x)
    # traced: no `except` can run inside the compiled program; named at the `raise`
    with pytest.raises(autograph.ControlFlowError,
                       match=site(caught_raise, "raise ValueError")):
        autograph.convert(caught_raise)(jnp.int32(x))


# --- assert --------------------------------------------------------------------------------

def asserted(x):
    assert x > 0, 'must be positive'
    return x * 3


@pytest.mark.parametrize('make', [int, jnp.int32])
def test_assert_with_message(make):
    check(asserted, make(2))
    # (pytest rewrites the asserts of this module, so the plain run's message has more)
    with pytest.raises(AssertionError, match='^must be positive\n'):
        autograph.convert(asserted)(make(-1))


def handled_in_every_iteration(n):
    caught = 0
    for i in range(n):
        try:
            raise KeyError(i)
        except KeyError as e:
            caught += e.args[0]
    return caught


@pytest.mark.parametrize('n', [0, 4])
def test_exception_raised_and_handled_in_each_iteration(n):
    check_ints(handled_in_every_iteration, n)
