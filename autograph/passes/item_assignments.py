"""Item and slice assignment -> a rebinding through `ag.setitem` (see runtime/items.py).

    x[i] = v                  x = ag.setitem(x, i, v)
    x[0:n:2] *= 2       ->    x = ag.update_item(x, slice(0, n, 2), '*=', 2)
    x['a']['b'] = v           x = ag.setitem(x, 'a', ag.setitem(x['a'], 'b', v))
    x[i], x[j] = x[j], x[i]   item, item_1 = x[j], x[i]
                              x = ag.setitems(x, (i, j), (item, item_1))

so a JAX array gets a new value (`x.at[i].set(v)`) and the name is rebound, while lists,
dicts and NumPy arrays are changed in place as before (a NumPy array the function made and
keeps to itself, given a traced value, becomes a traced array: `own=True`, see
analysis.own_arrays). Targets whose base is a variable this function may rebind (a
local, or one declared global/nonlocal) are rewritten, and items of attributes (`self.w[i]
= v` -> `self.w = ag.setitem(self.w, i, v)`: the object's attribute is set, a list's or
NumPy array's is the same object again). The
converted function's own globals and closure variables whose items it writes are
declared (`global G` first, then `G = ag.setitem(G, i, v)`): a Function reads them as
state, traced values while it traces. Items of the free variables of nested functions
keep Python's `__setitem__`.

Unpacking into several targets assigns the unpacked values to temporaries first, then
stores them left to right, as Python does. Items of one variable whose keys read neither
it nor call anything are stored by one `ag.setitems` (one write of a JAX array: see
runtime/items/item_writes.py), `window=` for a range counter plus constants (`x[j + 1]`).

A key of an outer level of a nested target is evaluated twice (once to read the inner
container, once to store it back): such a key that calls something is computed once into
a temporary first. Python computes the value before the target's keys; where both call
something, the value goes into a temporary first too. (Otherwise the keys are computed
first: this differs from Python only if computing the value rebinds a variable the
target reads.)
"""
import ast

from autograph import templates
from autograph.analysis.activity import scope_of
from autograph.analysis.array_kinds import JAX
from autograph.analysis.census import IN_PLACE, ITEM_STORE
from autograph.passes.base import StatementRewriter, statements_and_class_bodies
from autograph.passes.item_windows import counters, window
from autograph.passes.kind_flags import KindFlags
from autograph.passes.sequences import getitem_of
from autograph.passes.views import declare, outer_names

ONLY_WITH = (ITEM_STORE, IN_PLACE)   # see analysis.census (passes.written_arguments
# adds its own; `x += e` of an array another object holds: `ag.held_update`)

AUGMENTED = {
    ast.Add: '+=', ast.Sub: '-=', ast.Mult: '*=', ast.Div: '/=', ast.FloorDiv: '//=',
    ast.Mod: '%=', ast.Pow: '**=', ast.MatMult: '@=', ast.BitAnd: '&=', ast.BitOr: '|=',
    ast.BitXor: '^=', ast.LShift: '<<=', ast.RShift: '>>=',
}
"""The augmented assignments' operators as the runtime names them (`ag.update_item`)."""


def transform(function, ctx):
    held = ctx.own_arrays.get(function, ((), ()))[1]
    if not ctx.census.has_any((ITEM_STORE,)) and not (held and any(
            s.__class__ is ast.AugAssign and s.target.__class__ is ast.Name
            and s.target.id in held for s in statements_and_class_bodies(function))):
        return function   # (no item written, no `x += e` of an array another object holds)
    scope = scope_of(function)
    rebindable = scope.locals | set(scope.declared)
    if function is ctx.census.scopes[-1]:
        outer, enclosing_own = _outer_items(function, scope, ctx), set()
    else:
        outer, enclosing_own = _enclosing_items(function, scope, ctx)
    rewriter = _ItemAssignments(ctx, function, rebindable | set(outer),
                                counters(function, scope, ctx))
    rewriter.own = set(rewriter.own) | enclosing_own
    rewriter.block(function.body)
    rewriter.kinds.note()
    declare(function, outer)
    return function


def _outer_items(function, scope, ctx):
    """{name: 'global' or 'nonlocal'} of the converted function's globals and closure
    variables whose items it writes (`G[i] = v`, `G[i] += v` with no `global G`): they
    are declared and rebound like declared ones, so a NumPy array or a list of arrays that
    the call reads as state gets the write (with Python's `__setitem__` a traced value
    could not be stored into it). Builtins and unknown names keep Python's form."""
    names = set()
    for node in statements_and_class_bodies(function):
        target = node.target if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else None
        for t in (node.targets if isinstance(node, ast.Assign) else [target] if target else []):
            names |= {b.id for b in _item_bases(t)}
    return outer_names(names, scope, ctx)


def _enclosing_items(function, scope, ctx):
    """({name: 'nonlocal'}, the names of those that are arrays the enclosing function
    keeps to itself, analysis.own_arrays) of the variables of the functions around
    nested `function` whose items it writes (`def visit(u): seen[u] = True`): declared `nonlocal` and
    rebound like its own, so that the write of a JAX array (or of one that stands for a
    NumPy array) reaches the variable the enclosing function reads (analysis.scopes
    found the write on the user's code)."""
    written = set()
    for node in statements_and_class_bodies(function):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        written |= {b.id for t in targets for b in _item_bases(t)}
    written -= scope.locals | set(scope.declared)
    if not written or not isinstance(function, ast.FunctionDef):
        return {}, set()
    found, own = {}, set()
    for outer, shared in ctx.sharing.items():
        if outer is not function and function.name in shared.writers and \
                any(stmt is function for stmt in ast.walk(outer)):
            names = written & shared.writers[function.name] & scope_of(outer).locals
            found.update((name, 'nonlocal') for name in names)
            own |= names & set(ctx.own_arrays.get(outer, ((), ()))[0])
    return found, own


def _item_bases(target):
    """The variables `x` of the item targets `x[k]`, `x[k][l]` in `target`."""
    if isinstance(target, (ast.Tuple, ast.List)):
        return [b for t in target.elts for b in _item_bases(t)]
    if isinstance(target, ast.Starred):
        return _item_bases(target.value)
    node = target
    while isinstance(node, ast.Subscript):
        node = node.value
    return [node] if node is not target and isinstance(node, ast.Name) else []


class _ItemAssignments(StatementRewriter):
    def __init__(self, ctx, function, rebindable, counters):
        super().__init__(ctx)
        self.rebindable, self.counters = rebindable, counters
        self.kinds = KindFlags(function, ctx)   # (of the arrays `view_reads` finds)
        self.own, self.held, self.holders, self.held_items = ctx.own_arrays.get(
            function, ((), (), (), {}))

    def rewrite(self, stmt):
        new = None
        if isinstance(stmt, ast.Assign) and any(map(self.rewritable, stmt.targets)):
            new = self.assign_all(stmt.targets, stmt.value)
        elif isinstance(stmt, ast.AnnAssign) and stmt.value and self.rewritable(stmt.target):
            new = self.assign(stmt.target, stmt.value)
        elif isinstance(stmt, ast.AugAssign) and self.is_item(stmt.target):
            new = self.update(stmt.target, stmt.op, stmt.value)
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and \
                stmt.target.id in self.held:   # (NumPy's in-place change, seen by holders)
            new = [_assign(templates.store_copy(stmt.target), self.call('held_update', [
                _load(stmt.target.id), ast.Constant(AUGMENTED[type(stmt.op)]), stmt.value]))]
            new[0].value.keywords += self.held_keywords(stmt.target.id)[1:]
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
        """`x[k]`, `x[k][l]`, ... with `x` a variable this function may rebind, or an
        attribute `obj.a[k]`, `obj.a.b[k]`, ... of a variable (any: the attribute is
        set, not the variable)."""
        node = target
        while isinstance(node, ast.Subscript):
            node = node.value
        if node is target:
            return False
        if isinstance(node, ast.Name):
            return node.id in self.rebindable
        while isinstance(node, ast.Attribute):
            node = node.value
        return isinstance(node, ast.Name)

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
            reads = self.view_reads(target, value)
            together = self.items_together(target, reads)
            if together is not None:
                return together(value)
            temps, stores = [], []
            for i, element in enumerate(target.elts):
                starred = isinstance(element, ast.Starred)
                inner = element.value if starred else element
                temp = self.ctx.namer.new('item')
                store = templates.name(temp, ast.Store())
                temps.append(ast.Starred(value=store, ctx=ast.Store()) if starred else store)
                read = reads[i] if reads else None
                stores += self.assign(inner, _load(temp) if read is None else ast.Call(
                    func=self.ctx.runtime('seen'), keywords=self.kinds.keyword(read[0]),
                    args=[_load(read[0]), _key(_copy(read[1])), _load(temp)]))
            return [_assign(ast.Tuple(elts=temps, ctx=ast.Store()), value)] + stores
        if not self.is_item(target):
            return [_assign(target, value)]
        hoisted = []
        if _calls(value) and any(_calls(key) for key in _keys(target)):
            temp = self.ctx.namer.new('value')   # Python computes the value first
            hoisted, value = [_assign(templates.name(temp, ast.Store()), value)], _load(temp)
        return hoisted + self.store(target, lambda container, key: self.call(
            'setitem', [container, key, value]))

    def view_reads(self, target, value):
        """For `x[k], x[p] = x[p], x[k]` (item targets only, a tuple of as many values):
        per value, (`x`, its key) where it reads an item of a variable `x` the targets
        store into, not known to be a JAX array, with a key that calls nothing and reads
        no such variable, else None. NumPy's `x[p]` of rows is a view: by the time it is
        stored, it holds what the stores before it made (runtime.items.views.seen).
        None where no value is such a read."""
        if not (isinstance(value, (ast.Tuple, ast.List))
                and len(value.elts) == len(target.elts)) or not all(
                map(self.is_item, target.elts)):
            return None
        bases = {b.id for b in _item_bases(target)}
        reads = [self.item_read(e) for e in value.elts]
        reads = [(name, key) if name in bases and not _calls(_slices_dropped(key))
                 and not any(isinstance(n, ast.Name) and n.id in bases for n in ast.walk(key))
                 and self.kinds.kind(name) is not JAX else None
                 for name, key in (r or (None, None) for r in reads)]
        return reads if any(reads) else None

    def item_read(self, node):
        """(`x`, `k`) for `x[k]` or `ag.getitem(x, k)` of a variable `x`, else None."""
        read = getitem_of(node, self.ctx.ag)
        if read is not None:
            container, key = read
        elif isinstance(node, ast.Subscript):
            container, key = node.value, node.slice
        else:
            return None
        return (container.id, key) if isinstance(container, ast.Name) else None

    def items_together(self, target, reads=None):
        """For `x[k1], x[k2], ... = value` (items of one variable, keys that read neither
        `x` nor call anything, so computing them all first means the same): a function
        of `value` giving `item, item_1, ... = value; x = ag.setitems(x, (k1, k2, ...),
        (item, item_1, ...))`, one write of the items (see runtime/items/item_writes.py), with
        `window=` the shape of the box the keys lie in when they differ by constants
        (`x[j], x[j + 1]`), and `reads=` the keys of `view_reads`. None for other
        targets."""
        elements = target.elts
        if len(elements) < 2 or not all(
                isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name)
                for e in elements):
            return None
        base = elements[0].value.id
        keys = [e.slice for e in elements]
        if base not in self.rebindable or any(e.value.id != base for e in elements) or any(
                _calls(k) or isinstance(n, ast.Slice) or (
                    isinstance(n, ast.Name) and n.id == base)
                for k in keys for n in ast.walk(k)):
            return None
        temps = [self.ctx.namer.new('item') for _ in elements]
        keywords = []
        box = window(keys, self.counters)
        if box is not None:
            keywords.append(ast.keyword(arg='window', value=ast.Tuple(
                elts=[ast.Constant(value=w) for w in box], ctx=ast.Load())))
        if reads:
            keywords.append(ast.keyword(arg='reads', value=ast.Tuple(elts=[
                ast.Constant(value=None) if r is None else _key(_copy(r[1]))
                for r in reads], ctx=ast.Load())))
            keywords += self.kinds.keyword(base)
        keywords += self.array_keywords(base)

        def statements(value):
            call = ast.Call(func=self.ctx.runtime('setitems'), keywords=keywords, args=[
                _load(base), ast.Tuple(elts=keys, ctx=ast.Load()),
                ast.Tuple(elts=[_load(t) for t in temps], ctx=ast.Load())])
            return [_assign(ast.Tuple(elts=[templates.name(t, ast.Store()) for t in temps],
                                      ctx=ast.Store()), value),
                    _assign(templates.name(base, ast.Store()), call)]
        return statements

    def update(self, target, op, value):   # (`holder`: `keep[0] -= x` of `keep = [w]`)
        holder = isinstance(target.value, ast.Name) and target.value.id in self.holders
        return self.store(target, lambda container, key: self.call('update_item', [
            container, key, ast.Constant(AUGMENTED[type(op)]), value], holder))

    def store(self, target, new_container):
        """`base = ...` storing into the item chain `target` the container that
        `new_container(container, key)` computes for its innermost level."""
        hoisted = []
        keys, node = [], target
        while isinstance(node, ast.Subscript):
            keys.append(_key(node.slice))
            node = node.value
        keys.reverse()
        base = node   # a Name, or an attribute chain `obj.a.b` (then set, not rebound)
        for i in range(len(keys) - 1):   # outer keys are evaluated twice
            if _calls(keys[i]):
                temp = self.ctx.namer.new('key')
                hoisted.append(_assign(templates.name(temp, ast.Store()), keys[i]))
                keys[i] = _load(temp)
        containers = [templates.load_copy(base)]
        for key in keys[:-1]:
            containers.append(ast.Subscript(value=_copy(containers[-1]),
                                            slice=_copy(key), ctx=ast.Load()))
        value = new_container(containers[-1], keys[-1])
        own = [ast.keyword(arg='own', value=ast.Constant(True))] if len(keys) > 1 and \
            isinstance(base, ast.Name) and base.id in self.own else []   # (`d[i][j] = e`)
        if len(keys) == 1 and isinstance(base, ast.Name):
            value.keywords += self.array_keywords(base.id)
        elif _root_name(base) in self.holders:   # (`d['w'][i] = e`, `o.a[i] = e`: the
            # array may be one a name holds too, `d = {'w': w}`: analysis.own_arrays)
            value.keywords.append(ast.keyword(arg='held', value=ast.Constant(True)))
        value.keywords += own
        for container, key in zip(reversed(containers[:-1]), reversed(keys[:-1])):
            value = self.call('setitem', [container, _copy(key), value])
            value.keywords += _copy(own)
        return hoisted + [_assign(templates.store_copy(base), value)]

    def array_keywords(self, name):
        """[`own=True`] for a NumPy array the function made and keeps to itself (a traced
        value makes it a traced array); [`held=True`] for one it stores where another
        object holds it (see analysis.own_arrays; `held_items=k` where the holder took
        an item of k indices)."""
        own = [ast.keyword(arg='own', value=ast.Constant(True))] if name in self.own else []
        return own + self.held_keywords(name)

    def held_keywords(self, name):
        if name not in self.held:
            return []
        return [ast.keyword(arg='held', value=ast.Constant(True))] + (
            [ast.keyword(arg='held_items', value=ast.Constant(self.held_items[name]))]
            if name in self.held_items else [])

    def call(self, op, args, holder=False):
        return ast.Call(func=self.ctx.runtime(op), args=args, keywords=[ast.keyword(
            arg='holder', value=ast.Constant(True))] if holder else [])


def _root_name(base):
    """The variable of `base` (a Name or an attribute chain `o.a.b`)."""
    while isinstance(base, ast.Attribute):
        base = base.value
    return base.id if isinstance(base, ast.Name) else None


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


def _slices_dropped(key):
    """`key` without its `slice(...)` parts (a key `ag.getitem` is given: `(i, slice(None))`)."""
    if isinstance(key, ast.Tuple):
        return ast.Tuple(elts=[_slices_dropped(e) for e in key.elts], ctx=ast.Load())
    if isinstance(key, ast.Call) and isinstance(key.func, ast.Name) and key.func.id == 'slice':
        return ast.Tuple(elts=list(key.args), ctx=ast.Load())
    return key


def _calls(expr):
    return any(isinstance(n, (ast.Call, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom))
               for n in ast.walk(expr))


def _assign(target, value):
    return ast.Assign(targets=[target], value=value, type_comment=None)


def _load(identifier):
    return templates.name(identifier)


def _copy(node):
    return templates.copy_tree(node)
