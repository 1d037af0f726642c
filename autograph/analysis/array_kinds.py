"""Which kind of array a variable holds, NumPy's or JAX's, where the function's own code
decides it from the kinds of the arrays its caller gave (passes.views passes it to
`ag.view`: NumPy's views write through, JAX's `a[i]` is a copy, see runtime.items.views).
Python's rules, per expression:

    a                    a parameter: the caller's array's kind (read at entry)
    a * 2.0 - b, a @ m   NumPy's arithmetic: a NumPy array where every array in it is one
                         (a JAX array in it wins)
    np.argmax(a, -1)     a NumPy function that asks the array for its own method
                         (`_METHOD_CALLING`): as NumPy's arithmetic of its arguments
    np.array(a), np.exp(a), np.zeros(3)   any other NumPy function: a NumPy array,
                         whatever the arguments (NumPy makes an ndarray of a JAX array,
                         which has no `__array_function__`)
    a.copy(), a.T, a.astype(t), a.reshape(s)   as `a`
    jnp.cumsum(a)        a JAX function (`jax.*`): a JAX array
    a.at[i].set(e)       a JAX array's update (NumPy's arrays have no `.at`): a JAX array
    x if c else y        as `x` and `y`, where the two agree
    b                    a variable: as each of its bindings, where all agree
    anything else        unknown: the kind of the value when the program runs

A kind is JAX, None (unknown), or a `Kind`: the parameters whose kinds make it (NumPy
where each is a NumPy array) and whether a NumPy function made part of it (then NumPy
also where those parameters are numbers).
"""
import ast
import collections

JAX = 'jax'
Kind = collections.namedtuple('Kind', 'params made')
NEUTRAL = Kind(frozenset(), False)   # (numbers, or the variable itself: `a = a * 2`)
MADE = Kind(frozenset(), True)   # (a NumPy array, whatever the parameters are)
_KEEPING = {'copy', 'astype', 'reshape', 'ravel', 'flatten', 'transpose', 'squeeze'}
_METHOD_CALLING = frozenset({
    'sum', 'prod', 'mean', 'std', 'var', 'max', 'min', 'amax', 'amin', 'all', 'any',
    'argmax', 'argmin', 'cumsum', 'cumprod', 'round', 'around', 'reshape', 'transpose',
    'squeeze', 'swapaxes', 'moveaxis', 'repeat', 'flip', 'searchsorted', 'choose', 'real',
    'imag'})
"""NumPy's functions that, given an array that is not NumPy's, return what its own method
(or indexing) gives: a JAX array's gives a JAX array (tests/test_array_kinds.py checks
this list against the NumPy and JAX installed). Every other NumPy function of a JAX
array gives a NumPy array."""


class ArrayKinds:
    """`kind(name)`: the kind of the arrays variable `name` holds wherever it is read.
    `bindings`: {name: the expressions bound to it, None for a binding of another form};
    `params`: the function's parameters; `modules(name)`: the top-level module name
    ('numpy', 'jax') a global or closure name refers to, or None."""

    def __init__(self, bindings, params, modules, ag):
        self.bindings, self.params, self.modules, self.ag = bindings, params, modules, ag

    def kind(self, name, visiting=frozenset()):
        if name in visiting:
            return NEUTRAL   # (built of itself: its other bindings decide)
        if name not in self.params and name not in self.bindings:
            return None   # (a global, a closure variable: its value decides)
        kind = Kind(frozenset({name}), False) if name in self.params else NEUTRAL
        for value in self.bindings.get(name, []):
            kind = _either(kind, None if value is None else
                           self.of(value, visiting | {name}))
        return kind

    def of(self, node, visiting=frozenset()):
        """The kind of the value of expression `node`."""
        if isinstance(node, ast.Name):
            return self.kind(node.id, visiting)
        if isinstance(node, ast.Constant):
            return NEUTRAL if isinstance(node.value, (int, float, complex)) else None
        if isinstance(node, ast.UnaryOp):
            return self.of(node.operand, visiting)
        if isinstance(node, ast.BinOp):
            return _mixed(self.of(node.left, visiting), self.of(node.right, visiting))
        if isinstance(node, ast.IfExp):
            return _either(self.of(node.body, visiting), self.of(node.orelse, visiting))
        if isinstance(node, ast.Attribute) and node.attr == 'T':
            return self.of(node.value, visiting)
        if isinstance(node, ast.Call):
            return self._call(node, visiting)
        return None

    def _call(self, node, visiting):
        from autograph.analysis.written_parameters import split_call
        func, args = split_call(node, self.ag)
        if not isinstance(func, ast.Attribute):
            return None
        root = func
        while isinstance(root, ast.Attribute):
            root = root.value
        module = self._module(root)
        if module == 'jax':
            return JAX
        if module == 'numpy' and func.attr not in _METHOD_CALLING:
            return MADE
        if module == 'numpy':   # (of arrays: as their arithmetic; of none: NumPy's)
            kind, values = NEUTRAL, [*args, *(k.value for k in node.keywords)]
            for arg in values:
                part = self.of(arg, visiting)
                if part is None and not self._static(arg):
                    return None
                kind = _mixed(kind, part or NEUTRAL)
            made = not any(isinstance(arg, ast.Name) for arg in values)
            return kind if kind is JAX else Kind(kind.params, kind.made or made)
        if func.attr in _KEEPING:   # (a method of the array: its own kind)
            return self.of(func.value, visiting)
        if _at_update(func):
            return JAX
        return None


    def _module(self, node):
        """'numpy' or 'jax' where `node` is a name of such a module (not a variable)."""
        if not isinstance(node, ast.Name) or node.id in self.params or \
                node.id in self.bindings:
            return None
        return self.modules(node.id)

    def _static(self, node):
        """Whether `node` is no array: a constant, a module's attribute (`np.float32`),
        or a tuple or list of those (an axis, a shape, a dtype)."""
        if isinstance(node, (ast.Tuple, ast.List)):
            return all(map(self._static, node.elts))
        if isinstance(node, ast.Attribute):
            root = node
            while isinstance(root, ast.Attribute):
                root = root.value
            return self._module(root) is not None
        return isinstance(node, ast.Constant)


def module_names(resolver):
    """`modules(name)` for `ArrayKinds`: the top-level name of the module a global or
    closure name refers to, where it is NumPy or JAX (and by its usual name, `np`,
    `jnp`, where nothing live is known: the converter run on a file)."""
    import types
    globals_ = getattr(resolver, 'globals', None)
    closure = getattr(resolver, 'closure', {})

    def modules(name):
        if globals_ is None:
            return {'np': 'numpy', 'numpy': 'numpy', 'jnp': 'jax', 'jax': 'jax'}.get(name)
        value = closure.get(name, globals_.get(name))
        if not isinstance(value, types.ModuleType):
            return None
        top = value.__name__.split('.')[0]
        return top if top in ('numpy', 'jax') else None
    return modules


def _at_update(func):
    """Whether `func` is `a.at[i].set` (`.add`, `.get`, ...): only a JAX array has
    `.at`, and its updates make JAX arrays."""
    value = func.value
    return isinstance(value, ast.Subscript) and isinstance(value.value, ast.Attribute) \
        and value.value.attr == 'at'


def _mixed(left, right):
    """The kind of NumPy's arithmetic of two values: a JAX array wins."""
    if left is JAX or right is JAX:
        return JAX
    if left is None or right is None:
        return None
    return Kind(left.params | right.params, left.made or right.made)


def _either(one, other):
    """The kind of a value that is one or the other: where they agree (or one is
    neutral), else unknown. A NumPy array on one path (`MADE`) and one of the parameters'
    kind on the other (`if clean: x = np.nan_to_num(x)`) is taken as the parameters'
    kind, made: they agree where the caller gives NumPy arrays, the kind followed (given
    JAX arrays, the made path's NumPy array is not: a gap, see tests/test_array_kinds)."""
    if one == NEUTRAL:
        return other
    if other == NEUTRAL or one == other:
        return one
    for made, kind in ((one, other), (other, one)):
        if made == MADE and kind not in (None, JAX):
            return Kind(kind.params, True)
    return None


def given_kinds(bases, kinds, whole_params=()):
    """{base: JAX, or the Kind of the arrays it holds} for the `bases` whose kind the
    function's code decides (see `ArrayKinds`), the `whole_params` (whose views are
    all taken while they hold the caller's array) by the caller's kind."""
    given = {}
    for base in bases:
        kind = Kind(frozenset({base}), False) if base in whole_params else kinds.kind(base)
        if kind is JAX or (kind is not None and kind != NEUTRAL):
            given[base] = kind
    return given
