"""Corpus of public functions, decoding: Viterbi (numpy-ml's HMM, two other NumPy
versions, and one written in their shape that reads the tail of the list it appends to),
the HMM forward pass, beam search over a probability table, CTC greedy decoding, greedy
decoding to an end token, top-k / top-p filtering and temperature sampling, ported with the
edits a user makes moving NumPy (or torch) code to JAX; random draws take a `jax.random`
key.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.peers.corpus_harness import agree, agree_grad, agree_vmap, i32

A = jnp.array([[0.7, 0.2, 0.1], [0.3, 0.5, 0.2], [0.2, 0.3, 0.5]])
B = jnp.array([[0.6, 0.3, 0.1], [0.1, 0.6, 0.3], [0.2, 0.2, 0.6]])
PI = jnp.array([0.5, 0.3, 0.2])
A2, B2, PI2 = A[::-1].T / A[::-1].T.sum(1, keepdims=True), B[:, ::-1], PI[::-1]
OBS = jnp.array([0, 1, 2, 2, 1, 0], i32)
OBS2 = jnp.array([2, 2, 0, 1, 1, 2], i32)


# --- ddbourgin/numpy-ml numpy_ml/hmm/hmm.py -----------------------------------------------

def logsumexp(log_probs, axis=None):   # numpy_ml/utils/misc.py
    _max = jnp.max(log_probs)
    ds = log_probs - _max
    exp_sum = jnp.exp(ds).sum(axis=axis)
    return _max + jnp.log(exp_sum)


class MultinomialHMM:
    def __init__(self, A=None, B=None, pi=None, eps=None):
        eps = jnp.finfo(jnp.float32).eps if eps is None else eps
        self.parameters = {"A": A, "B": B, "pi": pi}
        self.hyperparameters = {"eps": eps}
        self.derived_variables = {"N": A.shape[0], "V": B.shape[1]}

    def log_likelihood(self, O):
        if O.ndim == 1:
            O = O.reshape(1, -1)  # noqa: E741
        I, T = O.shape  # noqa: E741
        if I != 1:  # noqa: E741
            raise ValueError("Likelihood only accepts a single sequence")
        forward = self._forward(O[0])
        log_likelihood = logsumexp(forward[:, T - 1])
        return log_likelihood

    def decode(self, O):
        P = self.parameters
        N = self.derived_variables["N"]
        eps = self.hyperparameters["eps"]
        A, B, pi = P["A"], P["B"], P["pi"]
        if O.ndim == 1:
            O = O.reshape(1, -1)  # noqa: E741
        T = O.shape[1]
        I = O.shape[0]  # noqa: E741
        if I != 1:  # noqa: E741
            raise ValueError("Can only decode a single sequence (O.shape[0] must be 1)")
        viterbi = jnp.zeros((N, T))
        back_pointer = jnp.zeros((N, T)).astype(int)
        ot = O[0, 0]
        for s in range(N):
            back_pointer[s, 0] = 0
            viterbi[s, 0] = jnp.log(pi[s] + eps) + jnp.log(B[s, ot] + eps)
        for t in range(1, T):
            ot = O[0, t]
            for s in range(N):
                seq_probs = [
                    viterbi[s_, t - 1] + jnp.log(A[s_, s] + eps) + jnp.log(B[s, ot] + eps)
                    for s_ in range(N)
                ]
                viterbi[s, t] = jnp.max(jnp.array(seq_probs))
                back_pointer[s, t] = jnp.argmax(jnp.array(seq_probs))
        best_path_log_prob = viterbi[:, T - 1].max()
        pointer = viterbi[:, T - 1].argmax()
        best_path = [pointer]
        for t in reversed(range(1, T)):
            pointer = back_pointer[pointer, t]
            best_path.append(pointer)
        best_path = best_path[::-1]
        return best_path, best_path_log_prob

    def _forward(self, Obs):
        P = self.parameters
        N = self.derived_variables["N"]
        eps = self.hyperparameters["eps"]
        A, B, pi = P["A"], P["B"], P["pi"]
        T = Obs.shape[0]
        forward = jnp.zeros((N, T))
        ot = Obs[0]
        for s in range(N):
            forward[s, 0] = jnp.log(pi[s] + eps) + jnp.log(B[s, ot] + eps)
        for t in range(1, T):
            ot = Obs[t]
            for s in range(N):
                forward[s, t] = logsumexp(jnp.array(
                    [forward[s_, t - 1] + jnp.log(A[s_, s] + eps) + jnp.log(B[s, ot] + eps)
                     for s_ in range(N)]))
        return forward


def hmm_decode(A, B, pi, O):
    return MultinomialHMM(A, B, pi, eps=1e-8).decode(O)


def hmm_log_likelihood(A, B, pi, O):
    return MultinomialHMM(A, B, pi, eps=1e-8).log_likelihood(O)


def test_hmm_decode():
    agree(hmm_decode, (A, B, PI, OBS), (A2, B2, PI2, OBS2))


def test_hmm_log_likelihood():
    agree(hmm_log_likelihood, (A, B, PI, OBS), (A2, B2, PI2, OBS2))


# --- other Viterbi decoders ----------------------------------------------------------------

def Viterbi(A, B, P, O):   # axelroques/Eye_Movement_Classification
    epsilon = jnp.finfo(jnp.float32).tiny  # Tiny number to prevent log(0)
    A = jnp.log(A + epsilon)
    B = jnp.log(B + epsilon)
    P = jnp.log(P + epsilon)
    I = A.shape[0]  # Number of states
    N = len(O)  # Length of observation sequence
    D = jnp.zeros((I, N))
    backtracking = jnp.zeros((I, N-1)).astype(jnp.int32)
    S = jnp.zeros(N).astype(jnp.int32)
    D[:, 0] = P + B[:, O[0]]
    for n in range(1, N):  # Loop over observations
        for i in range(I):  # Loop over states
            sum = D[:, n-1] + A[:, i]
            D[i, n] = jnp.max(sum) + B[i, O[n]]
            backtracking[i, n-1] = jnp.argmax(sum)
    S[-1] = jnp.argmax(D[:, -1])
    for n in range(N-2, -1, -1):
        S[n] = backtracking[int(S[n+1]), n]
    return D, S, backtracking


def viterbi_clone(y, A, B, Pi=None):   # nikunjpanchal22/code_clone_classification
    K = A.shape[0]
    Pi = Pi if Pi is not None else jnp.full(K, 1 / K)
    T = len(y)
    T1 = jnp.empty((K, T), 'd')
    T2 = jnp.empty((K, T), 'B')
    T1[:, 0] = Pi * B[:, y[0]]
    T2[:, 0] = 0
    for i in range(1, T):
        T1[:, i] = jnp.max(T1[:, i - 1] * A.T * B[jnp.newaxis, :, y[i]].T, 1)
        T2[:, i] = jnp.argmax(T1[:, i - 1] * A.T, 1)
    x = jnp.empty(T, 'B')
    x[-1] = jnp.argmax(T1[:, T - 1])
    for i in reversed(range(1, T)):
        x[i - 1] = T2[x[i], i]
    return x, T1, T2


def test_viterbi_log_with_int_of_a_traced_state():
    agree(Viterbi, (A, B, PI, OBS), (A2, B2, PI2, OBS2),
          rtol=1e-5, atol=1e-5)


def test_viterbi_vectorised_with_uint8_back_pointers():
    agree(viterbi_clone, (OBS, A, B, PI), (OBS2, A2, B2, None),
          rtol=1e-5, atol=1e-7)


def viterbi_log_lists(obs, pi, A, B):   # written for the corpus, as NumPy Viterbis are
    log_A, log_B = jnp.log(A), jnp.log(B)
    log_d = [jnp.log(pi) + log_B[:, obs[0]]]
    back = []
    for z in obs[1:]:   # (an array's rows: the reads of log_d[-1] run it as Python)
        scores = log_d[-1][:, None] + log_A
        back.append(jnp.argmax(scores, axis=0))
        log_d.append(jnp.max(scores, axis=0) + log_B[:, z])
    path = [jnp.argmax(log_d[-1])]
    for pointers in back[::-1]:
        path.append(pointers[path[-1]])
    return jnp.stack(path[::-1]), jnp.max(log_d[-1])


def test_viterbi_reading_the_tail_of_the_list_it_appends_to():
    agree(viterbi_log_lists, (OBS, PI, A, B), (OBS2, PI2, A2, B2))
    agree_vmap(viterbi_log_lists, jnp.stack([OBS, OBS2, OBS[::-1]]), PI, A, B,
               in_axes=(0, None, None, None))
    agree_grad(lambda pi, obs: viterbi_log_lists(obs, pi, A, B)[1], PI, OBS)


# --- beam search, CTC and greedy decoding ---------------------------------------------------

def beam_search_decoder(predictions, top_k=3):   # rashad101/NLP_Practice
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


PREDICTIONS = jnp.array([[0.1, 0.7, 0.1, 0.1], [0.7, 0.1, 0.1, 0.1], [0.1, 0.1, 0.6, 0.2]])


def test_beam_search_decoder():
    agree(beam_search_decoder, (PREDICTIONS,), (PREDICTIONS[::-1],))


def _reconstruct(labels, blank=0):   # hezarai/hezar crnn_decode_utils.py
    new_labels = []
    previous = None
    for label in labels:
        if label != previous:
            new_labels.append(label)
            previous = label
    new_labels = [label for label in new_labels if label != blank]
    return new_labels


def greedy_decode(emission_log_prob, blank=0):
    labels = jnp.argmax(emission_log_prob, axis=-1)
    labels = _reconstruct(labels, blank=blank)
    return labels


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    "fixed shapes (named): the labels kept after the CTC collapse (a comprehension's "
    'traced `if label != blank`) are as many as the data say: a list whose length is known '
    'only at run time'))
def test_ctc_greedy_decode():
    emissions = jnp.log(jnp.array([[0.1, 0.8, 0.1], [0.1, 0.8, 0.1], [0.9, 0.05, 0.05],
                                   [0.1, 0.1, 0.8]]))
    agree(greedy_decode, (emissions,), (emissions[::-1],))


class BigramModel:
    """A stand-in for the repository's RNN: next-token logits from the last token."""

    def __init__(self, table):
        self.table = table

    def eval(self):
        return self

    def __call__(self, input_ids):
        return self.table[input_ids]


def greedy_decode_eos(model, input_ids, eos_token_id, max_length=50):   # lmbxmu/SimpleRNN
    model.eval()
    for _ in range(max_length):
        logits = model(input_ids)
        next_token = logits[:, -1, :].argmax(axis=-1, keepdims=True)
        input_ids = jnp.concatenate([input_ids, next_token], axis=1)
        if next_token.item() == eos_token_id:
            break
    return input_ids


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the token sequence grows by one each step until a traced '
    '`break` at the end token: its final length is known only at run time'))
def test_greedy_decode_to_end_token():
    table = jnp.array([[0.0, 2.0, 1.0, 0.0], [0.0, 0.0, 3.0, 1.0], [1.0, 0.0, 0.0, 2.0],
                       [0.0, 1.0, 0.0, 0.0]])
    decode = lambda t, ids: greedy_decode_eos(BigramModel(t), ids, 3, max_length=6)
    agree(decode, (table, jnp.array([[0]], i32)), (table[::-1], jnp.array([[1]], i32)))


# --- top-k / top-p filtering and temperature sampling ----------------------------------------

def _top_k_logits(logits, k):   # mingkaid/rl-prompt, torch -> jax.numpy
    if k == 0:
        return logits
    values, _ = jax.lax.top_k(logits, k=k)
    min_values = values[:, -1][..., None]
    return jnp.where(logits < min_values, jnp.full_like(logits, float('-inf')), logits)


def _top_p_logits(logits, p):
    sorted_indices = jnp.argsort(-logits, axis=-1)
    sorted_logits = jnp.take_along_axis(logits, sorted_indices, axis=-1)
    cumulative_probs = jnp.cumsum(jnp.asarray(jax.nn.softmax(sorted_logits, axis=-1)), axis=-1)
    sorted_indices_to_remove = cumulative_probs > p
    sorted_indices_to_remove[:, 1:] = jnp.copy(sorted_indices_to_remove[:, :-1])
    sorted_indices_to_remove[:, 0] = 0
    for idx in range(logits.shape[0]):
        batch_indices = sorted_indices[idx, sorted_indices_to_remove[idx]]
        logits[idx, batch_indices] = float("-inf")
    return logits


LOGITS = jnp.array([[1.0, 3.0, 0.5, 2.0, -1.0], [0.0, 0.2, 4.0, 1.0, 0.1]])


@pytest.mark.parametrize('k', [0, 2])
def test_top_k_logits(k):
    agree(lambda x: _top_k_logits(x, k), (LOGITS,), (LOGITS[::-1] * 2,))


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `sorted_indices[idx, mask]`, a traced mask inside a tuple index, '
    'selects as many items as the mask has true values (then written at those indices)'))
def test_top_p_logits():
    agree(_top_p_logits, (LOGITS, 0.8), (LOGITS[::-1] * 2, 0.8))


def temp_sampling(logits, key, t=0.6):   # 22anushka/DeepLearning-coding-problems
    stable_logits = jnp.max(logits, axis=-1, keepdims=True)
    t = 0.1 if t == 0 else t
    temp_scaled = jnp.exp((logits-stable_logits)/t)/jnp.sum(jnp.exp((logits-stable_logits)/t))
    return jax.random.choice(key, len(temp_scaled), p=temp_scaled)


@pytest.mark.parametrize('t', [0.6, 0])
def test_temperature_sampling(t):
    sample = lambda x, key: temp_sampling(x, key, t)
    agree(sample, (LOGITS[0], jax.random.PRNGKey(0)), (LOGITS[1], jax.random.PRNGKey(5)))

