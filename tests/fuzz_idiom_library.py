"""The idiom templates of tests/fuzz_idioms.py, and the module-level helpers they call.

A template is a few lines of code as real programs write it, with holes the generator
fills (each occurrence drawn afresh):

    {c}  a number of its own (the template's names: `agg3`, `y3`)
    {f}  a float expression on the program's values (traced in the converted run)
    {t}  a test on traced values          {pt} a test on Python ints only
    {i}  an int literal 0..3              {j}  an int literal 0..5 (IndexError past 3)
    {r}  a range bound: `n` (traced), a literal, `m + 1` or `len(v)` (Python ints)
    {pr} a range bound of Python ints only

and a line `BODY`, where the generator puts a nested sequence of idioms (or `pass`).

Each template has flags: `P` its BODY runs in Python's control flow (the generator may
write the Python counter `m` there); `L` its BODY is in a loop (`break`/`continue`
allowed); `w` it needs Python's control flow (it writes the Python counter `m`, or
appends to the global list `LOG`): drawn only at the top level and in `P` bodies.

The program's names: `x` (float32), `n` (int32 0..6), `v` (float32[4]); `a` a float
accumulator, `k` an int that staged code may make traced, `m` a Python int never written
by staged code, `w` a NumPy array in the plain run (a copy of `v`, or `v` itself: then
the caller's array is written); `global CALLS` is declared at the top.
"""

HELPERS = '''
import collections
import dataclasses
import functools
import heapq
import math

import jax.numpy as jnp
import numpy as np

CALLS = 0
LOG = []


def welford(agg, y):
    count, mean, m2 = agg
    count += 1
    delta = y - mean
    mean = mean + delta / count
    m2 = m2 + delta * (y - mean)
    return count, mean, m2


def note(y):
    global CALLS
    CALLS += 1
    return y * 0.5


class Stopper:
    def __init__(self, patience):
        self.best = None
        self.bad = 0
        self.patience = patience

    def step(self, loss):
        if self.best is None or loss < self.best:
            self.best = loss
            self.bad = 0
        else:
            self.bad += 1
        return self.bad >= self.patience


class Counter:
    def __init__(self):
        self.k = 0
        self.total = 0.0

    def add(self, y):
        self.k += 1
        self.total = self.total + y
        return self.total


class Box:
    pass


class Running:
    def __init__(self):
        self.total = 0.0
        self.count = 0

    def __iadd__(self, y):
        if y > 0.5:
            self.total = self.total + y
            self.count += 1
        return self


def head(arr):
    return arr[:2]


class Cells:
    def __init__(self, first, second):
        self.items = [first, second]

    def __getitem__(self, i):
        return self.items[i]

    def __setitem__(self, i, val):
        self.items[i] = val


def clip_first(arr, lim):
    if arr[0] > lim:
        arr[0] = lim
        return True
    arr[1] = arr[1] * 0.5
    return False


def relax(arr, i):
    if i == 0 or i == arr.shape[0] - 1:
        return arr[i]
    arr[i] = 0.5 * (arr[i - 1] + arr[i + 1])
    return arr[i]


def find_first(arr, thr):
    for i in range(arr.shape[0]):
        if arr[i] > thr:
            return i
    return None


def safe_ratio(p, q):
    if abs(q) < 0.25:
        return None
    return p / q


def pairs(arr):
    for i in range(arr.shape[0] - 1):
        yield arr[i], arr[i + 1]


Pt = collections.namedtuple('Pt', ['pos', 'vel'])


class Gauge:
    def __init__(self, level):
        self._level = level

    @property
    def level(self):
        return self._level * 2.0

    @level.setter
    def level(self, value):
        self._level = value * 0.5


class Slots:
    __slots__ = ('total', 'count')

    def __init__(self):
        self.total = 0.0
        self.count = 0


@dataclasses.dataclass
class Tally:
    total: float = 0.0
    count: int = 0

    def add(self, y):
        self.total += y
        self.count += 1


class Holder:
    def __init__(self, arr):
        self.arr = arr

    def shift(self, d):
        self.arr -= d
        self.arr[0] = self.arr[0] * 0.5


def uf_find(parent, x):
    root = x
    while parent[root] != root:
        root = parent[root]
    while parent[x] != root:
        nxt = parent[x]
        parent[x] = root
        x = nxt
    return root
'''

T = {}   # name -> (flags, text)

T['welford'] = ('L', '''
agg{c} = (0, 0.0, 0.0)
for y{c} in v:
    agg{c} = welford(agg{c}, y{c} * 0.5 + {f} * 0.1)
    BODY
a = a * 0.5 + agg{c}[1] * 0.1 + agg{c}[2] * 0.01 + agg{c}[0] * 0.01
''')
T['welford_range'] = ('L', '''
agg{c} = (0, 0.0, 0.0)
for i{c} in range({r}):
    agg{c} = welford(agg{c}, w[i{c} % 4])
    BODY
a = a + agg{c}[1] * 0.1 + agg{c}[0] * 0.01
''')
T['best_dict'] = ('L', '''
st{c} = {'best': a, 'at': 0}
for i{c} in range({r}):
    val{c} = w[i{c} % 4] * {f}
    if val{c} > st{c}['best']:
        st{c}['best'] = val{c}
        st{c}['at'] = i{c}
    BODY
a = a * 0.5 + st{c}['best'] * 0.1 + st{c}['at'] * 0.01
''')
T['stack_list'] = ('L', '''
out{c} = [a]
for i{c} in range({pr}):
    BODY
    out{c}.append(a * w[i{c} % 4])
a = a * 0.5 + jnp.sum(jnp.stack(out{c})) * 0.1 + len(out{c}) * 0.01
''')
T['stack_list_traced'] = ('L', '''
out{c} = [a]
for i{c} in range(n):
    out{c}.append(a * w[i{c} % 4])
    BODY
a = a * 0.5 + jnp.sum(jnp.stack(out{c})) * 0.1
''')
T['stopper'] = ('L', '''
es{c} = Stopper(2)
for i{c} in range(5):
    BODY
    if es{c}.step(jnp.abs(a - w[i{c} % 4])):
        break
a = a + es{c}.best * 0.1 + es{c}.bad
''')
T['while_tol'] = ('L', '''
i{c} = 0
err{c} = jnp.abs(a) + 1.0
while i{c} < {r} and err{c} > {i} * 0.1:
    i{c} += 1
    err{c} = err{c} * 0.5
    BODY
a = a * 0.5 + err{c} + i{c} * 0.1
''')
T['enumerate'] = ('L', '''
for i{c}, y{c} in enumerate(v):
    a = a * 0.9 + y{c} * (i{c} + 1) * 0.1
    BODY
''')
T['zip_live'] = ('L', '''
for y{c}, z{c} in zip(v, w):
    a = a * 0.9 + y{c} * z{c} * 0.1
    BODY
''')
T['for_else'] = ('L', '''
for i{c} in range({r}):
    if w[i{c} % 4] > a + {i} * 0.25:
        BODY
        break
else:
    a = a - 0.5
''')
T['try_index'] = ('', '''
try:
    a = a + v[{j}] * 0.1
except IndexError:
    a = a - 1.0
''')
T['try_list'] = ('', '''
lst{c} = [a, x, w[{i}]]
try:
    a = a * 0.5 + lst{c}[{j}] * 0.5
except IndexError:
    k = k + 1
''')
T['jacobi'] = ('', '''
x0{c} = w * 1.0
for s{c} in range(2):
    x1{c} = x0{c} * 1.0
    for i{c} in range(1, 3):
        x1{c}[i{c}] = 0.5 * (x0{c}[i{c} - 1] + x0{c}[i{c} + 1])
    x0{c} = x1{c}
a = a * 0.5 + jnp.sum(x0{c}) * 0.1
''')
T['jacobi_rotation'] = ('L', '''
u{c} = w * 1.0
un{c} = w * 0.5
for s{c} in range({r}):
    for i{c} in range(1, 3):
        un{c}[i{c}] = 0.5 * (u{c}[i{c} - 1] + u{c}[i{c} + 1])
    tmp{c} = u{c}
    u{c} = un{c}
    un{c} = tmp{c}
    BODY
a = a * 0.5 + jnp.sum(u{c}) * 0.1 + un{c}[1] * 0.2
''')
T['seidel_alias'] = ('', '''
x0{c} = w * 1.0
x1{c} = x0{c}
for i{c} in range(1, 3):
    x1{c}[i{c}] = 0.5 * (x0{c}[i{c} - 1] + x0{c}[i{c} + 1])
a = a * 0.5 + jnp.sum(x0{c}) * 0.1
''')
T['row_view'] = ('', '''
A{c} = w.reshape(2, 2)
row{c} = A{c}[{b}]
row{c} *= 0.5
a = a + w[{i}] * 0.1 + A{c}[1, 0] * 0.1
''')
T['chain_write'] = ('', '''
w.reshape(2, 2).T[{b}, 1] = a * 0.5 + {f}
w.reshape(2, 2)[1] += 0.25
a = a + w[{i}] * 0.1
''')
T['enumerate_from'] = ('L', '''
M{c} = w.reshape(2, 2)
for j{c}, row{c} in enumerate(M{c}, m + {b}):
    row{c}[0] = row{c}[1] * 0.5 + j{c} * 0.1
    BODY
a = a + w[{i}] * 0.1 + M{c}[1, 0] * 0.1
''')
T['argmin_key'] = ('', '''
b{c} = min(range(4), key=lambda i: w[i] * {f})
o{c} = sorted(range(3), key=lambda i: w[i] + a)
a = a + w[b{c}] * 0.1 + b{c} * 0.01 + o{c}[0] * 0.1
''')
T['chained_view'] = ('', '''
p{c} = q{c} = w[1:3]
q{c}[0] = q{c}[0] + a * 0.1
a = a + p{c}[0] * 0.1 + w[1] * 0.1
''')
T['flat_loop'] = ('L', '''
for e{c} in w.flat:
    a = a * 0.9 + e{c} * 0.1
    BODY
''')
T['object_iadd'] = ('L', '''
rs{c} = Running()
for y{c} in v:
    rs{c} += y{c} * a
    BODY
a = a + rs{c}.total * 0.1 + rs{c}.count * 0.01
''')
T['swap_rows'] = ('', '''
M{c} = w.reshape(2, 2) * 1.0
M{c}[0], M{c}[1] = M{c}[1], M{c}[0]
a = a + M{c}[0, 0] * 0.1 + M{c}[1, 1] * 0.2 + M{c}[0, 1] * 0.3
''')
T['bubble'] = ('L', '''
for i{c} in range(3):
    if w[i{c}] > w[i{c} + 1]:
        w[i{c}], w[i{c} + 1] = w[i{c} + 1], w[i{c}]
        BODY
''')
T['clip_helper'] = ('', '''
if clip_first(w, {f}):
    a = a + 1.0
else:
    BODY
''')
T['relax_helper'] = ('', '''
r{c} = relax(w, {i})
a = a * 0.5 + r{c} * 0.25
''')
T['counter_attr'] = ('L', '''
cn{c} = Counter()
for i{c} in range({r}):
    cn{c}.add(w[i{c} % 4] * 0.5)
    BODY
a = a + cn{c}.total * 0.1
k = k + cn{c}.k
''')
T['builtins'] = ('', '''
a = max(a, w[{i}]) * 0.5 + min(x, {f}) * 0.25 + abs(a - 1.0) * 0.1 + sum(v) * 0.05
''')
T['fstring'] = ('w', '''
log{c} = {}
for i{c} in range(3):
    log{c}[f'step{i{c} + m}'] = a * (i{c} + 1)
    m += 1
a = a * 0.5 + log{c}[f'step{m - 1}'] * 0.1 + len('it%d' % m) * 0.01
''')
T['global_count'] = ('L', '''
for y{c} in v:
    a = a * 0.9 + note(y{c}) * 0.1
    BODY
CALLS += 1
''')
T['nonlocal'] = ('L', '''
tot{c} = 0.0
def bump{c}(y):
    nonlocal tot{c}
    tot{c} = tot{c} + y
for y{c} in v:
    bump{c}(y{c} * a * 0.5)
    BODY
a = a * 0.5 + tot{c} * 0.1
''')
T['match_int'] = ('P', '''
match (m + {i}) % 3:
    case 0:
        a = a + 1.0
    case 1:
        BODY
    case _:
        a = a * 0.5
''')
T['list_aug'] = ('L', '''
acc{c} = []
for y{c} in v:
    acc{c} += [y{c} * a * 0.5]
    BODY
a = a * 0.5 + sum(acc{c}) * 0.1
''')
T['tuple_aug'] = ('P', '''
tup{c} = ()
for i{c} in range(3):
    tup{c} += (a * (i{c} + 1),)
    BODY
a = a * 0.5 + tup{c}[{i} % 3] * 0.1 + len(tup{c}) * 0.01
''')
T['dict_get'] = ('P', '''
cnt{c} = {}
for i{c} in range(4):
    key{c} = 'hi' if i{c} % 2 else 'lo'
    cnt{c}[key{c}] = cnt{c}.get(key{c}, 0.0) + w[i{c}]
    BODY
a = a + cnt{c}.get('hi', 0.0) * 0.1 + cnt{c}.get('mid', 0.5)
''')
T['comprehension'] = ('', '''
sq{c} = [w[i] * w[i] for i in range(4) if i != {i}]
a = a * 0.5 + sum(sq{c}) * 0.1 + len(sq{c}) * 0.01
''')
T['masked_sum'] = ('', '''
a = a * 0.5 + sum(y * 0.1 for y in v if y > {f})
''')
T['ternary'] = ('', '''
a = a * 0.5 if {t} else a + 1.0
''')
T['first_index'] = ('', '''
j{c} = find_first(w, {f})
if j{c} is not None:
    a = a + j{c} * 0.1
    BODY
''')
T['optional_ratio'] = ('', '''
q{c} = safe_ratio(a, {f})
a = a * 0.5 + (0.0 if q{c} is None else jnp.tanh(q{c}))
''')
T['best_none'] = ('L', '''
best{c} = None
for y{c} in v:
    if best{c} is None or y{c} > best{c}:
        best{c} = y{c}
    BODY
a = a + best{c} * 0.1
''')
T['best_none_range'] = ('L', '''
best{c} = None
for i{c} in range({r}):
    if best{c} is None or w[i{c} % 4] > best{c}:
        best{c} = w[i{c} % 4]
    BODY
if best{c} is not None:
    a = a + best{c} * 0.1
''')
T['window'] = ('L', '''
win{c} = [0.0, 0.0]
for y{c} in v:
    win{c}.append(y{c} * a)
    win{c}.pop(0)
    BODY
a = a * 0.5 + (win{c}[0] + win{c}[1]) * 0.1
''')
T['queue'] = ('', '''
q{c} = [a, x]
q{c}.insert({b}, w[{i}])
a = a * 0.5 + q{c}.pop() * 0.1 + q{c}.pop(0) * 0.2 + len(q{c})
''')
T['chained'] = ('', '''
if 0 <= k < n:
    a = a + w[k % 4] * 0.1
    BODY
elif -0.5 < a < 0.5:
    a = a * 2.0
''')
T['math'] = ('', '''
sc{c} = math.sqrt(m + {i} + 1.0) * math.exp(-0.5 * {i})
a = a * sc{c} / (1.0 + sc{c})
''')
T['where'] = ('', '''
a = jnp.where(a > {f}, a * 0.5, a + 0.25)
''')
T['conversions'] = ('w', '''
m = int(m * 1.5) + 1
a = a + float(m) * 0.01 + int({i} * 2.5) * 0.1
''')
LEAVES = ('a = a * 0.9 + 0.1', 'k = k + 1', 'a = a + w[{i}] * 0.1', 'w[{i}] = {f}',
          'w[{i}] += a * 0.5')
"""Single statements, for a BODY at the deepest level."""
