"""Corpus of public functions, eighth batch, computational geometry: a Jarvis march (gift
wrapping) over a list of `Point` objects whose leftmost point is picked by an `if`/`elif` on
traced coordinates and whose hull grows by `hull.append(p)` in a `while(True)` left by a
traced `break`, a ray-casting point-in-polygon test that shadows `np` with `np = len(x)` and
flips `inside = not inside` under a chained comparison `min(...) < sx < max(...)` of traced
values, a segment intersection test whose `orientation` returns one of three ints from
traced tests and whose `doIntersect` returns True from four `if`s on `o1 == 0 and
onSegment(...)`, a Bresenham line that appends `(x, y)` pairs in a `while True` until a
traced `break`, and a brute-force closest pair, behind a timing decorator, whose two points
are None until a traced `if distance <= min_distance` picks rows. Edits: results only
printed are returned; one `orientation` renamed; the drivers (points built from arrays) are
the tests'.

Sources and edits: tests/peers/CORPUS.md; the checks (converted against the same code run
as plain Python, the ground truth): tests/peers/corpus_harness.py."""
import jax.numpy as jnp
import pytest

import autograph

from tests.peers.corpus_harness import agree, agree_vmap

f32 = jnp.float32


# --- Developer-Student-Clubs-VSSUT-Burla/Master-PyAlgo: Geometry/convexhull.py ----------------

class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

def Left_index(points):

    minn = 0
    for i in range(1,len(points)):
        if points[i].x < points[minn].x:
            minn = i
        elif points[i].x == points[minn].x:
            if points[i].y > points[minn].y:
                minn = i
    return minn

def orientation(p, q, r):

    val = (q.y - p.y) * (r.x - q.x) - (q.x - p.x) * (r.y - q.y)

    if val == 0:
        return 0
    elif val > 0:
        return 1
    else:
        return 2

def convexHull(points, n):

    if n < 3:
        return


    l = Left_index(points)

    hull = []

    p = l
    q = 0
    while(True):


        hull.append(p)

        q = (p + 1) % n

        for i in range(n):

            if(orientation(points[p],
                           points[i], points[q]) == 2):
                q = i

        p = q


        if(p == l):
            break


    for each in hull:
        print(points[each].x, points[each].y)
    return hull


def points_of(xs, ys):
    return [Point(xs[i], ys[i]) for i in range(len(xs))]


HULL_X = jnp.array([0., 2., 1., 2., 3., 0., 3.])
HULL_Y = jnp.array([3., 2., 1., 1., 0., 0., 3.])
HULL_X2 = jnp.array([1., 2., 0., 2., 3., 1., 4.])
HULL_Y2 = jnp.array([3., 2., 1., 1., 0., 0., 2.])


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'project bug (named): `minn = i` under the traced `if points[i].x < points[minn].x` '
    'makes `minn` traced, and `points[minn]` on a Python list of `Point` objects (each two '
    'float32 scalars, one structure) is refused: "its items are not arrays of one shape and '
    'dtype, nor functions"; a list of tuples of the same scalars would be stacked'))
def test_jarvis_left_index_python_int_picked_by_if_elif_on_traced_points():
    agree(lambda xs, ys: Left_index(points_of(xs, ys)), (HULL_X, HULL_Y), (HULL_X2, HULL_Y2))


def test_jarvis_orientation_of_traced_triplets_in_a_loop():
    def orientations(xs, ys):
        pts = points_of(xs, ys)
        return [orientation(pts[0], pts[i], pts[i + 1]) for i in range(1, len(pts) - 1)]
    agree(orientations, (HULL_X, HULL_Y), (HULL_X2, HULL_Y2))


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'project bug (named): first as in `Left_index` above (the list of `Point`s indexed by '
    'the traced `minn`); past it the hull would be fixed shapes: `hull.append(p)` in a '
    '`while(True)` left by the traced `if(p == l): break` has a run-time length'))
def test_jarvis_hull_appended_until_a_traced_break():
    agree(lambda xs, ys: convexHull(points_of(xs, ys), 7), (HULL_X, HULL_Y),
          (HULL_X2, HULL_Y2))


# --- gomeshun/pydsph: MemFG/inpoly.py (inpolygon) ---------------------------------------------

def inpolygon(sx, sy, x, y):
    '''
    x[:], y[:]: polygon
    sx, sy: point
    '''
    np = len(x)
    inside = False
    for i1 in range(np):
        i2 = (i1+1)%np
        if min(x[i1], x[i2]) < sx < max(x[i1], x[i2]):
            #a = (y[i2]-y[i1])/(x[i2]-x[i1])
            #b = y[i1] - a*x[i1]
            #dy = a*sx+b - sy
            #if dy >= 0:
            if (y[i1] + (y[i2]-y[i1])/(x[i2]-x[i1])*(sx-x[i1]) - sy) > 0:
                inside = not inside

    return inside


POLY_X = jnp.array([0., 4., 5., 2., -1.])
POLY_Y = jnp.array([0., 0., 3., 5., 2.])


def test_inpolygon_not_of_a_bool_under_a_chained_comparison_of_traced_values():
    agree(inpolygon, (f32(2.0), f32(2.0), POLY_X, POLY_Y), (f32(4.5), f32(4.0), POLY_X, POLY_Y))
    agree_vmap(lambda s: inpolygon(s[0], s[1], POLY_X, POLY_Y),
               jnp.array([[2., 2.], [4.5, 4.], [-0.5, 1.], [3., 4.5], [6., 1.]]))


# --- ennauata/reconstruction: utils/intersections.py (onSegment, orientation, doIntersect) ----

def onSegment(p, q, r):
    if (q[0] <= max(p[0], r[0]) and q[0] >= min(p[0], r[0]) and
        q[1] <= max(p[1], r[1]) and q[1] >= min(p[1], r[1])):
        return True
    return False

# To find orientation of ordered triplet (p, q, r).
# The function returns following values
# 0 --> p, q and r are colinear
# 1 --> Clockwise
# 2 --> Counterclockwise
def orientation_xy(p, q, r):

    # See https://www.geeksforgeeks.org/orientation-3-ordered-points/
    # for details of below formula.
    val = (q[1] - p[1]) * (r[0] - q[0]) - (q[0] - p[0]) * (r[1] - q[1])

    if (val == 0): return 0 #
    if val > 0:
        return 1
    else:
        return 2

# The main function that returns true if line segment 'p1q1'
# and 'p2q2' intersect.
def doIntersect(p1, q1, p2, q2):

    # Find the four orientations needed for general and
    # special cases
    o1 = orientation_xy(p1, q1, p2)
    o2 = orientation_xy(p1, q1, q2)
    o3 = orientation_xy(p2, q2, p1)
    o4 = orientation_xy(p2, q2, q1)

    # General case
    if (o1 != o2 and o3 != o4):
        return True

    # Special Cases
    # p1, q1 and p2 are colinear and p2 lies on segment p1q1
    if (o1 == 0 and onSegment(p1, p2, q1)): return True

    # p1, q1 and q2 are colinear and q2 lies on segment p1q1
    if (o2 == 0 and onSegment(p1, q2, q1)): return True

    # p2, q2 and p1 are colinear and p1 lies on segment p2q2
    if (o3 == 0 and onSegment(p2, p1, q2)): return True

    # p2, q2 and q1 are colinear and q1 lies on segment p2q2
    if (o4 == 0 and onSegment(p2, q1, q2)): return True

    return False # Doesn't fall in any of the above cases


# the module's three examples, and two colinear cases (touching, apart)
SEGMENTS = jnp.array([[[1., 1.], [10., 1.], [1., 2.], [10., 2.]],
                      [[10., 0.], [0., 10.], [0., 0.], [10., 10.]],
                      [[-5., -5.], [0., 0.], [1., 1.], [10., 10.]],
                      [[0., 0.], [4., 0.], [4., 0.], [6., 0.]],
                      [[0., 0.], [2., 2.], [1., 1.], [3., 3.]]])


def test_do_intersect_returns_from_ifs_on_and_of_a_traced_test_and_a_call():
    agree(lambda s: doIntersect(s[0], s[1], s[2], s[3]), (SEGMENTS[0],), (SEGMENTS[1],))
    agree_vmap(lambda s: doIntersect(s[0], s[1], s[2], s[3]), SEGMENTS)


# --- Miju-Ahmed/Computer_Graphics: CG/bresenham_line.py (bresenham_line) ----------------------

def bresenham_line(x0,y0,x1,y1):
    points=[]
    dx=abs(x1-x0)
    dy=abs(y1-y0)
    sx=1 if x0<x1 else -1
    sy=1 if y0<y1 else -1

    err=dx-dy
    x,y=x0,y0

    while True:
        points.append((x,y))
        if x==x1 and y==y1:
            break
        e2=2*err
        if e2>-dy:
            err -= dy
            x += sx
        if e2<dx:
            err += dx
            y += sy
    return points


def test_bresenham_python_endpoints_traced_nowhere():
    # the module's use: Python ints, the loop runs as Python (a reference for the next case)
    agree(lambda: bresenham_line(1, 7, 6, 2), ())


@pytest.mark.xfail(strict=True, raises=autograph.ControlFlowError, reason=(
    'fixed shapes (named): `points.append((x,y))` in a `while True` left by the traced '
    '`if x==x1 and y==y1: break`, so the list has a run-time length (the project names the '
    'loop and the list)'))
def test_bresenham_points_appended_until_a_traced_break():
    i = jnp.int32
    agree(bresenham_line, (i(1), i(7), i(6), i(2)), (i(0), i(0), i(5), i(3)))


# --- clelandgt/arithmetic: basic/python/divide_conquer/get_min_distance_pointers.py ---------

def timeit(method):
    import time

    def timed(*args, **kw):
        start_time = time.time()
        result = method(*args, **kw)
        end_time = time.time()
        print('spent time: {}'.format(end_time-start_time))
        return  result
    return timed


def get_distance(pointer1, pointer2):
    return ((pointer1[0]-pointer2[0]) ** 2 + (pointer1[1]-pointer2[1]) ** 2) ** 0.5


@timeit
def get_min_distance_pointers1(pointers):
    """ 暴力求解: O(n^2), 依次遍历两两比较 """
    pointer1 = None
    pointer2 = None
    min_distance = float('inf')
    for i in range(len(pointers)):
        for j in range(i+1, len(pointers)):
            distance = get_distance(pointers[i], pointers[j])
            if distance <= min_distance:
                min_distance = distance
                pointer1 = pointers[i]
                pointer2 = pointers[j]
    return pointer1, pointer2, min_distance


# the module's fifth case, and others
POINTERS = jnp.array([[1., 1.], [9., 3.], [4., 5.], [-1., -2.]])
POINTERS2 = jnp.array([[0., 0.], [3., 4.], [1., 1.], [5., 5.]])


def test_closest_pair_none_until_a_traced_test_picks_rows_through_a_timing_decorator():
    agree(get_min_distance_pointers1, (POINTERS,), (POINTERS2,))
