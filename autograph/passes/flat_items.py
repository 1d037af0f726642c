"""NumPy's flat items as item reads and writes of the array (runtime.items.flat), before
the other passes and analyses see the function, so that they follow `a.flat[k] = e` as
the item write of `a` it is (its views, its caller's array):

    a.flat[k] = e        ->  a[ag.flat_key(a, k)] = ag.flat_value(a, k, e)
    a.flat[k] += e       ->  a[ag.flat_key(a, k)] += e
    y = a.flat[k]        ->  y = a[ag.flat_key(a, k)]
    a.flat = e           ->  a[ag.flat_key(a, slice(None))] = ag.flat_value(a,
                                                                 slice(None), e)
    for e in a.flat:     ->  for e in a.reshape(-1):   (also iterated by `list(a.flat)`,
                                                         `sum(...)`, a comprehension)

(`a.reshape(-1)`: the items in C order, which passes.views and passes.live_iteration
read live in a loop that writes `a`, as Python's flat iterator does.) Another read of
`a.flat` (`if cfg.flat:`, an object's attribute named so) stays as it is, and so does
every use of `self.flat` and `cls.flat` (an attribute of a method's object).

Only where `a` is a name or an attribute of one (`self.w`) and, for a write, `k` has no
call (both are read twice); other forms stay as written.
"""
import ast
import copy

_PURE = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Slice, ast.Tuple, ast.List,
         ast.UnaryOp, ast.BinOp, ast.USub, ast.UAdd, ast.operator, ast.expr_context)


def transform(root, ctx):
    """`root` with its flat items rewritten (see the module docstring): in place (passes.run
    asks where the census finds an attribute `flat`)."""
    _Flat(ctx).visit(root)
    ast.fix_missing_locations(root)
    return root


def _array(node):
    """Whether `node` is a name or an attribute of one (read twice, the same value)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _flat(node):
    """The array of `node` where it is `a.flat` of a name's array, else None (also for
    `self.flat`, `cls.flat`: an attribute of the object a method is given)."""
    if isinstance(node, ast.Attribute) and node.attr == 'flat' and _array(node.value) \
            and not (isinstance(node.value, ast.Name) and node.value.id in _RECEIVERS):
        return node.value
    return None


_RECEIVERS = ('self', 'cls')

_ITERATING = frozenset({'list', 'tuple', 'sum', 'sorted', 'enumerate', 'zip', 'iter',
                        'reversed', 'min', 'max', 'any', 'all'})
"""Builtins that iterate over an argument (`list(a.flat)`): a flat iterator read whole."""


def _pure(node):
    return all(isinstance(inner, _PURE) for inner in ast.walk(node))


class _Flat(ast.NodeTransformer):
    def __init__(self, ctx):
        self.ctx = ctx

    def key(self, array, index):
        return ast.Call(func=self.ctx.runtime('flat_key'),
                        args=[copy.deepcopy(array), _value(index)], keywords=[])

    def item(self, array, index, store):
        return ast.Subscript(value=copy.deepcopy(array), slice=self.key(array, index),
                             ctx=ast.Store() if store else ast.Load())

    def visit_Subscript(self, node):
        array = _flat(node.value)
        if array is None:
            return self.generic_visit(node)
        node.slice = self.visit(node.slice)   # (`a.flat` itself is the item's array)
        if not isinstance(node.ctx, ast.Load):
            return node
        return ast.copy_location(self.item(array, node.slice, False), node)

    def whole(self, node):
        """`node`, or `a.reshape(-1)` where it is `a.flat` read whole (iterated); the
        caller's `generic_visit` visits what it gives."""
        array = _flat(node)
        if array is None or not isinstance(node.ctx, ast.Load):
            return node
        return ast.copy_location(ast.Call(
            func=ast.Attribute(value=copy.deepcopy(array), attr='reshape', ctx=ast.Load()),
            args=[ast.Constant(-1)], keywords=[]), node)

    def visit_For(self, node):   # (`for e in a.flat`; `if cfg.flat:` stays as it is)
        node.iter = self.whole(node.iter)
        return self.generic_visit(node)

    def visit_comprehension(self, node):
        node.iter = self.whole(node.iter)
        return self.generic_visit(node)

    def visit_Call(self, node):   # (`list(a.flat)`, `sum(a.flat)`)
        if isinstance(node.func, ast.Name) and node.func.id in _ITERATING:
            node.args = [self.whole(arg) for arg in node.args]
        return self.generic_visit(node)

    def visit_Assign(self, node):
        self.generic_visit(node)
        if len(node.targets) != 1:
            return node
        target = node.targets[0]
        if isinstance(target, ast.Subscript) and _flat(target.value) is not None \
                and _pure(target.slice):
            array, index = _flat(target.value), target.slice
        elif _flat(target) is not None:
            array, index = _flat(target), _whole()
        else:
            return node
        node.targets = [ast.copy_location(self.item(array, index, True), target)]
        node.value = ast.Call(func=self.ctx.runtime('flat_value'),
                              args=[copy.deepcopy(array), _value(index), node.value],
                              keywords=[])
        return node

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        target = node.target
        if isinstance(target, ast.Subscript) and _flat(target.value) is not None:
            node.target = ast.copy_location(
                self.item(_flat(target.value), target.slice, True), target)
        return node


def _whole():
    return ast.Call(func=ast.Name(id='slice', ctx=ast.Load()),
                    args=[ast.Constant(None)], keywords=[])


def _value(index):
    """A subscript's `index` as an expression (`1:4` -> `slice(1, 4, None)`)."""
    if isinstance(index, ast.Slice):
        parts = [copy.deepcopy(p) if p is not None else ast.Constant(None)
                 for p in (index.lower, index.upper, index.step)]
        return ast.Call(func=ast.Name(id='slice', ctx=ast.Load()), args=parts, keywords=[])
    if isinstance(index, ast.Tuple):
        return ast.Tuple(elts=[_value(e) for e in index.elts], ctx=ast.Load())
    return copy.deepcopy(index)
