"""Logs: lists a converted function only appends to (autograph/function/logs.py). They
are not part of the call key and not passed in: the items each call appends come out of
the compiled program and are appended after the call, as plain Python appends them, with
one trace however long the list grows. Each test compares with the same function run as
plain Python."""
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph

CALLS = []
NOTES = []


def same_items(converted, plain):
    """The two lists hold the same items: Python values equal, arrays close."""
    assert len(converted) == len(plain), (converted, plain)
    for a, b in zip(converted, plain):
        if isinstance(b, (jax.Array, np.ndarray)):
            assert isinstance(a, jax.Array) and not isinstance(a, jax.core.Tracer), a
            np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6)
        else:
            assert type(a) is type(b) and a == b, (a, b)


def both(fn, log, inputs):
    """(log after the converted calls, log after the plain calls, the Function)."""
    converted = autograph.convert(fn)
    del log[:]
    for x in inputs:
        converted(jnp.asarray(x))
    got = list(log)
    del log[:]
    for x in inputs:
        fn(jnp.asarray(x))
    expected = list(log)
    del log[:]
    return got, expected, converted


def logs_sum(x):
    CALLS.append(x.sum())
    return x * 2


def test_a_global_log_is_appended_after_each_call_with_one_trace():
    got, expected, f = both(logs_sum, CALLS, [np.ones(3) * i for i in range(2)])
    same_items(got, expected)
    assert f.trace_count == 1


def test_a_thousand_calls_trace_once():
    got, expected, f = both(logs_sum, CALLS, [np.ones(3) * i for i in range(1000)])
    same_items(got, expected)
    assert f.trace_count == 1
    assert [float(v) for v in got[:3]] == [0.0, 3.0, 6.0]


def test_a_closure_log():
    seen = []

    def step(x):
        seen.append(x * 2)
        seen.extend([x.max(), 'step'])
        return x + 1
    got, expected, f = both(step, seen, [np.arange(3.0), np.ones(3)])
    same_items(got, expected)
    assert f.trace_count == 1


class Trainer:
    def __init__(self):
        self.history = []
        self.steps = 0

    def step(self, x):
        loss = (x ** 2).sum()
        self.history.append(loss)
        self.steps += 1
        return loss


def test_an_attribute_log():
    plain, trainer = Trainer(), Trainer()
    step = autograph.convert(trainer.step)
    for i in range(4):
        step(jnp.ones(2) * i)
        plain.step(jnp.ones(2) * i)
    same_items(trainer.history, plain.history)
    assert trainer.steps == plain.steps == 4


def test_python_values_are_appended_on_every_call():
    def step(x):
        NOTES.append('step')
        NOTES.append(3)
        return x
    got, expected, f = both(step, NOTES, [1.0, 2.0, 3.0])
    assert got == expected == ['step', 3] * 3
    assert f.trace_count == 1


# --- staged statements --------------------------------------------------------------

def logs_under_if(x):
    if x.sum() > 0:
        CALLS.append(x.sum())
        CALLS.append('positive')
    elif x.sum() < -2:
        CALLS.append('very negative')
    else:
        CALLS.append(x.min())
    return x


def test_a_log_appended_under_a_traced_if():
    inputs = [np.ones(2), -np.ones(2) * 3, -np.ones(2) * 0.5, np.ones(2) * 2]
    got, expected, f = both(logs_under_if, CALLS, inputs)
    same_items(got, expected)
    assert f.trace_count == 1


def logs_in_loop(xs):
    for row in xs:                      # staged: lax.scan over the rows
        CALLS.append(row.sum())
        if row[0] > 0:
            CALLS.append(row * 2)
            CALLS.append('positive row')
        for v in row:                   # staged inside the scan
            CALLS.append(v + 1)
    CALLS.append('done')
    return xs


def test_a_log_appended_in_a_staged_loop():
    inputs = [np.array([[1.0, 2.0], [-1.0, 3.0], [2.0, -2.0]]),
              np.array([[-1.0, 0.0], [4.0, 5.0], [0.0, 1.0]])]
    got, expected, f = both(logs_in_loop, CALLS, inputs)
    same_items(got, expected)
    assert f.trace_count == 1


def test_a_log_in_a_loop_without_a_fixed_trip_count_is_the_named_error():
    def step(x):
        i = 0
        while i < x:
            CALLS.append(i)
            i += 1
        return i
    with pytest.raises(autograph.ControlFlowError, match='cannot collect values in a list'):
        autograph.convert(step)(jnp.int32(3))
    del CALLS[:]


class Model:
    def __init__(self):
        self.history = []

    def step(self, x):
        global CALLS
        if x.sum() > 0:
            self.history += [x]          # (the converter carries `self.history`: a log)
            CALLS += [x.mean()]          # (the converter carries `CALLS`: a log)
        return x


def test_logs_the_converter_carries_through_a_staged_if():
    plain, model = Model(), Model()
    step = autograph.convert(model.step)
    for x in (1.0, -1.0, 2.0):
        step(jnp.ones(2) * x)
    got = list(CALLS)
    del CALLS[:]
    for x in (1.0, -1.0, 2.0):
        plain.step(jnp.ones(2) * x)
    same_items(got, CALLS)
    same_items(model.history, plain.history)
    del CALLS[:]


# --- helpers ---------------------------------------------------------------------------

def record(value):
    CALLS.append(value * 10)


def logs_through_a_helper(x):
    record(x.sum())
    if x[0] > 0:
        record(x[0])
    return x


def test_a_log_appended_by_a_helper():
    got, expected, f = both(logs_through_a_helper, CALLS, [np.ones(2), -np.ones(2)])
    same_items(got, expected)
    assert f.trace_count == 1


def count_calls():
    return len(CALLS)


def appends_and_reads_through_a_helper(x):
    CALLS.append(x.sum())
    return x * count_calls()


def test_a_list_a_helper_reads_is_state():
    f = autograph.convert(appends_and_reads_through_a_helper)
    del CALLS[:]
    results = [f(jnp.ones(2) * i) for i in range(3)]
    got = list(CALLS)
    del CALLS[:]
    expected = [appends_and_reads_through_a_helper(jnp.ones(2) * i) for i in range(3)]
    same_items(results, expected)
    same_items(got, CALLS)
    del CALLS[:]


def test_a_list_appended_and_read_is_state():
    seen = []

    def step(x):
        seen.append(x.sum())
        return x * len(seen) + seen[-1]
    f = autograph.convert(step)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        results = [f(jnp.ones(2) * i) for i in range(3)]
    got = list(seen)
    del seen[:]
    same_items(results, [step(jnp.ones(2) * i) for i in range(3)])
    same_items(got, seen)
    assert f.trace_count == 3        # its length is part of the key


def test_a_log_also_reached_by_a_name_that_is_read_is_state():
    shared = []
    alias = shared

    def step(x):
        shared.append(x)
        return x + len(alias)
    f = autograph.convert(step)
    results = [float(f(jnp.float32(i))) for i in range(3)]
    assert results == [1.0, 3.0, 5.0] and len(shared) == 3


# --- someone else's trace ----------------------------------------------------------------

def test_under_a_callers_jit_the_log_is_appended_when_jax_traces():
    """With jit=False the converted code runs inside the caller's trace: as for any
    Python side effect under jax.jit, the list gets that trace's value, once per trace
    (JAX's own semantics), not once per call."""
    log = []

    def step(x):
        log.append(x.sum())
        return x * 2
    jitted = jax.jit(autograph.convert(step, jit=False))
    jitted(jnp.ones(3))
    jitted(jnp.ones(3) * 2)
    assert len(log) == 1 and isinstance(log[0], jax.core.Tracer)
    del log[:]
    plain = autograph.convert(step, jit=False)      # no trace around it: Python's values
    plain(jnp.ones(3))
    plain(jnp.ones(3) * 2)
    same_items(log, [jnp.float32(3.0), jnp.float32(6.0)])


def test_a_log_under_a_traced_if_inside_a_callers_jit_is_the_named_error():
    def step(x):
        if x.sum() > 0:
            NOTES.append('positive')
        return x
    with pytest.raises(autograph.ControlFlowError, match='only appends to'):
        jax.jit(autograph.convert(step))(jnp.ones(2))
    del NOTES[:]


# --- the retrace warning -------------------------------------------------------------

def test_the_retrace_warning_names_the_state_that_changed():
    history = []

    def step(x):
        history.append(x.sum())
        return x * history[-1]
    f = autograph.convert(step)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        for i in range(6):
            f(jnp.ones(2) * i)
    messages = [str(w.message) for w in caught if 'traced again' in str(w.message)]
    assert len(messages) == 1, messages
    assert "'history' (a list of 3 items -> a list of 4 items)" in messages[0]
    assert 'structure of the arguments' not in messages[0]
    assert 'only appends to' in messages[0]


HELPER_LOG = []


def note_first_found_in_a_branch(value):
    HELPER_LOG.append(value + 1)


def calls_the_helper_in_a_staged_branch(x):
    if x.sum() > 0:
        note_first_found_in_a_branch(x.sum())   # (its log is found while the if stages)
    return x


def test_a_log_first_found_in_a_staged_branch():
    inputs = [np.ones(2), -np.ones(2), np.ones(2) * 2]
    got, expected, f = both(calls_the_helper_in_a_staged_branch, HELPER_LOG, inputs)
    same_items(got, expected)
    assert f.trace_count == 1


# --- local lists nothing reads (analysis.logs.write_only_lists) ----------------------------

def halve_until_small(x, tol):
    steps = [x]                 # appended on every staged iteration, never read
    skipped = []
    while x > tol:
        x = x / 2
        steps.append(x)
        if x < 1.0:
            skipped.append(x)   # in one branch only
    return x


def collect_in_a_helper(xs, tol):
    seen = []

    def note(v):
        seen.append(v)

    total = 0.0
    for x in xs:
        if x > tol:
            note(x)
            total = total + x
    return total


def steps_then_count(x, tol):
    steps = [x]
    while x > tol:
        x = x / 2
        steps.append(x)
    return x, len(steps)        # read after the loop: a length known only at run time


def test_a_list_nothing_reads_need_not_come_out_of_staged_statements():
    for x, tol in ((37.0, 0.1), (0.05, 0.1), (3.0, 2.0)):
        args = (jnp.float32(x), jnp.float32(tol))
        np.testing.assert_allclose(autograph.convert(halve_until_small)(*args),
                                   halve_until_small(*args), rtol=1e-6)
    batched = jax.vmap(autograph.convert(halve_until_small, jit=False))(
        jnp.array([37.0, 0.05]), jnp.array([0.1, 0.1]))
    np.testing.assert_allclose(batched, [halve_until_small(37.0, 0.1),
                                         halve_until_small(0.05, 0.1)], rtol=1e-6)
    with pytest.raises(autograph.ControlFlowError, match="'steps'"):
        autograph.convert(steps_then_count)(jnp.float32(37.0), jnp.float32(0.1))
    with pytest.raises(autograph.ControlFlowError, match="'seen'"):   # (`note` may hand
        autograph.convert(collect_in_a_helper)(jnp.ones(3), jnp.float32(0.1))   # it on)
