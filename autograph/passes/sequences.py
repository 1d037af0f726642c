"""Python sequences read at a computed index or repeated a computed number of times,
which may be traced.

    layers[i](x)     -> ag.getitem(layers, i)(x)
    xs[k - 1]        -> ag.getitem(xs, k - 1)
    xs[i:i + 3]      -> ag.window(xs, i, 3)      (a slice of a fixed width)
    xs[i - 2:i + 3]  -> ag.window(xs, i, 5, shift=-2)
    xs[max(0, i - 2):i + 3]  -> ag.window(xs, i, 5, shift=-2, low=0)   (at most 5 items)
    xs[a:b], xs[:n]  -> ag.getslice(xs, a, b), ag.getslice(xs, None, n)
    x[:, j:j + 3]    -> ag.windows(x, (slice(None, None, None), ag.span(j, 3)))
    x[0], x[1:], x[:, 0], x.at[i]     stay (a constant, a literal slice or a tuple of
                                         them: array indexing, which JAX handles itself)
    x[4]             -> ag.getitem(x, 4)  inside a `try` whose `except` catches IndexError
                        (a NumPy array's read out of range is NumPy's IndexError, which
                        the `except` catches; JAX's array clamps the index)
    x[i, j], x[:, j]  -> ag.getitem(x, (i, j)), ag.getitem(x, (slice(None), j))
                         (a tuple with a computed index: a NumPy array's read out of range
                         is NumPy's IndexError, see runtime.items.indexing; in a loop over
                         i marked independent that reads `x` at its index, the iteration's
                         item, analysis.independence)
    [0] * (n + 1)    -> ag.repeat([0], n + 1)    (a list literal repeated)

`ag.getitem` is `seq[i]` unless `seq` is a Python list or tuple and `i` is traced; then it
reads the item from the items' stack (or switches between functions). `ag.window` and
`ag.getslice` are the slice unless a bound is traced (see runtime.items.slicing). Assignment targets
(`xs[i] = v`) are left to the passes that own them.
"""
import ast

from autograph import templates
from autograph.analysis import linear
from autograph.analysis.array_kinds import Kind
from autograph.passes.base import ScopeTransformer, walk_scope
from autograph.passes.kind_flags import KindFlags
from autograph.site_facts import computed_index, traced_bounds


class _Indexing(ScopeTransformer):
    def __init__(self, root, ctx):
        super().__init__(root, ctx)
        self.loop_reads = []   # (loop variable, names read at it) of the loops around
        self.catching = False   # (in a `try` body whose `except` catches IndexError)
        self.kinds = None   # (KindFlags, made when a read asks for a variable's kind)
        self.bound = None

    def _bound(self):
        """The names the function binds in its body (found when first asked)."""
        if self.bound is None:
            self.bound = {node.id for node in walk_scope(self.root)
                          if node.__class__ is ast.Name and node.ctx.__class__ is ast.Store}
        return self.bound

    @classmethod
    def transform(cls, function, ctx):
        indexing = cls(function, ctx)
        indexing.visit(function)
        if indexing.kinds is not None:
            indexing.kinds.note()
        return function

    def visit_Try(self, node):
        catching = self.catching
        self.catching = catching or any(_catches_index_error(h.type) for h in node.handlers)
        try:
            node.body = self._block(node.body)
        finally:
            self.catching = catching
        node.handlers = self._block(node.handlers)
        node.orelse, node.finalbody = self._block(node.orelse), self._block(node.finalbody)
        return node

    def _block(self, nodes):
        out = []
        for node in nodes:
            new = self.visit(node)
            out += new if isinstance(new, list) else [] if new is None else [new]
        return out

    def visit_For(self, node):
        verdict = self.ctx.independent_loops.get(node)
        if verdict is None or not verdict.reads:
            return self.generic_visit(node)
        self.loop_reads.append((node.target.id, set(verdict.reads)))
        try:
            return self.generic_visit(node)
        finally:
            self.loop_reads.pop()

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load) or (
                isinstance(node.value, ast.Attribute) and node.value.attr == 'at'):
            return node
        if traced_bounds(node.slice):
            return ast.copy_location(self._slice(node.value, node.slice), node)
        if isinstance(node.slice, ast.Tuple) and any(traced_bounds(e) for e in node.slice.elts):
            return ast.copy_location(self._slices(node.value, node.slice), node)
        if self._read_at_index(node) or isinstance(node.slice, ast.Tuple) and any(
                map(computed_index, node.slice.elts)):
            return ast.copy_location(self._getitem(node.value, _key(node.slice)), node)
        if not computed_index(node.slice) and not (self.catching and _int_literal(node.slice)):
            return node
        return ast.copy_location(self._getitem(node.value, node.slice), node)

    def _getitem(self, value, key):
        """`ag.getitem(value, key)`, with `numpy=` the kind of the array a variable holds
        where the function's code decides it from its arguments' (`w = v * 1.0`: NumPy's
        IndexError at an index out of range where `v` is a NumPy array, see
        passes.kind_flags); a parameter's own kind the runtime knows."""
        keywords = []
        if isinstance(value, ast.Name) and isinstance(self.root, ast.FunctionDef) \
                and value.id in self._bound():   # (else a parameter or a global)
            if self.kinds is None:
                self.kinds = KindFlags(self.root, self.ctx)
            kind = self.kinds.kinds.kind(value.id)
            if kind is not None and kind != Kind(frozenset({value.id}), False):
                keywords = self.kinds.keyword(value.id)
        return ast.Call(func=self.ctx.runtime('getitem'), args=[value, key],
                        keywords=keywords)

    def _read_at_index(self, node):
        """`x[i, ...]` in a loop over `i` that reads `x` at its index (see
        analysis.independence): the runtime reads the iteration's item of `x`."""
        if not (isinstance(node.slice, ast.Tuple) and node.slice.elts
                and isinstance(node.value, ast.Name)):
            return False
        first, name = node.slice.elts[0], node.value.id
        return isinstance(first, ast.Name) and any(
            first.id == variable and name in names for variable, names in self.loop_reads)

    def _slice(self, value, index):
        """`ag.window(x, i, k, ...)` for a slice of at most `k` items from `i` (see
        `_span`), else `ag.getslice(x, lower, upper, step)`."""
        found = self._span(index)
        if found is not None:
            return ast.Call(func=self.ctx.runtime('window'), args=[value, *found.args],
                            keywords=found.keywords)
        return ast.Call(func=self.ctx.runtime('getslice'), args=[value, *_bounds(index)],
                        keywords=[])

    def _slices(self, value, index):
        """`ag.windows(x, (ag.span(i, k), slice(a, b), ...))` for `x[i:i + k, a:b, ...]`."""
        items = []
        for item in index.elts:
            if isinstance(item, ast.Slice):
                found = self._span(item)
                item = (found if found is not None else
                        ast.Call(func=templates.name('slice'), args=[
                            b if b is not None else ast.Constant(value=None)
                            for b in (item.lower, item.upper, item.step)], keywords=[]))
            items.append(item)
        return ast.Call(func=self.ctx.runtime('windows'),
                        args=[value, ast.Tuple(elts=items, ctx=ast.Load())], keywords=[])

    def _span(self, index):
        """`ag.span(i, k, shift=a, low=l, high=h)` for the slice `max(l, i + a):min(h, i + b)`
        (each clamp optional, `max(i + a, l)` too) where `i + a` and `i + b` differ by an
        expression `k` that does not mention `i` (`x[i:i + 3]`, `x[i - 2:i + 3]`, `x[i - r:
        i + r + 1]`, see analysis.linear), the bounds having no other calls; else None."""
        if index.step is not None or index.lower is None or index.upper is None:
            return None
        for lower, low in self._clamped(index.lower, 'max'):
            for upper, high in self._clamped(index.upper, 'min'):
                if any(isinstance(n, (ast.Call, ast.NamedExpr, ast.Await))
                       for bound in (lower, upper, low, high) if bound is not None
                       for n in ast.walk(bound)):
                    continue
                found = linear.difference(lower, upper)
                if found is not None:
                    start, width, shift = found
                    keywords = [ast.keyword(arg=name, value=node) for name, node in
                                (('shift', shift), ('low', low), ('high', high))
                                if node is not None]
                    return ast.Call(func=self.ctx.runtime('span'), args=[start, width],
                                    keywords=keywords)
        return None

    def _clamped(self, bound, name):
        """The ways to read `bound` as (moving bound, clamp): (`e`, `c`) and (`c`, `e`) for
        `ag.max(c, e)` (`name` 'max'; the calls pass routes the builtin there), else
        (`bound`, None)."""
        if not (isinstance(bound, ast.Call) and len(bound.args) == 2 and not bound.keywords
                and ast.dump(bound.func) == ast.dump(self.ctx.runtime(name))):
            return [(bound, None)]
        first, second = bound.args
        return [(second, first), (first, second)]

    def visit_BinOp(self, node):
        self.generic_visit(node)
        literals = (ast.List, ast.Tuple, ast.ListComp)
        if isinstance(node.op, ast.Mult) and (isinstance(node.left, literals)
                                              or isinstance(node.right, literals)):
            seq, count = ((node.left, node.right) if isinstance(node.left, literals)
                          else (node.right, node.left))
            return ast.copy_location(ast.Call(func=self.ctx.runtime('repeat'),
                                              args=[seq, count], keywords=[]), node)
        return node

    def _value_only(self, node):
        if node.value is not None:
            node.value = self.visit(node.value)
        for target in getattr(node, 'targets', None) or [getattr(node, 'target', None)]:
            if isinstance(target, ast.Subscript) and traced_bounds(target.slice):
                found = self._span(target.slice)   # x[i:i + 3] = v: ag.span(i, 3) as key
                target.slice = found if found is not None else target.slice
            while isinstance(target, ast.Subscript):   # (the keys are reads: `a[perm[j]]`)
                if not isinstance(target.slice, (ast.Name, ast.Constant)):
                    target.slice = self.visit(target.slice)
                target = target.value
        return node

    visit_Assign = visit_AugAssign = visit_AnnAssign = _value_only

    def visit_arguments(self, node):
        return node     # annotations and defaults: evaluated where the function is defined


transform = _Indexing.transform


def getitem_of(node, ag):
    """(seq, key) where `node` is `ag.getitem(seq, key)` as this pass writes it (with
    the `numpy=` keyword it may add), else None."""
    func = node.func if node.__class__ is ast.Call else None
    if func.__class__ is ast.Attribute and func.attr == 'getitem' and \
            func.value.__class__ is ast.Name and func.value.id == ag and \
            len(node.args) == 2 and all(k.arg == 'numpy' for k in node.keywords):
        return node.args[0], node.args[1]
    return None


_INDEX_ERRORS = frozenset({'IndexError', 'LookupError', 'Exception', 'BaseException'})


def _catches_index_error(kind):
    """Whether an `except kind:` (None: a bare `except:`) catches an IndexError."""
    if kind is None:
        return True
    kinds = kind.elts if isinstance(kind, ast.Tuple) else [kind]
    return any(isinstance(k, ast.Name) and k.id in _INDEX_ERRORS for k in kinds)


def _int_literal(index):
    """Whether `index` is an int literal (`4`, `-1`)."""
    if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub):
        index = index.operand
    return isinstance(index, ast.Constant) and type(index.value) is int


def _key(index):
    """An index tuple as an expression: its slices as `slice(...)` calls."""
    return ast.Tuple(elts=[
        ast.Call(func=templates.name('slice'), args=_bounds(item), keywords=[])
        if isinstance(item, ast.Slice) else item for item in index.elts], ctx=ast.Load())


def _bounds(index):
    """The bounds of the slice `index` as arguments of `slice`: None where absent, an
    absent step left out, and `slice(None)` for `:` (not `slice(3)` for `3:`, which is
    `slice(None, 3)`)."""
    lower, upper, step = [b if b is not None else ast.Constant(value=None)
                          for b in (index.lower, index.upper, index.step)]
    if index.step is not None:
        return [lower, upper, step]
    return [lower] if index.lower is None and index.upper is None else [lower, upper]


def span(index, ctx):
    """`ag.span(i, k, ...)` for a slice `index` of a fixed width whose bounds may be
    traced (`i:i + k`, see `_Indexing._span`), else None (passes.views keeps a view's
    key so)."""
    if not traced_bounds(index):
        return None
    return _Indexing(None, ctx)._span(index)


def key_expression(node, ctx):
    """A subscript's key as an expression: `1:n` -> `slice(1, n)`, `:, k` ->
    `(slice(None), k)`, `i:i + 2` -> `ag.span(i, 2)` (a window that `i` traced moves)."""
    if isinstance(node, ast.Tuple):
        return ast.Tuple(elts=[key_expression(e, ctx) for e in node.elts], ctx=ast.Load())
    if not isinstance(node, ast.Slice):
        return node
    window = span(node, ctx)
    if window is not None:
        return window
    parts = [node.lower, node.upper] + ([node.step] if node.step is not None else [])
    if parts == [None, None]:
        parts = [None]
    return ast.Call(func=ast.Name(id='slice', ctx=ast.Load()),
                    args=[p if p is not None else ast.Constant(None) for p in parts],
                    keywords=[])
