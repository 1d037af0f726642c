"""Builtins on traced values keep Python's meaning; text of traced values is an error."""
import heapq
import math
from heapq import nsmallest

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, check, primitives, site


def casts(x):
    return int(x), float(x), bool(x), int(-x), float(int(x))


@pytest.mark.parametrize('x', [2.7, -2.7, 0.0, 3.0, -0.5])
def test_int_float_bool_truncate_like_python(x):
    expected = casts(x)
    got = autograph.convert(casts)(jnp.float32(x))
    assert [float(g) for g in got] == pytest.approx([float(e) for e in expected], abs=1e-6)
    assert got[0].dtype == jnp.int32 and got[1].dtype == jnp.float32 and got[2].dtype == bool
    assert autograph.convert(casts)(x) == expected            # Python values: the builtins
    batched = jax.vmap(autograph.convert(casts, jit=False))(jnp.array([x, -x]))
    assert [int(v) for v in batched[0]] == [int(x), int(-x)]


def test_int_with_a_base_by_keyword():
    def parsed(s, x):
        return int(s, base=16) + int('11', 2), int(x)
    assert autograph.convert(parsed, jit=False)('ff', 2.5) == parsed('ff', 2.5)


def test_int_of_an_int_array_and_bool_of_zero():
    def f(i):
        return int(i) + 1, bool(i)
    check(f, jnp.int32(0))
    check(f, jnp.int32(-4))


def test_int_of_traced_vector_names_the_line():
    def f(x):
        return int(x)
    with pytest.raises(autograph.ControlFlowError) as info:
        autograph.convert(f)(jnp.ones(3))
    assert 'int() of a traced array of shape (3,)' in str(info.value)
    assert site(f, 'return int(x)') in str(info.value)


def extrema(x, y):
    return (min(x, y), max(x, y, 0.5), max([x, y]), min((x, y, 1.0)),
            max(v * 2 for v in (x, y)), min([x, -y], key=abs), max((x, y), key=lambda v: -v),
            max([], default=y), min(x, y, key=lambda v: v * v))


@pytest.mark.parametrize('x, y', [(1.5, -2.0), (-3.0, 0.25), (2.0, 2.0)])
def test_min_max_with_key_and_default(x, y):
    check(extrema, jnp.float32(x), jnp.float32(y))
    assert autograph.convert(extrema)(x, y) == extrema(x, y)


def test_max_of_an_array_reduces_its_first_axis():
    def f(xs):
        return max(xs), min(xs), sum(xs), sum(xs, 10.0)
    check(f, jnp.array([1., -2., 3.]))
    assert 'reduce_max' in primitives(f, jnp.array([1., -2., 3.]))
    grads = jax.grad(lambda xs: autograph.convert(f, jit=False)(xs)[0])(jnp.array([1., 5., 3.]))
    np.testing.assert_allclose(grads, [0., 1., 0.])


def test_sum_any_all_over_generators_and_lists():
    def f(x, n):
        a = sum(x * i for i in range(n))
        b = sum([x, x, 1.0], 0.5)
        c = any(v > 2 for v in (x, x * n))
        d = all([x > 0, x < 10, True])
        e = any([False, x > 100]), all([x > 0, False]), any([]), all([])
        return a, b, c, d, e
    for x in (1.5, -1.0, 3.0):
        check(f, jnp.float32(x), 3)
        assert autograph.convert(f)(x, 3) == f(x, 3)


def test_any_stops_at_a_true_python_item():
    seen = []

    def items(x):
        seen.append(1)
        yield x > 0
        seen.append(2)
        yield True
        seen.append(3)
        yield x < 0

    def f(x):
        return any(items(x))
    assert autograph.convert(f)(jnp.float32(-1.)) is True
    assert seen == [1, 2]


def test_any_of_traced_vectors_is_a_named_error():
    def f(xs):
        return any([xs, xs])
    with pytest.raises(autograph.ControlFlowError, match=r'any\(\).*shape \(2,\).*jnp.any'):
        autograph.convert(f)(jnp.ones(2))


def membership(x, i):
    return (x in (1.5, 2.5), x not in [1.5, x + 1], i in range(3) if False else i in (0, 2),
            3 in [i, i + 1], x in {'a': 1})


@pytest.mark.parametrize('x, i', [(1.5, 0), (2.5, 2), (0.0, 1)])
def test_in_and_not_in(x, i):
    def f(x, i):
        return x in (1.5, 2.5), x not in [1.5, x + 1], i in (0, 2), 3 in [i, i + 1]
    check(f, jnp.float32(x), jnp.int32(i))
    assert autograph.convert(f)(x, i) == f(x, i)
    code = autograph.to_code(f)
    assert 'ag.in_(x, (1.5, 2.5))' in code and 'ag.not_(ag.in_(x, [1.5, x + 1]))' in code


def test_in_an_array_and_in_python_containers():
    def f(xs, k):
        return 2.0 in xs, k in {'a': 1}, 'b' in 'abc'
    check(f, jnp.array([1., 2.]), 'a')
    got = jax.vmap(autograph.convert(lambda xs: 2.0 in xs, jit=False))(
        jnp.array([[1., 2.], [3., 4.]]))
    assert list(got) == [True, False]


def test_divmod_round_pow_abs():
    def f(x, i):
        q, r = divmod(x, 0.75)
        qi, ri = divmod(i, 3)
        return (q, r, qi, ri, round(x), round(x, 1), round(x * 10, -1), abs(-x), pow(x, 2),
                pow(i, 3, 5), pow(i, 2, -7), pow(-i, 5, 13))
    for x, i in ((2.5, 7), (-1.3, -4), (0.55, 12)):
        expected = f(x, i)      # Python numbers: pow(i, 3, 5) needs Python ints
        assert_same(autograph.convert(f)(jnp.float32(x), jnp.int32(i)), expected)
        assert_same(autograph.convert(f)(x, i), expected)


def test_three_argument_pow_does_not_overflow():
    def f(b, e, m):
        return pow(b, e, m)
    for b, e, m in ((123456, 10 ** 6, 1000), (7, 0, 13), (2, 30, 1 << 15)):
        assert int(autograph.convert(f)(jnp.int32(b), jnp.int32(e), m)) == pow(b, e, m)


def test_three_argument_pow_negative_exponent_is_checked_when_it_runs():
    def f(b, e):
        return pow(b, e, 7)
    with pytest.raises(AssertionError, match='non-negative exponent'):
        jax.block_until_ready(autograph.convert(f)(jnp.int32(3), jnp.int32(-1)))


def test_builtins_compose_with_grad_and_vmap():
    def f(x):
        return max(x, 0.0) + sum([x, x * x]) + float(x) * min(x, 1.0)
    g = autograph.convert(f, jit=False)
    xs = jnp.array([-1.0, 0.5, 2.0])
    np.testing.assert_allclose(jax.vmap(g)(xs), [f(v) for v in [-1.0, 0.5, 2.0]], rtol=1e-6)
    np.testing.assert_allclose(jax.grad(g)(2.0), 1 + 4 + 2 * 1.0, rtol=1e-6)


# --- text of traced values ------------------------------------------------------------

def str_of(x):
    return str(x)


def repr_of(x):
    return repr(x)


def format_of(x):
    return format(x, '.2f')


def fstring_of(x):
    return f'value {x}'


def percent_of(x):
    return 'value %s' % x


def length_of_str(x):
    return len(str(x))


@pytest.mark.parametrize('construct, fn', [
    ('str()', str_of), ('repr()', repr_of), ('format()', format_of),
    ('f-string', fstring_of), ('%', percent_of), ('str()', length_of_str)])
def test_text_of_a_traced_value_is_a_named_error(construct, fn):
    with pytest.raises(autograph.ControlFlowError) as info:
        autograph.convert(fn)(jnp.float32(1.))
    message = str(info.value)
    assert construct in message and 'traced value' in message and 'jax.debug.print' in message
    assert site(fn, 'return') in message
    assert autograph.convert(fn)(1.5) == fn(1.5)     # Python values: Python's text


def test_text_error_shows_the_users_line():
    def f(x):
        name = f'layer{x}'
        return name
    with pytest.raises(autograph.ControlFlowError) as info:
        autograph.convert(f)(jnp.int32(1))
    assert "name = f'layer{x}'" in str(info.value)


def test_text_of_static_parts_of_arrays_is_fine():
    def f(x):
        return f'{x.shape} {x.dtype}', str(len(x)), 'n=%d' % x.ndim
    assert autograph.convert(f)(jnp.ones(3)) == f(jnp.ones(3)) == ('(3,) float32', '3', 'n=1')


def test_print_of_a_value_runs_while_tracing_but_text_made_from_it_when_the_program_runs(capfd):
    def f(x):
        print(x)
        print(f'x is {x}', 'and %s' % x)
        jax.debug.print('value {}', x)
        return x + 1
    g = autograph.convert(f)
    g(jnp.float32(1.))
    g(jnp.float32(2.))
    out = capfd.readouterr().out
    assert out.count('Tracer') == 1          # print(x): trace-time text, once per trace
    f(jnp.float32(1.))
    f(jnp.float32(2.))
    python = capfd.readouterr().out
    for line in ('x is 1.0 and 1.0', 'x is 2.0 and 2.0', 'value 1.0', 'value 2.0'):
        assert line in python and line in out
    code = autograph.to_code(f)
    assert "ag.emit(print, ag.message('x is {}', x), ag.message_percent('and %s', x))" in code


def test_assert_messages_may_format_traced_values():
    def f(x):
        assert x > 0, f'x must be positive, got {x}'
        return x
    assert float(autograph.convert(f)(jnp.float32(2.))) == 2.


def test_formatting_in_generated_code_is_readable():
    def f(i, names):
        return f'{names[0]}-{i}'
    code = autograph.to_code(f)
    assert "f'{ag.text(names[0])}-{ag.text(i)}'" in code
    assert autograph.convert(f)(3, ['a']) == 'a-3'
    assert_same(len(autograph.convert(f)(3, ['abc'])), 5)


def extremes(a, b, c):
    return min(a, b, c), max(a, b), min((a, b)), max([c, b, a])


@pytest.mark.parametrize('args', [(float('nan'), 1., 2.), (1., float('nan'), .5),
                                  (2., 2., 3.), (0., -0., 1.)])
def test_min_max_of_traced_items_compare_as_python_does(args):
    converted = autograph.convert(extremes)(*map(jnp.float32, args))
    for got, expected in zip(converted, extremes(*args)):
        np.testing.assert_equal(float(got), expected)
        assert math.copysign(1., float(got)) == math.copysign(1., expected)


def test_min_of_a_tie_differentiates_the_first_item_as_python_picks_it():
    def scaled_min(a, b):
        return min(a, b) * 3
    grads = jax.grad(autograph.convert(scaled_min), argnums=(0, 1))(
        jnp.float32(2.), jnp.float32(2.))
    assert [float(g) for g in grads] == [3., 0.]


def beams_sorted_in_place(probs, width):
    """A beam search that keeps its candidates with `list.sort(key=...)` (the score traced,
    the token lists Python's)."""
    beams = [[[], 0.0]]
    for t in range(probs.shape[0]):
        candidates = []
        for seq, score in beams:
            for j in range(probs.shape[1]):
                candidates.append([seq + [j], score - jnp.log(probs[t, j])])
        candidates.sort(key=lambda c: c[1])
        beams = candidates[:width]
    return beams


def sort_in_place(a, b, c, reverse):
    items = [a, b, c, a]                 # ties keep their order, also reversed
    result = items.sort(reverse=reverse)
    return items, result


def test_list_sort_in_place_with_traced_keys_as_python():
    probs = jnp.array([[0.1, 0.5, 0.4], [0.3, 0.3, 0.4], [0.6, 0.1, 0.3]])
    for width in (1, 2, 4):
        check(beams_sorted_in_place, probs, width)
    for reverse in (False, True):
        check(sort_in_place, jnp.float32(2.0), jnp.float32(-1.0), jnp.float32(3.0), reverse)
    check(sort_in_place, 2.0, -1.0, 3.0, True)            # Python items: Python's sort


def best_pair(p):
    """`max` of tuples: Python compares them item by item, the first unequal pair
    deciding; the arrays after it are never compared where the scores differ."""
    return max([(p[0], jnp.ones(2)), (p[1], jnp.zeros(2)), (p[2], jnp.full(2, 2.0))])


def test_max_of_tuples_compares_item_by_item_as_python():
    for p in ([1.0, 3.0, 2.0], [3.0, 1.0, 2.0], [0.0, 1.0, 5.0]):
        check(best_pair, jnp.array(p))
    with pytest.raises(ValueError, match='truth value of an array'):   # a tie: as Python
        autograph.convert(best_pair)(jnp.array([1.0, 1.0, 0.0]))


# --- Python items ordered by traced keys ------------------------------------------------

def index_by_key(v):
    calls = []

    def key(i):
        calls.append(i)        # (Python calls the key once per item)
        return v[i]
    best = min(range(len(v)), key=key)
    worst = max(range(len(v)), key=lambda i: v[i])
    order = sorted(range(len(v)), key=lambda i: v[i], reverse=True)
    return best, worst, order, len(calls)


def name_by_score(v):
    scores = {'a': v[0], 'b': v[1], 'c': v[2]}
    names = ['a', 'b', 'c']
    names.sort(key=lambda s: scores[s])
    return max(scores, key=scores.get), min(scores, key=lambda s: scores[s]), names


@pytest.mark.parametrize('v', [[3.0, 1.0, 2.0, 0.5], [1.0, 0.0, 0.0, 2.0], [2.0, 2.0, 2.0, 2.0]],
                         ids=['distinct', 'ties', 'all equal'])
def test_python_items_ordered_by_traced_keys(v):
    # (A raw TracerBoolConversionError before: Python's min/max/sorted compared the
    # traced keys of Python items; ties keep the first item, as Python's.)
    v = np.array(v, np.float32)
    check(index_by_key, v)
    check(name_by_score, v)
    assert index_by_key(v)[3] == 4
    out = jax.vmap(autograph.convert(lambda w: index_by_key(w)[:2]))(jnp.stack([v, -v]))
    assert [int(i) for i in out[0]] == [index_by_key(v)[0], index_by_key(-v)[0]]


def test_python_keys_of_python_items_stay_python():
    assert autograph.convert(lambda n: min(range(3), key=lambda i: [3, 1, 2][i]) + n,
                             jit=False)(0) == 1


def zipped_strictly(v, w):
    s = [0.0]
    try:
        for a, b in zip(v, w, strict=True):
            s[0] += a * b
    except ValueError as error:
        return s[0], str(error)
    return s[0], 'equal lengths'


@pytest.mark.parametrize('v, w', [(np.arange(3.0), np.arange(3.0)),
                                  (np.arange(3.0), np.arange(2.0)),
                                  (np.arange(2.0), [1.0, 2.0, 3.0])])
def test_zip_strict_of_arrays(v, w):
    """`zip(v, w, strict=True)` (a raw TypeError: `ag.zip` took no `strict`): equal
    lengths stage the loop; different ones run Python's zip step by step, its ValueError
    where the shortest ends, after the steps before it, as in Python."""
    expected = zipped_strictly(v, w)
    got = autograph.convert(zipped_strictly)(jnp.asarray(v, jnp.float32), w if isinstance(
        w, list) else jnp.asarray(w, jnp.float32))
    assert float(got[0]) == expected[0] and got[1] == expected[1]


def best_beams(scores):
    beams = [(scores[0], 'a'), (scores[1], 'b'), (scores[2], 'c'), (scores[1], 'd')]
    top = heapq.nlargest(2, beams, key=lambda beam: beam[0])
    low = nsmallest(2, [scores[2], scores[0], scores[1]])
    return [name for _, name in top], low


@pytest.mark.parametrize('scores', [[0.1, 0.7, 0.3], [0.5, 0.2, 0.5]])
def test_heapq_selections_of_traced_keys(scores):
    """`heapq.nlargest`/`nsmallest` (documented as `sorted(...)[:n]`, ties in order) of
    traced keys: JAX's raw TracerBoolConversionError from inside heapq before."""
    names, low = best_beams(scores)
    got_names, got_low = autograph.convert(best_beams)(jnp.asarray(scores, jnp.float32))
    assert got_names == names
    assert_same(got_low, low)
    lows = jax.jit(autograph.convert(lambda s: best_beams(s)[1], jit=False))(
        jnp.asarray(scores, jnp.float32))
    assert_same(lows, low)
