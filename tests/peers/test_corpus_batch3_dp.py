"""Corpus of public functions, third batch, dynamic programming: an edit distance table
whose first row and column sit at index -1 (NumPy's wrap-around), and two 0/1 knapsacks
with a traceback (lists of lists and a namedtuple of items; the chosen items collected in
a list whose length the traced values decide). Edits: strings become int arrays of token
ids; `np.` becomes `jnp.` where traced values flow.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
from collections import namedtuple

import jax.numpy as jnp
import pytest

import autograph
from tests.peers.corpus_harness import agree, agree_vmap, i32


# --- tomli380576/ECS122A-Algorithms-python-implementation: edit-distance.py ------------

def EditDistance_DP(A, B):
    dpTable = jnp.zeros(shape=(len(A) + 1, len(B) + 1), dtype='int')

    for k in range(len(B)):
        dpTable[-1, k] = k + 1  # if i == 0: return j + 1
    for k in range(len(A)):
        dpTable[k, -1] = k + 1  # if j == 0: return i + 1

    # Order of Evaluaion
    # it doesn't really matter which loop goes on the outside
    for i in range(len(A)):
        for j in range(len(B)):
            dpTable[i, j] = min(
                dpTable[i, j - 1] + 1, dpTable[i - 1, j] + 1,
                dpTable[i - 1, j - 1] + (1 if A[i] != B[j] else 0))
    return dpTable[len(A) - 1, len(B) - 1]


def test_edit_distance_table_with_wraparound_border():
    a = jnp.array([1, 2, 3, 4, 5, 6], dtype=i32)
    b = jnp.array([1, 2, 7, 5, 4, 6, 8], dtype=i32)
    agree(EditDistance_DP, (a, b), (a[::-1], b[::-1]))
    agree_vmap(EditDistance_DP, jnp.stack([a, a[::-1], a * 0]), b, in_axes=(0, None))


# --- sbwcwso/CLRS_notes: ch16/knapsack.py (knapsack) ------------------------------------

Item = namedtuple('Item', 'w, v')

def knapsack(items, W):
  n = len(items)
  c = [[0 for j in range(W+1)] for i in range(n+1)]
  d = [[0 for j in range(W+1)] for i in range(n+1)]

  for i in range(1, n+1):
    for j in range(1, W+1):
      c[i][j] = c[i-1][j]
      if j - items[i-1].w >= 0:
        t = c[i-1][j - items[i-1].w] + items[i-1].v
        if t > c[i][j]:
          c[i][j], d[i][j] = t, 1

  # 重构最优解
  res = []
  i, j = n, W
  while i > 0:
    if d[i][j] == 1:
      res.append(items[i-1])
      j = j - items[i-1].w
    i -= 1

  return res


def clrs_best_value(values):
    items = [Item(w, values[k]) for k, w in enumerate([2, 3, 4, 5])]
    return sum(item.v for item in knapsack(items, 7))


def clrs_chosen(values):
    items = [Item(w, values[k]) for k, w in enumerate([2, 3, 4, 5])]
    return knapsack(items, 7)


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the list of chosen items has a length the traced values decide '
    '(summed or returned)'))
@pytest.mark.parametrize('fn', [clrs_best_value, clrs_chosen])
def test_knapsack_list_of_chosen_items(fn):
    agree(fn, (jnp.array([3.0, 4.0, 5.0, 6.0]),), (jnp.array([6.0, 1.0, 1.0, 7.0]),))


# --- tapaseid/dsa: dynamic_programming/0_1_knapsack.py (knapSack_test) -------------------

def knapSack_test(W, wt, val, n, unique_no):
	# time complexity O(nW)
	# space complexity O(nW)

	K = [[0 for x in range(W+1)] for x in range(n+1)]

	# Build table K[][] in bottom up manner
	for i in range(n+1):
		for w in range(W+1):
			if i==0 or w==0:
				K[i][w] = 0
			elif wt[i-1] <= w:
				K[i][w] = max(val[i-1] + K[i-1][w-wt[i-1]], K[i-1][w])
			else:
				K[i][w] = K[i-1][w]

	res = K[n][W]
	L = [res]
	w = W
	for i in range(n, 0, -1):
	    if res == K[i-1][w]:
	        continue
	    else:
	        L.insert(0, unique_no[i-1])
	        res -= val[i-1]
	        w -= wt[i-1]
	return L


def knapsack_value(val):
    return knapSack_test(30, [13, 28, 12], val, 3, [38, 21, 13])[-1]


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `L.insert(0, ...)` under a traced test gives a list whose length '
    'is known only at run time (its last item read, or the list returned)'))
@pytest.mark.parametrize('fn', [knapsack_value, lambda val: knapSack_test(
    30, [13, 28, 12], val, 3, [38, 21, 13])])
def test_knapsack_traceback_list_insert(fn):
    agree(fn, (jnp.array([500.0, 1800.0, 1500.0]),), (jnp.array([5.0, 1.0, 9.0]),))


# --- rcook0/DP: sequence_alignment_traceback.py (needleman_wunsch_align) -----------------

def needleman_wunsch_align(a, b, match=1, mismatch=-1, gap=-2):
    n, m = len(a), len(b)
    dp = [[0]*(m+1) for _ in range(n+1)]
    # traceback pointers: 0 diag, 1 up, 2 left
    tb = [[0]*(m+1) for _ in range(n+1)]
    for i in range(1,n+1):
        dp[i][0] = i*gap
        tb[i][0] = 1
    for j in range(1,m+1):
        dp[0][j] = j*gap
        tb[0][j] = 2
    for i in range(1,n+1):
        for j in range(1,m+1):
            sc = match if a[i-1]==b[j-1] else mismatch
            diag = dp[i-1][j-1] + sc
            up = dp[i-1][j] + gap
            left = dp[i][j-1] + gap
            best = max(diag, up, left)
            dp[i][j] = best
            tb[i][j] = 0 if best==diag else (1 if best==up else 2)
    # traceback
    i, j = n, m
    a_aln, b_aln = [], []
    while i>0 or j>0:
        if i>0 and j>0 and tb[i][j]==0:
            a_aln.append(a[i-1]); b_aln.append(b[j-1])
            i-=1; j-=1
        elif i>0 and (j==0 or tb[i][j]==1):
            a_aln.append(a[i-1]); b_aln.append(-1)
            i-=1
        else:
            a_aln.append(-1); b_aln.append(b[j-1])
            j-=1
    return dp[n][m], list(reversed(a_aln)), list(reversed(b_aln))


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the aligned sequences grow by a traced traceback, so their '
    'length is known only at run time'))
def test_needleman_wunsch_traceback_lists():
    a = jnp.array([1, 2, 3, 3, 2, 4, 2], dtype=i32)
    b = jnp.array([1, 4, 2, 3, 1, 4, 5], dtype=i32)
    agree(needleman_wunsch_align, (a, b), (b, a))
