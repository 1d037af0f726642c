"""Corpus of public functions, fifth batch, dynamic programming and graphs: a Levenshtein
table whose cells take `min` of three traced values under a traced `if`, a Floyd-Warshall
writing `arr[i][j]` in place (on an array and on a list of lists), two 0-1 knapsacks (a
list-of-lists table indexed at a traced column `w - wt[i - 1]`; an int array table read
in a conditional expression), an LCS whose traceback follows a table of index tuples in a
`while` and appends to a list, a non-maximum suppression whose `order` shrinks to the
indices a `where` keeps, and a Viterbi whose backtrace indexes with `int()` of an item of a
float path. Edits: `np.` becomes `jnp.` where traced values flow; strings
become int arrays of token ids; functions that write their argument in place and give
nothing back are called by a wrapper that returns it.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax.numpy as jnp
import pytest

import autograph

from tests.peers.corpus_harness import agree, agree_vmap, close

WORD_A = jnp.array([3, 1, 4, 1, 5])
WORD_B = jnp.array([3, 1, 5, 9, 5, 2])


# --- Barsolar/JPDZB: List2/Task1/Task1.py (levenshtein) ----------------------------------

def levenshtein(string1, string2):
    '''returns Levenshtein's distance of string1 and string2.\
        source: \
        stackabuse.com/levenshtein-distance-and-text-similarity-in-python/'''
    len_1 = len(string1) + 1
    len_2 = len(string2) + 1
    mat = jnp.zeros((len_1, len_2))
    for x in range(len_1):
        mat[x, 0] = x
    for y in range(len_2):
        mat[0, y] = y
    for x in range(1, len_1):
        for y in range(1, len_2):
            if string1[x-1] == string2[y-1]:
                mat[x, y] = min(
                  mat[x-1, y],
                  mat[x-1, y-1],
                  mat[x, y-1]
                    )
            else:
                mat[x, y] = min(
                    mat[x-1, y] + 1,
                    mat[x-1, y-1] + 1,
                    mat[x, y-1] + 1
                )
    return (mat[len_1 - 1, len_2 - 1])


def test_levenshtein_min_of_traced_cells_under_a_traced_if():
    agree(levenshtein, (WORD_A, WORD_B), (WORD_B[:5], WORD_B))
    agree_vmap(levenshtein, jnp.stack([WORD_A, WORD_B[:5], WORD_A[::-1]]), WORD_B,
               in_axes=(0, None))


# --- fury-r/python-codes: DAA/pa2/floydwarshall.py (floydWarshall) -----------------------

def floydWarshall(arr):
    for k in range(0,len(arr)):
            for i in range(0,len(arr)):
                if k!=i:
                    for j in range(len(arr)):
                        if k!=j:
                            arr[i][j]=min(arr[i][j],arr[i][k]+arr[k][j])
            print(arr)


def floyd_warshall_result(arr):
    floydWarshall(arr)
    return arr


INF = jnp.inf
GRAPH = jnp.array([[0.0, 3.0, INF, 7.0],
                   [8.0, 0.0, 2.0, INF],
                   [5.0, INF, 0.0, 1.0],
                   [2.0, INF, INF, 0.0]])


def test_floyd_warshall_chained_item_writes_into_an_array():
    agree(floyd_warshall_result, (GRAPH,), (GRAPH.T,))
    agree_vmap(floyd_warshall_result, jnp.stack([GRAPH, GRAPH.T, jnp.minimum(GRAPH, 4.0)]))


def as_rows(m):
    return [[m[i, j] for j in range(4)] for i in range(4)]


def test_floyd_warshall_list_of_lists_of_traced_scalars():
    agree(lambda m: floyd_warshall_result(as_rows(m)), (GRAPH,), (GRAPH.T,))


def test_floyd_warshall_writes_the_callers_list_in_place():
    """As written, `floydWarshall` gives None and the caller reads its own list after the
    call: the converted call writes the new traced values back into that list."""
    rows = as_rows(GRAPH)
    expected = [[float(v) for v in row] for row in rows]
    assert autograph.convert(floydWarshall)(rows) is None
    assert floydWarshall(expected) is None
    close(rows, expected)


# --- ashkanvg/knapsack-0-1: dp.py (knapSackDP) --------------------------------------------

def knapSackDP(W, wt, pi, n):
    dp = [[0 for x in range(W + 1)] for x in range(n + 1)] # dp[n][w]

    for i in range(n + 1):
        for w in range(W + 1):
            if i == 0 or w == 0:
                dp[i][w] = 0
            elif wt[i-1] <= w:
                dp[i][w] = max(pi[i-1] + dp[i-1][w-wt[i-1]],  dp[i-1][w])
            else:
                dp[i][w] = dp[i-1][w]

    return dp[n][W]


WEIGHTS = jnp.array([1, 3, 4, 2])
VALUES = jnp.array([15, 50, 60, 30])


def test_knapsack_list_table_read_at_a_traced_column():
    agree(lambda wt, pi: knapSackDP(6, wt, pi, 4), (WEIGHTS, VALUES),
          (WEIGHTS[::-1] + 1, VALUES))
    agree_vmap(lambda wt: knapSackDP(5, wt, VALUES, 4), jnp.stack([WEIGHTS, WEIGHTS + 1,
                                                                   WEIGHTS[::-1]]))


# --- guzmanchris/algorithms-course: knapsack.py (knapsack) --------------------------------

def knapsack(v, w, W):
    # Initialize variables
    n = len(v)  # The amount of values we can fill knapsack with.
    K = jnp.zeros((W + 1, n + 1), dtype=int)  # 2D array filled with zeros. Extra row and column to include weight 0
    # and no values

    # Update the values in the K array
    for i in range(1, n + 1):  # i is the ith value available.
        for weight in range(1, W + 1):
            kvalue_without_weight = K[weight][i - 1]
            kvalue_including_weight = K[weight - w[i - 1]][i - 1] + v[i - 1] if w[i - 1] <= weight else K[weight, i - 1]
            K[weight][i] = max(kvalue_without_weight, kvalue_including_weight)
    return K[W][n]


def test_knapsack_int_table_conditional_expression_at_a_traced_row():
    agree(lambda v, w: knapsack(v, w, 6), (VALUES, WEIGHTS), (VALUES[::-1], WEIGHTS + 2))
    agree_vmap(lambda w: knapsack(VALUES, w, 5), jnp.stack([WEIGHTS, WEIGHTS + 1,
                                                            WEIGHTS[::-1]]))


# --- davll/practical-algorithms: algo.py/algo/dp/lcs.py (lcs) -----------------------------

def lcs(A, B):
    m, n = len(A), len(B)
    sz = [[0] * (n+1) for _ in range(m+1)]
    p = [[(i,j) for j in range(n+1)] for i in range(m+1)]
    for i in range(1,m+1):
        for j in range(1,n+1):
            if A[i-1] == B[j-1]:
                sz[i][j] = sz[i-1][j-1] + 1
                p[i][j] = (i-1, j-1)
            else:
                if sz[i-1][j] > sz[i][j-1]:
                    sz[i][j] = sz[i-1][j]
                    p[i][j] = (i-1, j)
                else:
                    sz[i][j] = sz[i][j-1]
                    p[i][j] = (i, j-1)
    result = []
    while m > 0 and n > 0:
        i, j = p[m][n]
        if A[m-1] == B[n-1]:
            result.append(A[m-1])
        m, n = i, j
    result.reverse()
    return result


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the traceback appends `A[m-1]` once per match on the path it '
    'follows through the traced tables, so the result list has the run-time length of the '
    'common subsequence'))
def test_lcs_traceback_through_a_table_of_index_tuples():
    agree(lcs, (WORD_A, WORD_B), (WORD_B[:5], WORD_B))


# --- yecharlie/convnet3d: convnet3d/utils/nms.py (nmsOverlaps) ----------------------------

def nmsOverlaps(overlaps, scores, threshold):
    assert (jnp.diagonal(overlaps) == 1).all()
    assert 0 < threshold < 1

    order = scores.argsort()[::-1]
    keep = []
    while order.size > 0:
        i = order[0]
        keep.append(i)

        inds = jnp.where(overlaps[i, order] <= threshold)[0]
        order = order[inds]

    return keep


OVERLAPS = jnp.array([[1.0, 0.7, 0.1, 0.0],
                      [0.7, 1.0, 0.2, 0.6],
                      [0.1, 0.2, 1.0, 0.3],
                      [0.0, 0.6, 0.3, 1.0]])


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `order = order[jnp.where(...)[0]]` keeps the boxes below the '
    'threshold, a run-time number, and `keep` grows once per kept box'))
def test_nms_order_shrinks_to_the_kept_indices():
    agree(lambda o, s: nmsOverlaps(o, s, 0.5), (OVERLAPS, jnp.array([0.9, 0.8, 0.3, 0.5])),
          (OVERLAPS, jnp.array([0.1, 0.8, 0.3, 0.5])))


# --- nikunjpanchal22/code_clone_classification: python_t4_full/Clone_5095.py (viterbi_path) -

def viterbi_path(y, A, B, Pi = None):
    K = A.shape [0]
    if Pi is None:
        Pi = jnp.full(K, 1/K)
    T = len(y)
    T1 = jnp.zeros((K,T))
    T2 = jnp.zeros((K,T), dtype=int)
    T1[:, 0] = Pi * B [:, y [0]]
    T2[:, 0] = 0
    for t in range(1, T):
        for j in range(K):
            T1[j, t] = jnp.max(T1[:, t-1] * A[:, j]) * B[j, y[t]]
            T2[j, t] = jnp.argmax(T1[:, t-1] * A[:, j])
    path = jnp.zeros(T)
    path[-1] = jnp.argmax(T1[:, -1])
    for t in range(T-2, -1, -1):
        path[t] = T2[int(path[t+1]), t+1]
    return path, T1, T2


HMM_A = jnp.array([[0.7, 0.2, 0.1], [0.3, 0.5, 0.2], [0.2, 0.3, 0.5]])
HMM_B = jnp.array([[0.6, 0.3, 0.1], [0.1, 0.6, 0.3], [0.2, 0.2, 0.6]])
OBS = jnp.array([0, 1, 2, 2, 1, 0])


def test_viterbi_path_int_of_a_float_path_item_as_an_index():
    agree(lambda y: viterbi_path(y, HMM_A, HMM_B), (OBS,), (OBS[::-1],))
    agree(lambda y, pi: viterbi_path(y, HMM_A, HMM_B, pi), (OBS, jnp.array([0.1, 0.1, 0.8])),
          (jnp.array([2, 2, 1, 0, 0, 1]), jnp.array([0.5, 0.4, 0.1])))
    agree_vmap(lambda y: viterbi_path(y, HMM_A, HMM_B)[0], jnp.stack([OBS, OBS[::-1]]))
