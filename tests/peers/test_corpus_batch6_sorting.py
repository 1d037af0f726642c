"""Corpus of public functions, sixth batch, sorting, selection, grids and counting: two
bubble sorts and two insertion sorts that sort their argument in place (one through a
`swap` helper, one with `while j >= 0 and array[j] > key`), a Lomuto partition and the
recursive quickselect built on it, two games of life (a LeetCode one on a board whose
cells are tested with `in [1, 3]`, one that indexes the board with tuples and decides each
cell by an `if/elif` chain on an int flag a traced test sets), a histogram that counts
each bin with `len(x[mask])`, and a union-find whose `find` recurs with path compression.
Edits: `np.` becomes `jnp.`; functions that return nothing are called by a wrapper that
returns the array they sorted; drivers are the tests'.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph

from tests.peers.corpus_harness import agree, agree_vmap, close, i32, key, plain


# --- Qblack/InterviewPrep: Sorts/sorts.py (bubble_sort, swap, insertion_sort) -------------

def bubble_sort(array):
    n = len(array)

    swapped = True
    while swapped:
        swapped = False
        i = 0
        while i < n - 1:
            if array[i] > array[i + 1]:
                swap(array, i, i + 1)
                swapped = True
            i += 1



def swap(array, j, k):
    temp = array[j]
    array[j] = array[k]
    array[k] = temp


def insertion_sort(array):
    n = len(array)
    i = 1
    while i < n:
        if array[i - 1] > array[i]:
            j = i
            while array[j-1] > array[j] and j > 0:
                swap(array, j-1, j)
                j -= 1
        i += 1


def bubble_sorted(a):
    """The test's wrapper: `bubble_sort` sorts in place and returns None."""
    bubble_sort(a)
    return a


def insertion_sorted(a):
    """The test's wrapper: `insertion_sort` sorts in place and returns None."""
    insertion_sort(a)
    return a


UNSORTED = jnp.array([5, 1, 4, 2, 8, 0], dtype=i32)
FLOATS = jnp.array([0.5, -1.0, 3.0, 2.5, -1.0, 0.0])


def test_bubble_sort_while_swapped_through_a_swap_helper():
    agree(bubble_sorted, (UNSORTED,), (UNSORTED[::-1] * 3 - 7,))
    agree_vmap(bubble_sorted, jnp.stack([FLOATS, FLOATS[::-1], -FLOATS]))


def test_insertion_sort_while_on_an_item_test_and_a_traced_index():
    agree(insertion_sorted, (UNSORTED,), (jnp.sort(UNSORTED)[::-1],))
    agree_vmap(insertion_sorted, jnp.stack([FLOATS, FLOATS[::-1], -FLOATS]))


def test_sorts_called_converted_sort_a_numpy_argument_in_place():
    for sort in (bubble_sort, insertion_sort):
        expected = np.array([3.0, -2.0, 7.0, 1.0, 0.0], dtype=np.float32)
        actual = expected.copy()
        assert plain(sort, expected) is None
        sort(expected)   # the plain run sorted a copy; this one sorts `expected`
        assert autograph.convert(sort)(actual) is None
        close(actual, expected)


# --- jabertuhin/data-structures-and-algorithms: algorithms/sorting/sort.py ----------------

def insertion_sort_key(array):
    print("=====Insertion Sort=====")

    for i in range(1, len(array), 1):
        key = array[i]
        j = i - 1
        while j >= 0 and array[j] > key:
            array[j + 1] = array[j]
            j = j - 1
        array[j + 1] = key
    return array


def bubble_sort_temp(number_array):
    print("=====Bubble Sort=====")

    for i in range(0, len(number_array), 1):
        for j in range(i + 1, len(number_array), 1):
            if number_array[i] > number_array[j]:
                temp = number_array[i]
                number_array[i] = number_array[j]
                number_array[j] = temp
    return number_array


def test_insertion_sort_key_written_at_a_traced_index_after_the_while():
    agree(insertion_sort_key, (UNSORTED,), (jnp.sort(UNSORTED)[::-1],), (FLOATS,))
    agree_vmap(insertion_sort_key, jnp.stack([FLOATS, FLOATS[::-1], -FLOATS]))


def test_exchange_sort_temp_swap_under_a_traced_if():
    agree(bubble_sort_temp, (UNSORTED,), (FLOATS,))
    agree_vmap(bubble_sort_temp, jnp.stack([FLOATS, FLOATS[::-1], -FLOATS]))


# --- out-somniac/asd: practice/by_topic/sorting/quick_sort/select.py ----------------------

def partition(array, start, stop):
    """ Function that uses a hoare partition scheme to divide the array in two """
    pivot = array[stop]
    i = start - 1
    for j in range(start, stop):
        if array[j] <= pivot:
            i += 1
            array[i], array[j] = array[j], array[i]
    i += 1
    array[i], array[stop] = array[stop], array[i]
    return i

def select(array, start, stop, k):
    """ Main algorithm implementation. Divides the array in two parts and recur for one part of this array. """
    if stop == start:
        return array[start]
    if start < stop:
        q = partition(array, start, stop)
        if q == k:
            return array[q]
        elif q < k:
            return select(array, q + 1, stop, k)
        else:
            return select(array, start, q - 1, k)


def partitioned(a):
    """The test's wrapper: the pivot's place and the array `partition` rearranged."""
    q = partition(a, 0, len(a) - 1)
    return q, a


def test_lomuto_partition_tuple_swaps_at_a_traced_index():
    agree(partitioned, (UNSORTED,), (FLOATS,), (jnp.sort(FLOATS),))
    agree_vmap(partitioned, jnp.stack([FLOATS, FLOATS[::-1], -FLOATS]))


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `select` recurses under the traced `elif q < k`, a depth known '
    'only at run time (the project stops at 16 levels and names the call). Before, '
    '`return select(...)` under the `if` was refused as a writing call inside a '
    'conditional expression (the returns were folded into one), fixed in passes.returns'))
def test_quickselect_recursion_on_the_traced_pivot_place():
    agree(lambda a: select(a, 0, len(a) - 1, 2), (UNSORTED,), (FLOATS,))


# --- riyazahamad03/Arsh-s-Sheet: Arrays/Medium/leetcode289.py (solution.gameOfLife) -------

class solution:
    def gameOfLife(self, board: list[list[int]]):
        rows, cols = len(board), len(board[0])

        def totNei(r, c):
            nei = 0
            for i in range(r - 1, r + 2):
                for j in range(c - 1, c + 2):
                    if ((i == r and j == c) or i < 0 or j < 0 or i == rows or j == cols):
                        continue
                    if board[i][j] in [1, 3]:
                        nei += 1
            return nei

        for i in range(rows):
            for j in range(cols):
                nei = totNei(i, j)
                if board[i][j] == 1:
                    if nei in [2, 3]:
                        board[i][j] = 3
                elif nei == 3:
                    board[i][j] = 2
        for i in range(rows):
            for j in range(cols):
                if board[i][j] == 1:
                    board[i][j] = 0
                elif board[i][j] in [2, 3]:
                    board[i][j] = 1
        return board


def game_of_life_board(board):
    """The test's driver, as the module's `print(x.gameOfLife(board=...))`."""
    return solution().gameOfLife(board)


BLINKER = jnp.array([[0, 1, 0], [0, 0, 1], [1, 1, 1], [0, 0, 0]], dtype=i32)


def test_leetcode_life_in_tests_of_traced_cells_on_an_array_board():
    agree(game_of_life_board, (BLINKER,), (1 - BLINKER,), (BLINKER[::-1],))
    agree_vmap(game_of_life_board, jnp.stack([BLINKER, 1 - BLINKER, BLINKER[::-1]]))


def test_leetcode_life_on_a_list_of_lists_of_traced_cells():
    def on_lists(board):
        return game_of_life_board([[board[i, j] for j in range(3)] for i in range(4)])
    agree(on_lists, (BLINKER,), (1 - BLINKER,))


# --- nicovgross/game-of-life: game.py (initialize_board, check_neighbors, update_board) ---

def initialize_board(n):
    board = jnp.zeros([n, n])
    return board

def check_neighbors(board, cell):
    live_neighbors = 0
    i = cell[0]
    j = cell[1]

    neighbors = [tuple([i-1, j-1]), tuple([i-1, j]), tuple([i-1, j+1]), tuple([i, j+1]),
                 tuple([i+1, j+1]), tuple([i+1, j]), tuple([i+1, j-1]), tuple([i, j-1])]

    for neighbor in neighbors:
        if neighbor[0] < 0 or neighbor[0] > board.shape[0]-1 or neighbor[1] < 0 or neighbor[1] > board.shape[0]-1:
            continue
        if board[neighbor] == 1:
            live_neighbors += 1

    return live_neighbors

def update_board(prev_board):
    n = prev_board.shape[0]
    new_board = initialize_board(n)

    for i in range(n):
        for j in range(n):
            cell = tuple([i, j])

            alive = 0
            if prev_board[cell] == 1:
                alive = 1

            live_neighbors = check_neighbors(prev_board, cell)

            if alive and live_neighbors < 2:
                new_board[cell] = 0
            elif alive and (live_neighbors == 2 or live_neighbors == 3):
                new_board[cell] = 1
            elif alive and live_neighbors > 3:
                new_board[cell] = 0
            elif not alive and live_neighbors == 3:
                new_board[cell] = 1

    return new_board


def life_generations(board, generations):
    """`main`'s loop (`while True: if i == 4: break ...`) without its prints."""
    i = 0
    while True:
        if i == generations:
            break
        board = update_board(board)
        i += 1
    return board


GLIDER = jnp.array([[0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [1, 1, 1, 0, 0],
                    [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]], dtype=jnp.float32)


def test_life_tuple_cells_and_an_int_flag_set_by_a_traced_test():
    agree(lambda b: life_generations(b, 2), (GLIDER,), (GLIDER.T,), (1.0 - GLIDER,))
    agree_vmap(lambda b: life_generations(b, 1), jnp.stack([GLIDER, GLIDER.T, 1.0 - GLIDER]))


# --- RenVit318/numericalrecipes: handin2/plotting.py (hist) -------------------------------

def hist(x, binmin, binmax, nbins, log=False):
    """"""
    if log:
        bin_edges = jnp.logspace(jnp.log10(binmin), jnp.log10(binmax), nbins+1)
    else:
        bin_edges = jnp.linspace(binmin, binmax, nbins+1)

    histogram = jnp.zeros(nbins)
    for i in range(nbins):
        bin_mask = (x>bin_edges[i]) * (x<bin_edges[i+1])
        histogram[i] = len(x[bin_mask])#/(bin_edges[i+1]-bin_edges[i])

    return histogram, bin_edges


SAMPLES = jax.random.uniform(key(0), (24,)) * 10.0


def test_histogram_len_of_a_masked_selection_per_bin():
    agree(lambda x: hist(x, 0.0, 10.0, 5), (SAMPLES,), (SAMPLES[::-1] * 0.5,))
    agree(lambda x: hist(x, 0.1, 10.0, 4, log=True), (SAMPLES,))
    agree_vmap(lambda x: hist(x, 0.0, 10.0, 5), jnp.stack([SAMPLES, SAMPLES * 0.5]))


# --- andy-yangz/play_with_algo_py3: section_8/union_find5.py (UnionFind) ------------------

class UnionFind:
    def __init__(self, n):
        self.count = n
        self.parent = []
        self.rank = []
        for i in range(n):
            self.parent.append(i)
            self.rank.append(1)

    def find(self, p):
        assert 0<= p <self.count, "{p} is out of range."
        # while p!=self.parent[p]:
        #     self.parent[p] = self.parent[self.parent[p]]
        #     p = self.parent[p]
        if p != self.parent[p]:
            self.parent[p] = self.find(self.parent[p])
        return self.parent[p]

    def is_connected(self, p, q):
        return self.find(p) == self.find(q)

    def union(self, p, q):
        proot = self.find(p)
        qroot = self.find(q)

        if proot == qroot:
            return
        if self.rank[proot] < self.rank[qroot]:
            self.parent[proot] = qroot
        elif self.rank[qroot] < self.rank[proot]:
            self.parent[qroot] = proot
        else:
            self.parent[proot] = qroot
            self.rank[qroot] += 1


def components(pairs):
    """The test's driver: the unions of `pairs` (a traced (k, 2) int array) over 6 items."""
    uf = UnionFind(6)
    for k in range(pairs.shape[0]):
        uf.union(pairs[k, 0], pairs[k, 1])
    return [uf.is_connected(0, i) for i in range(6)], uf.rank


PAIRS = jnp.array([[0, 1], [2, 3], [1, 3], [4, 5]], dtype=i32)


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `find` recurs while `p != self.parent[p]`, a traced test, so '
    'the depth of the recursion is known only at run time (the project stops at 16 '
    'levels and names the call)'))
def test_union_find_recursive_find_with_path_compression():
    agree(components, (PAIRS,), (PAIRS[::-1],))
