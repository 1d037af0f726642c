"""Corpus of public functions, dynamic programming (TheAlgorithms/Python): LCS, knapsack,
longest increasing subsequence (two ways), matrix chain, coin change, Kadane, minimum cost
path, trapped water, rod cutting, non-adjacent sum and longest common substring. Sequences
are int arrays; tables stay Python lists or arrays written item by item, as in the
originals.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import copy

import jax.numpy as jnp
import pytest

import autograph
from tests.peers.corpus_harness import agree, agree_vmap, i32

S1, T1 = jnp.array([1, 2, 3, 4, 2, 1], i32), jnp.array([2, 3, 1, 4, 2], i32)
S2, T2 = jnp.array([5, 5, 1, 2, 3, 3], i32), jnp.array([5, 1, 2, 2, 3], i32)


# --- TheAlgorithms/Python: LCS, knapsack, LIS, matrix chain, coin change, Kadane -----------

def longest_common_subsequence(x, y):
    assert x is not None
    assert y is not None
    m = len(x)
    n = len(y)
    dp = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            match = 1 if x[i - 1] == y[j - 1] else 0
            dp[i][j] = max(dp[i - 1][j], dp[i][j - 1], dp[i - 1][j - 1] + match)
    seq = []
    i, j = m, n
    while i > 0 and j > 0:
        match = 1 if x[i - 1] == y[j - 1] else 0
        if dp[i][j] == dp[i - 1][j - 1] + match:
            if match == 1:
                seq = [x[i - 1]] + seq
            i -= 1
            j -= 1
        elif dp[i][j] == dp[i - 1][j]:
            i -= 1
        else:
            j -= 1
    return dp[m][n], seq


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the subsequence grows in a staged while loop by a traced number '
    'of items: a length known only at run time'))
def test_longest_common_subsequence():
    agree(longest_common_subsequence, (S1, T1), (S2, T2))


def knapsack(w, wt, val, n):
    dp = [[0] * (w + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        for w_ in range(1, w + 1):
            if wt[i - 1] <= w_:
                dp[i][w_] = max(val[i - 1] + dp[i - 1][w_ - wt[i - 1]], dp[i - 1][w_])
            else:
                dp[i][w_] = dp[i - 1][w_]
    return dp[n][w_], dp


def test_knapsack_traced_values():
    wt = [4, 3, 2, 3]
    agree(lambda val: knapsack(6, wt, val, 4), (jnp.array([3.0, 2.0, 4.0, 4.0]),),
          (jnp.array([1.0, 5.0, 2.0, 3.0]),))


def test_knapsack_traced_weights():
    # weights traced too: `w_ - wt[i - 1]` indexes a Python list at a traced index
    agree(lambda wt, val: knapsack(5, wt, val, 3)[0],
          (jnp.array([4, 3, 2]), jnp.array([3.0, 2.0, 4.0])),
          (jnp.array([1, 5, 2]), jnp.array([1.0, 5.0, 2.0])))


def ceil_index(v, left, right, key):
    while right - left > 1:
        middle = (left + right) // 2
        if v[middle] >= key:
            right = middle
        else:
            left = middle
    return right


def longest_increasing_subsequence_length(v):
    if len(v) == 0:
        return 0
    tail = [0] * len(v)
    length = 1
    tail[0] = v[0]
    for i in range(1, len(v)):
        if v[i] < tail[0]:
            tail[0] = v[i]
        elif v[i] > tail[length - 1]:
            tail[length] = v[i]
            length += 1
        else:
            tail[ceil_index(tail, -1, length - 1, v[i])] = v[i]
    return length


def longest_subsequence(array):
    n = len(array)
    longest_increasing_subsequence = []
    for i in range(n):
        longest_increasing_subsequence.append([array[i]])
    for i in range(1, n):
        for prev in range(i):
            if array[prev] <= array[i] and len(
                longest_increasing_subsequence[prev]
            ) + 1 > len(longest_increasing_subsequence[i]):
                longest_increasing_subsequence[i] = copy.copy(
                    longest_increasing_subsequence[prev]
                )
                longest_increasing_subsequence[i].append(array[i])
    result = []
    for i in range(n):
        if len(longest_increasing_subsequence[i]) > len(result):
            result = longest_increasing_subsequence[i]
    return result


def test_longest_increasing_subsequence_length():
    agree(longest_increasing_subsequence_length,
          (jnp.array([10, 22, 9, 33, 21, 50, 41, 60], i32),),
          (jnp.array([5, 4, 3, 2, 6, 7, 1, 8], i32),))


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the lists grow under a traced `if`: lengths known only at run '
    'time'))
def test_longest_subsequence_lists_of_lists():
    agree(longest_subsequence, (jnp.array([10, 22, 9, 33, 21, 50], i32),),
          (jnp.array([5, 4, 3, 2, 6, 7], i32),))


def matrix_chain_order(array):
    n = len(array)
    matrix = [[0 for _ in range(n)] for _ in range(n)]
    sol = [[0 for _ in range(n)] for _ in range(n)]
    for chain_length in range(2, n):
        for a in range(1, n - chain_length + 1):
            b = a + chain_length - 1
            matrix[a][b] = jnp.iinfo(jnp.int32).max
            for c in range(a, b):
                cost = matrix[a][c] + matrix[c + 1][b] + array[a - 1] * array[c] * array[b]
                if cost < matrix[a][b]:
                    matrix[a][b] = cost
                    sol[a][b] = c
    return matrix, sol


def test_matrix_chain_order():
    agree(matrix_chain_order, (jnp.array([30, 35, 15, 5, 10, 20], i32),),
          (jnp.array([5, 10, 3, 12, 5, 50], i32),))


def dp_count(s, n):
    if n < 0:
        return 0
    table = [0] * (n + 1)
    table[0] = 1
    for coin_val in s:
        for j in range(coin_val, n + 1):
            table[j] += table[j - coin_val]
    return table[n]


def test_coin_change_traced_coins():
    agree(lambda s: dp_count(s, 10), (jnp.array([1, 2, 3], i32),), (jnp.array([2, 5, 3], i32),))


def max_subarray_sum(arr, allow_empty_subarrays=False):
    if len(arr) == 0:
        return 0
    max_sum = 0 if allow_empty_subarrays else float("-inf")
    curr_sum = 0.0
    for num in arr:
        curr_sum = max(0 if allow_empty_subarrays else num, curr_sum + num)
        max_sum = max(max_sum, curr_sum)
    return max_sum


@pytest.mark.parametrize('allow_empty', [False, True])
def test_max_subarray_sum(allow_empty):
    kadane = lambda a: max_subarray_sum(a, allow_empty)
    agree(kadane, (jnp.array([-2.0, 1.0, -3.0, 4.0, -1.0, 2.0, 1.0, -5.0, 4.0]),),
          (jnp.array([-2.0, -3.0, -1.0, -4.0, -6.0, -1.0, -2.0, -1.0, -9.0]),))
    if not allow_empty:   # per row: `max` of traced values
        agree_vmap(kadane, jnp.array([[-2.0, 1.0, 3.0], [-1.0, -2.0, -3.0]]))


def minimum_cost_path(matrix):
    for i in range(1, len(matrix[0])):
        matrix[0][i] += matrix[0][i - 1]
    for i in range(1, len(matrix)):
        matrix[i][0] += matrix[i - 1][0]
    for i in range(1, len(matrix)):
        for j in range(1, len(matrix[0])):
            matrix[i][j] += min(matrix[i - 1][j], matrix[i][j - 1])
    return matrix[-1][-1]


def test_minimum_cost_path():
    agree(minimum_cost_path, (jnp.array([[2, 1, 3], [4, 1, 5], [1, 6, 2]], i32),),
          (jnp.array([[1, 9, 1], [1, 9, 1], [3, 2, 7]], i32),))


def trapped_rainwater(heights):
    if len(heights) == 0:
        return 0
    if any(h < 0 for h in heights):
        raise ValueError("No height can be negative")
    length = len(heights)
    left_max = [0] * length
    left_max[0] = heights[0]
    for i, height in enumerate(heights[1:], start=1):
        left_max[i] = max(height, left_max[i - 1])
    right_max = [0] * length
    right_max[-1] = heights[-1]
    for i in range(length - 2, -1, -1):
        right_max[i] = max(heights[i], right_max[i + 1])
    return sum(min(left, right) - height
               for left, right, height in zip(left_max, right_max, heights))


def test_trapped_rainwater():
    agree(trapped_rainwater, (jnp.array([0, 1, 0, 2, 1, 0, 1, 3, 2, 1, 2, 1], i32),),
          (jnp.array([7, 1, 5, 3, 6, 4, 0, 2, 2, 9, 1, 1], i32),))


def test_trapped_rainwater_negative_raises_as_python():
    with pytest.raises(ValueError, match='No height can be negative'):
        autograph.convert(trapped_rainwater)(jnp.array([1, -1, 2], i32))


def bottom_up_cut_rod(n, prices):
    max_rev = [float("-inf") for _ in range(n + 1)]
    max_rev[0] = 0
    for i in range(1, n + 1):
        max_revenue_i = max_rev[i]
        for j in range(1, i + 1):
            max_revenue_i = max(max_revenue_i, prices[j - 1] + max_rev[i - j])
        max_rev[i] = max_revenue_i
    return max_rev[n]


def maximum_non_adjacent_sum(nums):
    if len(nums) == 0:
        return 0
    max_including = nums[0]
    max_excluding = 0
    for num in nums[1:]:
        max_including, max_excluding = (max_excluding + num, max(max_including, max_excluding))
    return max(max_excluding, max_including)


def test_rod_cutting_and_non_adjacent_sum():
    prices = (jnp.array([6.0, 10.0, 12.0, 15.0, 20.0, 23.0]),)
    prices2 = (jnp.array([1.0, 5.0, 8.0, 9.0, 10.0, 17.0]),)
    agree(lambda p: bottom_up_cut_rod(6, p), prices, prices2)
    agree(maximum_non_adjacent_sum, prices, (jnp.array([-1.0, 5.0, -8.0, 9.0, 1.0, 17.0]),))


def longest_common_substring(text1, text2):
    if len(text1) == 0 or len(text2) == 0:
        return ""
    text1_length = len(text1)
    text2_length = len(text2)
    dp = [[0] * (text2_length + 1) for _ in range(text1_length + 1)]
    end_pos = 0
    max_length = 0
    for i in range(1, text1_length + 1):
        for j in range(1, text2_length + 1):
            if text1[i - 1] == text2[j - 1]:
                dp[i][j] = 1 + dp[i - 1][j - 1]
                if dp[i][j] > max_length:
                    end_pos = i
                    max_length = dp[i][j]
    return text1[end_pos - max_length: end_pos]


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the result is a slice with traced bounds, whose length is known '
    'only at run time'))
def test_longest_common_substring():
    agree(longest_common_substring, (S1, T1), (S2, T2))
