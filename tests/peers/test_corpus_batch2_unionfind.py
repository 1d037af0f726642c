"""Corpus of public functions, second batch, union-find and nearest neighbours: three
union-find classes (NumPy arrays with path halving and union by rank; Python lists with
path compression by halving and a tuple swap under a traced `if`; lists with a two-pass
compression and an early `return`), unioned over traced edge lists, and a k-nearest
neighbour classifier kept as an object. Edits: `np.` becomes `jnp.` where traced values
flow; drivers that build the structure and union the edges are the tests'.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax.numpy as jnp
import pytest

import autograph
from tests.peers.corpus_harness import agree, agree_vmap, i32

EDGES = jnp.array([[0, 1], [2, 3], [1, 3], [4, 5], [3, 0], [6, 5]], i32)
EDGES2 = jnp.array([[5, 4], [3, 2], [2, 1], [0, 6], [6, 4], [1, 1]], i32)


# --- Yamp/home_lab: UnionFind (NumPy arrays, path halving, union by rank) ---------------

class UnionFind:
    def __init__(self, size: int):
        self._rank = jnp.array([1] * size, dtype=jnp.int32)
        self._parent = jnp.array(list(range(size)), dtype=jnp.int32)

    def find(self, x: int) -> int:
        while x != self._parent[x]:
            q = self._parent[x]
            self._parent[x] = self._parent[q]
            x = q
        return x

    def union(self, x: int, y: int) -> int:
        x_r, y_r = self.find(x), self.find(y)

        if x_r == y_r:
            return x_r

        small, big = (x_r, y_r) if self._rank[x_r] < self._rank[y_r] else (y_r, x_r)
        self._parent[small] = big
        self._rank[big] += self._rank[small]

        return self._parent[x_r]

    def connected(self, x: int, y: int) -> bool:
        return self.find(x) == self.find(y)


def union_all_arrays(edges):
    uf = UnionFind(7)
    roots = []
    for k in range(edges.shape[0]):
        roots.append(uf.union(edges[k, 0], edges[k, 1]))
    return roots, uf.connected(0, 2), uf.connected(4, 2), uf._parent, uf._rank


def test_union_find_numpy_arrays():
    agree(union_all_arrays, (EDGES,), (EDGES2,))
    agree_vmap(union_all_arrays, jnp.stack([EDGES, EDGES2]))


# --- ochsnerd/long-range: UnionFind (lists, halving, `ra, rb = rb, ra`) ------------------

class ListUnionFind:
    def __init__(self, n: int):
        self.parent: list = list(range(n))
        self.size: list = [1]*n

    def find(self, a: int) -> int:
        while self.parent[a] != a:
            self.parent[a] = self.parent[self.parent[a]]
            a = self.parent[a]
        return a

    def union(self, a: int, b: int) -> None:
        ra = self.find(a)
        rb = self.find(b)
        if ra != rb:
            if self.size[ra] < self.size[rb]:
                ra, rb = rb, ra
            self.parent[rb] = ra
            self.size[ra] += self.size[rb]


def union_all_lists(edges):
    uf = ListUnionFind(7)
    for k in range(edges.shape[0]):
        uf.union(edges[k, 0], edges[k, 1])
    return [uf.find(i) for i in range(7)], uf.size


def test_union_find_python_lists():
    agree(union_all_lists, (EDGES,), (EDGES2,))


# --- dimateos/UPC-MIRI-TFM: UnionFind (two-pass path compression, early return) ---------

class CountingUnionFind:
    _enabled_path_compression = True

    def __init__(self, size):
        self.size = size
        self.parents = [i for i in range(size)]
        self.num_components = size

    def find_parent(self, elem):
        p = elem
        while p != self.parents[p]:
            p = self.parents[p]

        if CountingUnionFind._enabled_path_compression:
            tmp_elem = elem
            while tmp_elem != p:
                tmp_parent = self.parents[tmp_elem]
                self.parents[tmp_elem] = p
                tmp_elem = tmp_parent

        return p

    def union(self, a, b):
        p1 = self.find_parent(a)
        p2 = self.find_parent(b)
        if p1 == p2: return

        self.parents[p2] = p1
        self.num_components -= 1


def count_components(edges):
    uf = CountingUnionFind(7)
    for k in range(edges.shape[0]):
        uf.union(edges[k, 0], edges[k, 1])
    return uf.num_components, uf.parents


def test_union_find_component_count():
    agree(count_components, (EDGES,), (EDGES2,))
    agree_vmap(count_components, jnp.stack([EDGES, EDGES2]))


# --- Kang48/CS-433: KNN (argsort, bincount majority vote) ---------------------------------

class KNN:
    def __init__(self, k=3):
        self.k = k

    def fit(self, X, y):
        self.X_train = X
        self.y_train = y

    def predict(self, X):
        predictions = [self._predict(x) for x in X]
        return jnp.array(predictions)

    def _predict(self, x):
        distances = jnp.sqrt(jnp.sum((self.X_train - x)**2, axis=1))
        k_indices = jnp.argsort(distances)[:self.k]
        k_nearest_labels = self.y_train[k_indices]
        most_common = jnp.bincount(k_nearest_labels).argmax()
        return most_common


TRAIN = jnp.array([[0., 0.], [0., 1.], [1., 0.], [5., 5.], [5., 6.], [6., 5.], [9., 0.]])
LABELS = jnp.array([0, 0, 0, 1, 1, 1, 2], i32)
QUERIES = jnp.array([[0.5, 0.2], [5.2, 5.1], [8., 1.], [3., 3.]])


def knn_run(train, labels, queries):
    model = KNN(k=3)
    model.fit(train, labels)
    return model.predict(queries)


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `jnp.bincount` of traced labels has max(labels) + 1 counts, a '
    'length known only at run time (JAX asks for `length=`)'))
def test_knn_majority_vote():
    agree(knn_run, (TRAIN, LABELS, QUERIES), (TRAIN[::-1], LABELS[::-1], QUERIES[::-1]))
