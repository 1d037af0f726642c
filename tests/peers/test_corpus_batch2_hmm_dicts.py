"""Corpus of public functions, second batch, Viterbi decoders in the style of Wikipedia's
(string states, dicts of dicts of probabilities): one keeps a dict of best paths and
picks with `max` over (probability, state) tuples; one keeps {"prob", "prev"} records,
picks the predecessor whose product equals the `max` of a generator (`==`, `break`), and
walks the records back with `opt.insert(0, ...)`. The probabilities are traced (a driver
builds the dicts from arrays); the states and observations are Python strings. Edits:
Python 2 `print` statements and the `dptable` printing dropped, `return opt, max_prob`
added (edgar-v/NTNU prints its result).

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax.numpy as jnp
import pytest

import autograph

from tests.peers.corpus_harness import agree, agree_vmap

STATES = ('Rainy', 'Sunny')
OBSERVATIONS = ('walk', 'shop', 'clean', 'clean', 'walk')
START = jnp.array([0.6, 0.4])
TRANS = jnp.array([[0.7, 0.3], [0.4, 0.6]])
EMIT = jnp.array([[0.1, 0.4, 0.5], [0.6, 0.3, 0.1]])
KINDS = ('walk', 'shop', 'clean')


def tables(start, trans, emit):
    """The dicts the originals take, from arrays."""
    start_p = {s: start[i] for i, s in enumerate(STATES)}
    trans_p = {s: {r: trans[i, j] for j, r in enumerate(STATES)} for i, s in enumerate(STATES)}
    emit_p = {s: {o: emit[i, k] for k, o in enumerate(KINDS)} for i, s in enumerate(STATES)}
    return start_p, trans_p, emit_p


# --- fiser321/hello-world: viterbi (max over (prob, state) tuples, a dict of paths) -------

def viterbi(obs, states, start_p, trans_p, emit_p):
    V = [{}]
    path = {}
    for y in states:
        V[0][y] = start_p[y] * emit_p[y][obs[0]]
        path[y] = [y]
    for t in range(1, len(obs)):
        V.append({})
        newpath = {}
        for y in states:
            (prob, state) = max([(V[t-1][y0] * emit_p[y][obs[t]], y0) for y0 in states])
            V[t][y] = prob
            newpath[y] = path[state] + [y]
        path = newpath
    (prob, state) = max([(V[len(obs) - 1][y], y) for y in states])
    return (prob, path[state])


def test_viterbi_max_of_probability_state_tuples():
    run = lambda s, a, b: viterbi(OBSERVATIONS, STATES, *tables(s, a, b))
    agree(run, (START, TRANS, EMIT), (START[::-1], TRANS, EMIT[::-1]))


# --- edgar-v/NTNU: viterbi ({"prob", "prev"} records, == max with break, insert(0, ...)) --

def viterbi_records(obs, states, start_p, trans_p, emit_p):
    V = [{}]
    for st in states:
        V[0][st] = {"prob": start_p[st] * emit_p[st][obs[0]], "prev": None}
    for t in range(1, len(obs)):
        V.append({})
        for st in states:
            max_tr_prob = max(V[t-1][prev_st]["prob"]*trans_p[prev_st][st] for prev_st in states)
            for prev_st in states:
                if V[t-1][prev_st]["prob"] * trans_p[prev_st][st] == max_tr_prob:
                    max_prob = max_tr_prob * emit_p[st][obs[t]]
                    V[t][st] = {"prob": max_prob, "prev": prev_st}
                    break
    opt = []
    max_prob = max(value["prob"] for value in V[-1].values())
    previous = None
    for st, data in V[-1].items():
        if data["prob"] == max_prob:
            opt.append(st)
            previous = st
            break
    for t in range(len(V) - 2, -1, -1):
        opt.insert(0, V[t + 1][previous]["prev"])
        previous = V[t + 1][previous]["prev"]
    return opt, max_prob


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `V[t][st]` is set only where a traced `==` holds, so which '
    'keys the dict has is known only at run time, and `V[-1].values()` needs them'))
def test_viterbi_records_equal_to_max_and_insert():
    run = lambda s, a, b: viterbi_records(OBSERVATIONS, STATES, *tables(s, a, b))
    agree(run, (START, TRANS, EMIT), (START[::-1], TRANS, EMIT[::-1]))
