"""Corpus of public functions, eighth batch, finance, greedy choice and compression: a binomial
option tree filled by item writes `price_tree[j, i] = ...` and rolled back over
`np.arange(N-1, -1, -1)` and `np.arange(0, i+1)` (an inner bound the outer loop variable
sets), choosing call or put by a Python flag and returning a list or a scalar as another
flag says; an IRR by the fixed-point update `rate *= (1 - npv_f(rate, cashflows) /
investment)` over an `npv_f` that sums `cashflow / (1 + rate) ** i` under `enumerate`; a
fractional knapsack that sorts the item indices with `items.sort(key=lambda i: ratio[i],
reverse=True)` on traced ratios, then writes `fractions[i] = 1` or `capacity // weight[i]`
into a list under a traced test; an LZ77 compressor class whose `codeword_for_position`
walks a `while` on Python ints with a traced `if match_len > longest_match_len`, whose
`_match` leaves a `while` by a traced `break`, and whose `Codeword.__len__` (`prefix_len +
1`) steps the generator `compress`; an activity selection that sorts a list of rows by a
traced finish time and prints the rows a traced test keeps; an IRR by bisection whose `while
abs(npv(cfs, ans)) >= epsilon` tests the builtin `sum` of a list appended under `enumerate`;
a loan script whose `for` over the months is left by a traced `break` and whose loop
variable is read after it; and a Huffman tree over a dict of traced frequencies (`min(d, key
= d.get)`, `d.pop(min_v)`, keys `'n_' + str(sum_freqs)`). Edits: `np.` becomes `jnp.` where
traced values flow; `collections.Sequence` becomes `collections.abc.Sequence`; a script
becomes a function of its inputs; prints kept.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
from collections.abc import Sequence

import jax.numpy as jnp
import numpy as np
import pytest

import autograph

from tests.peers.corpus_harness import agree, agree_grad, agree_vmap

f32 = jnp.float32


# --- zunigafran/binomaloption: main.py (binom_tree_call_put) ----------------------------------

def binom_tree_call_put(N, T, S0, sigma, r, K, call=True, array_out=False):
    #Init
    dt = T/N
    u = jnp.exp(sigma*jnp.sqrt(dt))
    d = 1/u
    p = (jnp.exp(r*dt)-d)/(u-d)

    #Price Tree
    price_tree = jnp.zeros([N+1, N+1])

    for i in range(N+1):
        for j in range (i+1):
            price_tree[j, i] = S0*(d**j)*(u**(i-j))

    #Option Value
    option = jnp.zeros([N+1, N+1])
    if call:
        option[:, N] = jnp.maximum(jnp.zeros(N+1), price_tree[:, N]-K)
    else:
        option[:, N] = jnp.maximum(jnp.zeros(N+1), K-price_tree[:, N])

    #Calculating option price at t=0
    for i in jnp.arange(N-1, -1, -1):
        for j in jnp.arange(0, i+1):
            option[j, i] = jnp.exp(-r*dt)*(p*option[j, i+1]+(1-p)*option[j+1, i+1])

    #Return result
    if array_out:
        return [option[0, 0], price_tree, option]
    else:
        return option[0, 0]


def binom_tree_call_put_np_loops(N, T, S0, sigma, r, K, call=True, array_out=False):
    #Init
    dt = T/N
    u = jnp.exp(sigma*jnp.sqrt(dt))
    d = 1/u
    p = (jnp.exp(r*dt)-d)/(u-d)

    #Price Tree
    price_tree = jnp.zeros([N+1, N+1])

    for i in range(N+1):
        for j in range (i+1):
            price_tree[j, i] = S0*(d**j)*(u**(i-j))

    #Option Value
    option = jnp.zeros([N+1, N+1])
    if call:
        option[:, N] = jnp.maximum(jnp.zeros(N+1), price_tree[:, N]-K)
    else:
        option[:, N] = jnp.maximum(jnp.zeros(N+1), K-price_tree[:, N])

    #Calculating option price at t=0
    for i in np.arange(N-1, -1, -1):
        for j in np.arange(0, i+1):
            option[j, i] = jnp.exp(-r*dt)*(p*option[j, i+1]+(1-p)*option[j+1, i+1])

    #Return result
    if array_out:
        return [option[0, 0], price_tree, option]
    else:
        return option[0, 0]


def test_binomial_tree_rolled_back_over_numpy_aranges_with_item_writes():
    agree(lambda s0, sigma, k: binom_tree_call_put_np_loops(4, 1.0, s0, sigma, 0.06, k, True,
                                                            True),
          (f32(100.0), f32(0.2), f32(99.0)), (f32(90.0), f32(0.3), f32(95.0)), rtol=1e-4)
    agree(lambda s0, sigma, k: binom_tree_call_put_np_loops(4, 1.0, s0, sigma, 0.06, k, False),
          (f32(100.0), f32(0.2), f32(99.0)), (f32(90.0), f32(0.3), f32(95.0)), rtol=1e-4)


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'project bug (named): `for i in jnp.arange(N-1, -1, -1)` over an array of Python ints '
    '(known while tracing) is staged, so `i` is traced and the inner `jnp.arange(0, i+1)` is '
    'refused as TracedValueNeeded; the plain run iterates the concrete array (jax.jit of the '
    'unconverted function fails the same way, ConcretizationTypeError)'))
def test_binomial_tree_rolled_back_over_a_jnp_arange_bounded_by_the_outer_item():
    agree(lambda s0, sigma, k: binom_tree_call_put(4, 1.0, s0, sigma, 0.06, k, True, True),
          (f32(100.0), f32(0.2), f32(99.0)), (f32(90.0), f32(0.3), f32(95.0)), rtol=1e-4)
    agree(lambda s0, sigma, k: binom_tree_call_put(4, 1.0, s0, sigma, 0.06, k, False),
          (f32(100.0), f32(0.2), f32(99.0)), (f32(90.0), f32(0.3), f32(95.0)), rtol=1e-4)


# --- ariczeng2018/Course-STATS-301-2019-2: python_finance_analysis/lessons/IRR.py -------------

def npv_f(rate, cashflows):
    total = 0.0
    for i, cashflow in enumerate(cashflows):
        total += cashflow / (1 + rate) ** i
    return total


def IRR_f(cashflows, interations=100):
    # 内部收益率和法则
    # 内部收益率：使得净现值为0的折现率
    rate = 1.0
    investment = cashflows[0]
    for i in range(1, interations + 1):
        rate *= (1 - npv_f(rate, cashflows) / investment)
    return rate


FLOWS = jnp.array([-100., 30., 40., 50., 20.])
FLOWS2 = jnp.array([-80., 20., 20., 30., 40.])


def test_irr_fixed_point_over_npv_of_an_enumerated_array():
    agree(lambda c: IRR_f(c, 40), (FLOWS,), (FLOWS2,), rtol=1e-4, atol=1e-5)
    agree_grad(lambda c: IRR_f(c, 40), FLOWS)


# --- Khavushka/python_algorithms: fractionael.py (fractional_knapsack) ------------------------

def fractional_knapsack(value, weight, capacity):
    items = list(range(len(value)))
    print(items)
    ratio = [v/w for v, w in zip(value, weight)]
    print(ratio)
    srt_ratios = sorted(ratio, reverse = True)
    print(srt_ratios)
    items.sort(key=lambda i: ratio[i], reverse=True)
    # print(items)

    max_value = 0
    fractions = [0] * len(value)
    print(fractions)
    for i in items:
        if weight[i] <= capacity:
            fractions[i] = 1
            max_value += value[i]
            capacity -= weight[i]
        else:
            fractions[i] = capacity // weight[i]
            max_value += value[i] * capacity // weight[i]

    return max_value


# the module's items, and others
WEIGHT = jnp.array([30., 50., 10., 70., 40.])
VALUE = jnp.array([150., 100., 90., 140., 120.])
WEIGHT2 = jnp.array([20., 40., 25., 10., 60.])
VALUE2 = jnp.array([60., 100., 45., 70., 90.])


def test_fractional_knapsack_indices_sorted_by_traced_ratios_and_list_writes():
    agree(fractional_knapsack, (VALUE, WEIGHT, f32(150.)), (VALUE2, WEIGHT2, f32(75.)))


# --- pynflate/pynflate: src/pynflate/lz77.py (Lz77, Lz77Compressor, Codeword) ---------------

class Lz77(object):
    def __init__(self, sliding_window_length):
        self._sliding_window_length = sliding_window_length

    def compress(self, data):
        lz77 = Lz77Compressor(self._sliding_window_length, data)
        position = 0
        while position < len(data):
            codeword = lz77.codeword_for_position(position)
            position += len(codeword)
            yield codeword


class Lz77Compressor(object):
    def __init__(self, sliding_window_length, data):
        self._sliding_window_length = sliding_window_length
        self._buffer = data

    def codeword_for_position(self, position):
        longest_match_len = 0
        longest_match_offset = 0
        pattern_start_offset = 1
        pattern_start_pos = position - pattern_start_offset

        while pattern_start_offset < self._sliding_window_length and pattern_start_pos >= 0:
            match_len = self._match(pattern_start_pos, position)
            if match_len > longest_match_len:
                longest_match_len = match_len
                longest_match_offset = pattern_start_offset
            pattern_start_offset += 1
            pattern_start_pos -= 1

        return Codeword(longest_match_offset, longest_match_len,
                        self._buffer[position + longest_match_len])

    def _match(self, pattern_pos, matchee_pos):
        match_len = 0

        # The longest match can be until the last character in the buffer, not including it
        while matchee_pos + match_len + 1 < len(self._buffer):
            if self._buffer[pattern_pos + match_len] != self._buffer[matchee_pos + match_len]:
                break
            match_len += 1

        return match_len


class Codeword(object):
    def __init__(self, prefix_start_offset, prefix_len, character):
        self.prefix_start_offset = prefix_start_offset
        self.prefix_len = prefix_len
        self.character = character

    def __len__(self):
        # Plus one for the character that is always present
        return self.prefix_len + 1

    def __eq__(self, other):
        if isinstance(other, Sequence):
            return (
                self.prefix_start_offset == other[0] and
                self.prefix_len == other[1] and
                self.character == other[2]
            )

        else:
            return (
                self.prefix_start_offset == other.prefix_start_offset and
                self.prefix_len == other.prefix_len and
                self.character == other.character
            )

    def __repr__(self):
        return str((self.prefix_start_offset, self.prefix_len, self.character))


# 'abracadabra' and 'aacaacabca' as int arrays
TEXT = jnp.array([0, 1, 17, 0, 2, 0, 3, 0, 1, 17, 0])
TEXT2 = jnp.array([0, 0, 2, 0, 0, 2, 0, 1, 2, 0, 5])


def codeword_fields(data, position):
    cw = Lz77Compressor(6, data).codeword_for_position(position)
    return cw.prefix_start_offset, cw.prefix_len, cw.character


def test_lz77_match_length_while_left_by_a_traced_break():
    agree(lambda d: [Lz77Compressor(6, d)._match(p, 7) for p in range(1, 7)], (TEXT,), (TEXT2,))


def test_lz77_codeword_longest_match_by_a_traced_if_and_a_traced_break():
    agree(lambda d: codeword_fields(d, 7), (TEXT,), (TEXT2,))
    agree_vmap(lambda d: codeword_fields(d, 3), jnp.stack([TEXT, TEXT2, TEXT[::-1]]))


def test_lz77_codeword_compared_with_a_tuple_by_its_eq():
    agree(lambda d: Lz77Compressor(6, d).codeword_for_position(7) == (7, 3, 1), (TEXT,),
          (TEXT2,))


@pytest.mark.xfail(strict=True, raises=autograph.ConversionError, reason=(
    'fixed shapes (named): the generator `compress` yields one codeword per step of '
    '`position += len(codeword)`, a traced step, so the number of codewords is known only '
    'at run time (the project names the generator, run unconverted, and the traced test '
    'of its `while`)'))
def test_lz77_compress_generator_stepped_by_the_len_of_a_traced_codeword():
    agree(lambda d: [(c.prefix_start_offset, c.prefix_len, c.character)
                     for c in Lz77(6).compress(d)], (TEXT,), (TEXT2,))


# --- embydextrous/Interview: greedy/1-activitySelectionProblem.py (activitySelection) --------

def activitySelection(activities):
    activities.sort(key = lambda x : x[1])
    finishTime = 0
    for activity in activities:
        if activity[0] >= finishTime:
            print(activity)
            finishTime = activity[1]
    return finishTime


# the module's activities, and others
ACTIVITIES = jnp.array([[5, 9], [1, 2], [3, 4], [0, 6], [5, 7], [8, 9]])
ACTIVITIES2 = jnp.array([[2, 5], [6, 10], [4, 8], [10, 12], [13, 14], [7, 15]])


def test_activity_selection_list_of_rows_sorted_by_a_traced_finish_time():
    agree(lambda a: activitySelection([[a[i, 0], a[i, 1]] for i in range(len(a))]),
          (ACTIVITIES,), (ACTIVITIES2,))


# --- buroyair/finance: pvcalc.py (npv, irr) ----------------------------------------------------

def npv(cfs, rate):
    """
    Compute the present value

    input:
     cfs as list of numbers, the 0 element in the investment amount
     rate as decimal
    """
    npv = []
    for i, cf in enumerate(cfs):
        npv.append(cf / (1 + rate) ** i)
    return sum(npv)


def irr(cfs):
    epsilon = 0.0001
    numguess = 0
    low = 0.0
    high = 100.0
    ans = (high + low) / 2.0
    while abs(npv(cfs, ans)) >= epsilon:
        numguess += 1
        if npv(cfs, ans) < 0:
            high = ans
        else:
            low = ans
        ans = (high + low) / 2.0
    return ans


def test_irr_bisection_while_on_a_builtin_sum_of_a_list_appended_under_enumerate():
    agree(irr, (FLOWS,), (FLOWS2,))


# --- xcap2000/python-3-fundamentals: loan.py (script) -----------------------------------------

def loan(money_owed, apr, payment, months):
    monthly_rate = apr / 100 / 12

    for i in range(months):
        # Calculate interest to pay
        interest_paid = money_owed * monthly_rate

        # Add in interest
        money_owed = money_owed + interest_paid

        if money_owed - payment < 0:
            print("The last payment is", money_owed)
            print("You paid off the loan in", i+1, "months")
            break

        # Make payment
        money_owed = money_owed - payment

        print("Paid", payment, "of which", interest_paid, "was interest", end = " ")
        print("Now I owe", money_owed)
    return money_owed, i


def test_loan_script_break_on_a_traced_balance_and_the_loop_variable_read_after():
    agree(lambda m, a, p: loan(m, a, p, 12), (f32(5000.), f32(3.), f32(1000.)),
          (f32(50000.), f32(3.), f32(1000.)))
    agree_vmap(lambda m: loan(m, f32(3.), f32(1000.), 12),
               jnp.array([500., 5000., 11000., 50000.]))


# --- Cyofanni/high-school-cs-class: algorithm_drills/huffman.py (extract_min, huffman) -------

def extract_min(d):
  min_v = min(d, key = d.get)
  item = (min_v, d[min_v])
  d.pop(min_v)
  return item

def huffman(table):
  tree = dict()
  i = 0
  for j in range(1, len(table)):
    x = extract_min(table)
    y = extract_min(table)
    sum_freqs = x[1] + y[1]
    node_label = 'n_' + str(sum_freqs) + '_' + str(i)
    table[node_label] = sum_freqs
    tree[node_label] = [x[0], y[0]]
    i += 1

  return tree


# the module's table
FREQS = jnp.array([45., 13., 12., 16., 9., 5.])
FREQS2 = jnp.array([5., 9., 12., 13., 16., 45.])


def frequency_table(f):
    return {'a': f[0], 'b': f[1], 'c': f[2], 'd': f[3], 'e': f[4], 'f': f[5]}


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `min(d, key = d.get)` over traced frequencies is a key chosen at '
    'run time (read `d[min_v]` converts), and `d.pop(min_v)` would make the dict\'s keys '
    'known only at run time (the project names the `pop` and its key)'))
def test_huffman_extract_min_of_a_dict_by_its_traced_values():
    agree(lambda f: extract_min(frequency_table(f)), (FREQS,), (FREQS2,))


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): as `extract_min` (the first `d.pop` of a key chosen by traced '
    'values); the tree\'s keys `\'n_\' + str(sum_freqs)` would also be made from traced sums, '
    'keys known only at run time'))
def test_huffman_dict_keys_made_from_traced_sums():
    agree(lambda f: huffman(frequency_table(f)), (FREQS,), (FREQS2,))
