"""Attributes that a called function creates on some paths only, read by the caller:
Python's AttributeError where the path left the attribute unset, the value elsewhere
(analysis.created_attributes, passes.attribute_reads). Each case runs converted and as
plain Python, on Python numbers and on JAX arrays, under a plain call (twice), jax.jit,
jax.vmap and jax.grad where the plain function can run there."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


class Box:
    pass


def fill(box, x):
    if x > 0:
        box.c = x * 2


def fill_early(box, x):
    if x < 0:
        return 0.0
    box.c = x * 3
    return 1.0


def fill_through(box, x):
    fill(box, x)          # creates box.c on some paths: so does this


def fill_always(box, x):
    box.c = x + 1


def fill_in_loop(box, n):
    i = 0
    while i < n:
        box.c = i * 1.5
        i += 1


def fill_by_name(box, x):
    if x > 0:
        setattr(box, 'c', x - 1)


def reads_after(x):
    box = Box()
    fill(box, x)
    return box.c + 1.0


def reads_after_early(x):
    box = Box()
    fill_early(box, x)
    return box.c


def reads_after_nested(x):
    box = Box()
    fill_through(box, x)
    return box.c * x


def reads_after_branch_call(x):
    box = Box()
    if x > 1:
        fill_always(box, x)
    return box.c


def reads_after_loop(n):
    box = Box()
    fill_in_loop(box, n)
    return box.c


def reads_after_setattr(x):
    box = Box()
    fill_by_name(box, x)
    return box.c


def reads_after_local_def(x):
    def local_fill(b):
        if x > 0:
            b.c = x * 4
    box = Box()
    local_fill(box)
    return box.c


def guarded_read(x):
    box = Box()
    fill(box, x)
    if hasattr(box, 'c'):
        return box.c
    return -x


class Counter:
    def maybe_set(self, x):
        if x > 0:
            self.c = x * 5

    def through(self, x):
        self.maybe_set(x)

    def read_own(self, x):
        self.through(x)
        return self.c + 1.0


class Accumulator:
    def __init__(self):
        self.total = 0.0

    def add(self, x):
        self.total = self.total + x

    def run(self, x):
        self.add(x)
        return self.total


class Maybe:
    def __init__(self, x):
        if x > 0:
            self.c = x + 0.5


class Linked:
    def __init__(self, parent, x):
        if x > 0:
            parent.child = x


def reads_after_init(x):
    box = Maybe(x)
    return box.c


def reads_after_init_of_other(x):
    box = Box()
    Linked(box, x)
    return box.child


def flagged_then_loop_helper(x, n):
    """Present on some paths before a staged loop whose helper may create it again."""
    box = Maybe(x)
    i = 0
    while i < n:
        fill(box, x - 0.75)
        i += 1
    return box.c


def flagged_then_branch_helper(x, n):
    box = Box()
    if x > 1.0:
        box.c = x
    if n > 2:
        fill(box, x - 0.75)
    return box.c


def reads_after_method(x):
    counter = Counter()
    counter.maybe_set(x)
    return counter.c


def reads_after_method_of_argument(counter, x):
    counter.maybe_set(x)      # (the class of `counter` is not known when converting)
    return counter.c


def fill_by_method(counter, x):
    counter.maybe_set(x)      # (a method of an object given, in a helper)


def reads_after_helper_calling_a_method(x):
    counter = Counter()
    fill_by_method(counter, x)
    return counter.c


def reads_after_method_of_method(x):
    return Counter().read_own(x)


FLOATS = [reads_after_method, reads_after_method_of_method, reads_after_helper_calling_a_method,
          reads_after, reads_after_early,
          reads_after_nested, reads_after_branch_call, reads_after_init,
          reads_after_init_of_other,
          reads_after_setattr, reads_after_local_def, guarded_read]


def outcome(fn, *args):
    try:
        return fn(*args)
    except AttributeError as error:
        return error


def assert_matches(got, expected):
    if isinstance(expected, AttributeError):
        assert isinstance(got, AttributeError), got
        assert str(got) == str(expected)
    else:
        assert not isinstance(got, Exception), got
        assert_same(got, expected)


@pytest.mark.parametrize('fn', FLOATS)
@pytest.mark.parametrize('x', [-1.5, 0.5, 2.5])
def test_plain_calls_python_numbers_and_arrays(fn, x):
    expected = outcome(fn, x)
    converted = autograph.convert(fn)
    for arg in (x, jnp.float32(x), jnp.float32(x)):   # (the last: a cached call)
        assert_matches(outcome(converted, arg), expected)


@pytest.mark.parametrize('x', [-1.5, 2.5])
def test_a_method_of_an_object_given(x):
    expected = outcome(reads_after_method_of_argument, Counter(), x)
    converted = autograph.convert(reads_after_method_of_argument)
    for arg in (x, jnp.float32(x), jnp.float32(x)):
        assert_matches(outcome(converted, Counter(), arg), expected)


@pytest.mark.parametrize('fn', [flagged_then_loop_helper, flagged_then_branch_helper])
@pytest.mark.parametrize('x, n', [(0.2, 3), (1.5, 3), (0.2, 0), (2.5, 0), (0.9, 1)])
def test_present_on_some_paths_then_created_again_by_a_staged_helper(fn, x, n):
    """The flag of an attribute present on some paths survives a staged statement whose
    helper creates it on some paths again (it was lost: found by tests/fuzz_created.py,
    seed 100039)."""
    expected = outcome(fn, x, n)
    converted = autograph.convert(fn)
    for args in ((x, n), (jnp.float32(x), jnp.int32(n)), (jnp.float32(x), jnp.int32(n))):
        assert_matches(outcome(converted, *args), expected)


@pytest.mark.parametrize('n', [0, 1, 3])
def test_created_in_a_helpers_loop(n):
    expected = outcome(reads_after_loop, n)
    converted = autograph.convert(reads_after_loop)
    for arg in (n, jnp.int32(n), jnp.int32(n)):
        assert_matches(outcome(converted, arg), expected)


def read_in_the_loop_that_creates_it(x, n):
    box = Box()
    a = x
    for _ in range(n):
        fill(box, a)      # creates box.c where a > 0: the first iteration here
        a = -x
        a = a + box.c * 0.1
    return a


def read_in_the_loop_through_getattr(x, n):
    box = Box()
    a = x
    for _ in range(n):
        fill(box, a)
        a = -x
        a = a + getattr(box, 'c', 0.5) * 0.1
    return a


@pytest.mark.parametrize('fn', [read_in_the_loop_that_creates_it,
                                read_in_the_loop_through_getattr])
@pytest.mark.parametrize('x, n', [(1.5, 3), (-1.5, 3), (1.5, 0), (1.5, 1)])
def test_read_in_the_staged_loop_whose_helper_creates_it(fn, x, n):
    """A loop whose helper creates the attribute is staged twice (the second time
    carrying it, runtime.state.statement): the checks the first staging met (the read's,
    where the attribute was not yet carried) must not stay in the program (they did: a
    false AttributeError from the second iteration on; main fuzzer seed 302031)."""
    expected = outcome(fn, x, n)
    converted = autograph.convert(fn)
    for args in ((x, n), (jnp.float32(x), jnp.int32(n)), (jnp.float32(x), jnp.int32(n))):
        assert_matches(outcome(converted, *args), expected)
    if not isinstance(expected, AttributeError):
        assert_same(jax.jit(converted)(jnp.float32(x), jnp.int32(n)), expected)


@pytest.mark.parametrize('fn', FLOATS)
def test_under_jit(fn):
    """Inside the caller's jax.jit the program stops with JAX's error, which names the
    user's (tests/test_checks.py)."""
    converted = jax.jit(autograph.convert(fn))
    for x in (2.5, -1.5):
        expected = outcome(fn, x)
        if not isinstance(expected, AttributeError):
            assert_same(converted(jnp.float32(x)), expected)
            continue
        with pytest.raises(Exception, match=f'AttributeError: {expected}'):
            jax.block_until_ready(converted(jnp.float32(x)))


def test_under_vmap_every_item_on_a_path_that_sets_it():
    xs = jnp.array([1.5, 2.5, 3.0])
    got = jax.vmap(autograph.convert(reads_after))(xs)
    assert_same(got, np.array([reads_after(float(x)) for x in xs]))
    with pytest.raises(AttributeError, match="no attribute 'c'"):
        jax.vmap(autograph.convert(reads_after))(jnp.array([1.5, -2.0]))


def test_under_grad():
    grad = jax.grad(autograph.convert(reads_after_nested))
    assert_same(grad(jnp.float32(1.5)), 4 * 1.5)   # d/dx (2x * x)
    with pytest.raises(AttributeError, match="no attribute 'c'"):
        grad(jnp.float32(-1.5))


def test_ordinary_calls_get_no_checks():
    """A helper that creates nothing on some paths adds no check to its caller; one
    that may adds one before the read only."""
    def plain(box, x):
        box.c = x
        return box.c * 2

    def caller(x):
        box = Box()
        y = plain(box, x)
        return box.c + y + jnp.sin(x)
    code = autograph.to_code(caller)
    assert 'check_field' not in code
    assert 'check_field' not in autograph.to_code(Accumulator.run)
    assert 'check_field' in autograph.to_code(reads_after)


# --- a method that creates an attribute, called in a staged statement ------------------

class Accumulator2:
    def __init__(self):
        self.total = 0.

    def add(self, value):
        self.total = self.total + value
        self.last = value   # an attribute the object does not have yet


def adds_through_a_method(x):
    acc = Accumulator2()
    for i in range(3):
        if x > i:
            acc.add(x)
    return acc.last


def adds_under_an_if(x, n):
    counter = Counter()
    for i in range(n):
        if x > 1.0:
            counter.maybe_set(x)
    return counter.c


@pytest.mark.parametrize('x', [2.0, 0.5, -1.0])
def test_a_method_creating_an_attribute_in_a_staged_statement(x):
    """The attribute a method creates, called under a staged `if` (in a loop), exists
    afterwards where Python's does (it was a named error: the caller's read was not
    checked: it was carried as an attribute without a presence flag)."""
    for fn, args in ((adds_through_a_method, (x,)), (adds_under_an_if, (x, 3)),
                     (adds_under_an_if, (x, 0))):
        expected = outcome(fn, *args)
        converted = autograph.convert(fn)
        staged = tuple(jnp.float32(a) if isinstance(a, float) else jnp.int32(a) for a in args)
        for call_args in (args, staged, staged):
            assert_matches(outcome(converted, *call_args), expected)
        if not isinstance(expected, AttributeError):
            assert_same(jax.jit(converted)(*staged), expected)
