"""`heapq`'s functions that change the list given first in place (`heappush`, `heappop`,
`heapify`, `heappushpop`, `heapreplace`), and `list.append(h, v)` written as a function
call. The converter did not see them change the list: a staged loop's body pushing onto
a heap left it with the one item its single trace pushed (a silent wrong value: `len(h)`
1 for 3), and `list.append(h, v)` escaped its trace. Now the list is the loop's state, as
for `h.append(v)`, and `ag.heapq.heappush(h, v)` reads it whole (a loop that also grows
it runs as Python): where the heap's items are traced, the comparisons that place them
are the named error heap_of_traced_items; with Python values, Python's heap. Ground
truth: the same function run as plain Python."""
import copy
import heapq

import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def pushed_then_counted(x):
    h = []
    for v in x:
        heapq.heappush(h, v)
    return len(h)


def appended_as_a_call(x):
    h = []
    for v in x:
        list.append(h, v)
    return h


def k_smallest(values, k, scale):
    h = []
    for v in values:
        heapq.heappush(h, v)
    out = []
    for _ in range(k):
        out.append(heapq.heappop(h) * scale)
    return out, h


def dijkstra(adj, src, scale):
    dist = {src: 0.0}
    heap = [(0.0, src)]
    order = []
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist.get(u, float('inf')):
            continue
        order.append(u)
        for v, w in adj[u]:
            nd = d + w
            if nd < dist.get(v, float('inf')):
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    return order, [dist[k] * scale for k in sorted(dist)]


def heapified_in_place(x, items):
    heapq.heapify(items)
    smallest = heapq.heappushpop(items, 2.5)
    return x * smallest


ADJ = {0: [(1, 4.0), (2, 1.0)], 1: [(3, 1.0)], 2: [(1, 2.0), (3, 5.0)], 3: []}


@pytest.mark.parametrize('make', [np.asarray, jnp.asarray], ids=['numpy', 'jax'])
def test_pushing_traced_items_in_a_staged_loop_is_named(make):
    x = np.array([3.0, 1.0, 2.0], np.float32)
    assert pushed_then_counted(x) == 3
    with pytest.raises(autograph.ControlFlowError,
                       match=r'heapq.heappush\(\) .* compares traced items of the heap'):
        autograph.convert(pushed_then_counted)(make(x))


def test_generated_code_calls_the_runtime_heapq():
    assert 'ag.heapq.heappush(h, v)' in autograph.to_code(pushed_then_counted)


@pytest.mark.parametrize('make', [np.asarray, jnp.asarray], ids=['numpy', 'jax'])
def test_list_append_called_as_a_function_in_a_staged_loop(make):
    x = np.array([3.0, 1.0, 2.0], np.float32)
    assert_same(autograph.convert(appended_as_a_call)(make(x)), appended_as_a_call(x))


@pytest.mark.parametrize('scale', [2.0, jnp.float32(2.0)])
@pytest.mark.parametrize('fn, args', [
    (k_smallest, ([5, 1, 4, 2, 3], 3)),
    (dijkstra, (ADJ, 0)),
], ids=['k_smallest', 'dijkstra'])
def test_heaps_of_python_values_are_pythons(fn, args, scale):
    want = fn(*copy.deepcopy(args), scale)
    assert_same(autograph.convert(fn)(*copy.deepcopy(args), scale), want)


def test_a_heap_given_is_changed_in_place_as_in_python():
    items, plain = [3.0, 1.0, 2.0, 0.5], [3.0, 1.0, 2.0, 0.5]
    want = heapified_in_place(jnp.float32(2.0), plain)
    assert_same(autograph.convert(heapified_in_place)(jnp.float32(2.0), items), want)
    assert items == plain


def appended_through_an_alias(x):
    h = []
    g = h
    for v in x:
        list.append(h, v * 2.0)
    return g


def test_a_list_grown_by_a_call_stays_the_object_its_alias_holds():
    x = np.array([1.0, 2.0], np.float32)
    assert "aliased=('h',)" in autograph.to_code(appended_through_an_alias)
    assert_same(autograph.convert(appended_through_an_alias)(x), appended_through_an_alias(x))
