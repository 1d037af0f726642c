"""A value None on some paths of a traced branch, narrowed in expressions as Python does:
`s if s else z`, `s + 1 if s is not None else 0`, `s and s + 1`, and comprehensions
reduced at once whose `if` keeps the items that are not None.

Each function runs converted and as plain Python on the same inputs: called as is,
inside a fresh `jax.jit` and under `jax.vmap`.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def check(fn, conv, args):
    want = fn(*args)
    np.testing.assert_allclose(np.asarray(conv(*args)), np.asarray(want), rtol=1e-6)
    jitted = jax.jit(lambda *a: conv(*a))(*args)
    np.testing.assert_allclose(np.asarray(jitted), np.asarray(want), rtol=1e-6)
    batched = jax.vmap(lambda *a: conv(*a))(*[jnp.stack([a, a]) for a in args])
    np.testing.assert_allclose(np.asarray(batched[0]), np.asarray(want), rtol=1e-6)


def _optional(x):
    s = None
    if x > 0:
        s = x * 2
    return s


def picked(x):
    s = _optional(x)
    return s if s else x - 7.0


def picked_by_identity(x):
    s = _optional(x)
    y = s + 1 if s is not None else 0.0
    return y + (0.0 if s is None else s * 3) + (s * 3 if not (s is None) else 1.0)


def picked_by_and(x):
    s = _optional(x)
    y = (s and s + 1) if x > -5 else 3.0
    return 2.0 if y is None else y


def picked_by_a_conjunction(x):
    s = _optional(x)
    return s + 1 if s is not None and s > 1 else -1.0


def summed_when_present(x):
    s = _optional(x)
    return sum(v for v in [s, x, None] if v is not None)


def least_when_present(x):
    s = _optional(x)
    return min((v for v in [s, x + 5.0, None] if v is not None), default=-3.0) + \
        max([v for v in [s, x - 5.0] if v is not None])


def truths_when_present(x):
    s = _optional(x)
    return jnp.float32(any(v for v in [s, None] if x > -7)) + \
        jnp.float32(all(v for v in [s] if x > -7))


def inlined(x):
    """The same, the optional made in the function itself (a traced `if`)."""
    s = None
    if x > 0:
        s = x * 2
    return (s if s is not None else -x) + sum(v for v in [s, x] if v is not None)


@pytest.mark.parametrize('fn', [picked, picked_by_identity, picked_by_and,
                                picked_by_a_conjunction, summed_when_present,
                                least_when_present, truths_when_present, inlined])
def test_an_optional_narrowed_in_an_expression(fn):
    conv = autograph.convert(fn)
    for x in (1.0, -1.0, 3.0):
        check(fn, conv, (jnp.float32(x),))


def test_an_optional_none_where_the_sum_keeps_it_raises_pythons_error():
    def added(x):
        s = _optional(x)
        return sum(v for v in [s, x] if x > -3)
    conv = autograph.convert(added)
    check(added, conv, (jnp.float32(1.0),))
    with pytest.raises(TypeError, match='NoneType'):
        added(jnp.float32(-1.0))
    with pytest.raises(TypeError, match='NoneType'):
        conv(jnp.float32(-1.0))


def test_a_list_kept_by_an_optionals_presence_is_a_named_error():
    """How many items it keeps is known only when the program runs."""
    def kept(x):
        s = _optional(x)
        return [v + 1 for v in [s, x] if v is not None]
    with pytest.raises(autograph.ControlFlowError, match='the `if` of a comprehension'):
        autograph.convert(kept)(jnp.float32(1.0))


# --- texts chosen by traced values inside containers (runtime.values.choice) ---------------

STATES = ('Rainy', 'Sunny', 'Cloudy')


def best_records(p):
    """Texts that differ by path inside a dict value, a dict key set under a loop's
    traced test, a max over (traced, text) tuples, and a dict read at the text picked."""
    record = {}
    for i, state in enumerate(STATES):
        if p[i] > 0.5:
            record['first'] = {'prob': p[i], 'state': state}
            break
    if p[0] > p[1]:
        record['pair'] = (p[0], 'Rainy')
    else:
        record['pair'] = (p[1], 'Sunny')
    prob, state = max([(p[i], s) for i, s in enumerate(STATES)])
    lowest = min((p[i], s) for i, s in enumerate(STATES))
    paths = {s: [s, s.lower()] for s in STATES}
    none = {'prob': p[0] * 0.0, 'state': 'none'}
    return record.get('first', none), record['pair'], prob, state, lowest, paths[state]


@pytest.mark.parametrize('p', [[0.2, 0.9, 0.4], [0.7, 0.1, 0.7], [0.3, 0.3, 0.1],
                               [0.1, 0.2, 0.2]])
def test_texts_picked_by_traced_values_inside_containers_as_python(p):
    got = autograph.convert(best_records)(jnp.array(p, jnp.float32))
    want = best_records(np.array(p, np.float32))
    assert_same(got, want)


def counted_by_a_chosen_key(w, n):
    cnt = {}
    for i in range(n):
        key = 'hi' if i % 2 else 'lo'
        cnt[key] = cnt.get(key, 0.0) + w[i]
    return cnt.get('hi', 0.0)


def test_a_chosen_text_as_a_dict_key_is_a_named_error():
    """(a dict key known only at run time: a raw 'unhashable type: Choice' before, idiom
    fuzzer seed 13465); with a Python count the key is Python's"""
    w = jnp.arange(4.0)
    assert_same(autograph.convert(counted_by_a_chosen_key)(w, 4), counted_by_a_chosen_key(w, 4))
    with pytest.raises(autograph.ControlFlowError, match='a dict key or set item of a value '
                                                         'chosen by a traced condition'):
        autograph.convert(counted_by_a_chosen_key)(w, jnp.int32(4))


def joined_marks(x):
    mark = '#' if x > 0 else '.'
    return ''.join([mark, mark])


def added_marks(x):
    mark = '#' if x > 0 else '.'
    return mark + mark


def ordered_mark(x):
    mark = '#' if x > 0 else '.'
    return mark < '$'


@pytest.mark.parametrize('fn, use', [(joined_marks, 'a str operation'),
                                     (added_marks, '`\\+`'), (ordered_mark, '`<`')])
def test_a_chosen_text_given_to_a_str_operation_is_a_named_error(fn, use):
    """(a raw TypeError before: 'sequence item 0: expected str instance, Choice found',
    'unsupported operand type(s) for +'; corpus batch 8's rule-30 printer); with a Python
    test the str is Python's"""
    assert autograph.convert(fn)(1) == fn(1)
    with pytest.raises(autograph.ControlFlowError, match=f'{use} of a value chosen by a '
                                                         f'traced condition at .*test_optional'):
        autograph.convert(fn)(jnp.int32(1))
