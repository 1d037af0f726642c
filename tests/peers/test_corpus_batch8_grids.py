"""Corpus of public functions, eighth batch, grids and cellular automata: a Game of Life class
whose `evolve` returns the int 1, a traced cell or the int 0 from an `if`/`elif` on the
traced neighbour count of a `np.pad`ded window, collected into lists of lists by `oneStep`
and over generations by `game`; a rule-30 automaton that tests `(left, center, right) in
[(1, 1, 1), (0, 0, 0)]` on traced cells, writes `newState[j]` and prints each generation as
`"".join(["█" if x else " " for x in state])`; a run-length encoder and decoder whose
nested `while` loops append to lists (`count` runs of the traced `oldArrayFlattened[f] ==
oldArrayFlattened[s]`, `times` copies of a traced count); and the histogram helpers of a
CLAHE filter: counts `hist[i, j, bin_[i1, j1]] += 1` at traced bins, a clipping pass whose
nested `if`s on traced counts write the histogram and whose redistribution loop stops at a
traced `break` with a step `max(1, np.floor(...))`, and a map through the builtin `min` of a
traced sum and an int. Edits: `np.` becomes `jnp.` where traced values flow; results only
printed or plotted are returned (the plotting dropped).

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax.numpy as jnp
import pytest

import autograph

from tests.peers.corpus_harness import agree, agree_vmap

f32 = jnp.float32


# --- songfish/GameOfLife: gameoflife.py (GameofLife) ------------------------------------------

class GameofLife():

    def evolve(self, m):
        neigh = m[0, 0] + m[0, 1] + m[0, 2] + m[1, 0] + m[1, 2] + m[2, 0] + m[2, 1] + m[2, 2]
        if neigh == 3:
            center = 1
        elif neigh == 2:
            center = m[1, 1]
        else:
            center = 0
        return center

    def oneStep(self, matrix):
        matrix_shape = jnp.array(matrix).shape
        expand_matrix = jnp.pad(matrix, ((1, 1), (1, 1)), 'constant')
        oneStepResult = []
        for i in range(1, matrix_shape[0]+1):
            row = []
            for j in range(1, matrix_shape[1]+1):
                new_cell = expand_matrix[i-1:i+2, j-1:j+2]
                center = self.evolve(new_cell)
                row.append(center)
            oneStepResult.append(row)
        return oneStepResult

    def game(self, matrix, T):
        finalresult = []
        for t in range(T):
            matrix = self.oneStep(matrix)
            finalresult.append(matrix)
        return finalresult


GLIDER = jnp.zeros((5, 5), dtype=jnp.int32).at[0, 1].set(1).at[1, 2].set(1).at[2, 0].set(1) \
    .at[2, 1].set(1).at[2, 2].set(1)
BLINKER = jnp.zeros((5, 5), dtype=jnp.int32).at[2, 1:4].set(1)


def test_life_class_evolve_int_or_traced_cell_from_an_if_elif_into_lists_of_lists():
    agree(lambda m: GameofLife().oneStep(m), (GLIDER,), (BLINKER,))
    agree_vmap(lambda m: GameofLife().oneStep(m), jnp.stack([GLIDER, BLINKER, 1 - BLINKER]))


def test_life_class_game_pads_the_previous_list_of_lists():
    agree(lambda m: GameofLife().game(m, 1), (GLIDER,), (BLINKER,))


# --- PedroLanderos/cellular-automata: bases/CellullarAutomaton.py (CellullarAutomataRule30) ----

def CellullarAutomataRule30(steps, size=21): #defines the size 21 as an odd number
    #list of zeros
    state = jnp.zeros(size, dtype=int)
    #start the central cell with "1"
    state[size // 2] = 1

    for i in range(steps):
        print("".join(["█" if x else " " for x in state]))
        newState = jnp.zeros_like(state)

        for j in range(1, size - 1):
            left, center, right = state[j - 1], state[j], state[j + 1]

            #pre defined conditions
            if (left, center, right) in [(1, 1, 1), (0, 0, 0)]:
                newState[j] = 0
            else:
                newState[j] = 1

        state = newState
    return state


def CellullarAutomataRule30_quiet(steps, size=21): #defines the size 21 as an odd number
    #list of zeros
    state = jnp.zeros(size, dtype=int)
    #start the central cell with "1"
    state[size // 2] = 1

    for i in range(steps):
        newState = jnp.zeros_like(state)

        for j in range(1, size - 1):
            left, center, right = state[j - 1], state[j], state[j + 1]

            #pre defined conditions
            if (left, center, right) in [(1, 1, 1), (0, 0, 0)]:
                newState[j] = 0
            else:
                newState[j] = 1

        state = newState
    return state


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `"█" if x else " "` on a traced cell is a str known only at run '
    'time, which `print("".join(...))` needs while tracing (the project names the join; '
    'a raw TypeError "expected str instance, Choice found" before)'))
def test_rule30_prints_each_generation_joined_from_strs_chosen_by_traced_cells():
    agree(lambda: CellullarAutomataRule30(4, 11), ())


def test_rule30_tuple_of_traced_cells_in_a_list_of_tuples():
    agree(lambda: CellullarAutomataRule30_quiet(5, 11), ())


# --- superironpanda/ImageProcessing: RLE.py (encode, decode) ----------------------------------

def encode(oldArrayFlattened):

    newArrayStr = []
    f = 0
    s = 0
    while f < len(oldArrayFlattened):
        count = 0
        while (f < len(oldArrayFlattened) and oldArrayFlattened[f] == oldArrayFlattened[s]):
            count += 1
            f += 1
        tmp = []
        newArrayStr.append(count)
        newArrayStr.append(oldArrayFlattened[s])
        s = f

    newImgArray = jnp.asarray(newArrayStr)

    output = newImgArray.astype(jnp.uint16)

    return output


def decode(encodedArray):
    output = []
    times = 0
    i = 0
    value = 0

    while i < len(encodedArray):
        times = encodedArray[i]
        value = encodedArray[i+1]
        while times > 0:
            output.append(value)
            times-=1
        i+=2

    outputArray = jnp.asarray(output)
    return outputArray


ROW = jnp.array([3, 3, 3, 0, 0, 7, 7, 7, 7, 1])
ROW2 = jnp.array([5, 5, 1, 1, 1, 1, 2, 2, 9, 9])


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the runs end where the traced `oldArrayFlattened[f] == '
    'oldArrayFlattened[s]` fails, so the outer `while f < len(...)` runs a traced number of '
    'times and `newArrayStr` gets two items per run, a run-time length (the project names '
    'the loop and the list)'))
def test_rle_encode_runs_appended_in_nested_whiles_on_traced_items():
    agree(encode, (ROW,), (ROW2,))


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `while times > 0: output.append(value)` appends as many items as '
    'the traced counts say, a run-time length (the project names the loop and the list)'))
def test_rle_decode_appends_a_traced_count_of_values():
    agree(decode, (jnp.array([3, 3, 2, 0, 4, 7, 1, 1]),), (jnp.array([2, 5, 4, 1, 2, 2, 2, 9]),))


# --- CryAndRRich/Desmosify-Selfie-Pic: filter/histogram_equalization.py (CLAHE helpers) ------

def clip_histogram(hist, clip_limit, nr_x, nr_y, nr_bins):
    # Clipping of the histogram and redistribution of bins
    for i in range(nr_x):
        for j in range(nr_y):
            nr_excess = 0
            for nr in range(nr_bins):
                excess = hist[i, j, nr] - clip_limit
                if excess > 0:
                    nr_excess += excess # Calculate total number of excess pixels

            bin_incr = nr_excess / nr_bins # Average bins increment
            upper = clip_limit - bin_incr
            for nr in range(nr_bins):
                if hist[i, j, nr] > clip_limit:
                    hist[i, j, nr] = clip_limit
                else:
                    if hist[i, j, nr] > upper: # High bins count
                        nr_excess += upper - hist[i, j, nr]
                        hist[i, j, nr] = clip_limit
                    else: # Low bins count
                        nr_excess -= bin_incr
                        hist[i, j, nr] += bin_incr

            if nr_excess > 0: # Redistribute remaining excess
                step_size = max(1, jnp.floor(1 + nr_excess / nr_bins))
                for nr in range(nr_bins):
                    nr_excess -= step_size
                    hist[i, j, nr] += step_size
                    if nr_excess < 1:
                        break

    return hist


def make_histogram(nr_x, nr_y, nr_bins, bins, x_size, y_size):
    hist = jnp.zeros((nr_x, nr_y, nr_bins))
    for i in range(nr_x):
        for j in range(nr_y):
            bin_ = bins[i * x_size: (i + 1) * x_size, j * y_size:(j + 1) * y_size].astype(int)
            for i1 in range(x_size):
                for j1 in range(y_size):
                    hist[i, j, bin_[i1, j1]] += 1

    return hist


def map_histogram(nr_x, nr_y, nr_bins, hist, nr_pix, max_val=255, min_val=0):
    map_ = jnp.zeros((nr_x, nr_y, nr_bins))
    scale = (max_val - min_val) / float(nr_pix)
    for i in range(nr_x):
        for j in range(nr_y):
            sum_ = 0
            for nr in range(nr_bins):
                sum_ += hist[i, j, nr]
                map_[i, j, nr] = jnp.floor(min(min_val + sum_ * scale, max_val))

    return map_


BINS = jnp.array([[0, 1, 1, 7], [1, 1, 1, 2], [3, 1, 1, 1], [0, 5, 1, 6]], dtype=jnp.float32)
BINS2 = jnp.array([[2, 2, 2, 2], [2, 2, 4, 4], [0, 0, 1, 2], [2, 2, 2, 3]], dtype=jnp.float32)


def clahe_tiles(bins, clip_limit):
    hist = make_histogram(2, 2, 8, bins, 2, 2)
    hist = clip_histogram(hist, clip_limit, 2, 2, 8)
    return map_histogram(2, 2, 8, hist, 4)


def test_clahe_histogram_at_traced_bins_clipped_with_a_break_and_mapped_by_builtin_min():
    agree(clahe_tiles, (BINS, f32(1.0)), (BINS2, f32(1.5)))


def test_clahe_clip_histogram_redistributes_until_a_traced_break():
    hist = jnp.array([[[0., 5., 1., 0., 3., 0., 0., 0.]]])
    hist2 = jnp.array([[[9., 0., 0., 1., 0., 0., 0., 2.]]])
    agree(lambda h, c: clip_histogram(h, c, 1, 1, 8), (hist, f32(2.0)), (hist2, f32(1.0)))
