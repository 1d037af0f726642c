"""The NumPy arrays a function makes and keeps to itself (for passes.item_assignments).

    d = np.zeros((n + 1, m + 1))     # made here: a NumPy function, `a.copy()`, `a * 2`
    d[i, j] = d[i - 1, j] + cost     # a traced value: NumPy cannot hold it, so the write
                                     # makes `d` a traced array standing for the NumPy
                                     # array (`ag.setitem(d, (i, j), ..., own=True)`)

Python's `d[i, j] = v` changes the array in place, and every holder of the array sees the
change. A traced value can only be stored into a new (JAX) array, which only the name
`d` then holds: that is Python's meaning only where nothing else holds the array. So a
name is *own* where every binding of it makes a new array (a NumPy function that makes
one, `x.copy()`, arithmetic) or is a view of an own array (`r = d[1:3]`, which
passes.views writes back into `d`) and the function never gives the array away: the name is
read only to index it (`d[i]`), in arithmetic and comparisons, by attributes and methods
that make new values (`d.shape`, `d.sum()`) or views used so (`d.T @ a`), as an
argument of a function that only reads it (JAX's, `math`'s, NumPy's reductions, `len`,
`print`...), as a loop's iterable, in a
`return`, as the value of a slice assignment (`x[:] = d`: NumPy copies its items, except
into a list display's name), or bound whole to another name (`c = d`: passes.views
follows that alias), also
so by a nested function (whose item writes reach it through `nonlocal`, see
passes.item_assignments). In a container display, stored into an attribute or an item,
given to any other function, read by a lambda, or declared global or nonlocal, it is
not own, and
a traced write stays the named error (runtime numpy_traced_write): a copy would leave the
other holders with the old values. Where the array it stores so is already traced (a
NumPy argument, one a staged loop carries), its item writes are a named error too
(`held=True`, runtime numpy_held_write): the holder would keep the old array.
"""
import ast
import collections

from autograph.analysis.array_kinds import module_names
from autograph.analysis.identity_uses import handed_on_last
from autograph.analysis.numpy_writes import writes_into
from autograph.analysis.view_bindings import containers
from autograph.analysis.walk import SCOPES, children, nodes

_MAKERS = frozenset({
    'zeros', 'ones', 'empty', 'full', 'zeros_like', 'ones_like', 'empty_like', 'full_like',
    'array', 'copy', 'arange', 'linspace', 'eye', 'identity', 'tile', 'repeat',
    'concatenate', 'stack', 'vstack', 'hstack', 'outer', 'dot', 'matmul', 'cumsum',
    'where', 'maximum', 'minimum', 'clip', 'sort', 'abs', 'sqrt', 'exp', 'log'})
"""NumPy functions that give a new array (not a view of an argument, as `np.asarray`,
`np.reshape` or `np.transpose` may)."""

_READERS = _MAKERS | frozenset({
    'sum', 'mean', 'max', 'min', 'argmax', 'argmin', 'amax', 'amin', 'std', 'var', 'prod',
    'any', 'all', 'allclose', 'isclose', 'array_equal', 'argsort', 'count_nonzero',
    'trace', 'einsum', 'square', 'sign', 'floor', 'ceil', 'round', 'sin', 'cos', 'tanh',
    'isnan', 'isinf', 'isfinite', 'norm', 'solve', 'inv', 'det', 'shape', 'size', 'ndim'})
"""NumPy functions that read an array given to them and keep no hold of it."""

_METHODS = frozenset({
    'shape', 'ndim', 'size', 'dtype', 'copy', 'sum', 'mean', 'max', 'min', 'argmax',
    'argmin', 'std', 'var', 'prod', 'any', 'all', 'astype', 'item', 'tolist', 'cumsum',
    'dot', 'clip', 'round', 'argsort', 'nonzero', 'trace'})
"""Attributes and methods of an array that give a new value (not `.T`, `.reshape`,
`.view`, `.ravel`: views)."""

_VIEW_ATTRIBUTES = frozenset({'T', 'mT'})
_VIEW_METHODS = frozenset({'reshape', 'ravel', 'transpose', 'swapaxes', 'squeeze', 'view'})
"""An array's attributes and methods that give a view of it: a use of the view that keeps
it to the function (`return J.T`, `J.T @ A`) keeps the array so too; where the view is
bound to a name, passes.views follows it."""
_VIEW_FUNCTIONS = _VIEW_METHODS | {'moveaxis'}   # (`np.transpose(J)`, ...)

_BUILTINS = frozenset({'len', 'print', 'float', 'int', 'abs', 'min', 'max', 'sum',
                       'round', 'str', 'repr', 'format', 'bool', 'isinstance'})


def own_arrays(function, resolver):
    """The `Arrays` of `function`: its own NumPy arrays, the names whose value it stores
    into a container, an attribute or an item, and those holders (see `_stored`)."""
    modules = module_names(resolver)
    made, other, given = set(), set(), set()
    held, views, copied, sliced, items = {}, {}, {}, {}, {}   # (items: see _holding)
    parents, stack = {}, list(function.body)
    while stack:
        node = stack.pop()
        cls = node.__class__
        if cls in _SCOPES:   # (a nested function's uses count as the function's own:
            if cls is ast.FunctionDef:   # it writes items through `nonlocal`, see
                stack += node.body       # passes.item_assignments; a lambda's reads
                continue                 # are late, its values given away)
            given.update(n.id for n in nodes(node) if n.__class__ is ast.Name)
            continue
        for child in children(node):
            parents[id(child)] = node
            stack.append(child)
        if cls is ast.Name:
            if node.ctx.__class__ is not ast.Load:
                parent = parents[id(node)]
                if parent.__class__ is ast.AugAssign:
                    continue   # (NumPy's `x += e` changes the array in place)
                value = parent.value if parent.__class__ is ast.Assign and \
                    parent.targets == [node] else None
                if value is not None and _makes(value, modules):
                    made.add(node.id)
                elif value.__class__ is ast.Subscript and value.value.__class__ is ast.Name:
                    views.setdefault(node.id, set()).add(value.value.id)   # (`r = d[1:3]`)
                    sliced.setdefault(node.id, set()).add(
                        (value.value.id, 0 if _slices(value.slice) else _count(value.slice)))
                else:
                    other.add(node.id)
                continue
            if _copied(node, parents):   # (`x[:] = d`: `x` gets copies of the items,
                copied.setdefault(node.id, set()).add(_root(parents[id(node)].targets[0]))
                continue                     # unless `x` is a list, see below)
            holder, k = _stored(node, parents), None
            if holder is None:
                holder, k = _stored_item(node, parents)
            if holder is not None:
                held.setdefault(node.id, set()).add(holder)
                items[node.id] = _merged(items.get(node.id, k), k)
            if not _reads_only(node, parents, modules):
                given.add(node.id)
        elif cls is ast.Global or cls is ast.Nonlocal:
            given.update(node.names)
    given |= _copied_into_lists(function, copied, held, items)
    mine = made - other - {a.arg for a in _parameters(function)} - set(views)
    given, held = _complete(function, (given, held), mine, modules)
    own = mine - given
    # (stored as an item of an array NumPy made here, `A[i] = r`, `r` is copied)
    held, holders, items = _holding(held, made, sliced, items)
    while True:   # (a view of an own array, bound only so, is own: passes.views writes
        # it back into its base)
        more = {name for name, bases in views.items() if bases <= own} - other - given
        if more <= own:
            return Arrays(own, held, holders, items)
        own |= more


_SCOPES = frozenset(SCOPES)


def _copied_into_lists(function, copied, held, items):
    """The names whose rows a list holds (`xs[:] = d` of a list `xs`: not copies),
    noted as held whole in `held` and `items`; `copied`: name -> the roots of the
    targets of the slice assignments it is the value of."""
    boxes, found = containers(function) if copied else (), set()
    for name, roots in copied.items():
        if roots & boxes or '' in roots:
            held.setdefault(name, set()).update(roots & boxes or {''})
            items[name] = None
            found.add(name)
    return found


def _holding(held, made, sliced, items):
    """(name held -> its holders, all holders, name held -> k) from `held` (the holders
    `_stored` found), without the arrays made here (`A[i] = r` into one copies `r`). The
    base of a view held is held too (`v = d[:1]; rows.append(v)`: the list sees `d`'s
    changes through `v`), as `sliced` tells (view name -> (base, k): `v = d[1:]`, k 0;
    `r = d[i]`, k 1, a view only where `d` has more than one dimension). `items` (name
    -> k, or None) and the result's third part (name -> k, only where not None): the
    names held only through items of k indices (`rows.append(M[i])`), which hold the
    array only where it has more than k dimensions."""
    held = {name: holders - made for name, holders in held.items() if holders - made}
    items = {name: items.get(name) for name in held}
    pending = list(held)
    while pending:
        name = pending.pop()
        for base, k in sliced.get(name, ()):
            depth = None if items[name] is None and not k else (items[name] or 0) + k
            if base not in held or not held[base] >= held[name] or \
                    _merged(items[base], depth) != items[base]:
                items[base] = _merged(items.get(base, depth), depth)
                held[base] = held.get(base, set()) | held[name]
                pending.append(base)
    return held, set().union(*held.values()) if held else set(), \
        {name: k for name, k in items.items() if k is not None}


def _merged(k, j):
    """Held through items of `k` and of `j` indices (None: held whole): the fewest."""
    return None if k is None or j is None else min(k, j)


def _count(key):
    """How many indices the key `key` takes (`d[i, j]`: 2)."""
    return len(key.elts) if key.__class__ is ast.Tuple else 1


def _view_taken(attribute, parents):
    """The expression that is a view of the array `attribute` reads (`J.T`, the call
    `J.reshape(-1)`), or None."""
    if attribute.attr in _VIEW_ATTRIBUTES:
        return attribute
    call = parents.get(id(attribute))
    if attribute.attr in _VIEW_METHODS and call.__class__ is ast.Call and \
            call.func is attribute:
        return call
    return None


def _stored(name, parents):
    """Where this read of a name stores its value, another object holding it: the name
    of that holder (a list, tuple, set or dict display bound to a name, not a returned
    tuple; the root of an attribute or item target, `box.a = x`, `d[k] = x`; a
    container whose method stores, `xs.append(x)`), '' where it has none, None where
    the read stores nothing. A view of the name stored in a container or an attribute
    holds its array too (`rows.append(d[:1])`, `box.a = d.T`: the holder sees the
    array's changes); not `d[i]`, a view of a row only where `d` has more dimensions
    than indices, nor one stored as an array's item (`A[k, :], A[p, :] = A[p, :], ...`
    copies)."""
    parent = parents.get(id(name))
    view = parent if parent.__class__ is ast.Subscript and parent.value is name and \
        parent.ctx.__class__ is ast.Load and _slices(parent.slice) else \
        _view_taken(parent, parents) if parent.__class__ is ast.Attribute else None
    if view is not None:
        return _stored(view, parents) if _holds_views(view, parents) else None
    if parent.__class__ is ast.Tuple and _binds_or_indexes(parent, parents):
        return None
    if isinstance(parent, (ast.List, ast.Set, ast.Dict, ast.Tuple)):
        outer = parent
        while isinstance(outer, (ast.List, ast.Set, ast.Dict, ast.Tuple)):
            outer = parents.get(id(outer))
        if isinstance(parent, ast.Tuple) and isinstance(outer, ast.Return):
            return None
        return outer.targets[0].id if isinstance(outer, ast.Assign) and \
            isinstance(outer.targets[0], ast.Name) else ''
    if isinstance(parent, ast.Assign):   # (unpacking, `a, *b = x`, takes items)
        targets = [t for t in parent.targets if isinstance(t, (ast.Attribute, ast.Subscript))]
        if not targets:
            return None   # (`d[k] = x`, `o.a = x`: `d`, `o`; `L[0][1] = x`: an item's)
        return targets[0].value.id if isinstance(targets[0].value, ast.Name) else ''
    if isinstance(parent, ast.Call) and name is not parent.func and \
            isinstance(parent.func, ast.Attribute) and parent.func.attr in _STORING:
        return _root(parent.func.value)
    return None


def _stored_item(name, parents):
    """(holder, k) where this read of a name is an item of k indices that is stored
    where views are held (`rows.append(M[i])`: a view of a row where `M` has more than
    one dimension, a number where it has one); else (None, None)."""
    parent = parents.get(id(name))
    if parent.__class__ is ast.Subscript and parent.value is name and \
            parent.ctx.__class__ is ast.Load and _holds_views(parent, parents):
        holder = _stored(parent, parents)
        if holder is not None:
            return holder, _count(parent.slice)
    return None, None


def _holds_views(view, parents):
    """Whether the object `view` is stored into holds it as it is: a list, set or dict
    display's item, a container method's argument (`rows.append(view)`), an attribute
    (`box.a = view`)."""
    parent = parents.get(id(view))
    if parent.__class__ is ast.Assign:
        return all(t.__class__ is ast.Attribute for t in parent.targets)
    return parent.__class__ in (ast.List, ast.Set, ast.Dict, ast.Call)


def _slices(key):
    """Whether the key `key` takes a slice (`:`, `...`, `None`), so NumPy's item is a view
    whatever the array's dimensions."""
    parts = key.elts if key.__class__ is ast.Tuple else [key]
    return any(p.__class__ is ast.Slice or (p.__class__ is ast.Constant and (
        p.value is ... or p.value is None)) for p in parts)


def _copied(name, parents):
    """Whether this read of a name is the whole value of a slice assignment (`x[:] = d`,
    `x[...] = d`, `x[1:, :] = d`), which copies its items."""
    parent = parents.get(id(name))
    if parent.__class__ is not ast.Assign or parent.value is not name or \
            len(parent.targets) != 1 or parent.targets[0].__class__ is not ast.Subscript:
        return False
    key = parent.targets[0].slice
    parts = key.elts if key.__class__ is ast.Tuple else [key]
    return all(p.__class__ is ast.Slice or (p.__class__ is ast.Constant and p.value is ...)
               for p in parts)


def _binds_or_indexes(display, parents):
    """Whether the tuple `display` is the key of an item (`d[i, j]`) or the values of an
    unpacking into as many names (`x, fx = x_new, fx_new`: whole aliases, which
    passes.views follows as `x = x_new`, see passes.unpacked_aliases)."""
    parent = parents.get(id(display))
    if parent.__class__ is ast.Subscript:
        return parent.slice is display
    return parent.__class__ is ast.Assign and parent.value is display and all(
        t.__class__ is ast.Tuple and len(t.elts) == len(display.elts) and
        all(e.__class__ is ast.Name for e in t.elts) for t in parent.targets)


def _root(node):
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else ''


Arrays = collections.namedtuple('Arrays', 'own held holders held_items')
Arrays.__doc__ = """`own`: the function's own NumPy arrays; `held`: name -> the holders
of its array; `holders`: all of them; `held_items`: name -> k for the names held only
through items of k indices (`rows.append(M[i])`: held where the array has more than k
dimensions)."""
"""own_arrays' result: the own arrays, the names stored where another object holds
them (a dict: name -> the names of its holders), and the names of all those holders
('' for one without a name)."""


_STORING = frozenset({'append', 'extend', 'insert', 'add', 'setdefault', 'update',
                      'appendleft', 'put'})


def _parameters(function):
    args = function.args
    return [*args.posonlyargs, *args.args, *args.kwonlyargs,
            *([args.vararg] if args.vararg else []), *([args.kwarg] if args.kwarg else [])]


def _makes(value, modules):
    """Whether expression `value` makes a new array (or a number)."""
    if isinstance(value, (ast.BinOp, ast.UnaryOp)):
        return True
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute):
        return False
    func = value.func
    if func.attr == 'copy' and not value.args:
        return True   # (`x.copy()`, `np.copy(x)`)
    return func.attr in _MAKERS and _module(func.value, modules) == 'numpy'


def _complete(function, given_held, made, modules):
    """(given, held) without the arrays of `made` that the function hands on only once
    complete (`r[0] = e; rows.append(r)`, then a new `r`: identity_uses.handed_on_last)."""
    given, held = given_held
    settled = handed_on_last(function, (given | set(held)) & made,
                             lambda func: _library_reads(func, modules))
    return given - settled, {name: h for name, h in held.items() if name not in settled}


def _library_reads(func, modules):
    """Whether the called `func` is NumPy's or JAX's and only reads its arguments (not
    `np.copyto`, `np.add.at`, `np.random.shuffle`, ...)."""
    parts = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    return bool(parts) and not _WRITING_PARTS.intersection(parts) and \
        isinstance(func, ast.Name) and modules(func.id) in ('numpy', 'jax')


_WRITING_PARTS = frozenset({'random', 'at', 'copyto', 'fill_diagonal', 'put', 'place',
                            'putmask', 'put_along_axis'})


def _module(node, modules):
    while isinstance(node, ast.Attribute):   # (`np.random.rand`, `np.linalg.norm`)
        node = node.value
    return modules(node.id) if isinstance(node, ast.Name) else None


def _reads_only(name, parents, modules):
    """Whether this read of a name keeps the array to the function (see the module
    docstring)."""
    parent = parents.get(id(name))
    if isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.Return,
                           ast.AugAssign, ast.For, ast.Expr, ast.If, ast.While)):
        return True
    if isinstance(parent, ast.Subscript):
        return True   # (`d[i]`; `a[d]`: an index array, copied)
    if isinstance(parent, ast.Attribute):
        if parent.attr in _METHODS:
            return True
        view = _view_taken(parent, parents)   # (`J.T`, `d.reshape(-1)`: read as the
        return view is not None and _reads_only(view, parents, modules)   # view is used)
    if isinstance(parent, ast.Assign):
        return len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)
    if isinstance(parent, ast.Tuple):   # (`return d, n`, `d[i, j]`, `c, m = d, n`)
        return isinstance(parents.get(id(parent)), ast.Return) or \
            _binds_or_indexes(parent, parents)
    if isinstance(parent, ast.keyword):
        parent = parents.get(id(parent))
    if isinstance(parent, ast.Call) and name is not parent.func:
        func = parent.func
        if isinstance(func, ast.Name):
            return func.id in _BUILTINS
        if writes_into(name, parent, parents.get(id(parent)), lambda n: _module(n, modules)):
            return True   # (`np.exp(v, out=d)`, `np.add.at(d, i, v)`: written in place)
        if isinstance(func, ast.Attribute):
            module = _module(func.value, modules)
            if module == 'numpy' and func.attr in _VIEW_FUNCTIONS and \
                    parent.args and parent.args[0] is name:   # (`np.transpose(J)`: a view)
                return _reads_only(parent, parents, modules)
            return module == 'jax' or (module == 'numpy' and func.attr in _READERS)
    return False
