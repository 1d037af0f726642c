"""Dict keys first set (or deleted) in a staged loop or branch exist afterwards only where
Python's would (runtime.checks.keys): `in`, `get`, reads, results and errors, each against
the same function run as plain Python."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.runtime.checks.keys import Keyed
from tests.helpers import assert_same

i32, f32 = jnp.int32, jnp.float32


def while_sets(n):
    d = {}
    while n > 0:
        d['a'] = n
        n -= 1
    return d


def while_in(n):
    d = {}
    while n > 0:
        d['a'] = n
        n -= 1
    return 'a' in d


def while_read(n):
    d = {}
    while n > 0:
        d['a'] = n * 2.0
        n -= 1
    return d['a'] + 1.0


def for_get(n, x):
    d = {'b': x}
    for i in range(n):
        d['a'] = x * i
    return d.get('a', -1.0) + d['b'], 'a' not in d


def branch_sets(c, x):
    d = {}
    if c > 0:
        d['a'] = x
    return 'a' in d, d.get('a', 0.0)


def branch_deletes(c, x):
    d = {'a': x, 'b': x + 1}
    if c > 0:
        del d['a']
    return 'a' in d, d['b']


def nested(n, m):
    d = {}
    while n > 0:
        k = m
        while k > 0:
            if k % 2 == 0:
                d['even'] = k
            k -= 1
        n -= 1
    return 'even' in d, d.get('even', -1)


def guarded_read(n):
    d = {}
    while n > 0:
        d['a'] = n
        n -= 1
    if 'a' in d:
        return d['a'] * 3
    return -1


def counts(n):
    d = {'hits': 0}
    i = 0
    while i < n:
        if i % 3 == 0:
            d['three'] = d.get('three', 0) + 1
        i += 1
    return d


def python_values(n):
    d = {}
    while n > 0:
        d['tag'] = 'seen'
        n -= 1
    return 'tag' in d, d.get('tag')


PROGRAMS = [
    (while_sets, (i32(0),)), (while_sets, (i32(3),)),
    (while_in, (i32(0),)), (while_in, (i32(2),)),
    (while_read, (i32(2),)),
    (for_get, (i32(0), f32(2.)), ), (for_get, (i32(3), f32(2.))),
    (branch_sets, (i32(0), f32(5.))), (branch_sets, (i32(1), f32(5.))),
    (branch_deletes, (i32(0), f32(5.))), (branch_deletes, (i32(1), f32(5.))),
    (nested, (i32(0), i32(4))), (nested, (i32(2), i32(1))), (nested, (i32(2), i32(4))),
    (guarded_read, (i32(0),)), (guarded_read, (i32(2),)),
    (counts, (i32(0),)), (counts, (i32(5),)),
]


@pytest.mark.parametrize('fn, args', PROGRAMS, ids=lambda v: getattr(v, '__name__', ''))
def test_converted_as_python(fn, args):
    expected = fn(*args)
    converted = autograph.convert(fn)
    assert_same(converted(*args), expected)
    assert_same(converted(*args), expected)          # a second call, the same program
    assert_same(autograph.convert(fn, jit=False)(*args), expected)
    if not isinstance(expected, dict):               # (a dict's keys: see below)
        assert_same(jax.jit(autograph.convert(fn))(*args), expected)


def test_python_values_in_items():
    for n in (0, 2):
        assert autograph.convert(python_values)(i32(n)) == python_values(i32(n))


@pytest.mark.parametrize('fn', [while_read, guarded_read])
def test_missing_key_is_keyerror_when_it_runs(fn):
    with pytest.raises(KeyError) if fn is while_read else _no_error():
        fn(i32(0))
    converted = autograph.convert(fn)
    if fn is while_read:
        with pytest.raises(KeyError):
            converted(i32(0))
        with pytest.raises(Exception, match='KeyError'):
            jax.jit(converted)(i32(0))
    else:
        assert_same(converted(i32(0)), fn(i32(0)))
    assert_same(converted(i32(4)), fn(i32(4)))     # (the check passes where it is set)


class _no_error:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_returned_dict_has_the_keys_of_the_run():
    converted = autograph.convert(while_sets)
    assert converted(i32(0)) == {}
    assert type(converted(i32(2))) is dict and list(converted(i32(2))) == ['a']
    assert jax.jit(converted)(i32(2)) == {'a': 1}
    with pytest.raises(Exception, match="result\\['a'\\] of while_sets"):
        jax.jit(converted)(i32(0))      # (inside a caller's jit: an error where absent)


def test_vmap_presence_per_element():
    ns = jnp.array([0, 2, 0, 5], dtype=jnp.int32)
    got = jax.vmap(autograph.convert(while_in))(ns)
    assert got.tolist() == [while_in(n) for n in ns]
    xs = jnp.arange(4.)
    got = jax.vmap(autograph.convert(for_get))(ns, xs)
    for k, (n, x) in enumerate(zip(ns, xs)):
        expected = for_get(n, x)
        assert_same((got[0][k], got[1][k]), expected)
    read = jax.vmap(autograph.convert(while_read))
    assert_same(read(jnp.array([1, 2])), jnp.stack([while_read(1), while_read(2)]))
    with pytest.raises(KeyError):     # (Python's raises for the element where n is 0)
        read(jnp.array([0, 2]))


def test_grad_through_an_item_set_in_a_loop():
    def f(x, n):
        d = {}
        for i in range(n):
            d['a'] = x * x + i
        return d.get('a', x) * 2.0
    for n in (0, 3):
        expected = jax.grad(f)(f32(1.5), n)
        assert_same(jax.grad(autograph.convert(f))(f32(1.5), i32(n)), expected)


def test_keys_needed_while_tracing_is_a_named_error():
    def f(n):
        d = {}
        while n > 0:
            d['a'] = n
            n -= 1
        return sorted(d)
    assert f(i32(0)) == []
    with pytest.raises(autograph.ControlFlowError, match="key 'a'.*some paths only"):
        autograph.convert(f)(i32(0))


def test_len_counts_the_keys_present():
    """`len(d)` of a dict whose keys a staged loop or branch sets on some paths only is
    the count of the keys present on the path the program took (a traced count)."""
    def loop(n):
        d = {'z': 0}
        while n > 0:
            d['a'] = n
            n -= 1
        return len(d) * 10 + 1

    def branches(x):
        d = {}
        if x > 0:
            d['a'] = x
        elif x < -1:
            d['b'] = x
            d['c'] = x
        else:
            d['a'] = x
            del d['a']
        return len(d), d.get('a', 0.0)

    for n in (0, 1, 3):
        assert_same(autograph.convert(loop)(i32(n)), loop(i32(n)))
        assert_same(jax.jit(autograph.convert(loop))(i32(n)), loop(i32(n)))
    for x in (2.0, -3.0, 0.0):
        for _ in range(2):   # (two calls: the second reuses the trace)
            assert_same(autograph.convert(branches)(f32(x)), branches(f32(x)))
    xs = jnp.asarray([2.0, -3.0, 0.0])
    counts, _ = jax.vmap(autograph.convert(branches))(xs)
    assert counts.tolist() == [branches(x)[0] for x in xs]
    grad = jax.grad(lambda x: autograph.convert(branches)(x)[1] * 3.0)(f32(2.0))
    assert_same(grad, jax.grad(lambda x: branches(x)[1] * 3.0)(f32(2.0)))


def test_keyed_dict_is_pythons_where_flags_are_known():
    d = Keyed({'a': 1, 'b': 2}, {'a': jnp.asarray(False)})
    plain = {'b': 2}
    assert list(d) == list(plain) and len(d) == len(plain) and d == plain
    assert ('a' in d) is False and d.get('a', 7) == 7 and d.pop('a', 9) == 9
    d['a'] = 3
    assert d == {'b': 2, 'a': 3} and d.present == {}
    with pytest.raises(KeyError):
        Keyed({'a': 1}, {'a': jnp.asarray(False)})['a']


# Attributes: the same, for `obj.x` that a staged statement creates on some paths only.

class Box:
    pass


def attr_in_loop(n):
    o = Box()
    while n > 0:
        o.x = n * 2.0
        n -= 1
    return hasattr(o, 'x'), getattr(o, 'x', -1.0)


def attr_in_branch(c, x):
    o = Box()
    if c > 0:
        o.x = x
    return hasattr(o, 'x')


def attr_read(n):
    o = Box()
    for i in range(n):
        o.x = i * 3.0
    return o.x + 1.0


def attr_on_argument(o, n):
    while n > 0:
        o.x = n
        n -= 1
    return n


@pytest.mark.parametrize('fn, args', [
    (attr_in_loop, (i32(0),)), (attr_in_loop, (i32(2),)),
    (attr_in_branch, (i32(0), f32(1.))), (attr_in_branch, (i32(3), f32(1.))),
    (attr_read, (i32(3),))], ids=lambda v: getattr(v, '__name__', ''))
def test_attributes_as_python(fn, args):
    expected = fn(*args)
    converted = autograph.convert(fn)
    for run in (converted, converted, jax.jit(converted), autograph.convert(fn, jit=False)):
        assert_same(run(*args), expected)


def test_attribute_read_where_unset_is_attributeerror():
    with pytest.raises(AttributeError):
        attr_read(i32(0))
    with pytest.raises(AttributeError, match="'Box' object has no attribute 'x'"):
        autograph.convert(attr_read)(i32(0))
    assert "ag.check_field(o, 'x')" in autograph.to_code(attr_read)


def test_attribute_on_an_object_that_outlives_the_call():
    for n in (0, 2):
        expected, got = Box(), Box()
        attr_on_argument(expected, i32(n))
        autograph.convert(attr_on_argument)(got, i32(n))
        assert vars(got).keys() == vars(expected).keys()
        assert_same(vars(got), vars(expected))


def test_attribute_presence_per_batch_element():
    ns = jnp.array([0, 3, 0, 1], dtype=jnp.int32)
    present, value = jax.vmap(autograph.convert(attr_in_loop))(ns)
    for k, n in enumerate(ns):
        assert_same((present[k], value[k]), attr_in_loop(n))


def fills_argument(d, n):
    while n > 0:
        d['a'] = n
        n -= 1
    d['b'] = 1
    return 'a' in d


@pytest.mark.parametrize('n', [0, 2])
def test_a_dict_the_caller_gave_gets_the_keys_of_the_run(n):
    expected = {}
    expected_result = fills_argument(expected, i32(n))
    converted = autograph.convert(fills_argument)
    for _ in range(2):   # (the second call runs the compiled program again)
        given = {}
        assert_same(converted(given, i32(n)), expected_result)
        assert list(given) == list(expected)
        assert_same(given, expected)


class Ticks:
    def __init__(self):
        self.c = 0


def ticked(cell, p):
    cell.c = cell.c + 1
    return p > 0.0


def restaged_sum(x, n):
    """A dict with a key on some paths only (`first`) summed into in a loop whose body
    calls a helper that changes an object: the loop is staged again carrying it, from
    the dict as it was before (fuzzer seed 10217: the first item was counted twice)."""
    a, s, d = x, Ticks(), {}
    i = 0
    while i < n:
        i += 1
        d['first'] = a
    j = 0
    while j < 3:
        j += 1
        d['sum'] = d.get('sum', 0.0) + a
        if x > 5.0:
            pass
        elif ticked(s, a):
            if n > 2:
                a = a * 0.5
            elif a > 0.5:
                return a, 0.0, s.c
    return a, d['sum'], s.c


@pytest.mark.parametrize('x, n', [(1.0, 3), (1.0, 0), (-2.0, 1), (7.0, 2)])
def test_a_keyed_dict_is_put_back_before_a_statement_is_staged_again(x, n):
    expected = restaged_sum(f32(x), n)
    converted = autograph.convert(restaged_sum)
    for _ in range(2):
        assert_same(converted(f32(x), i32(n)), expected)
    assert_same(jax.jit(autograph.convert(restaged_sum, jit=False))(f32(x), i32(n))[:2],
                expected[:2])


def relax_defaultdict(w):
    """A `defaultdict` (not the runtime's dict of keys present on some paths) written
    under a traced `if`: its write-back read flags it does not have (a raw AttributeError,
    found porting corpus batch 4)."""
    import collections
    dist = collections.defaultdict(lambda: 1e20)
    dist[0] = 0.0
    if dist[0] + w < dist[1]:
        dist[1] = dist[0] + w
    return dist


@pytest.mark.parametrize('w', [2.0, 3e20])
def test_a_defaultdict_written_under_a_traced_if(w):
    expected = relax_defaultdict(np.float32(w))
    got = autograph.convert(relax_defaultdict)(jnp.float32(w))
    assert type(got) is type(expected) and sorted(got) == sorted(expected)
    for k in expected:
        np.testing.assert_allclose(np.float64(got[k]), np.float64(expected[k]), rtol=1e-6)


# --- a key that every iteration of a loop that surely runs sets -------------------------

def reads_then_sets(v, a):
    """A loop over an array's rows (it surely runs) sets `d['t']` in every iteration, and
    reads it with `get` and `in` before: absent in the first iteration, as in Python
    (fuzzer seed 100554: carried as present, zeros, from the first iteration on). After
    the loop the key is surely there: the dict's keys are known while tracing."""
    d = {}
    b = a * 0.0
    for e in v:
        b = b + d.get('t', 0.25) * 0.1 + ('t' in d)
        d['t'] = a * 0.5 + e
    return b, d['t'], len(d), sorted(d)


def reads_then_sets_range(a):
    d = {'s': a}
    for i in range(12):   # (a staged range loop: a Python bound, traced state)
        d['t'] = d.get('t', 1.0) * 0.5 + a * i
    return d['t'], len(d), 't' in d


OUTER = {'s': 0.0}


def global_reads_then_sets(v, a):
    """The same with a module-level dict written with no `global` statement (as in the
    fuzzer's program): its key after the call too."""
    b = a * 0.0
    for e in v:
        b = b + OUTER.get('t', 0.25) * 0.1
        OUTER['t'] = a * 0.5 + e
    return b


@pytest.mark.parametrize('fn, args', [
    (reads_then_sets, (jnp.arange(3.), f32(1.))),
    (reads_then_sets, (jnp.ones((1,)), f32(-2.))),
    (reads_then_sets_range, (f32(0.75),)),
], ids=lambda v: getattr(v, '__name__', ''))
def test_a_key_set_by_every_iteration_is_absent_in_the_first(fn, args):
    expected = fn(*args)
    assert_same(autograph.convert(fn)(*args), expected)
    assert_same(autograph.convert(fn, jit=False)(*args), expected)
    if fn is reads_then_sets_range:
        assert_same(jax.jit(autograph.convert(fn))(*args), expected)
        assert_same(jax.grad(lambda a: autograph.convert(fn)(a)[0])(args[0]),
                    jax.grad(lambda a: fn(a)[0])(args[0]))
    else:
        vs, a = jnp.stack([args[0], args[0] * 2.0]), jnp.stack([args[1], args[1] + 1.0])
        got = jax.vmap(lambda v, a: autograph.convert(fn)(v, a)[:2])(vs, a)
        assert_same(got, tuple(jnp.stack(p) for p in zip(*[fn(*row)[:2]
                                                              for row in zip(vs, a)])))


def test_a_global_key_set_by_every_iteration():
    v, a = jnp.arange(3.), f32(1.)
    OUTER.clear()
    OUTER['s'] = 0.0
    expected = global_reads_then_sets(v, a), dict(OUTER)
    for _ in range(2):   # (the second call runs the compiled program again)
        OUTER.clear()
        OUTER['s'] = 0.0
        assert_same((autograph.convert(global_reads_then_sets)(v, a), dict(OUTER)), expected)


# --- a defaultdict whose keys staged code creates by reading them -----------------------

def tallies(v):
    """Sums by sign in a defaultdict: each key is created by its first `+=` (the
    defaultdict's `__missing__`), under a traced `if` in a staged loop (a KeyError when
    the program ran, where Python's defaultdict gives 0.0)."""
    import collections
    sums = collections.defaultdict(float)
    for e in v:
        if e > 0:
            sums['pos'] += e
        else:
            sums['neg'] += e
    return sums['pos'], sums['neg'], 'pos' in sums, len(sums)


def tallies_while(n):
    """A key a zero-trip loop would create: absent after it, then created (0) by the
    read, as Python's defaultdict does."""
    import collections
    counts = collections.defaultdict(int)
    while n > 0:
        counts['a'] += n
        n -= 1
    there = 'a' in counts
    return there, counts['a'], 'a' in counts


@pytest.mark.parametrize('fn, args', [
    (tallies, (f32([0.5, -1.0, 2.0]),)), (tallies, (f32([0.5, 2.0]),)),
    (tallies, (f32([-0.5]),)), (tallies_while, (i32(0),)), (tallies_while, (i32(3),))])
def test_a_defaultdict_creates_the_keys_it_reads(fn, args):
    expected = fn(*[np.array(a) for a in args])
    converted = autograph.convert(fn)
    assert_same(converted(*args), expected)
    assert_same(jax.jit(autograph.convert(fn))(*args), expected)


def test_a_defaultdict_under_vmap():
    cases = f32([[0.5, -1.0, 2.0], [1.0, 2.0, 3.0], [-1.0, -2.0, -3.0]])
    expected = [tallies(np.asarray(c))[:2] for c in cases]
    got = jax.vmap(lambda v: autograph.convert(tallies)(v)[:2])(cases)
    assert_same(got, tuple(np.asarray(e) for e in zip(*expected)))
