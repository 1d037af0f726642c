"""A whole alias of a new list or dict that no code can tell from a copy
(passes.unaliased, analysis.whole_aliases): the rolling rows of a dynamic program
with an early exit, a conditional `prev = cur`, the best candidate so far. Under a traced
`if` or `break` these were the named error aliased_on_some_paths; they now give Python's
values. Where the sharing can be seen (the list changed in place after the alias, handed
on before it, returned with the other name, compared with `is`) the error stays: never a
silent wrong value."""
import ast
import inspect
import textwrap

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.analysis.whole_aliases import unobserved_aliases
from tests.helpers import assert_same, check, converted


def lcs_with_early_exit(x, y, limit):
    n = x.shape[0]
    prev = [0.0] * (n + 1)
    for i in range(n):
        cur = [0.0] * (n + 1)
        for j in range(n):
            if x[i] == y[j]:
                cur[j + 1] = prev[j] + 1
            else:
                cur[j + 1] = max(prev[j + 1], cur[j])
        if cur[n] > limit:
            break
        prev = cur
    return prev[n]


def kept_when_positive(x, n):
    prev = [0.0, 0.0]
    for i in range(n):
        cur = [prev[0] + x[i], prev[1] * 0.5 + 1.0]
        if x[i] > 0:
            prev = cur
    return prev[0] + prev[1]


def best_candidate(scores, n):
    best = [0.0, 0.0]
    best_score = -1.0
    for i in range(n):
        candidate = [scores[i], scores[i] * 2]
        s = candidate[0] + candidate[1]
        if s > best_score:
            best_score = s
            best = candidate
    return best[0] + best[1], best_score


def best_record(scores, n):
    best = {'score': -1.0, 'at': 0}
    for i in range(n):
        record = {'score': scores[i] * 2.0, 'at': i}
        if record['score'] > best['score']:
            best = record
    return best['score'], best['at']


def best_row_returned(scores, n):
    best = [0.0, 0.0]
    for i in range(n):
        row = [scores[i], scores[i] * 2]
        if jnp.sum(jnp.array(row)) > jnp.sum(jnp.array(best)):
            best = row
    return best   # (the caller's list alone)


# --- the sharing can be seen: the named error stays -----------------------------------

def candidate_changed_after(scores, n):
    best = [0.0, 0.0]
    best_score = -1.0
    candidate = [0.0, 0.0]
    for i in range(n):
        candidate[0] = scores[i]          # (changes `best` too, once it is `candidate`)
        candidate[1] = scores[i] * 2
        s = candidate[0] + candidate[1]
        if s > best_score:
            best_score = s
            best = candidate
    return best[0] + best[1]


def row_changed_after(x, n):
    prev = [0.0, 0.0]
    for i in range(n):
        cur = [x[i], x[i] * 2]
        if x[i] > 0:
            prev = cur
        cur[0] = cur[0] + 100.0           # (seen through `prev` where it is `cur`)
    return prev[0] + prev[1]


def handed_on_before(x, n):
    rows = []
    prev = [0.0]
    for i in range(n):
        cur = [x[i]]
        rows.append(cur)
        if x[i] > 0:
            prev = cur
    rows[-1][0] = 7.0                     # (the last `cur`, which `prev` may be)
    return prev[0]


def both_returned(x, n):
    prev = [0.0]
    cur = [1.0]
    for i in range(n):
        cur = [x[i]]
        if x[i] > 0:
            prev = cur
    return prev, cur          # (the caller can tell `prev is cur`)


def shuffled_after(x, n):
    prev = [0.0, 1.0]
    for i in range(n):
        cur = [x[i], x[i] + 1.0]
        if x[i] > 0:
            prev = cur
        np.random.shuffle(cur)   # (changes the list in place)
    return prev[0]


def compared_by_identity(x, n):
    prev = [0.0]
    cur = [1.0]
    for i in range(n):
        cur = [x[i]]
        if x[i] > 0:
            prev = cur
    return prev is cur


def _library(func):
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
        func.value.id == 'jnp'


def _statements(fn):
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
    return [ast.unparse(s) + ('' if s.value is value else f' [{value.id}]')
            for s, value in unobserved_aliases(tree, _library)]


X = np.array([1.0, -2.0, 3.0, 0.5], np.float32)


@pytest.mark.parametrize('fn, expected', [
    (kept_when_positive, ['prev = cur']),
    (best_candidate, ['best = candidate']),
    (best_record, ['best = record']),
    (candidate_changed_after, []),
    (row_changed_after, []),
    (handed_on_before, []),
    (compared_by_identity, []),
    (best_row_returned, ['best = row']),
    (both_returned, []),
    (shuffled_after, []),
])
def test_which_aliases_no_code_can_see(fn, expected):
    assert _statements(fn) == expected


def test_rolling_rows_with_an_early_exit():
    x = jnp.array([1.0, 2.0, 3.0, 2.0])
    y = jnp.array([2.0, 1.0, 3.0, 2.0])
    for limit in (1.5, 10.0):
        check(lcs_with_early_exit, x, y, limit)
    assert 'ag.unaliased(cur)' in autograph.to_code(lcs_with_early_exit)


@pytest.mark.parametrize('fn', [kept_when_positive, best_candidate, best_record,
                                best_row_returned])
def test_conditional_aliases_give_pythons_values(fn):
    check(fn, jnp.asarray(X), 4)
    check(fn, [1.0, -2.0, 3.0, 0.5], 4)


def test_under_vmap_and_grad():
    xs = jnp.stack([jnp.asarray(X), -jnp.asarray(X)])
    got = jax.vmap(converted(kept_when_positive), in_axes=(0, None))(xs, 4)
    expected = [kept_when_positive(np.asarray(row), 4) for row in xs]
    assert_same(got, jnp.asarray(expected))
    grad = jax.grad(lambda x: converted(kept_when_positive)(x, 4))(jnp.asarray(X))
    eps = 1e-3
    numeric = [(kept_when_positive(X + eps * np.eye(4, dtype=np.float32)[k], 4)
                - kept_when_positive(X - eps * np.eye(4, dtype=np.float32)[k], 4)) / (2 * eps)
               for k in range(4)]
    np.testing.assert_allclose(grad, numeric, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize('fn', [candidate_changed_after, row_changed_after, handed_on_before,
                                compared_by_identity])
def test_seen_sharing_stays_a_named_error(fn):
    expected = fn(X, 4)
    assert_same(autograph.convert(fn, jit=False)(X, 4), expected)   # (Python's loop)
    with pytest.raises(autograph.ControlFlowError):
        autograph.convert(fn)(jnp.asarray(X), 4)


def changed_by_a_lambda(x, n):
    prev = [0.0]
    cur = [1.0]
    grow = lambda: cur.append(9.0)   # noqa: E731  (reads `cur` when called)
    for i in range(n):
        if x[i] > 0:
            prev = cur
        grow()
    return len(prev)


def shadowed_len(x, n):
    def len(row):   # noqa: A001  (not the builtin: it changes the list)
        row.append(0.0)
        return 1
    prev = [0.0]
    for i in range(n):
        cur = [x[i]]
        if x[i] > 0:
            prev = cur
        len(cur)
    return prev[-1]


@pytest.mark.parametrize('fn', [changed_by_a_lambda, shadowed_len])
def test_later_changes_through_closures_and_shadowed_builtins_are_seen(fn):
    assert _statements(fn) == []


# --- the same idioms written otherwise (corpus-style code; idiom fuzzer seed 121665) ---

def best_pair_unpacked(scores, n):
    best = [0.0, -1.0]
    best_score = -1e9
    for i in range(n):
        candidate = [scores[i] * 2.0, i * 1.0]
        s = scores[i] * 2.0
        if s > best_score:
            best, best_score = candidate, s   # (a pair of a tuple assignment)
    return best, best_score                   # (returned in a tuple: the caller's alone)


def best_inside_try(scores, n):
    total = 0.0
    try:
        best = [0.0, -1.0]
        for i in range(n):
            candidate = [scores[i], i * 1.0]
            if candidate[0] > best[0]:
                best = candidate
    finally:
        total = total + 1.0
    return best[0] + best[1] + total


def returned_from_try_with_finally(scores, n):
    best = [0.0]
    try:
        for i in range(n):
            candidate = [scores[i]]
            if candidate[0] > best[0]:
                best = candidate
            if i > 2:
                return best          # (the `finally` runs after it: not followed)
    finally:
        candidate.append(1.0)      # (would reach the returned list where it is `best`)
    return best


def pair_returned_together(scores, n):
    best = [0.0]
    candidate = [1.0]
    for i in range(n):
        candidate = [scores[i]]
        if candidate[0] > best[0]:
            best, s = candidate, scores[i]
    return best, candidate   # (the caller can tell `best is candidate`)


@pytest.mark.parametrize('fn, expected', [
    (best_pair_unpacked, ['best, best_score = (candidate, s) [candidate]']),
    (best_inside_try, ['best = candidate']),
    (returned_from_try_with_finally, []),
    (pair_returned_together, []),
])
def test_aliases_in_tuples_returns_and_try_blocks(fn, expected):
    assert _statements(fn) == expected


@pytest.mark.parametrize('fn', [best_pair_unpacked, best_inside_try])
def test_those_give_pythons_values(fn):
    check(fn, jnp.asarray(X), 4)
    check(fn, np.asarray(X), 4)


def test_those_under_vmap():
    xs = jnp.stack([jnp.asarray(X), -jnp.asarray(X), jnp.asarray(X)[::-1]])
    got = jax.vmap(converted(best_inside_try), in_axes=(0, None))(xs, 4)
    assert_same(got, jnp.asarray([best_inside_try(np.asarray(row), 4) for row in xs]))
