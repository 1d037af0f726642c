"""Corpus of public functions, fourth batch, dynamic programming on sequences, graphs and
grids: a DTW class on lists of lists (whose index `j - 1` wraps to the last column at
`j = 0`, with `min` of traced values), a scaled Viterbi taking
`max(enumerate(p), key=operator.itemgetter(1))` into two item writes at once, a
Smith-Waterman matrix with `x in ignore` tests and `max(..., 0)` and its recursive
traceback, a Sinkhorn script whose error lists grow by concatenation, two Bellman-Fords
(a list of inf relaxed with `min`; a `defaultdict` and `None` on a negative cycle), a
golden-section search whose iteration count comes from the bracket, and a game of life
on clipped windows counting births. Edits: `np.` becomes `jnp.` where traced values
flow; strings are int arrays of token ids.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import operator
from collections import defaultdict
from itertools import product

import jax
import jax.numpy as jnp
import pytest
from jax.numpy import ceil, log, sqrt

import autograph

from tests.peers.corpus_harness import agree, agree_grad, agree_vmap, key


# --- b01901131/DSP_Final: DTW/DTW.py (DTW) ----------------------------------------------

class DTW():
	def __init__(self):
		#self.arr1 = arr1
		#self.arr2 = arr2
		self.DTW = []

	def dist(self, a, b):
		return jnp.linalg.norm(jnp.array(a)-jnp.array(b))

	def new_arr(self, len1, len2):
		arr = []
		for i in range(len1):
			new_row = []
			for j in range(len2):
				new_row.append(0)
			arr.append(new_row)
		return arr

	def calc_DTW(self, a1, a2):
		self.DTW = self.new_arr(len(a1), len(a2))

		for i in range(len(a1)):
			self.DTW[i][0] = float("inf")
		for i in range(len(a2)):
			self.DTW[0][i] = float("inf")

		for i in range(len(a1)):
			for j in range(len(a2)):
				cost = self.dist(a1[i], a2[j])
				self.DTW[i][j] = cost + min(self.DTW[i][j-1], self.DTW[i-1][j], self.DTW[i-1][j-1])#min(DTW[i-1][j],DTW[i][j-1],DTW[i-1][j-1])
		#print DTW
		return self.DTW[len(a1)-1][len(a2)-1]


def dtw_distance(a1, a2):
    return DTW().calc_DTW(a1, a2)


A1 = jnp.array([71.0, 73.0, 75.0, 80.0, 80.0, 78.0])
A2 = jnp.array([69.0, 73.0, 79.0, 80.0, 76.0])


def test_dtw_lists_of_lists_wrapping_index_and_min():
    agree(dtw_distance, (A1, A2), (A1[::-1], A2 * 1.01))
    agree_vmap(dtw_distance, jnp.stack([A1, A1 - 3.0, A1[::-1]]), A2, in_axes=(0, None))
    agree_grad(dtw_distance, A1, A2)


# --- nikunjpanchal22/code_clone_classification: python_t3_full/Clone_1675.py (viterbi) ---

def viterbi(transition_probabilities, conditional_probabilities) :
	num_samples = conditional_probabilities.shape [1]
	num_states = transition_probabilities.shape [0]
	c = jnp.zeros(num_samples)
	viterbi = jnp.zeros((num_states, num_samples))
	best_path_table = jnp.zeros((num_states, num_samples))
	best_path = jnp.zeros(num_samples).astype(jnp.int32)
	viterbi [:, 0] = conditional_probabilities [:, 0]
	c [0] = 1.0 / jnp.sum(viterbi [:, 0])
	viterbi [:, 0] = c [0] * viterbi [:, 0]
	for t in range(1, num_samples) :
		for s in range(0, num_states) :
			trans_p = viterbi [:, t - 1] * transition_probabilities [:, s]
			best_path_table [s, t], viterbi [s, t] = max(enumerate(trans_p), key = operator.itemgetter(1))
			viterbi [s, t] = viterbi [s, t] * conditional_probabilities [s] [t]
		c [t] = 1.0 / jnp.sum(viterbi [:, t])
		viterbi [:, t] = c [t] * viterbi [:, t]
	best_path [num_samples - 1] = viterbi [:, num_samples - 1].argmax()
	for t in range(num_samples - 1, 0, - 1) :
		best_path [t - 1] = best_path_table [best_path [t], t]
	return best_path


def hmm_inputs(k, states=3, samples=6):
    k1, k2 = jax.random.split(k)
    trans = jax.random.uniform(k1, (states, states)) + 0.1
    trans = trans / jnp.sum(trans, axis=1, keepdims=True)
    cond = jax.random.uniform(k2, (states, samples)) + 0.05
    return trans, cond


def test_viterbi_max_of_enumerate_with_itemgetter_key():
    agree(viterbi, hmm_inputs(key(0)), hmm_inputs(key(1)))
    trans, cond = hmm_inputs(key(2))
    conds = jnp.stack([cond, cond[::-1], hmm_inputs(key(3))[1]])
    agree_vmap(viterbi, trans, conds, in_axes=(None, 0))


def test_viterbi_nan_transition_skipped_by_python_max():
    """With a NaN among the candidates, Python's `max(enumerate(p), key=itemgetter(1))`
    skips it (`x > nan` is False): so does the converted max (it took the NaN: another
    path, no error, before runtime.python.ordering)."""
    trans, cond = hmm_inputs(key(0))
    agree(viterbi, (trans.at[1, 0].set(jnp.nan), cond))


# --- florianthalmann/corpus-analysis: corpus_analysis/alignment/smith_waterman.py --------

def matrix(a, b, match_score, gap_cost, ignore):
    H = jnp.zeros((len(a) + 1, len(b) + 1), jnp.int32)
    for i, j in product(range(1, H.shape[0]), range(1, H.shape[1])):
        sign = 1 if (a[i-1] == b[j-1] or a[i-1] in ignore or b[j-1] in ignore) else -1
        match = H[i-1, j-1] + (sign * match_score)
        delete = H[i-1, j] - gap_cost
        insert = H[i, j-1] - gap_cost
        H[i, j] = max(match, delete, insert, 0)
    return H

def traceback(H):
    # flip H to get index of **last** occurrence of H.max() with np.argmax()
    H_flip = jnp.flip(jnp.flip(H, 0), 1)
    i_, j_ = jnp.unravel_index(H_flip.argmax(), H_flip.shape)
    i, j = jnp.subtract(jnp.array(H.shape), jnp.array((i_ + 1, j_ + 1)))  # (i, j) are **last** indexes of H.max()
    if H[i, j] == 0: return []
    return traceback(H[0:i, 0:j]) + [[i-1, j-1]]

def smith_waterman(a, b, match_score=3, gap_cost=5, ignore=[]):
    H = matrix(a, b, match_score, gap_cost, ignore)
    return traceback(H), H


SEQ_A = jnp.array([3, 4, 6, 7, 2, 4])
SEQ_B = jnp.array([3, 4, 5, 6, 7])


def test_smith_waterman_matrix_in_tests_and_max_with_zero():
    agree(lambda a, b: matrix(a, b, 3, 2, []), (SEQ_A, SEQ_B), (SEQ_A[::-1], SEQ_B))
    agree(lambda a, b: matrix(a, b, 3, 2, [5, 2]), (SEQ_A, SEQ_B), (SEQ_B[:4] + 1, SEQ_B))
    agree_vmap(lambda a: matrix(a, SEQ_B, 3, 1, [6]), jnp.stack([SEQ_A, SEQ_A[::-1]]))


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the traceback recurses on `H[0:i, 0:j]` at the traced argmax '
    '`(i, j)` and returns a list whose length is the alignment\'s: sizes and a recursion '
    'depth known only at run time'))
def test_smith_waterman_recursive_traceback():
    agree(smith_waterman, (SEQ_A, SEQ_B), (SEQ_A[::-1], SEQ_B))


# --- gpeyre/numerical-tours: python/nt_solutions/optimaltransp_5_entropic/exo3.py --------

def sinkhorn_errors(K, a, b, niter):
    N = K.shape[1]
    v = jnp.ones(N)
    Err_p = []
    Err_q = []

    for i in range(niter):
        # sinkhorn step 1
        u = a / (jnp.dot(K,v))
        # error computation
        r = v*jnp.dot(jnp.transpose(K),u)
        Err_q = Err_q + [linalg.norm(r - b, 1)]
        # sinkhorn step 2
        v = b /(jnp.dot(jnp.transpose(K),u))
        s = u*jnp.dot(K,v)
        Err_p = Err_p + [linalg.norm(s - a,1)]

    return u, v, jnp.asarray(Err_p), jnp.asarray(Err_q)


linalg = jnp.linalg


def ot_problem(k, n=5, eps=0.5):
    k1, k2, k3 = jax.random.split(k, 3)
    x = jax.random.uniform(k1, (n,))
    y = jax.random.uniform(k2, (n,))
    a = jnp.ones(n) / n
    b = jax.random.uniform(k3, (n,)) + 0.5
    K = jnp.exp(-(x[:, None] - y[None, :]) ** 2 / eps)
    return K, a, b / jnp.sum(b)


def test_sinkhorn_script_error_lists_grow_by_concatenation():
    agree(sinkhorn_errors, (*ot_problem(key(0)), 40), (*ot_problem(key(1)), 40),
          rtol=1e-4, atol=1e-5)
    K, a, b = ot_problem(key(2))
    agree_grad(lambda a, K, b: sinkhorn_errors(K, a, b, 30)[2][3], a, K, b)


# --- pgdr/algorithm-engineering: 04-dynamic-programming/bellman_ford.py (bellman_ford) ----

def bellman_ford(n, G, s):
    """Return (dist, True) if successful, and (dist, False) if we have detected
    a negative cycle.
    """
    dist = [float("inf")] * n
    dist[s] = 0
    for _ in range(n - 1):
        for u, v, w in G.edges:
            dist[v] = min(dist[v], dist[u] + w)
    for u, v, w in G.edges:
        if dist[u] + w < dist[v]:
            dist, False
    return dist, True


EDGES = [(0, 1), (0, 2), (1, 2), (1, 3), (1, 4), (3, 2), (3, 1), (4, 3)]
WEIGHTS = jnp.array([-1.0, 4.0, 3.0, 2.0, 2.0, 5.0, 1.0, -3.0])


class EdgeList:
    def __init__(self, weights):
        self.edges = [(u, v, weights[k]) for k, (u, v) in enumerate(EDGES)]


def test_bellman_ford_min_into_a_list_of_inf():
    run = lambda w: bellman_ford(5, EdgeList(w), 0)
    agree(run, (WEIGHTS,), (WEIGHTS[::-1] + 2.0,))
    agree_vmap(run, jnp.stack([WEIGHTS, jnp.abs(WEIGHTS), WEIGHTS + 1.0]))
    agree_grad(lambda w: sum(run(w)[0][1:]), WEIGHTS)


# --- IkshitGupta/DSA: Graphs/bellman_ford.py (Graph) ------------------------------------

inf = 1e20
class Graph :
    def __init__(self, veritices) :
        self.v = veritices
        self.graph = []

    def add_edge(self, x, y, w) :
        self.graph.append((x, y, w))

    def bellman_ford(self, src) :
        dist = defaultdict(lambda : inf)
        dist[src] = 0
        for _ in range(self.v - 1) :
            for x, y, w in self.graph :
                if dist[x] + w < dist[y] :
                    dist[y] = dist[x] + w
        for x, y, w in self.graph :
            if dist[x] + w < dist[y] :
                print("Negative cycle")
                return
        return dist


def graph_distances(weights):
    g = Graph(5)
    for k, (x, y) in enumerate(EDGES):
        g.add_edge(x, y, weights[k])
    return g.bellman_ford(0)


def graph_distance_items(weights):
    """The distances as a plain dict (a `defaultdict`'s structure holds its factory, a
    lambda made anew by each call), None on a negative cycle."""
    dist = graph_distances(weights)
    return None if dist is None else dict(dist)


def test_bellman_ford_defaultdict_and_none_on_a_negative_cycle():
    """(A named error until the result chosen by the traced negative-cycle test, `dist`
    or None, was chosen as a value: session 13.)"""
    agree(graph_distance_items, (WEIGHTS,), (WEIGHTS + 1.0,))
    cycle = WEIGHTS.at[6].set(-4.0)   # 1 -> 3 -> 1 weighs -2
    agree(graph_distance_items, (cycle,))
    with pytest.raises(autograph.ControlFlowError, match='returns None'):
        agree_vmap(graph_distance_items, jnp.stack([WEIGHTS, WEIGHTS * 2.0]))


# --- g4dlle/Chislmet: golden.py (golden) --------------------------------------------------

def golden(f, a, b, tol = 1e-10):
    """
    Gloden section method for determining x
    that minimizes the scalar function f(x).
    The minimum must be bracketed in(a,b).
    """
    c1 = (sqrt(5.) - 1.) / 2.
    c2 = 1. - c1
    nIt = int(ceil(log(tol / abs(b-a)) / log(c1)))
    # First step
    x1 = c1*a + c2*b
    x2 = c2*a + c1*b
    f1 = f(x1)
    f2 = f(x2)
    # Iteration
    for i in range(nIt):
        if f1 > f2:
            a = x1
            x1 = x2
            f1 = f2
            x2 = c2*a + c1*b
            f2 = f(x2)
        else:
            b = x2
            x2 = x1
            f2 = f1
            x1 = c1*a + c2*b
            f1 = f(x1)
    if f1 < f2:
        return x1, f1
    else:
        return x2, f2


def bowl(x):
    return (x - 0.7) ** 2 + 0.1 * x ** 4


def test_golden_section_iteration_count_from_the_bracket():
    agree(lambda a, b: golden(bowl, a, b, 1e-4), (-1.0, 2.0), (0.0, 5.0))
    agree(lambda a, b: golden(bowl, a, b, 1e-4), (jnp.float32(-1.0), jnp.float32(2.0)),
          (jnp.float32(0.0), jnp.float32(5.0)))


# --- FelipeMQ/CS1100: sorts/conwaylifegame7.py (play_life; the driver made a function) --

def play_life(a,cnt):
    xmax, ymax = a.shape
    b = a.copy() # copy grid & Rule 2
    for x in range(xmax):
        for y in range(ymax):
            n = jnp.sum(a[max(x - 1, 0):min(x + 2, xmax), max(y - 1, 0):min(y + 2, ymax)]) - a[x, y]
            if a[x, y]:
                if n < 2 or n > 3:
                    b[x, y] = 0 # Rule 1 and 3
            elif n == 3:
                cnt += 1
                b[x, y] = 1 # Rule 4
    return b,cnt


def life_generations(life, generations):
    cnt=0
    for i in range(generations):
        life,cnt = play_life(life,cnt)
    return life, cnt


def test_game_of_life_clipped_windows_and_a_birth_count():
    spinner = jnp.zeros((7, 7), dtype=jnp.int8).at[3, 1:6].set(1)
    glider = jnp.zeros((7, 7), dtype=jnp.int8).at[0, 1].set(1).at[1, 2].set(1).at[2, 0:3].set(1)
    agree(life_generations, (spinner, 3), (glider, 3))
    agree_vmap(lambda g: life_generations(g, 2), jnp.stack([spinner, glider]))
