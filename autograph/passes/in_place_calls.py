"""NumPy's in-place methods and functions called as statements, for passes.calls:

    w.sort()              ->    w = ag.in_place(w, 'sort', w_is_numpy)
    np.copyto(w, v)       ->    w = ag.in_place(w, 'copyto', w_is_numpy, v)
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

__all__ = ['IN_PLACE_FUNCTIONS', 'IN_PLACE_METHODS', 'InPlaceCalls']


class InPlaceCalls(StatementRewriter):
    """`w.sort()` as a statement, `w` a local -> `w = ag.in_place(w, 'sort', ...)`, and
    `np.copyto(w, v)` -> `w = ag.in_place(w, 'copyto', ..., v)`: a traced array that
    stands for a NumPy array is changed by making a new one (see
    runtime.python.in_place)."""

    def __init__(self, ctx, function, local_names):
        super().__init__(ctx)
        self.local_names = local_names
        self.kinds = KindFlags(function, ctx)   # (whether `w` stands for a NumPy array)
        self.modules = module_names(ctx.resolver)

    def rewrite(self, stmt):
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if not isinstance(call, ast.Call):
            return [stmt]
        func, args = call.func, list(call.args)
        if ast.dump(func) == ast.dump(self.ctx.runtime('call')) and args:
            func, args = args[0], args[1:]   # (`ag.call(w.sort)`)
        if isinstance(func, ast.Attribute) and func.attr in IN_PLACE_FUNCTIONS and \
                isinstance(func.value, ast.Name) and self.modules(func.value.id) == 'numpy' \
                and args and self._root(args[0]):
            target, args = args[0], args[1:]   # (`np.copyto(w, v)`)
        elif isinstance(func, ast.Attribute) and func.attr in IN_PLACE_METHODS and \
                self._root(func.value):
            target = func.value
        else:
            return [stmt]
        if self.ctx.census is not None:   # (a write of `w`: passes.written_arguments)
            self.ctx.census = self.ctx.census.adding(ITEM_STORE)
        new = ast.Assign(targets=[templates.store_copy(target)], value=ast.Call(
            func=self.ctx.runtime('in_place'),
            args=[target, ast.Constant(func.attr),
                  self.kinds.value(self._root(target)) or ast.Constant(None), *args],
            keywords=call.keywords))
        return [ast.fix_missing_locations(ast.copy_location(new, stmt))]

    def _root(self, node):
        """The local name `node` is (`w`) or takes items of with keys without calls
        (`M[i]`, `x[1:]`, `M[i][j]`), else None."""
        while isinstance(node, ast.Subscript):
            if any(isinstance(n, ast.Call) for n in ast.walk(node.slice)):
                return None
            node = node.value
        return node.id if isinstance(node, ast.Name) and node.id in self.local_names \
            else None
