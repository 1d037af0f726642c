"""Idiom templates of dicts and tuples at traced keys for tests/fuzz_idioms.py (the
format: tests/fuzz_idiom_library.py): a histogram `counts[int(y) % 3] += 1` and
`counts.get(k)`, a least `(distance, index)` pair kept by tuple `<`, a table read
by `.get` at a traced key with a default; pairs sorted by tuples, `in` of a deque of
tuples, `.index` of a collected list, and `math` functions and a number's method of
traced values."""
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
