"""Loops over the rows of an array whose length is known while tracing (`for x in xs`,
`enumerate(xs)`, `zip(xs, ys)`) are staged as one `lax.scan`; where the body cannot be
staged (it reads a list it appends to, a list changes length, a shape depends on the
count) the loop runs as Python over the rows `xs[0]`, `xs[1]`, ..., as a loop over a range
of that length does (runtime.loops.loop_policy), up to LONGEST_ARRAY_UNROLL rows. Each
converted result is compared with the same function run as plain Python."""
import logging
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph import ControlFlowError
from autograph.runtime.loops import loop_policy
from autograph.runtime.messages import ListReadInLoop
from tests.helpers import assert_same, check, converted, site, staged

XS = jnp.array([0.5, -1.0, 2.0, 0.25, 1.5])
YS = jnp.array([1.0, 2.0, -0.5, 3.0])


def tail_read(xs):
    out = [xs[0] * 0]
    for x in xs:
        out.append(out[-1] * 0.5 + x)
    return jnp.stack(out)


def enumerated(xs):
    acc = [xs[0]]
    for i, x in enumerate(xs):
        acc.append(acc[-1] * i + x + jnp.ones(i + 1).sum())   # (a shape of the count)
    return jnp.stack(acc), len(acc)


def zipped(xs, ys):
    out = [jnp.float32(1.0)]
    for a, b in zip(xs, ys):
        out.append(out[-2 if len(out) > 1 else -1] * a + b)
    return jnp.stack(out)


def doubling_candidates(m):
    cands = [jnp.float32(0.0)]
    for row in m:                       # (the list doubles on each row)
        cands = [c + v for c in cands for v in (row[0], row[1])]
    return jnp.stack(cands)


def appends_only(xs):
    h, out = jnp.float32(0.0), []
    for x in xs:
        h = jnp.tanh(h + x)
        out.append(h * 2)
    return h, jnp.stack(out)


def test_a_read_of_the_list_it_appends_to_runs_the_array_loop_as_python():
    check(tail_read, XS)
    assert not staged(tail_read, XS) & {'scan', 'while'}
    assert_same(jax.jit(converted(tail_read))(XS), tail_read(XS))


def test_enumerate_gives_python_counts_when_it_runs_as_python():
    check(enumerated, XS)
    assert_same(jax.jit(converted(enumerated))(XS), enumerated(XS))


def test_zip_stops_at_the_shorter_and_runs_as_python():
    check(zipped, XS, YS)
    check(zipped, YS, XS)
    assert not staged(zipped, XS, YS) & {'scan', 'while'}


KEYS = [1, 2, 2, 3, 1]


def totals_by_key(ws):
    acc = {}
    for v, w in zip(KEYS, ws):
        acc[v] = acc.get(v, 0.0) + w
    return acc


def test_a_python_list_zipped_with_rows_gives_its_own_items_when_run_as_python():
    """`for v, w in zip(KEYS, ws)`: staging fails (`acc[v] = ...` needs `v` as a dict
    key), so the loop runs as Python, where `v` is the list's Python int (it was an item
    of the array staging made of KEYS: the same error again, a named error on a valid
    program)."""
    ws = np.array([0.5, 0.2, 0.25, 1.0, 0.3], np.float32)
    expected = totals_by_key(ws)
    got = autograph.convert(totals_by_key)(jnp.asarray(ws))
    assert sorted(got) == sorted(expected)
    assert_same([got[k] for k in sorted(got)], [expected[k] for k in sorted(expected)])


def test_a_list_that_changes_length_runs_the_array_loop_as_python():
    m = jnp.array([[0.1, 0.7], [0.4, 0.2], [1.5, -0.5]])
    check(doubling_candidates, m)


def test_under_jit_and_vmap_of_the_converted_function():
    assert_same(jax.jit(converted(tail_read))(XS[::-1]), tail_read(XS[::-1]))
    batch = jnp.stack([XS, XS * 2, -XS])   # (each row's length is static under vmap too)
    expected = np.stack([tail_read(row) for row in batch])
    assert_same(jax.vmap(converted(tail_read))(batch), expected)
    assert_same(jax.jit(jax.vmap(converted(tail_read)))(batch), expected)
    pairs = jax.vmap(converted(zipped), in_axes=(0, None))(batch, YS)
    assert_same(pairs, np.stack([zipped(row, YS) for row in batch]))
    grad = jax.grad(lambda xs: converted(tail_read)(xs).sum())(XS)
    assert_same(grad, jax.grad(lambda xs: tail_read(xs).sum())(XS))


def test_a_loop_without_list_reads_stays_one_scan():
    def scans(xs):
        closed = jax.make_jaxpr(converted(appends_only))(xs)
        return [e.primitive.name for e in closed.jaxpr.eqns].count('scan'), closed
    for xs in (XS[:2], XS, jnp.arange(40.0)):   # short or long: one scan
        count, closed = scans(xs)
        assert count == 1, closed
        check(appends_only, xs)
    assert len(scans(XS[:2])[1].jaxpr.eqns) == len(scans(jnp.arange(40.0))[1].jaxpr.eqns)


def test_a_longer_array_than_the_unroll_limit_gives_the_named_error():
    long = jnp.arange(loop_policy.LONGEST_ARRAY_UNROLL + 1.0) / 1000
    with pytest.raises(ListReadInLoop, match=r"'out' is read .*" + site(tail_read, 'out[-1]')):
        autograph.convert(tail_read)(long)
    with pytest.raises(ControlFlowError):
        jax.vmap(converted(tail_read))(jnp.stack([long, long]))


def test_long_unrolled_array_loops_warn_as_range_loops_do(caplog):
    xs = jnp.linspace(0.0, 1.0, loop_policy.LONG_LOOP + 1)
    with pytest.warns(UserWarning) as caught:
        assert_same(autograph.convert(tail_read)(xs), tail_read(xs))
    message = str(caught[0].message)
    assert f'{site(tail_read, "for x in xs")} ({loop_policy.LONG_LOOP + 1} iterations' in message
    assert 'unrolled' in message and 'ListReadInLoop' in message
    short = xs[:loop_policy.LONG_LOOP]
    with warnings.catch_warnings(), caplog.at_level(logging.INFO, logger='autograph'):
        warnings.simplefilter('error')
        assert_same(autograph.convert(tail_read)(short), tail_read(short))
    assert any('ListReadInLoop' in r.getMessage() for r in caplog.records)


def break_on_traced(xs):
    total = jnp.float32(0.0)
    for i, x in enumerate(xs):
        total = total + x * jnp.ones(i + 1).sum()
        if total > 2.0:
            break
    return total


def test_a_traced_break_in_an_array_loop_that_runs_as_python():
    check(break_on_traced, XS)
    check(break_on_traced, -XS)


# --- Python int counters after a staged loop --------------------------------------------

def running_stats(xs):
    """Welford's running mean and variance with a Python count: Python knows `count` after
    the loop (one per row), and picks nan or a tuple by it."""
    count, mean, m2 = 0, 0.0, 0.0
    for x in xs:
        count += 1
        delta = x - mean
        mean += delta / count
        m2 += delta * (x - mean)
    if count < 2:
        return float('nan')
    return mean, m2 / (count - 1)


def counted_down(n_steps, xs):
    """A counter stepped twice per iteration of a range loop, then used as a shape."""
    left, total = 2 * n_steps, 0.0
    for i in range(n_steps):
        left -= 1
        total = total + xs[i] * left
        left -= 1
    return total * jnp.ones(left + 3)


def skipping(xs):
    """A `continue` skips the second step on some iterations: not a counter."""
    n = 0
    for x in xs:
        n += 1
        if x < 0:
            continue
        n += 1
    return n


def test_counter_of_a_staged_loop_stays_a_python_int():
    for xs in (XS, XS[:1]):
        check(running_stats, xs)
    check(counted_down, 5, jnp.arange(5.0))
    assert staged(running_stats, XS) == {'scan'}
    rows = jnp.stack([XS, -XS, XS * 2.0])
    expected = [running_stats(r) for r in rows]
    assert_same(jax.jit(jax.vmap(converted(running_stats)))(rows),
                jax.tree_util.tree_map(lambda *v: jnp.stack(v), *expected))


def rebound(xs):
    """The body also rebinds `n` (an inner loop's target): not a counter."""
    n, total = 0, 0.0
    for x in xs:
        n += 1
        for n in range(n % 3):
            total = total + x
    return n, total


def tallied(xs):
    """A step, then another `+=` of a value (a bool per row): not a counter."""
    n = 0
    for x in xs:
        n += 1
        n += x > 0
    return n


def doubled(xs):
    """A step, then `n *= 2`: not a counter (each iteration's change depends on `n`)."""
    n = 0
    for x in xs:
        n += 1
        n *= 2
    return n


def shifted(xs):
    n = 1
    for x in xs:
        n -= 1
        n <<= 2
    return n


def test_counter_skipped_by_continue_or_rebound_is_not_counted():
    assert_same(autograph.convert(skipping)(XS), skipping(XS))
    assert_same(autograph.convert(rebound)(XS), rebound(XS))


@pytest.mark.parametrize('fn', [tallied, doubled, shifted])
def test_a_counter_also_changed_by_another_augmented_assignment_is_not_counted(fn):
    assert_same(autograph.convert(fn)(XS), fn(np.asarray(XS)))
    assert_same(jax.jit(autograph.convert(fn))(XS), fn(np.asarray(XS)))
