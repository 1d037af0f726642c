"""Corpus of public functions, second batch, decoding: a log-domain Viterbi that grows its
back-pointer table with `hstack` and walks it back with a `while`, greedy CTC decoding
(one sequence with `continue`s, a batch written through column views with masks: NumPy's
views for the NumPy original, JAX's copies for the jnp port), and
two beam-search decoders that sort Python lists of candidates by a traced score. Edits:
`np.` becomes `jnp.` where traced values flow, `math.log` becomes `jnp.log`.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.peers.corpus_harness import agree, agree_vmap, close, i32

A = jnp.array([[0.7, 0.2, 0.1], [0.3, 0.5, 0.2], [0.2, 0.3, 0.5]])
B = jnp.array([[0.6, 0.3, 0.1], [0.1, 0.6, 0.3], [0.2, 0.2, 0.6]])
PI = jnp.array([0.5, 0.3, 0.2])
OBS = jnp.array([0, 1, 2, 2, 1, 0], i32)
OBS2 = jnp.array([2, 2, 1, 0, 0, 1], i32)


# --- kcajj/recombinant_population_analysis: viterbi_algorithm (hstack, while i >= 0) -------

def viterbi_algorithm(y, A, B, pi):
    N = B.shape[0]
    x_seq = jnp.zeros([N, 0])
    V = jnp.log(B[:, y[0]]) + jnp.log(pi)

    for y_ in y[1:]:
        _V = jnp.log(jnp.tile(B[:, y_], reps=[N, 1]).T) + jnp.log(A.T) + jnp.tile(V, reps=[N, 1])
        x_ind = jnp.argmax(_V, axis=1)
        x_seq = jnp.hstack([x_seq, jnp.c_[x_ind]])
        V = _V[jnp.arange(N), x_ind]
    x_T = jnp.argmax(V)

    x_seq_opt, i = jnp.zeros(x_seq.shape[1]+1), x_seq.shape[1]
    prev_ind = x_T
    while i >= 0:
        x_seq_opt[i] = prev_ind
        i -= 1
        prev_ind = x_seq[int(prev_ind), i]
    return x_seq_opt


def test_viterbi_hstack_and_while_back_pointers():
    agree(viterbi_algorithm, (OBS, A, B, PI), (OBS2, A, B, PI))
    agree_vmap(viterbi_algorithm, jnp.stack([OBS, OBS2]), A, B, PI, in_axes=(0, None, None, None))


# --- dyunis/biased_asr: greedy_ctc_decode, batch_greedy_ctc_decode -------------------------

def greedy_ctc_decode(log_prob, blank_idx=0, zero_infinity=False):
    if zero_infinity:
        log_prob = jnp.nan_to_num(log_prob, nan=0.0, posinf=0.0, neginf=-1e10)

    idxs = jnp.argmax(log_prob, axis=-1)
    decoded = []

    prev_idx = -1
    for i in range(len(idxs)):
        if idxs[i] == blank_idx:
            prev_idx = -1
            continue
        elif idxs[i] == prev_idx:
            continue
        else:
            decoded.append(idxs[i])
        prev_idx = idxs[i]

    return decoded


def batch_greedy_ctc_decode(log_prob, blank_idx=0, zero_infinity=False):
    if zero_infinity:
        log_prob = jnp.nan_to_num(log_prob, nan=0.0, posinf=0.0, neginf=-1e10)

    idxs = jnp.argmax(log_prob, axis=-1)
    decoded = idxs.copy()

    prev_idxs = -1 * jnp.ones(idxs.shape[0])
    for i in range(idxs.shape[1]):
        batch = idxs[:, i]
        decode_batch = decoded[:, i]

        decode_batch[batch == blank_idx] = -1
        decode_batch[batch == prev_idxs] = -1
        prev_idxs = batch

    return decoded


EMISSIONS = jnp.log(jnp.array([[0.1, 0.8, 0.1], [0.1, 0.8, 0.1], [0.9, 0.05, 0.05],
                               [0.1, 0.1, 0.8], [0.2, 0.1, 0.7]]))


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the labels kept after the collapse are as many as the data '
    'say: a list whose length is known only at run time'))
def test_greedy_ctc_decode_with_continues():
    agree(greedy_ctc_decode, (EMISSIONS,), (EMISSIONS[::-1],))


def batch_greedy_ctc_decode_numpy(log_prob, blank_idx=0, zero_infinity=False):
    """The original, on NumPy arrays (np, not jnp): its column views write through."""
    if zero_infinity:
        log_prob = np.nan_to_num(log_prob, nan=0.0, posinf=0.0, neginf=-1e10)

    idxs = np.argmax(log_prob, axis=-1)
    decoded = idxs.copy()

    prev_idxs = -1 * np.ones(idxs.shape[0])
    for i in range(idxs.shape[1]):
        batch = idxs[:, i]
        decode_batch = decoded[:, i]

        decode_batch[batch == blank_idx] = -1
        decode_batch[batch == prev_idxs] = -1
        prev_idxs = batch

    return decoded


def batch_greedy_ctc_decode_jax_meaning(log_prob, blank_idx=0):
    """The port's meaning on JAX arrays: a JAX array's column `decoded[:, i]` is a new
    array, and `decode_batch[mask] = -1` is `decode_batch = decode_batch.at[mask].set(-1)`
    (plain Python refuses it), so `decoded` stays the argmax."""
    idxs = jnp.argmax(log_prob, axis=-1)
    decoded = idxs.copy()
    for i in range(idxs.shape[1]):
        decode_batch = decoded[:, i]
        decode_batch = decode_batch.at[idxs[:, i] == blank_idx].set(-1)   # noqa: F841
    return decoded


def test_batch_greedy_ctc_decode_writes_through_column_views():
    """The NumPy original on NumPy arrays: NumPy's views (the ground truth, plain
    Python); the jnp port on JAX arrays: JAX's meaning, copies."""
    batch = np.asarray(jnp.stack([EMISSIONS, EMISSIONS[::-1], EMISSIONS[:, ::-1]]))
    conv = autograph.convert(batch_greedy_ctc_decode_numpy)
    for args in [(batch,), (batch[::-1].copy(),)]:
        expected = batch_greedy_ctc_decode_numpy(*[a.copy() for a in args])
        assert (expected == -1).any()   # (the column views were written)
        close(conv(*args), expected)
    conv = autograph.convert(batch_greedy_ctc_decode)
    for args in [(jnp.asarray(batch),), (jnp.asarray(batch[::-1]),)]:
        close(conv(*args), batch_greedy_ctc_decode_jax_meaning(*args))


# --- SmartDataAnalytics/kgirnet: beam_search_decoder (sorted tuples, reverse=True) -------

def beam_search_decoder(predictions, top_k=3):
    output_sequences = [([], 0)]

    for token_probs in predictions:
        new_sequences = []

        for old_seq, old_score in output_sequences:
            for char_index in range(len(token_probs)):
                new_seq = old_seq + [char_index]
                new_score = old_score + jnp.log(token_probs[char_index])
                new_sequences.append((new_seq, new_score))

        output_sequences = sorted(new_sequences, key=lambda val: val[1], reverse=True)

        output_sequences = output_sequences[:top_k]

    return output_sequences


PROBS = jnp.array([[0.1, 0.5, 0.4], [0.3, 0.3, 0.4], [0.6, 0.1, 0.3], [0.2, 0.7, 0.1]])


def test_beam_search_sorted_tuples():
    agree(beam_search_decoder, (PROBS,), (PROBS[::-1],))


# --- akashsonowal/ml-foundations: beam_search_decoder (list.sort, negative log scores) ----

def beam_search_decoder_sort(probs, beam_size):
    T, S = probs.shape

    beams = [[[], 0.0]]

    for t in range(T):
        new_beam = []

        for i in range(len(beams)):
            seq, score = beams[i]

            for j in range(S):
                candidate_seq = seq + [j]
                candidate_score = score - jnp.log(probs[t, j])

                new_beam.append([candidate_seq, candidate_score])

        new_beam.sort(key=lambda x: x[1])
        beams = new_beam[:beam_size]

    return beams


def test_beam_search_list_sort_in_place():
    run = lambda p: beam_search_decoder_sort(p, 2)
    agree(run, (PROBS,), (PROBS[::-1],))
