"""A shape of the differential fuzzer (tests/fuzzer.py): index arrays, selections of
run-time length, exits, optional results given to JAX and arrays the program makes,
drawn from a random stream of its own (the programs without it stay as they were).

Python's meaning, which the converted program must keep:

- `w[[0, 2]] = e`, `w[jnp.array([k % 5, 1])] += e` on the NumPy array `w`: NumPy's
  index arrays (a repeated index is written once by `+=`); an index out of range, which
  traced values make on some paths only, raises IndexError. Reads at index arrays in
  range (`w[[1, 3]]`, `v[jnp.array([k % 4, 0])]`).
- `jnp.sum(v[v > t])`, `w[w > t].sum()`, through a name (`sel3 = v[v > a]`): a selection
  whose length is known when the program runs; `max`, `min` and `mean` only where
  Python's selection is not empty (`if jnp.any(v > t):`; not by its length,
  `sel3.shape[0] > 0`, a named error by design: a compiled program has fixed shapes).
- `sys.exit(c)`, `exit(c)`, `raise SystemExit(c)` under a test of traced values: Python
  raises SystemExit on the paths that take it.
- `jnp.abs(maybe_half(p, q))`: maybe_half returns None on some paths, where JAX's
  function raises TypeError.
- `u = v * 2.0` and `nz = np.zeros(4, np.float32)` are NumPy arrays: their slices are
  views, written through (`ru1 = u[1:3]; ru1 *= 0.5`) and seeing the array's writes;
  `z = jnp.zeros(4)` is a JAX array: its slice is a copy and `rz1 += a` rebinds `rz1`
  (JAX arrays have no item assignment, so the program writes `z` by `.at[i].set`). The
  NumPy array `nz` the program makes and keeps to itself is written with traced values
  anywhere, also through its views (`rn2 = nz[1:3]; rn2[0] = a * 0.5`): it becomes a
  traced array (autograph.analysis.own_arrays), with Python's values.
- `al5 = np.ones(4, np.float32)`, then in a loop: read `al5`, write `nz`, `al5 = nz`:
  the same array as `nz` from the second iteration on (a whole alias on some paths,
  followed by a flag), which sees `nz`'s writes.

Where Python raises (IndexError, SystemExit, TypeError), the converted program must raise
the same type (the harness compares types: `same_error`).
"""
import random

ARRAYS_TEXT = '''
import sys

import numpy as np
'''

PYTHON_ERRORS = (AttributeError, IndexError, TypeError, SystemExit)
"""Errors of valid programs, the same type for plain and converted runs (AttributeError:
tests/fuzz_created.py; the rest: this module's shape)."""

VIEW_ADDS_JAX = False
"""Whether a view of `u` is given `ru1 += a` (`a` a JAX value: NumPy adds out of place,
by JAX's `__radd__`, so `ru1` is rebound to a JAX array and `u` is unchanged). The
converted program writes it through to `u` (a silent wrong value, open when this was
written); while False the same draw writes `ru1 = ru1 + a`, Python's meaning of it."""

_FLOATS = ('a', 'b')
_THRESHOLDS = ('a', 'b', 'x', '0.0', 'v[0]', '-0.5')


def arrays_module_text(on):
    return ARRAYS_TEXT if on else ''


def same_error(expected, actual):
    """Whether the converted run's error `actual` is Python's `expected`: the same one of
    PYTHON_ERRORS (an AttributeError with the same message, which names the attribute)."""
    kind = next((k for k in PYTHON_ERRORS if isinstance(expected, k)), None)
    if kind is None or not isinstance(actual, kind):
        return False
    return kind is not AttributeError or str(actual) == str(expected)


class ArrayShapes:
    """Statements of the shape; hooks the generator calls where they may go."""

    def init_array_shapes(self, seed):
        self.arrays = random.Random(seed * 7919 + 13)
        self.arrays_on = self.arrays.random() < 0.25
        self.exits_on = self.arrays_on and self.arrays.random() < 0.3
        self.optional_on = self.arrays_on and self.arrays.random() < 0.3
        self.array_count = 0

    def arrays_prologue(self):
        if not self.arrays_on:
            return
        self.emit(1, 'u = v * 2.0')
        self.emit(1, 'nz = np.zeros(4, np.float32)')
        self.emit(1, 'z = jnp.zeros(4)')

    def arrays_statement(self, depth):
        """A statement of the shape (some), drawn from the shape's stream."""
        if not self.arrays_on or self.arrays.random() < 0.5:
            return
        r = self.arrays
        forms = [self.index_write, self.index_read, self.selection, self.numpy_view,
                 self.jax_view, self.own_write]
        if depth == 1:
            forms.append(self.alias_after_sweep)
        if self.exits_on:
            forms.append(self.exit_statement)
        if self.optional_on:
            forms.append(self.optional_call)
        self.array_count += 1
        for line in r.choice(forms)():
            self.emit(depth, line)
        if depth == 1 and r.random() < 0.5:   # (made arrays: see the docstring)
            for line in self.made_view():
                self.emit(depth, line)

    def arrays_epilogue(self):
        if not self.arrays_on:
            return
        self.emit(1, 'a = a + jnp.sum(u) * 0.01 + nz.sum() * 0.02 + jnp.sum(z) * 0.03')

    # forms: each returns its lines ------------------------------------------------------
    def index_write(self):
        r = self.arrays
        i, j = r.randrange(4), r.randrange(4)
        a = r.choice(_FLOATS)
        traced = r.choice([f'k % {r.choice([4, 5])}', f'n - {r.randrange(4)}',
                           f'(k + n) % {r.choice([4, 6])}'])
        c = self.array_count
        return r.choice([
            [f'w[[{i}, {j}]] = {a} * 0.5'],
            [f'w[[{i}, {j}]] += {a} * 0.1'],
            [f'w[np.array([{i}, {j}])] -= 0.25'],
            [f'w[jnp.array([{traced}, {j}])] += {a} * 0.1'],
            [f'w[jnp.array([{traced}, {j}])] = jnp.stack([{a}, b * 0.5])'],
            [f'ix{c} = {j}', f'if {self.drawn(r, self.cond)}:',   # (drawn: fuzz_order.py)
             f'    ix{c} = {traced}',
             f'w[jnp.array([ix{c}, {i}])] *= 0.5'],
        ])

    def index_read(self):
        r = self.arrays
        i, j = r.randrange(4), r.randrange(4)
        a = r.choice(_FLOATS)
        return [r.choice([
            f'{a} = {a} + jnp.sum(w[[{i}, {j}]]) * 0.1',
            f'{a} = {a} + w[np.array([{i}, {j}])].sum() * 0.1',
            f'{a} = {a} + v[jnp.array([k % 4, {j}])][0] * 0.1',
            f'{a} = {a} + jnp.sum(w[jnp.array([(k + n) % 4, {i}])]) * 0.1',
        ])]

    def selection(self):
        r = self.arrays
        a, t = r.choice(_FLOATS), r.choice(_THRESHOLDS)
        arr = r.choice(['v', 'w'])
        op = r.choice(['>', '<'])
        mask = f'{arr}[{arr} {op} {t}]'
        name = f'sel{self.array_count}'
        guarded = r.choice(['jnp.max', 'jnp.min', 'jnp.mean'])
        return r.choice([
            [f'{a} = {a} + jnp.sum({mask}) * 0.1'],
            [f'{a} = {a} + {mask}.sum() * 0.1'],
            [f'{name} = {mask}', f'{a} = {a} + jnp.sum({name}) * 0.1'],
            [f'{name} = {mask}', f'{a} = {a} + {name}.sum() * 0.1 - jnp.sum({name} * 0.5)'],
            [f'if jnp.any({arr} {op} {t}):', f'    {a} = {a} + {guarded}({mask}) * 0.1'],
            [f'{name} = {mask}', f'if ({arr} {op} {t}).any():',
             f'    {a} = {a} + {guarded}({name}) * 0.1'],
            [f'if ({arr} {op} {t}).sum() > 1:', f'    {a} = {a} + {mask}.mean() * 0.1'],
        ])

    def exit_statement(self):
        r = self.arrays
        code = r.randrange(1, 4)
        return [f'if {r.choice(_FLOATS + ("x",))} > {r.choice(["1.0", "1.5", "0.8"])}:',
                '    ' + r.choice([f'sys.exit({code})', f'exit({code})',
                                   f'raise SystemExit({code})'])]

    def optional_call(self):
        r = self.arrays
        a = r.choice(_FLOATS)
        call = f'maybe_half({r.choice(_FLOATS + ("x",))}, {r.choice(["0.0", "-0.5", "b"])})'
        name = f'm{self.array_count}'
        fn = r.choice(['jnp.sqrt(jnp.abs({}))', 'jnp.tanh({})', 'jnp.sum({})',
                       'jnp.maximum({}, 0.0)'])
        return r.choice([[f'{a} = {a} + {fn.format(call)} * 0.1'],
                         [f'{name} = {call}', f'{a} = {a} + {fn.format(name)} * 0.1']])

    def numpy_view(self):
        """A view of `u` (a NumPy array made of the argument's values), written through."""
        r = self.arrays
        name = f'ru{self.array_count}'
        a = r.choice(_FLOATS)
        view = r.choice(['u[1:3]', 'u[::2]', 'u[2:]', 'u[:]'])
        write = r.choice([f'{name} *= 0.5', f'{name} += 0.25', f'{name}[0] = {a} * 0.5',
                          f'{name}[-1] -= {a} * 0.1', f'{name}[:] = {a}',
                          f'{name} += {a}' if VIEW_ADDS_JAX else f'{name} = {name} + {a}'])
        return [f'{name} = {view}', write,
                r.choice([f'{a} = {a} + u[1] * 0.1 + {name}[0] * 0.1',
                          f'u[2] = {a} * 0.25', f'{a} = {a} + jnp.sum({name}) * 0.1'])]

    def jax_view(self):
        """A slice of the JAX array `z`: a copy, rebound by `+=`."""
        r = self.arrays
        name = f'rz{self.array_count}'
        a = r.choice(_FLOATS)
        return [f'{name} = z[{r.choice(["1:3", "::2", ":"])}]',
                r.choice([f'{name} += {a}', f'{name} = {name} * 0.5 + {a}']),
                f'z = z.at[{r.randrange(4)}].set({a} * 0.5)',
                f'{a} = {a} + jnp.sum({name}) * 0.1 + z[1] * 0.1']

    def own_write(self):
        """`nz` (made by np.zeros, kept to itself) written with traced values, directly
        or through a view, at any depth."""
        r = self.arrays
        a, name = r.choice(_FLOATS), f'rn{self.array_count}'
        return r.choice([
            [f'nz[{r.randrange(4)}] = {a} * 0.5'],
            [f'nz[k % 4] += {a} * 0.1'],
            [f'nz[{r.randrange(4)}], nz[{r.randrange(4)}] = {a} * 0.25, nz[0] + 0.5'],
            [f'{name} = nz[{r.choice(["1:3", "::2", ":"])}]', f'{name}[0] = {a} * 0.5',
             f'{name} *= 0.5', f'{a} = {a} + nz[1] * 0.1'],
        ])

    def alias_after_sweep(self):
        """`al = nz` at the end of each iteration of a loop that reads `al` first and
        writes `nz` (Gauss-Seidel's `x0 = x1`)."""
        r = self.arrays
        a, c = r.choice(_FLOATS), self.array_count
        bound = r.choice(['n', '3', 'n % 3 + 1'])
        return [f'al{c} = np.ones(4, np.float32)', f'for j{c} in range({bound}):',
                f'    {a} = {a} + al{c}[j{c} % 4] * 0.1',
                f'    nz[(j{c} + 1) % 4] = {a} * 0.5', f'    al{c} = nz',
                f'{a} = {a} + al{c}[1] * 0.1']

    def made_view(self):
        """A view of `nz` (made by np.zeros) written with constants (outside staged
        control flow only), and a read of it."""
        r = self.arrays
        name = f'rn{self.array_count}'
        a = r.choice(_FLOATS)
        return [f'{name} = nz[{r.choice(["1:3", "::2", "2:", ":"])}]',
                r.choice([f'{name} += 0.5', f'{name} *= 0.5', f'{name}[0] = 1.5',
                          f'nz[1] = nz[1] + 0.25']),
                f'{a} = {a} + nz.sum() * 0.1 + {name}[0] * 0.1']
