"""What CPython's with-statement tests pin down about a function body -- when __enter__
and __exit__ run, what __exit__ receives, suppression, several managers in one statement,
leaving the block by return/break/continue -- restated as functions run plain and converted
(python/cpython Lib/test/test_with.py, commit 49695d1f95607f9f0c03a647c4502a9c6bf87c7a).

Each case runs on Python values and, where it computes on numbers, on JAX scalars (traced
under jit), against the same function run as plain Python.
"""
import contextlib

import pytest

import autograph
from tests.helpers import check, check_ints


class Recorder:
    """A manager that logs its enter/exit (with the exception type it saw) to `log`, and
    suppresses the exception when `swallow`."""

    def __init__(self, log, name, swallow=False, value=None):
        self.log, self.name, self.swallow, self.value = log, name, swallow, value

    def __enter__(self):
        self.log.append(f'enter {self.name}')
        return self.value

    def __exit__(self, kind, value, tb):
        self.log.append(f'exit {self.name} {getattr(kind, "__name__", None)}')
        return self.swallow


class FailsOnEnter:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append('enter failing')
        raise RuntimeError('no entry')

    def __exit__(self, *exc):
        self.log.append('exit failing (never)')


@contextlib.contextmanager
def generated(log, name):
    log.append(f'before {name}')
    try:
        yield name.upper()
    finally:
        log.append(f'after {name}')


def plain_block():
    log = []
    with Recorder(log, 'a', value=(1, 2)) as (x, y):
        log.append(f'body {x + y}')
    return log


def exception_suppressed(fail):
    log = []
    with Recorder(log, 'a', swallow=True):
        if fail:
            raise KeyError()
        log.append('body end')
    log.append('after')
    return log


def exception_propagates(fail):
    log = []
    try:
        with Recorder(log, 'a'):
            if fail:
                raise KeyError()
    except KeyError:
        log.append('caught')
    return log


def several_managers_exit_in_reverse():
    log = []
    with Recorder(log, 'a'), Recorder(log, 'b'), Recorder(log, 'c'):
        log.append('body')
    return log


def inner_suppresses_outer_sees_nothing():
    log = []
    with Recorder(log, 'outer'):
        with Recorder(log, 'inner', swallow=True):
            raise ValueError()
    return log


def second_enter_fails():
    log = []
    try:
        with Recorder(log, 'a'), FailsOnEnter(log):
            log.append('body (never)')
    except RuntimeError:
        log.append('caught')
    return log


def return_inside_with(x):
    log = []
    with Recorder(log, 'a'):
        if x > 0:
            return log, x
        log.append('not returned')
    return log, -x


def break_and_continue_inside_with(n):
    log = []
    for i in range(n):
        with Recorder(log, str(i)):
            if i == 1:
                continue
            if i == 3:
                break
            log.append(f'body {i}')
    return log


def exit_exception_replaces_body_exception():
    class Bad:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            raise ValueError('from exit')
    try:
        with Bad():
            raise KeyError('from body')
    except Exception as e:
        return type(e).__name__, type(e.__context__).__name__


def generator_manager(fail):
    log = []
    try:
        with generated(log, 'g') as name:
            log.append(name)
            if fail:
                raise KeyError()
    except KeyError:
        log.append('caught')
    return log


def test_enter_value_unpacked_into_target():
    check(plain_block)


@pytest.mark.parametrize('fail', [False, True])
def test_exit_true_suppresses(fail):
    check(exception_suppressed, fail)


@pytest.mark.parametrize('fail', [False, True])
def test_exit_false_propagates(fail):
    check(exception_propagates, fail)


def test_several_managers_exit_in_reverse_order():
    check(several_managers_exit_in_reverse)


def test_suppressed_exception_is_not_seen_by_outer():
    check(inner_suppresses_outer_sees_nothing)


def test_first_manager_exits_when_second_enter_fails():
    check(second_enter_fails)


@pytest.mark.parametrize('x', [-1, 2])
def test_return_inside_with_runs_exit(x):
    check(return_inside_with, x)


@pytest.mark.parametrize('n', [0, 2, 5])
def test_break_and_continue_inside_with_run_exit(n):
    check(break_and_continue_inside_with, n)


def test_exception_from_exit_replaces_body_exception():
    check(exit_exception_replaces_body_exception)


@pytest.mark.parametrize('fail', [False, True])
def test_generator_based_manager(fail):
    check(generator_manager, fail)


# --- with-blocks around computation on numbers -------------------------------------------

def branch_inside_with(x):
    with contextlib.nullcontext(x) as v:
        if v > 2:
            y = v * 2
        else:
            y = v - 1
    return y


def with_inside_loop(n):
    total = 0
    i = 0
    while i < n:
        with contextlib.nullcontext():
            total += i
            if total > 6:
                break
        i += 1
    return total


def return_in_with_in_branch(x):
    with contextlib.nullcontext():
        if x > 0:
            return x + 10
    return x - 10


@pytest.mark.parametrize('x', [1, 5])
def test_traced_branch_inside_with(x):
    check_ints(branch_inside_with, x)


@pytest.mark.parametrize('n', [0, 3, 9])
def test_traced_loop_with_a_with_block(n):
    check_ints(with_inside_loop, n)


@pytest.mark.parametrize('x', [-3, 3])
def test_return_from_with_in_traced_branch(x):
    check_ints(return_in_with_in_branch, x)


def test_exit_runs_once_per_call_of_converted_function():
    log = []

    def body(x):
        with Recorder(log, 'm'):
            y = x + 1
        return y
    fn = autograph.convert(body)
    fn(1)
    fn(2)
    assert log == ['enter m', 'exit m None'] * 2
