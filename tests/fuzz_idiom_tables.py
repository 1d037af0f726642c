"""Idiom templates of dicts and tuples at traced keys for tests/fuzz_idioms.py (the
format: tests/fuzz_idiom_library.py): a histogram `counts[int(y) % 3] += 1` and
`counts.get(k)`, a least `(distance, index)` pair kept by tuple `<`, a table read
by `.get` at a traced key with a default; pairs sorted by tuples, `in` of a deque of
tuples, `.index` of a collected list, and `math` functions and a number's method of
traced values; a bounds guard in `and`, `heapq.nlargest`, an item written at a key read
from a list, a slice copy of an own array, `np.concatenate` of a list, a `math` function
as a value, a tuple `<` whose later pair Python reaches only on a tie; NumPy's writes into an array
given (`np.add.at`, `out=`) and an object made around a copy that changes it in place;
a union-find with path compression, a heap of Python values, NumPy's functions that JAX
names or takes otherwise (`np.maximum.accumulate`, `np.take`, `np.mod` of floats,
`np.clip(a_min=)`, a `functools.partial` of one); a random generator the function seeds;
a defaultdict read (not written) under a traced `if`, its length and keys after, and an
OrderedDict changed in place by a staged loop; the best candidate list kept by a tuple
assignment under a traced `if` and read after."""
from tests.fuzz_idiom_extra import T

T['dict_counts'] = ('L', '''
cnt{c} = {0: 0, 1: 0, 2: 0}
for y{c} in w:
    cnt{c}[int(abs(y{c})) % 3] += 1
    BODY
a = a + cnt{c}[0] * 0.1 + cnt{c}.get(int(k) % 3, 5) * 0.01
''')
T['least_pair'] = ('L', '''
best{c} = (1e9, -1)
for j{c}, y{c} in enumerate(w):
    if (abs(y{c} - a), j{c}) < best{c}:
        best{c} = (abs(y{c} - a), j{c})
    BODY
a = a + best{c}[0] * 0.1 + best{c}[1] * 0.01
''')
T['table_get'] = ('', '''
tb{c} = {0: 0.5, 2: -0.25, 3: 1.5}
a = a + tb{c}.get(int(n) % 5, 0.125) * x + tb{c}.get(int(k), -1.0) * 0.1
''')
T['sorted_pairs'] = ('', '''
pr{c} = sorted([(y{c}, j{c}) for j{c}, y{c} in enumerate(w)], reverse=True)
a = a + pr{c}[0][0] * 0.1 + pr{c}[0][1] * 0.01
''')
T['deque_in'] = ('', '''
body{c} = collections.deque([(0, 1), (2, 3)])
a = a + ((int(k) % 3, int(n) % 4) in body{c}) * 0.5
''')
T['collected_index'] = ('', '''
qs{c} = []
for i{c} in range({pr}):
    qs{c}.append(abs(a - i{c}))
if qs{c}:
    a = a + qs{c}.index(min(qs{c})) * 0.1
''')
T['math_values'] = ('', '''
a = a + math.pow(abs(a) + 1.0, 0.5) * 0.1 + math.isclose(a, x, abs_tol=0.25) * 0.01
a = a + float(abs(a) * 2.0).is_integer() * 0.01
''')
T['and_guard'] = ('', '''
i{c} = 0
while i{c} < len(w) and w[i{c}] > a * 0.1:
    i{c} += 1
a = a + i{c} * 0.1
''')
T['heap_top'] = ('', '''
hp{c} = heapq.nlargest(2, [(abs(y{c} - a), j{c}) for j{c}, y{c} in enumerate(w)])
a = a + hp{c}[0][0] * 0.1 + hp{c}[1][1] * 0.01
''')
T['owner_key'] = ('', '''
ow{c} = [2, 0, 1, 3]
tab{c} = [0.0, 0.0, 0.0, 0.0]
tab{c}[ow{c}[int(k) % 4]] = a
a = a + tab{c}[0] * 0.5 + tab{c}[2] * 0.25
''')
T['slice_copy'] = ('', '''
nx{c} = np.zeros(4)
for i{c} in range({pr}):
    nx{c}[i{c} % 4] = w[i{c} % 4] * 0.5 + a
cp{c} = np.zeros(4)
cp{c}[:] = nx{c}
a = a + cp{c}[1] * 0.1
''')
T['concat_list'] = ('', '''
pd{c} = np.concatenate([[0.5], w * a])
a = a + pd{c}[1] * 0.1 + len(pd{c}) * 0.01
''')
T['math_value'] = ('', '''
fn{c} = math.tanh
a = a + fn{c}(a * 0.1) * 0.5
''')
T['tuple_tail'] = ('', '''
a = a + ((int(k) % 3, 'p') < ({i}, 3)) * 0.1
''')
T['rolling_rows'] = ('', '''
pv{c} = [0.0] * 3
for i{c} in range({r}):
    cu{c} = [pv{c}[0] + a * 0.1, pv{c}[1] * 0.5 + i{c}, pv{c}[2] + 1.0]
    cu{c}[2] = cu{c}[2] + pv{c}[0] * 0.25
    if cu{c}[0] > {f}:
        break
    pv{c} = cu{c}
a = a + pv{c}[0] * 0.1 + pv{c}[1] * 0.01 + pv{c}[2] * 0.001
''')
T['best_list'] = ('L', '''
bs{c} = [0.0, -1.0]
for j{c}, y{c} in enumerate(w):
    cd{c} = [y{c} * a, j{c} * 1.0]
    if cd{c}[0] > bs{c}[0]:
        bs{c} = cd{c}
    BODY
a = a + bs{c}[0] * 0.1 + bs{c}[1] * 0.01
''')
T['counter_beside_view'] = ('', '''
ct{c} = 0
ct{c} += 1
ct{c} = ct{c} * 2
ar{c} = w * 1.0
vw{c} = ar{c}[:2]
ar{c} += ct{c}
a = a + vw{c}[0] * 0.1 + ar{c}[3] * 0.01
''')
T['tail_slice'] = ('', '''
mt{c} = np.outer(w, w) * 0.5
a = a + mt{c}[int(k) % 4, 2:].sum() * 0.1 + mt{c}[1:, int(k) % 4][0] * 0.01
''')
T['item_sort'] = ('', '''
sw{c} = np.outer(w, w[:3]) * 1.0
sw{c}[{i}].sort()
sw{c}[1:, 0].sort()
a = a + sw{c}[{i}, 0] * 0.1 + sw{c}[3, 0] * 0.01
''')
T['keyword_helper'] = ('', '''
kw{c} = w * 1.0
clip_first(arr=kw{c}, lim={f})
a = a + kw{c}[0] * 0.1 + kw{c}[1] * 0.01
''')
T['filled_rows'] = ('', '''
fr{c} = []
for i{c} in range({pr}):   # (a list grows by a count known while tracing)
    ro{c} = np.zeros(2)
    ro{c}[0] = a * 0.5 + i{c}
    ro{c}[1] = w[i{c} % 4]
    fr{c}.append(ro{c})
if fr{c}:
    a = a + np.stack(fr{c}).sum() * 0.01
''')
T['ufunc_at'] = ('', '''
hs{c} = np.zeros(4)
np.add.at(hs{c}, [int(k) % 4, int(k) % 4, 1], a * 0.5)
np.maximum.at(hs{c}, [2], w[0])
a = a + hs{c}.sum() * 0.1 + hs{c}[int(k) % 4] * 0.01
''')
T['out_ufunc'] = ('', '''
ou{c} = w * 1.0
np.multiply(ou{c}, 0.5, out=ou{c})
np.add(ou{c}, a, out=ou{c})
ou{c}.clip(-1.0, 1.0, out=ou{c})
a = a + ou{c}[{i}] * 0.1
''')
T['made_around_array'] = ('', '''
bx{c} = Holder(w * 1.0)
bx{c}.shift(0.25)
a = a + bx{c}.arr[{i}] * 0.1
''')
T['union_find'] = ('', '''
pa{c} = np.array([1, 2, 3, 3, 0])
ra{c} = uf_find(pa{c}, int(k) % 5)
if ra{c} != uf_find(pa{c}, {i}):
    pa{c}[ra{c}] = uf_find(pa{c}, {i})
a = a + pa{c}.sum() * 0.1 + ra{c} * 0.01
''')
T['python_heap'] = ('', '''
hp{c} = []
for i{c} in range({pr} + 2):
    heapq.heappush(hp{c}, (i{c} * 7) % 5)
a = a + heapq.heappop(hp{c}) * 0.5 + len(hp{c}) * 0.1
''')
T['numpy_more'] = ('', '''
dd{c} = np.maximum.accumulate(w) - w
tk{c} = np.take(w, np.argsort(w, kind='stable')[:2])
sc{c} = functools.partial(np.multiply, 0.5)
a = a + dd{c}.sum() * 0.1 + tk{c}[0] * 0.01 + np.mod({f}, 1.5) * 0.1
a = a + np.clip(sc{c}(w), a_min=-0.5, a_max=0.5).sum() * 0.1
''')
T['seeded_generator'] = ('', '''
rg{c} = np.random.default_rng({i})
for i{c} in range({pr}):   # (a generator the function seeds: Python's numbers)
    a = a + rg{c}.normal() * 0.01 + w[i{c} % 4] * 0.01
''')
T['defaultdict_read'] = ('L', '''
dr{c} = collections.defaultdict(float)
for y{c} in w:
    if {t}:
        a = a + dr{c}['seen'] * 0.5 + y{c} * 0.1   # (adds the key on this path only)
    BODY
a = a + len(dr{c}) * 0.1 + ('seen' in dr{c}) * 0.01
''')
T['ordered_state'] = ('L', '''
od{c} = collections.OrderedDict([('first', 0.0), ('second', 1.0)])
for y{c} in w:
    od{c}['first'] = od{c}['first'] + y{c} * 0.5
    BODY
od{c}['third'] = a
a = a + od{c}['first'] * 0.1 + len(od{c}) * 0.01 + (list(od{c})[-1] == 'third') * 0.01
''')
T['best_pair_list'] = ('L', '''
bp{c} = [0.0, -1.0]
bs{c} = -1e9
for j{c}, y{c} in enumerate(w):
    cand{c} = [y{c} * a, j{c} * 1.0]
    if cand{c}[0] > bs{c}:
        bp{c}, bs{c} = cand{c}, cand{c}[0]
    BODY
a = a + bp{c}[0] * 0.1 + bp{c}[1] * 0.01 + len(bp{c}) * 0.001
''')
