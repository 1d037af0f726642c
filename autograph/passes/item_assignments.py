"""Item and slice assignment -> a rebinding through `ag.setitem` (see runtime/items.py).

    x[i] = v                  x = ag.setitem(x, i, v)
    x[0:n:2] *= 2       ->    x = ag.update_item(x, slice(0, n, 2), '*=', 2)
    x['a']['b'] = v           x = ag.setitem(x, 'a', ag.setitem(x['a'], 'b', v))
    x[i], x[j] = x[j], x[i]   item, item_1 = x[j], x[i]
                              x = ag.setitem(x, i, item)
                              x = ag.setitem(x, j, item_1)

so a JAX array gets a new value (`x.at[i].set(v)`) and the name is rebound, while lists,
dicts and NumPy arrays are changed in place as before. Only targets whose base is a
variable this function may rebind (a local, or one declared global/nonlocal) are
rewritten; `obj.attr[i] = v` and items of free variables keep Python's `__setitem__`.

Unpacking into several targets assigns the unpacked values to temporaries first, then
stores them left to right, as Python does. A key of an outer level of a nested target is
evaluated twice (once to read the inner container, once to store it back): such a key
that calls something is computed once into a temporary first. Python computes the value
before the target's keys; where both call something, the value goes into a temporary
first too. (Otherwise the keys are computed first: this differs from Python only if
computing the value rebinds a variable the target reads.)
"""
import ast
import copy

from autograph import templates
from autograph.analysis.activity import scope_of
from autograph.passes.base import StatementRewriter

_OPERATORS = {
    ast.Add: '+=', ast.Sub: '-=', ast.Mult: '*=', ast.Div: '/=', ast.FloorDiv: '//=',
    ast.Mod: '%=', ast.Pow: '**=', ast.MatMult: '@=', ast.BitAnd: '&=', ast.BitOr: '|=',
    ast.BitXor: '^=', ast.LShift: '<<=', ast.RShift: '>>=',
}


def transform(function, ctx):
    scope = scope_of(function)
    rebindable = scope.locals | set(scope.declared)
    _ItemAssignments(ctx, rebindable).block(function.body)
    return function


class _ItemAssignments(StatementRewriter):
    def __init__(self, ctx, rebindable):
        super().__init__(ctx)
        self.rebindable = rebindable

    def rewrite(self, stmt):
        new = None
        if isinstance(stmt, ast.Assign) and any(map(self.rewritable, stmt.targets)):
            new = self.assign_all(stmt.targets, stmt.value)
        elif isinstance(stmt, ast.AnnAssign) and stmt.value and self.rewritable(stmt.target):
            new = self.assign(stmt.target, stmt.value)
        elif isinstance(stmt, ast.AugAssign) and self.is_item(stmt.target):
            new = self.update(stmt.target, stmt.op, stmt.value)
        elif isinstance(stmt, ast.For) and self.rewritable(stmt.target):
            item = self.ctx.namer.new('item')
            stmt.body[:0] = templates.set_origin(self.assign(stmt.target, _load(item)),
                                                 stmt.target)
            stmt.target = templates.name(item, ast.Store())
        if new is None:
            return [stmt]
        return templates.set_origin(new, stmt)

    # --- which targets ------------------------------------------------------------------

    def is_item(self, target):
        """`x[k]`, `x[k][l]`, ... with `x` a variable this function may rebind."""
        node = target
        while isinstance(node, ast.Subscript):
            node = node.value
        return (node is not target and isinstance(node, ast.Name)
                and node.id in self.rebindable)

    def rewritable(self, target):
        if isinstance(target, (ast.Tuple, ast.List)):
            return any(self.rewritable(t) for t in target.elts)
        if isinstance(target, ast.Starred):
            return self.rewritable(target.value)
        return self.is_item(target)

    # --- rewriting ----------------------------------------------------------------------

    def assign_all(self, targets, value):
        if len(targets) == 1:
            return self.assign(targets[0], value)
        temp = self.ctx.namer.new('value')
        out = [_assign(templates.name(temp, ast.Store()), value)]
        for target in targets:
            out += self.assign(target, _load(temp))
        return out

    def assign(self, target, value):
        """Statements that store `value` into `target` as Python's `target = value`."""
        if isinstance(target, (ast.Tuple, ast.List)) and self.rewritable(target):
            temps, stores = [], []
            for element in target.elts:
                starred = isinstance(element, ast.Starred)
                inner = element.value if starred else element
                temp = self.ctx.namer.new('item')
                store = templates.name(temp, ast.Store())
                temps.append(ast.Starred(value=store, ctx=ast.Store()) if starred else store)
                stores += self.assign(inner, _load(temp))
            return [_assign(ast.Tuple(elts=temps, ctx=ast.Store()), value)] + stores
        if not self.is_item(target):
            return [_assign(target, value)]
        hoisted = []
        if _calls(value) and any(_calls(key) for key in _keys(target)):
            temp = self.ctx.namer.new('value')   # Python computes the value first
            hoisted, value = [_assign(templates.name(temp, ast.Store()), value)], _load(temp)
        return hoisted + self.store(target, lambda container, key: self.call(
            'setitem', [container, key, value]))

    def update(self, target, op, value):
        return self.store(target, lambda container, key: self.call(
            'update_item', [container, key, ast.Constant(value=_OPERATORS[type(op)]),
                            value]))

    def store(self, target, new_container):
        """`base = ...` storing into the item chain `target` the container that
        `new_container(container, key)` computes for its innermost level."""
        hoisted = []
        keys, node = [], target
        while isinstance(node, ast.Subscript):
            keys.append(_key(node.slice))
            node = node.value
        keys.reverse()
        base = node.id
        for i in range(len(keys) - 1):   # outer keys are evaluated twice
            if _calls(keys[i]):
                temp = self.ctx.namer.new('key')
                hoisted.append(_assign(templates.name(temp, ast.Store()), keys[i]))
                keys[i] = _load(temp)
        containers = [_load(base)]
        for key in keys[:-1]:
            containers.append(ast.Subscript(value=_copy(containers[-1]),
                                            slice=_copy(key), ctx=ast.Load()))
        value = new_container(containers[-1], keys[-1])
        for container, key in zip(reversed(containers[:-1]), reversed(keys[:-1])):
            value = self.call('setitem', [container, _copy(key), value])
        return hoisted + [_assign(templates.name(base, ast.Store()), value)]

    def call(self, op, args):
        return ast.Call(func=self.ctx.runtime(op), args=args, keywords=[])


def _keys(target):
    while isinstance(target, ast.Subscript):
        yield target.slice
        target = target.value


def _key(node):
    """A subscript's index as an expression: `1:4` -> `slice(1, 4)`."""
    if isinstance(node, ast.Slice):
        parts = [node.lower, node.upper] + ([node.step] if node.step else [])
        return ast.Call(func=_load('slice'), keywords=[],
                        args=[p if p is not None else ast.Constant(value=None)
                              for p in parts])
    if isinstance(node, ast.Tuple):
        return ast.Tuple(elts=[_key(e) for e in node.elts], ctx=ast.Load())
    return node


def _calls(expr):
    return any(isinstance(n, (ast.Call, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom))
               for n in ast.walk(expr))


def _assign(target, value):
    return ast.Assign(targets=[target], value=value, type_comment=None)


def _load(identifier):
    return templates.name(identifier)


def _copy(node):
    return copy.deepcopy(node)
