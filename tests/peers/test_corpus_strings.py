"""Corpus of public functions, string algorithms: edit distance (a class with a bottom-up
table and a memoised recursion), three Levenshtein functions with NumPy tables,
Needleman-Wunsch fill and traceback, the Z-function and the KMP prefix function. Strings
become int arrays of token ids; tables stay Python lists or arrays written item by item, as
in the originals.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax.numpy as jnp
import pytest

import autograph
from tests.peers.corpus_harness import agree, i32

S1, T1 = jnp.array([1, 2, 3, 4, 2, 1], i32), jnp.array([2, 3, 1, 4, 2], i32)
S2, T2 = jnp.array([5, 5, 1, 2, 3, 3], i32), jnp.array([5, 1, 2, 2, 3], i32)


# --- TheAlgorithms/Python dynamic_programming/edit_distance.py -----------------------------

class EditDistance:
    def __init__(self):
        self.word1 = ""
        self.word2 = ""
        self.dp = []

    def __min_dist_top_down_dp(self, m, n):
        if m == -1:
            return n + 1
        elif n == -1:
            return m + 1
        elif self.dp[m][n] > -1:
            return self.dp[m][n]
        else:
            if self.word1[m] == self.word2[n]:
                self.dp[m][n] = self.__min_dist_top_down_dp(m - 1, n - 1)
            else:
                insert = self.__min_dist_top_down_dp(m, n - 1)
                delete = self.__min_dist_top_down_dp(m - 1, n)
                replace = self.__min_dist_top_down_dp(m - 1, n - 1)
                self.dp[m][n] = 1 + min(insert, delete, replace)
            return self.dp[m][n]

    def min_dist_top_down(self, word1, word2):
        self.word1 = word1
        self.word2 = word2
        self.dp = [[-1 for _ in range(len(word2))] for _ in range(len(word1))]
        return self.__min_dist_top_down_dp(len(word1) - 1, len(word2) - 1)

    def min_dist_bottom_up(self, word1, word2):
        self.word1 = word1
        self.word2 = word2
        m = len(word1)
        n = len(word2)
        self.dp = [[0 for _ in range(n + 1)] for _ in range(m + 1)]
        for i in range(m + 1):
            for j in range(n + 1):
                if i == 0:  # first string is empty
                    self.dp[i][j] = j
                elif j == 0:  # second string is empty
                    self.dp[i][j] = i
                elif word1[i - 1] == word2[j - 1]:  # last characters are equal
                    self.dp[i][j] = self.dp[i - 1][j - 1]
                else:
                    insert = self.dp[i][j - 1]
                    delete = self.dp[i - 1][j]
                    replace = self.dp[i - 1][j - 1]
                    self.dp[i][j] = 1 + min(insert, delete, replace)
        return self.dp[m][n]


def test_edit_distance_bottom_up():
    agree(lambda a, b: EditDistance().min_dist_bottom_up(a, b), (S1, T1), (S2, T2))


def test_edit_distance_top_down_memoised():
    # the memo test `self.dp[m][n] > -1` is traced: both branches recurse while tracing
    agree(lambda a, b: EditDistance().min_dist_top_down(a, b), (S1[:3], T1[:2]),
          (S2[:3], T2[:2]))


# --- levenshtein with NumPy tables ---------------------------------------------------------

def levenshtein_distance(s, t):   # kwmsmith/scipy-2015-cython-tutorial
    m = len(s)
    n = len(t)
    d = jnp.zeros((m+1, n+1), dtype=jnp.int32)
    d[1:, 0] = jnp.arange(1, m+1, dtype=jnp.int32)
    d[0, 1:] = jnp.arange(1, n+1, dtype=jnp.int32)
    for j in range(1, n+1):
        for i in range(1, m+1):
            if s[i-1] == t[j-1]:
                d[i, j] = d[i-1, j-1]
            else:
                d[i, j] = min(d[i-1, j] + 1, d[i, j-1] + 1, d[i-1, j-1] + 1)
    return d[m, n]


def Levenshtein(s, t):   # silviaegt/bdcv_metadata
    m = len(s)+1
    n = len(t)+1
    d = jnp.zeros([m, n])
    for i in range(1, m):
        d[i][0] = i
    for i in range(1, n):
        d[0][i] = i
    for j in range(1, n):
        for i in range(1, m):
            if s[i-1] == t[j-1]:
                const = 0
            else:
                const = 1
            d[i][j] = min([d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+const])
    return d[m-1][n-1]


def levenshtein_numpy(source, target):   # foobar999/Suchmaschine
    if len(source) < len(target):
        return levenshtein_numpy(target, source)
    if len(target) == 0:
        return len(source)
    source = jnp.array(tuple(source))
    target = jnp.array(tuple(target))
    previous_row = jnp.arange(target.size + 1)
    for s in source:
        current_row = previous_row + 1
        current_row[1:] = jnp.minimum(current_row[1:], jnp.add(previous_row[:-1], target != s))
        current_row[1:] = jnp.minimum(current_row[1:], current_row[0:-1] + 1)
        previous_row = current_row
    return previous_row[-1]


@pytest.mark.parametrize('fn', [levenshtein_distance, Levenshtein, levenshtein_numpy])
def test_levenshtein_with_arrays(fn):
    agree(fn, (S1, T1), (S2, T2))


def test_levenshtein_numpy_shorter_source_swaps():
    agree(levenshtein_numpy, (T1, S1), (T2, S2))


# --- kazumisawa/genome-infomation-analysis (Needleman-Wunsch), simpleParadox (DTW) ---------

def maximumMatchMatrix(S, d):
    F0 = jnp.zeros_like(S)
    len1, len2 = S.shape
    add1 = jnp.array(list(range(len2)))*(-d)-d
    add2 = jnp.array(list(range(len1+1)))*(-d)
    F1 = jnp.insert(F0, 0, add1, axis=0)
    F = jnp.insert(F1, 0, add2, axis=1)
    compare = jnp.zeros(3)
    for j in range(len2):
        for i in range(len1):
            compare[0] = F[i, j] + S[i, j]
            compare[1] = F[i, j+1] - d
            compare[2] = F[i+1, j] - d
            F[i+1, j+1] = jnp.max(compare)
    return F


def traceBack(F):
    len1, len2 = F.shape
    x, y = len1-1, len2-1
    path1, path2 = list(), list()
    path1.append(x)
    path2.append(y)
    while x != 0 and y != 0:
        s, pos1, pos2 = jnp.zeros(3), {}, {}
        s[0], pos1[0], pos2[0] = F[x-1, y-1], x-1, y-1
        s[1], pos1[1], pos2[1] = F[x-1, y], x-1, y
        s[2], pos1[2], pos2[2] = F[x, y-1], x, y-1
        argmax = jnp.argmax(s)
        x, y = pos1[argmax], pos2[argmax]
        path1.append(x)
        path2.append(y)
    return path1, path2


SCORES = jnp.array([[2.0, -1.0, 1.0, -1.0], [-1.0, 2.0, -1.0, 1.0], [1.0, -1.0, 2.0, 2.0]])


def test_needleman_wunsch_fill():
    agree(maximumMatchMatrix, (SCORES, 1.0), (SCORES[::-1] * 0.5, 2.0))


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the path lists grow by one item per step of a while loop whose '
    'trip count the traced scores decide (the dict read at the traced argmax works)'))
def test_needleman_wunsch_traceback():
    fill = autograph.convert(maximumMatchMatrix)   # (it agrees with the plain fill above)
    agree(traceBack, (fill(SCORES, 1.0),), (fill(SCORES * 0.5, 1.0),))



# --- TheAlgorithms/Python strings: z_function (find_pattern), prefix_function -------------

def z_function(input_str):
    z_result = [0] * len(input_str)

    # initialize interval's left pointer and right pointer
    left_pointer, right_pointer = 0, 0

    for i in range(1, len(input_str)):
        # case when current index is inside the interval
        if i <= right_pointer:
            min_edge = min(right_pointer - i + 1, z_result[i - left_pointer])
            z_result[i] = min_edge

        while go_next(i, z_result, input_str):
            z_result[i] += 1

        # if new index's result gives us more right interval,
        # we've to update left_pointer and right_pointer
        if i + z_result[i] - 1 > right_pointer:
            left_pointer, right_pointer = i, i + z_result[i] - 1

    return z_result


def go_next(i, z_result, s):
    return i + z_result[i] < len(s) and s[z_result[i]] == s[i + z_result[i]]


def find_pattern(pattern, input_str):
    answer = 0
    # concatenate 'pattern' and 'input_str' and call z_function
    # with concatenated string
    z_result = z_function(jnp.concatenate([pattern, input_str]))

    for val in z_result:
        # if value is greater then length of the pattern string
        # that means this index is starting position of substring
        # which is equal to pattern string
        if val >= len(pattern):
            answer += 1

    return answer


def prefix_function(input_string):
    # list for the result values
    prefix_result = [0] * len(input_string)

    for i in range(1, len(input_string)):

        # use last results for better performance - dynamic programming
        j = prefix_result[i - 1]
        while j > 0 and input_string[i] != input_string[j]:
            j = prefix_result[j - 1]

        if input_string[i] == input_string[j]:
            j += 1
        prefix_result[i] = j

    return prefix_result


TEXT = jnp.array([1, 2, 3, 1, 2, 4, 1, 2], i32)
TEXT2 = jnp.array([1, 1, 1, 1, 2, 1, 1, 3], i32)


def test_z_function_find_pattern():
    # `go_next`'s `and`: its right side indexes past the end where its left side is false
    agree(find_pattern, (jnp.array([1, 2], i32), TEXT[:6]), (jnp.array([1, 1], i32), TEXT2[:6]))


def test_prefix_function():
    # the fallback `j = prefix_result[j - 1]`: a list read at a traced index in a while loop
    agree(prefix_function, (TEXT,), (TEXT2,))
