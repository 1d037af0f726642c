"""NumPy's in-place methods and functions called as statements, for passes.calls:

    w.sort()              ->    w = ag.in_place(w, 'sort', w_is_numpy)
    np.copyto(w, v)       ->    w = ag.in_place(w, 'np.copyto', w_is_numpy, v)
    np.add.at(w, i, v)    ->    w = ag.in_place(w, 'np.add.at', w_is_numpy, i, v)
    np.exp(v, out=w)      ->    w = ag.with_out(w, np.exp, w_is_numpy, v)
    M[i].sort()           ->    M[i] = ag.in_place(M[i], 'sort', M_is_numpy)

(a view's change is written back into its base by an item assignment, which
passes.item_assignments rewrites; the key is read twice, so only a key without calls)

(a traced array that stands for a NumPy array is changed by making a new one, which the
name is rebound to: see runtime.python.in_place)."""
import ast

from autograph import templates
from autograph.analysis.array_kinds import module_names
from autograph.analysis.census import ITEM_STORE
from autograph.passes.base import StatementRewriter
from autograph.passes.kind_flags import KindFlags
from autograph.runtime.python.in_place import FUNCTIONS as IN_PLACE_FUNCTIONS
from autograph.runtime.python.in_place import METHODS as IN_PLACE_METHODS
from autograph.runtime.python.in_place import UFUNCS_AT

__all__ = ['IN_PLACE_FUNCTIONS', 'IN_PLACE_METHODS', 'InPlaceCalls', 'may_change_in_place']


def may_change_in_place(call):
    """Whether the Call `call` may be one `InPlaceCalls` rewrites, by the name it calls
    (`w.sort`, `np.copyto`, `np.add.at`)."""
    func = call.func
    return func.__class__ is ast.Attribute and (
        func.attr in IN_PLACE_METHODS or func.attr in IN_PLACE_FUNCTIONS or func.attr == 'at'
        or any(k.arg == 'out' for k in call.keywords))


class InPlaceCalls(StatementRewriter):
    """`w.sort()` as a statement, `w` a local -> `w = ag.in_place(w, 'sort', ...)`, and
    `np.copyto(w, v)` -> `w = ag.in_place(w, 'np.copyto', ..., v)`: a traced array that
    stands for a NumPy array is changed by making a new one (see
    runtime.python.in_place)."""

    def __init__(self, ctx, function, local_names):
        super().__init__(ctx)
        self.local_names = local_names
        self.kinds = KindFlags(function, ctx)   # (whether `w` stands for a NumPy array)
        self.own = ctx.own_arrays[function].own if function in ctx.own_arrays else ()
        self.modules = module_names(ctx.resolver)

    def rewrite(self, stmt):
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if not isinstance(call, ast.Call):
            return [stmt]
        func, args = call.func, list(call.args)
        if ast.dump(func) == ast.dump(self.ctx.runtime('call')) and args:
            func, args = args[0], args[1:]   # (`ag.call(w.sort)`)
        out = next((k for k in call.keywords if k.arg == 'out'), None)
        if out is not None:
            return self._with_out(stmt, call, func, args, out)
        method = func.attr if isinstance(func, ast.Attribute) else None
        if method in IN_PLACE_FUNCTIONS and self._numpy(func.value) and args and \
                self._root(args[0]):
            target, args = args[0], args[1:]   # (`np.copyto(w, v)`: 'np.copyto')
            method = 'np.' + method
        elif method == 'at' and isinstance(func.value, ast.Attribute) and \
                func.value.attr in UFUNCS_AT and self._numpy(func.value.value) and args and \
                self._root(args[0]):
            target, args = args[0], args[1:]   # (`np.add.at(w, ind, v)`: 'np.add.at')
            method = f'np.{func.value.attr}.at'
        elif method in IN_PLACE_METHODS and self._root(func.value):
            target = func.value
        else:
            return [stmt]
        if self.ctx.census is not None:   # (a write of `w`: passes.written_arguments)
            self.ctx.census = self.ctx.census.adding(ITEM_STORE)
        new = ast.Assign(targets=[templates.store_copy(target)], value=ast.Call(
            func=self.ctx.runtime('in_place'),
            args=[target, ast.Constant(method),
                  self.kinds.value(self._root(target)) or ast.Constant(None), *args],
            keywords=self._own(target) + call.keywords))
        return [ast.fix_missing_locations(ast.copy_location(new, stmt))]

    def _with_out(self, stmt, call, func, args, out):
        """`np.add(x, y, out=w)`, `x.clip(0, 1, out=w)` (NumPy's function or an array's
        method, `w` a local) -> `w = ag.with_out(w, np.add, w_is_numpy, x, y)`."""
        root = self._root(out.value)
        if root is None or not isinstance(func, ast.Attribute) or not (
                self._numpy(func.value) or self._root(func.value)):
            return [stmt]
        if self.ctx.census is not None:
            self.ctx.census = self.ctx.census.adding(ITEM_STORE)
        new = ast.Assign(targets=[templates.store_copy(out.value)], value=ast.Call(
            func=self.ctx.runtime('with_out'),
            args=[out.value, func, self.kinds.value(root) or ast.Constant(None), *args],
            keywords=self._own(out.value) + [k for k in call.keywords if k is not out]))
        return [ast.fix_missing_locations(ast.copy_location(new, stmt))]

    def _own(self, target):
        """[`own=True`] where `target` is a name of an array the function made and keeps
        to itself (analysis.own_arrays): given traced values, it becomes a traced array
        standing for it."""
        return [ast.keyword(arg='own', value=ast.Constant(True))] if isinstance(
            target, ast.Name) and target.id in self.own else []

    def _numpy(self, node):
        """Whether `node` names the NumPy module (`np`)."""
        return isinstance(node, ast.Name) and self.modules(node.id) == 'numpy'

    def _root(self, node):
        """The local name `node` is (`w`) or takes items of with keys without calls
        (`M[i]`, `x[1:]`, `M[i][j]`), else None."""
        while isinstance(node, ast.Subscript):
            if any(isinstance(n, ast.Call) for n in ast.walk(node.slice)):
                return None
            node = node.value
        return node.id if isinstance(node, ast.Name) and node.id in self.local_names \
            else None
