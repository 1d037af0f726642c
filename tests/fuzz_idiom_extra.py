"""More idiom templates for tests/fuzz_idioms.py (the format: tests/fuzz_idiom_library.py):
`if` on traced and on Python tests around a nested sequence, a `return` or a loop exit
under a traced test, an int changed by a traced choice;
NumPy methods that change an array in place (`sort`, `fill`, `flat`), views made by
`ravel` and by slices with a traced start, by NumPy's functions (`np.reshape`, `np.ravel`,
`np.transpose` with axes, `np.asarray`), by an F-order reshape and `swapaxes`; flat
items read and written (slices, negative indices), late-binding lambdas made in a loop, `while
True` with `break`, reversed ranges, dict comprehensions, `del` of a list item,
try/finally, an alias of `w` written in a loop, a loop over `w` that writes its last item,
star unpacking, a count of traced bools, default arguments, a global log, `assert`,
ZeroDivisionError on Python ints, Python's `round`, `//` and `%` on negative ints;
copies (`w[[0, 2]]`) and views (`w[::2]`, `w[None]`, `w.view()`, `w[1:][::-1]`) written,
overlapping slices, `w[i - 1]` wrapping round, `w` written through a dict, a list or an
attribute that holds it, a list written through one name and read through another in a
loop, a nested function writing an item of `w`, two names for one object, `:=` in a
`while` test, assignment targets in Python's order (`i, w[i] = ...`), `match` on the
traced `n`, a dict changed while its items are iterated, `enumerate(v, 1)`, `w[n] = e`
(IndexError where n > 3), a view returned by a helper, a list holding one row twice,
`np.copyto`, a history list holding `w` itself, a class with `__getitem__` and
`__setitem__`, `enumerate` and `zip` over a copy of `v` (the library's templates over `v`
itself hit an open bug: see tests/fuzz_idioms.py's KNOWN); loops over a part of `w`
that their body writes (`reversed(w)`, `w[1:]`, `w[::-2]`, `zip(w, w[1:])`, the rows
of `reversed(g)` written through the loop variable), and an iterator `iter(w)` read by
`next` and a loop; NumPy's functions of traced values (`np.exp`, `np.linalg.norm`,
`np.array` of a list the loop collected, `np.asarray` with a dtype, `np.min` of a list,
`.item()` of an expression); division of Python numbers (`int()` of a traced value, a
range loop's counter: checked for a zero divisor, which these never are).
"""
from tests.fuzz_idiom_library import T

T['traced_if'] = ('', '''
if {t}:
    BODY
else:
    a = a * 0.5 - 0.25
''')
T['python_if'] = ('P', '''
if {pt}:
    BODY
else:
    k = k + 1
''')
T['early_return'] = ('', '''
if {t}:
    return a * 0.5, k, m, w
''')
T['loop_exit'] = ('', '''
if {t}:
    {exit}
''')
T['int_state'] = ('', '''
k = k + (1 if {t} else 2)
''')

T['sort_inplace'] = ('', '''
w.sort()
a = a + w[0] * 0.1
''')
T['fill'] = ('', '''
if {t}:
    w.fill(0.25)
''')
T['flat_write'] = ('', '''
w.flat[{i}] = {f}
''')
T['flat_read_write'] = ('', '''
w.flat[1:3] = {f}
a = a + w.flat[{i}] * 0.1
w.flat[-1] += a * 0.1
''')
T['np_reshape_view'] = ('', '''
r{c} = np.reshape(w, (2, 2))
r{c}[{b}] *= 0.5
a = a + w[{i}] * 0.1
''')
T['np_ravel_view'] = ('', '''
r{c} = np.ravel(w)
r{c}[{i}] = {f}
a = a + w[{i}] * 0.1
''')
T['fortran_view'] = ('', '''
r{c} = w.reshape((2, 2), order='F')
r{c}[{b}, 0] = {f}
a = a + w[{i}] * 0.1 + r{c}[0, {b}] * 0.1
''')
T['swapaxes_view'] = ('', '''
s{c} = w.reshape(2, 2).swapaxes(0, 1)
s{c}[0, {b}] += {f}
a = a + w[{i}] * 0.1
''')
T['transpose_axes_view'] = ('', '''
m{c} = np.transpose(w.reshape(2, 1, 2), (2, 0, 1))
m{c}[{b}, 0] = m{c}[{b}, 0] * 0.5 + a * 0.1
a = a + w[{i}] * 0.1
''')
T['asarray_alias'] = ('', '''
q{c} = np.asarray(w)
q{c}[{i}] = {f}
a = a + w[{i}] * 0.1
''')
T['ravel_view'] = ('', '''
u{c} = w.ravel()
u{c}[{i}] = {f}
a = a + w[{i}] * 0.1
''')
T['slice_traced'] = ('L', '''
for i{c} in range(n):
    seg{c} = w[i{c} % 2 * 2:]
    seg{c}[0] = seg{c}[0] * 0.5
    BODY
''')
T['late_binding'] = ('', '''
fs{c} = []
for i{c} in range(3):
    fs{c}.append(lambda y: y * i{c} + a * 0.1)
a = a * 0.5 + fs{c}[0](x) * 0.1 + fs{c}[{i} % 3](w[{i}]) * 0.1
''')
T['while_true'] = ('L', '''
i{c} = 0
while True:
    i{c} += 1
    if i{c} > {r} or {t}:
        break
    a = a * 0.5 + 0.1
    BODY
k = k + i{c}
''')
T['reverse_range'] = ('L', '''
for i{c} in range({r} - 1, -1, -1):
    a = a * 0.5 + w[i{c} % 4] * 0.25
    BODY
''')
T['reversed'] = ('L', '''
for i{c} in reversed(range({r})):
    a = a * 0.9 + i{c} * 0.05
    BODY
''')
T['dict_comp'] = ('', '''
d{c} = {i: w[i] * 2.0 for i in range(4) if i % 2 == 0}
a = a * 0.5 + d{c}[2] * 0.1 + len(d{c}) * 0.01
''')
T['del_item'] = ('', '''
lst{c} = [a, x, w[{i}]]
del lst{c}[{b}]
a = a * 0.5 + lst{c}[0] * 0.1 + lst{c}[-1] * 0.2
''')
T['try_finally'] = ('', '''
try:
    if {t}:
        a = a + 1.0
    BODY
finally:
    a = a * 0.5
''')
T['alias_loop'] = ('L', '''
u{c} = w
for i{c} in range({r}):
    u{c}[i{c} % 4] += 0.25
    BODY
a = a + w[{i}] * 0.1
''')
T['iterate_written'] = ('L', '''
t{c} = 0.0
for y{c} in w:
    w[3] = a * 0.5
    t{c} = t{c} + y{c}
    BODY
a = a * 0.5 + t{c} * 0.1
''')
T['star_unpack'] = ('', '''
first{c}, *rest{c} = w
a = a * 0.5 + first{c} * 0.1 + sum(rest{c}) * 0.05 + len(rest{c}) * 0.01
''')
T['bool_count'] = ('L', '''
for y{c} in v:
    k += y{c} > a
    BODY
''')
T['default_arg'] = ('', '''
s{c} = a
def g{c}(y, s=s{c}):
    return y * s + {f}
s{c} = s{c} + 1.0
a = a * 0.5 + g{c}(x) * 0.1
''')
T['log_append'] = ('w', '''
LOG.append(a * 1.0)
''')
T['assert'] = ('', '''
assert a < 1e30, 'a grew too large'
''')
T['zero_division'] = ('', '''
try:
    a = a + 1.0 / (m - m)
except ZeroDivisionError:
    a = a * 0.5 + {i} * 0.1
''')
T['traced_int_division'] = ('', '''
q{c} = int(abs(x) * 3.0)
a = a + (7 // (q{c} + 1 + {i})) * 0.1 + float(q{c}) / (q{c} + {i} + 2) - (q{c} % (k * k + 1))
''')
T['counter_division'] = ('L', '''
for i{c} in range({r}):
    a = a + 1.0 / (i{c} + 1) * 0.1 + (i{c} + {i}) // (i{c} + 1)
    BODY
''')
T['numpy_first_lines'] = ('', '''
u{c} = np.asarray(v, dtype=float)
a = a + np.min([a, u{c}[{i}], {f}]) * 0.1 + u{c}.sum().item() * 0.01
''')
T['python_numbers'] = ('', '''
a = a + round(2.5 + m) * 0.01 + (-7 // (m + 2)) * 0.01 + (-7 % (m + 3)) * 0.01
''')
T['fancy_copy'] = ('', '''
u{c} = w[[0, 2]]
u{c}[{b}] = {f}
a = a + u{c}[0] * 0.1 + w[0] * 0.1
''')
T['step_view'] = ('', '''
u{c} = w[::2]
u{c}[{b}] = {f}
a = a + w[2] * 0.1
''')
T['overlap'] = ('', '''
w[1:] += w[:-1] * 0.5
''')
T['wrap_prev'] = ('L', '''
for i{c} in range({r}):
    w[i{c} % 4] = w[i{c} % 4 - 1] * 0.5 + 0.25
    BODY
''')
T['dict_alias'] = ('', '''
d{c} = {'w': w}
d{c}['w'][{i}] = {f}
a = a + w[{i}] * 0.1
''')
T['list_alias'] = ('', '''
l{c} = [w, a]
l{c}[0][{i}] = {f}
a = a + w[{i}] * 0.1
''')
T['attr_alias'] = ('', '''
o{c} = Box()
o{c}.arr = w
o{c}.arr[{i}] = {f}
a = a + w[{i}] * 0.1
''')
T['newaxis_view'] = ('', '''
u{c} = w[None]
u{c}[0, {i}] = {f}
a = a + w[{i}] * 0.1
''')
T['view_method'] = ('', '''
u{c} = w.view()
u{c}[{i}] = {f}
''')
T['chained_view'] = ('', '''
u{c} = w[1:][::-1]
u{c}[0] *= 0.5
''')
T['list_alias_loop'] = ('L', '''
l{c} = [a, x]
l2{c} = l{c}
for i{c} in range({r}):
    l{c}[0] = l2{c}[0] * 0.5 + 1.0
    BODY
a = a + l2{c}[0] * 0.1
''')
T['closure_item'] = ('', '''
def put{c}(e):
    w[{i}] = e
if {t}:
    put{c}({f})
''')
T['object_alias'] = ('', '''
p{c} = Box()
p{c}.val = a
q{c} = p{c}
if {t}:
    p{c}.val = {f}
else:
    q{c}.val = a * 2.0
a = a * 0.5 + q{c}.val * 0.1
''')
T['walrus_while'] = ('L', '''
i{c} = 0
while (i{c} := i{c} + 1) < {r}:
    a = a * 0.5 + 0.25
    BODY
k = k + i{c}
''')
T['target_order'] = ('', '''
i{c} = {i}
i{c}, w[i{c}] = (i{c} + 1) % 4, {f}
w[0] = w[1] = w[0] * 0.5
''')
T['match_traced'] = ('', '''
match n:
    case 0:
        a = a + 1.0
    case 1 | 2:
        BODY
    case _:
        a = a * 0.5
''')
T['dict_items'] = ('', '''
d{c} = {'p': a, 'q': w[{i}]}
for key{c}, val{c} in d{c}.items():
    d{c}[key{c}] = val{c} * 0.5
a = a + d{c}['p'] + d{c}['q'] * 0.1
''')
T['enumerate_start'] = ('L', '''
for i{c}, y{c} in enumerate(v, 1):
    a = a * 0.9 + i{c} * y{c} * 0.05
    BODY
''')
T['set_traced_index'] = ('', '''
if {t}:
    w[n] = {f}
''')
T['returned_alias'] = ('', '''
h{c} = head(w)
h{c}[{b}] = {f}
a = a + w[{b}] * 0.1
''')
T['repeated_rows'] = ('L', '''
rows{c} = [[0.0] * 2] * 2
for i{c} in range({r}):
    rows{c}[0][i{c} % 2] = rows{c}[1][i{c} % 2] * 0.5 + a * 0.1
    BODY
a = a + rows{c}[1][0] * 0.1
''')
T['copyto'] = ('', '''
if {t}:
    np.copyto(w, 0.5)
''')
T['enumerate_copy'] = ('L', '''
for i{c}, y{c} in enumerate(v * 1.0):
    a = a * 0.9 + y{c} * (i{c} + 1) * 0.1
    BODY
''')
T['zip_copy'] = ('L', '''
for y{c}, z{c} in zip(v * 1.0, [0.5, 1.0, 1.5]):
    a = a * 0.9 + y{c} * z{c} * 0.1
    BODY
''')
T['custom_container'] = ('L', '''
cells{c} = Cells(a, x)
for i{c} in range({r}):
    cells{c}[i{c} % 2] = cells{c}[1 - i{c} % 2] * 0.5 + 0.25
    BODY
a = a + cells{c}[0] * 0.1
''')
T['history_alias'] = ('', '''
hist{c} = []
for i{c} in range(3):
    w[i{c}] = w[i{c}] * 0.5 + {f}
    hist{c}.append(w)
a = a + hist{c}[0][{i}] * 0.1
''')
T['reversed_written'] = ('L', '''
for y{c} in reversed(w):
    w[{i}] = w[{i}] * 0.5 + y{c} * 0.25
    a = a * 0.9 + y{c} * 0.1
    BODY
''')
T['slice_written'] = ('L', '''
for y{c} in w[1:]:
    w[3] = w[3] * 0.5 + a * 0.1
    a = a * 0.9 + y{c} * 0.1
    BODY
''')
T['strided_written'] = ('L', '''
for i{c}, y{c} in enumerate(w[::-2]):
    w[{i}] = y{c} * 0.5 + a * 0.1
    a = a * 0.9 + y{c} * (i{c} + 1) * 0.1
    BODY
''')
T['shifted_zip_written'] = ('L', '''
for y{c}, z{c} in zip(w, w[1:]):
    w[{i}] = y{c} * 0.5 + z{c} * 0.25
    a = a * 0.9 + y{c} * z{c} * 0.1
    BODY
''')
T['reversed_rows_written'] = ('L', '''
g{c} = w.reshape(2, 2) * 1.0
for i{c}, row{c} in enumerate(reversed(g{c})):
    row{c} *= 0.5
    g{c}[{b}, 1] = g{c}[{b}, 1] + a * 0.1
    a = a * 0.9 + row{c}[1] * 0.1
    BODY
a = a + g{c}[0, 1] * 0.1
''')
T['iterator_read'] = ('', '''
it{c} = iter(w)
a = a + next(it{c}) * 0.1
for y{c} in it{c}:
    a = a * 0.9 + y{c} * 0.1
''')
T['next_kept'] = ('', '''
j{c} = next((i for i, y in enumerate(w) if y > {f}), -1)
e{c} = next((y * 0.5 for y in w if y < a if y != 0.0), None)
a = a + j{c} * 0.1 + (0.0 if e{c} is None else e{c})
''')
T['defaultdict_tally'] = ('L', '''
dd{c} = collections.defaultdict(float)
for y{c} in w:
    if {t}:
        dd{c}['hi'] += y{c} * 0.5
    else:
        dd{c}['lo'] += y{c} * 0.25
    BODY
a = a + dd{c}['hi'] * 0.1 + dd{c}['lo'] * 0.1 + ('hi' in dd{c}) * 0.01
''')
T['generator_pairs'] = ('L', '''
for y{c}, z{c} in pairs(w * 1.0):
    if {t}:
        a = a + (z{c} - y{c}) * 0.1
    BODY
''')
T['namedtuple_replace'] = ('L', '''
pt{c} = Pt(a, 0.5)
for y{c} in w:
    pt{c} = pt{c}._replace(pos=pt{c}.pos + pt{c}.vel * y{c} * 0.1)
    if pt{c}.pos > {f}:
        pt{c} = pt{c}._replace(vel=-pt{c}.vel)
    BODY
a = a * 0.5 + pt{c}.pos * 0.5
''')
T['dataclass_tally'] = ('L', '''
ty{c} = Tally()
for y{c} in w:
    if {t}:
        ty{c}.add(y{c})
    BODY
a = a + ty{c}.total * 0.1 + ty{c}.count * 0.01
''')
T['try_else'] = ('', '''
try:
    r{c} = w[{j}] * 0.5
except IndexError:
    r{c} = a * 0.25
else:
    r{c} = r{c} + 0.125
a = a + r{c}
''')
T['zip_strict'] = ('L', '''
for y{c}, z{c} in zip(w, v * 0.5, strict=True):
    if {t}:
        a = a + y{c} * z{c} * 0.1
    BODY
''')
T['int_base'] = ('', '''
a = a + int('1' * ({i} + 1), base=2) * 0.01
''')
T['read_of_product'] = ('', '''
pr{c} = w * 0.5
try:
    a = a + pr{c}[{j}] * 0.1
except IndexError:
    a = a - 0.25
''')
T['math_scalar'] = ('L', '''
for y{c} in w:
    if {t}:
        a = a * 0.5 + math.exp(-abs(y{c} - a)) * 0.25
    elif y{c} < math.sqrt(abs(a) + 1.0):
        a = a + math.floor(y{c} * 2.0) * 0.1
    BODY
''')
T['property_setter'] = ('L', '''
gg{c} = Gauge(a)
for y{c} in w:
    if {t}:
        gg{c}.level = gg{c}.level + y{c} * 0.1
    BODY
a = a * 0.5 + gg{c}.level * 0.25
''')
T['slots_tally'] = ('L', '''
sl{c} = Slots()
for y{c} in w:
    if {t}:
        sl{c}.total += y{c}
        sl{c}.count += 1
    BODY
a = a + sl{c}.total * 0.1 + sl{c}.count * 0.01
''')
T['defaultdict_while'] = ('', '''
cnt{c} = collections.defaultdict(int)
i{c} = 0
while i{c} < n:
    cnt{c}['hit'] += 1
    i{c} += 1
a = a + ('hit' in cnt{c}) * 0.1 + cnt{c}['hit'] * 0.01
''')
T['numpy_functions'] = ('L', '''
for y{c} in w:
    if {t}:
        a = a * 0.5 + np.exp(-np.abs(y{c} - a)) * 0.25
    elif y{c} < np.sqrt(np.abs(a) + 1.0):
        a = a + np.tanh(y{c}) * np.float32(0.5)
    BODY
a = a + np.linalg.norm(np.where(w > a, w, 0.0)) * 0.1
''')
T['numpy_collected'] = ('', '''
ys{c} = []
for y{c} in v:
    ys{c}.append(np.maximum(y{c}, a) * np.cos(y{c}))
a = a + np.array(ys{c}).sum() * 0.1 + np.dot(np.array(ys{c}), v) * 0.01
''')
