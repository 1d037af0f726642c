"""Corpus of public functions, third batch, image and grid code: a flood fill with an
explicit stack of pixels, a two-pass Manhattan distance transform with `math.inf`
borders and masked writes, and a squared Euclidean distance transform whose helper scans
rows and columns through views (reversed ones too), with `continue` and `break` on traced
tests. Edits: `np.`/`numpy.` become `jnp.` where traced values flow; the OpenCV edge
detection and display around the distance transform become an edge image passed in and
the table returned.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import math

import jax.numpy as jnp
import pytest

import autograph
from tests.peers.corpus_harness import agree, agree_vmap

EDGES = jnp.array([[0, 0, 0, 0, 255], [0, 255, 0, 0, 0], [0, 0, 0, 0, 0],
                   [0, 0, 0, 255, 0]], dtype=jnp.float32)


# --- Salies/cg2: fill/flood_fill.py (flood_fill) -----------------------------------------

def flood_fill(img, xo, yo, paint_color, target_color):
    if paint_color == target_color:
        return

    img[xo, yo] = paint_color

    stack = [(xo, yo)]
    while stack:
        x, y = stack.pop()
        if x > 0 and jnp.array_equal(img[x-1, y], target_color):
            img[x-1, y] = paint_color
            stack.append((x-1, y))
        if x < img.shape[0]-1 and jnp.array_equal(img[x+1, y], target_color):
            img[x+1, y] = paint_color
            stack.append((x+1, y))
        if y > 0 and jnp.array_equal(img[x, y-1], target_color):
            img[x, y-1] = paint_color
            stack.append((x, y-1))
        if y < img.shape[1]-1 and jnp.array_equal(img[x, y+1], target_color):
            img[x, y+1] = paint_color
            stack.append((x, y+1))


def fill(img):
    flood_fill(img, 1, 2, [255, 100, 0], [255, 255, 255])
    return img


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): the stack of pixels grows and shrinks by traced tests, so its '
    'length is known only at run time'))
def test_flood_fill_explicit_stack():
    img = jnp.where(EDGES[..., None] > 0, 0, 255) * jnp.ones((1, 1, 3), jnp.int32)
    agree(fill, (img,))


# --- Baricus/JesterSight: distTransform.py (dist_transform) ------------------------------

def dist_transform(edges):
    height = edges.shape[0]
    width = edges.shape[1]

    dists = jnp.zeros((height, width))
    # modifies edges to dist transform
    dists[edges != 255] = 255
    dists[edges == 255] = 0

    # computes distance transform (manhattan)
    for y in range(height):
        for x in range(width):
            L = math.inf
            U = math.inf
            if x != 0:
                L = dists[y][x - 1]
            if y != 0:
                U = dists[y - 1][x]
            dists[y][x] = min(L + 1, U + 1, dists[y][x])

    for y in range(height - 1, -1, -1):
        for x in range(width - 1, -1, -1):
            L = math.inf
            U = math.inf
            if x != width - 1:
                L = dists[y][x + 1]
            if y != height - 1:
                U = dists[y + 1][x]
            dists[y][x] = min(L + 1, U + 1, dists[y][x])

    return dists/dists.max()


def test_two_pass_manhattan_distance_transform():
    agree(dist_transform, (EDGES,), (EDGES[::-1],))
    agree_vmap(dist_transform, jnp.stack([EDGES, EDGES[:, ::-1]]))


# --- binarybottle/braincolor: dev/distance_transform.py (_upscan, distance_transform) ----

def _upscan(f):
    for i, fi in enumerate(f):
        if fi == jnp.inf: continue
        for j in range(1,i+1):
            x = fi+j*j
            if f[i-j] < x: break
            f[i-j] = x

def distance_transform(bitmap):
    f = jnp.where(bitmap, 0.0, jnp.inf)
    for i in range(f.shape[0]):
        _upscan(f[i,:])
        _upscan(f[i,::-1])
    for i in range(f.shape[1]):
        _upscan(f[:,i])
        _upscan(f[::-1,i])
    f = jnp.sqrt(f)
    return f


def test_euclidean_distance_transform_through_views():
    agree(distance_transform, (EDGES > 0,), (EDGES[::-1] > 0,))


# --- xitowzys-ISU/Image-Labeling-Algorithm: main.py (check, neighbours2, find, union,
# two_pass_labeling) ------------------------------------------------------------------------

def check(image, y, x):
    if not 0 <= x < image.shape[1]:
        return False
    if not 0 <= y < image.shape[0]:
        return False
    if image[y, x] != 0:
        return True
    return False


def neighbours2(image, y, x):
    left = y, x-1
    top = y-1, x

    if not check(image, *left):
        left = None
    if not check(image, *top):
        top = None

    return left, top


def find(label, linked):
    j = int(label)
    while linked[j] != 0:
        j = linked[j]
    return j


def union(label1, label2, linked):
    j = find(label1, linked)
    k = find(label2, linked)
    if j != k:
        linked[k] = j


def two_pass_labeling(b_image):
    labeled = jnp.zeros_like(b_image)
    label = 1
    linked = jnp.zeros(len(b_image), dtype='uint')

    for y in range(b_image.shape[0]):
        for x in range(b_image.shape[1]):
            if b_image[y, x] != 0:
                ns = neighbours2(b_image, y, x)
                if ns[0] is None and ns[1] is None:
                    m = label
                    label += 1
                else:
                    lbs = [labeled[i] for i in ns if i is not None]
                    m = min(lbs)
                labeled[y, x] = m

                for n in ns:
                    if n is not None:
                        lb = labeled[n]
                        if lb != m:
                            union(m, lb, linked)

    labs = []
    for y in range(b_image.shape[0]):
        for x in range(b_image.shape[1]):
            if b_image[y, x] != 0:
                new_label = find(labeled[y, x], linked)

                if new_label != labeled[y, x]:
                    labeled[y, x] = new_label
                if new_label not in labs:
                    labs.append(new_label)
                if labeled[y, x] in labs:
                    labeled[y, x] = labs.index(new_label) + 1

    return labeled


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): a neighbour is None or a pixel by a traced test, so the list '
    '`lbs` of the others (and later `labs`, appended under a traced test) has a length '
    'known only at run time'))
def test_two_pass_labeling_union_find():
    img = (EDGES > 0).astype(jnp.int32)
    img = img.at[2, 1].set(1).at[3, 4].set(1)
    agree(two_pass_labeling, (img,), (1 - img,))
