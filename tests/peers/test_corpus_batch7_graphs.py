"""Corpus of public functions, seventh batch, graphs, chains, queues, learning loops and
edit-distance tables: a Markov chain step that walks the cumulative row with `while u >
accum` and a script that counts the visits `vet_cont[s] += 1` at the traced state, a
Markov chain class that simulates with `states += [state]` over a loop on an array, a
breadth-first search on an adjacency matrix through a `queue.Queue`, a Kahn topological
sort whose in-degrees are `sum(1 for u in range(n) if graph[u][v] == 1)` over a traced
matrix, a single-server queue script whose `if arrival <= service_end` appends to one of
two lists, a recursive flood fill, a Q-learning script whose `move` tests the position
with `is not 0`, a logistic regression whose `J_history` list grows until a traced
`break`, and two Levenshtein tables (`enumerate(word, start=1)` with `int()` of the
result; a conditional cost and the builtin `min` of three items). Edits: `np.`/`math.`
become `jnp.` where traced values flow; NumPy's global random state (and Python's
`random`) becomes a `jax.random` key; scripts become functions of their data (globals
become locals, helpers closures); strings become int arrays.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import queue

import jax
import jax.numpy as jnp
import pytest

import autograph

from tests.peers.corpus_harness import agree, agree_vmap, key

CHAIN = jnp.array([[0.3, 0.5, 0.2], [0.3, 0.4, 0.3], [0.2, 0.5, 0.3]])
CHAIN2 = jnp.array([[0.1, 0.1, 0.8], [0.6, 0.2, 0.2], [0.25, 0.25, 0.5]])


# --- DanielValdeley/markov_move: markov_move.py (markov_move; the script's loop) -------------

def markov_move(A, s, key):
    n, u, accum = 0, jax.random.uniform(key, minval=0, maxval=1), A[s][0]
    while u > accum:
        n = n + 1
        accum = accum + A[s][n]
    return n


def markov_counts(A, runs, key):
    s = 0
    vet_cont = {}
    tam = A[0].size
    vet_cont = jnp.zeros(tam)
    for i in range(runs):
        s = markov_move(A,s,jax.random.fold_in(key, i))
        vet_cont[s] += 1

    res = []
    for i in range(tam):
        res.append(vet_cont[i]/runs)
    return res


def test_markov_move_while_over_the_cumulative_row():
    agree(markov_move, (CHAIN, 0, key(0)), (CHAIN2, 0, key(1)))
    agree_vmap(lambda k: markov_move(CHAIN2, 2, k), jax.random.split(key(3), 6))


def test_markov_visit_counts_written_at_the_traced_state():
    agree(lambda A, k: markov_counts(A, 40, k), (CHAIN, key(0)), (CHAIN2, key(1)))


# --- waylandy/HelperBunny: tools/markovchain.py (MarkovChain) ---------------------------------

class MarkovChain:
    def __init__(self, transition):
        self.P = transition / transition.sum(1, keepdims=True)
        self.steady_state = self.get_steady_state(self.P)

    def get_steady_state(self, P):
        dim  = P.shape[0]
        Q    = (P - jnp.eye(dim))
        ones = jnp.ones(dim)
        Q    = jnp.c_[Q, ones]
        QTQ  = jnp.dot(Q, Q.T)
        bQT  = jnp.ones(dim)
        return jnp.linalg.solve(QTQ, bQT)

    def simulate(self, n, key):
        rng    = jax.random.uniform(key, (n + 1,))
        P_c    = self.P.cumsum(axis=1)
        state  = (self.steady_state.cumsum() > rng[0]).argmax()
        states = []
        for i in rng[1:]:
            state = (P_c[state] > i).argmax()
            states += [state]
        return jnp.array(states)


def test_markov_chain_class_list_grown_by_augmented_add_over_an_array():
    agree(lambda T, k: MarkovChain(T).simulate(12, k), (CHAIN, key(0)), (CHAIN2 * 3, key(1)))


# --- Afktree/Parallelized-BFS: bfs.py (bfs) ---------------------------------------------------

def bfs(adj, n):
    res = jnp.empty(n, dtype=int)
    q = queue.Queue()
    q.put(0)
    visited = jnp.array([False for i in range(n)])
    visited[0] = True
    ind = 0
    while not q.empty():
        u = q.get()
        res[ind] = u
        ind += 1
        for i in range(n):
            if adj[u][i] > 0 and visited[i] == False:
                q.put(i)
                visited[i] = True
    return res


ADJ = jnp.array([[0, 1, 1, 0, 0], [1, 0, 0, 1, 0], [1, 0, 0, 1, 1],
                 [0, 1, 1, 0, 0], [0, 0, 1, 0, 0]])
ADJ2 = jnp.array([[0, 0, 0, 1, 1], [0, 0, 1, 0, 0], [0, 1, 0, 0, 1],
                  [1, 0, 0, 0, 0], [1, 0, 1, 0, 0]])


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `q.put(i)` under the traced `if adj[u][i] > 0 and visited[i] == '
    'False` would make the queue\'s length known only at run time; a `queue.Queue` changed '
    'by a staged branch is named (runtime.state.unmodeled). Before, it was a silent wrong '
    'value: the Queue was changed while tracing both branches, so it held more vertices '
    'than Python\'s and `res[ind] = u` was written past the end (IndexError)'))
def test_bfs_through_a_queue_module_queue_on_a_traced_matrix():
    agree(lambda a: bfs(a, 5), (ADJ,), (ADJ2,))


# --- Karvsky/Directed-acyclic-graph: kahn_algorithm.py (kahn) ---------------------------------

def kahn(graph, n):
    in_degree = [sum(1 for u in range(n) if graph[u][v] == 1) for v in range(n)]

    S = [i for i in range(n) if in_degree[i] == 0]
    L = []

    while S:
        u = S.pop(0)
        L.append(u + 1)
        for m in range(n):
            if graph[u][m] == 1:
                graph[u][m] = 0
                in_degree[m] -= 1
                if in_degree[m] == 0:
                    S.append(m)

    if any(in_degree[v] > 0 for v in range(n)):
        print("Graf zawiera cykl - sortowanie topologiczne niemożliwe")
        return
    return L


DAG = jnp.array([[0, 1, 1, 0], [0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 0]])


def kahn_in_degrees(graph, n):
    """The first line of `kahn` alone: in-degrees counted by a filtered generator."""
    in_degree = [sum(1 for u in range(n) if graph[u][v] == 1) for v in range(n)]
    return in_degree


def test_kahn_in_degrees_by_a_generator_filtered_on_traced_items():
    agree(lambda g: kahn_in_degrees(g, 4), (DAG,), (DAG.T,))


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `S = [i for i in range(n) if in_degree[i] == 0]` keeps as many '
    'items as the traced in-degrees have zeros, a run-time length (the project names the '
    'comprehension); the in-degrees themselves, a `sum` of a filtered generator, convert'))
def test_kahn_topological_order_of_a_traced_matrix():
    agree(lambda g: kahn(g, 4), (DAG,), (DAG.T,))


# --- wardy3/python-learn: queue.py (script) ---------------------------------------------------

def single_server_queue(key, n, average_arrival_interval=5.6, average_service_time=4.6,
                        stdev_service_time=0.5):
    num_waiting = 0
    arrivals = []
    starts = []

    arrival = service_end = 0.0

    for i in range(n):
        k1, k2 = jax.random.split(jax.random.fold_in(key, i))
        if arrival <= service_end:
            num_waiting += 1
            arrival += jax.random.exponential(k1) * average_arrival_interval
            arrivals.append(arrival)
        else:
            num_waiting -= 1
            service_start = service_end if num_waiting else arrival
            service_time = average_service_time + stdev_service_time * jax.random.normal(k2)
            service_end = service_start + service_time

            starts.append(service_start)

    waits = [start - arrival for arrival, start in zip(arrivals, starts)]
    return waits


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `arrivals.append(...)` and `starts.append(...)` run in one '
    'branch or the other of the traced `if arrival <= service_end`, so both lists have a '
    'run-time length (the project names the `if` and the list)'))
def test_single_server_queue_appends_to_one_list_or_the_other():
    agree(lambda k: single_server_queue(k, 12), (key(0),), (key(1),))


# --- ondrejcervan/lecture_recursion: flood_fill.py (flood_fill) -------------------------------

def flood_fill(image, x, y):
    if x < 0 or x >= image.shape[0] or y < 0 or y >= image.shape[1] or image[x, y] != 1:
        return image

    image[x, y] = 2

    flood_fill(image, x+1, y)
    flood_fill(image, x-1, y)
    flood_fill(image, x, y+1)
    flood_fill(image, x, y-1)

    return image


IMG = jnp.array([[1, 1, 0], [0, 1, 0], [1, 1, 1]])


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `flood_fill` recurs under the traced `image[x, y] != 1`, a depth '
    'known only at run time (the project stops at 16 levels and names the call)'))
def test_flood_fill_recursion_on_traced_pixels():
    agree(lambda im: flood_fill(im, 0, 0), (IMG,), (1 - IMG,))


# --- edibegovic/ML: week8/exercise84.py (script) ----------------------------------------------

def q_learning_script(key, episodes):
    # Initialize
    Q = jnp.zeros([4, 5, 4])
    rewards = jnp.zeros([4, 5])
    rewards[3, 4] = 100
    pos = [0, 0]
    goal_pos = [3, 4]
    epsilon = 0.9
    lr = 0.2
    dr = 0.5

    def next_action(k):
        k1, k2 = jax.random.split(k)
        if jax.random.uniform(k1, minval=0, maxval=1) < epsilon:
            return jax.random.randint(k2, (), 0, len(Q[pos[0], pos[1]]))
        else:
            return jnp.argmax(Q[pos[0], pos[1]])

    def move(action):
        if action == 0 and pos[0] is not 0:
            return [pos[0] - 1, pos[1]]
        elif action == 1 and pos[0] is not 3:
            return [pos[0] + 1, pos[1]]
        elif action == 2 and pos[1] is not 0:
            return [pos[0], pos[1] - 1]
        elif action == 3 and pos[1] is not 4:
            return [pos[0], pos[1] + 1]
        else:
            return pos

    for _ in range(episodes):
        # print(_)
        pos = [0, 0]
        step = 0
        while pos != goal_pos and step < 40:
            prev_pos = pos
            action = next_action(jax.random.fold_in(jax.random.fold_in(key, _), step))
            step += 1
            pos = move(action)
            Q[prev_pos[0], prev_pos[1], action] += lr * (rewards[pos[0], pos[1]] +
                    dr * jnp.max(Q[pos[0], pos[1], :]) -
                    Q[prev_pos[0], prev_pos[1], action])
    return Q


# (Was a silent wrong value: `tracer is not 0` was always True; now `p is not 0` on a
# traced Python int compares its value, runtime.python.identity.)
def test_q_learning_script_moves_tested_with_is_not():
    agree(lambda k: q_learning_script(k, 2), (key(0),), (key(1),), rtol=1e-4, atol=1e-4)


# --- diegogerwig/42_logistic_regression: src/utils/gradient.py --------------------------------

def sigmoid(z):
    sig = 1 / (1 + jnp.exp(-z))
    return sig


def gradient_descent(X, y, theta, lr, num_iters, threshold=1e-5):
    m = len(y)
    J_history = []
    for _ in range(num_iters):
        h = sigmoid(jnp.dot(X, theta))
        J = (-1 / m) * jnp.sum(y * jnp.log(h) + (1 - y) * jnp.log(1 - h))
        J_history.append(J)
        gradient = (1 / m) * jnp.dot(X.T, (h - y))
        theta -= lr * gradient
        if len(J_history) > 1 and abs(J_history[-1] - J_history[-2]) < threshold:
            break
    return theta, J_history


X = jnp.array([[1.0, 0.5, -1.0], [1.0, -1.5, 0.3], [1.0, 2.0, 1.0], [1.0, 0.1, -0.4],
               [1.0, -0.7, 2.2]])
Y = jnp.array([1.0, 0.0, 1.0, 0.0, 1.0])


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `J_history.append(J)` once per iteration of a loop a traced '
    '`break` may stop, and `J_history[-2]` read in the test, so the list has a run-time '
    'length (the project names the `if` and the list)'))
def test_logistic_regression_theta_after_a_traced_break():
    agree(lambda X, y: gradient_descent(X, y, jnp.zeros(3), 0.5, 30, 1e-3)[0], (X, Y),
          (X[::-1], Y))


# --- quirk0o/nlp-2-clustering: levenshtein.py (levenshtein_distance) --------------------------

def levenshtein_distance(word_a, word_b):
    len_a = len(word_a)
    len_b = len(word_b)

    if min(len_a, len_b) == 0:
        return max(len_a, len_b)

    distance = jnp.empty([len_a + 1, len_b + 1])

    for i in range(0, len_a + 1):
        distance[i][0] = i

    for j in range(0, len_b + 1):
        distance[0][j] = j

    for i, a in enumerate(word_a, start=1):
        for j, b in enumerate(word_b, start=1):
            distance[i][j] = min(
                distance[i - 1][j] + 1,
                distance[i][j - 1] + 1,
                distance[i - 1][j - 1] + (1 if a != b else 0)
            )

    return int(distance[len_a][len_b])


# --- dryabokon/algo: dynamic_04_Levenshtein.py (levenshtain_distance) -------------------------

def levenshtain_distance(A1, A2):

	L1 = len(A1)
	L2 = len(A2)

	D = jnp.zeros((L1+1,L2+1),dtype=jnp.int32)
	D[:, 0] = jnp.arange(0, D.shape[0], 1)
	D[0, :] = jnp.arange(0, D.shape[1], 1)

	for i1 in range(1,D.shape[0]):
		for i2 in range(1, D.shape[1]):
			cost = 0 if A1[i1 - 1] == A2[i2 - 1] else 1
			D[i1, i2] = min(1+D[i1,i2-1],1+D[i1-1,i2],cost+D[i1-1,i2-1])

	return D[-1,-1]


KOT, KOD = jnp.array([11, 15, 20]), jnp.array([11, 15, 4])
TELEFON, TELEGRAF = jnp.array([20, 5, 12, 5, 6, 15, 14]), jnp.array([20, 5, 12, 5, 7, 18, 1, 6])


def test_levenshtein_enumerate_from_one_and_int_of_the_traced_distance():
    agree(levenshtein_distance, (KOT, KOD), (KOT, KOT))
    agree(levenshtein_distance, (TELEFON, TELEGRAF), (TELEGRAF[:7], TELEFON[::-1]))


def test_levenshtein_conditional_cost_and_builtin_min_of_traced_items():
    agree(levenshtain_distance, (TELEFON, TELEGRAF), (TELEGRAF[:7], TELEFON[::-1]))
    agree_vmap(levenshtain_distance, jnp.stack([KOT, KOD, KOT[::-1]]), KOD, in_axes=(0, None))
