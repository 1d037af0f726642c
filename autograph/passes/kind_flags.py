"""The kinds of a function's arrays, NumPy's or JAX's, as its generated code gives them to
the runtime (see analysis.array_kinds): `numpy=False` for a JAX array, `numpy=True` for
one NumPy makes of no parameter, and `numpy=b_is_numpy` for one whose kind the caller's
arrays decide, with `b_is_numpy = ag.numpy_kind(a)` first in the body. Passes that make
in-place changes explicit (item_assignments, written_arguments) ask it per variable."""
import ast

from autograph.analysis.array_kinds import JAX, MADE, ArrayKinds, module_names
from autograph.analysis.walk import nodes
from autograph.analysis.written_parameters import parameters
from autograph.passes.base import walk_scope


class KindFlags:
    """`kind(name)`, `keyword(name)` and `value(name)` for the variables of `function`;
    `note()` puts the flags they asked for first in its body. Made before a pass
    rewrites the function: its bindings are the user's (`a = a * 2`, not `a =
    ag.setitem(a, i, v)`)."""

    def __init__(self, function, ctx, names=None):
        self.function, self.ctx = function, ctx
        self.kinds, self.pending, self.flags = array_kinds(function, ctx, names), {}, {}

    def kind(self, name):
        """JAX, None (unknown: the value decides when the program runs) or a Kind."""
        kind = self.kinds.kind(name)
        if kind not in (None, JAX) and kind.params and name not in self.flags:
            self.flags[name] = kind_flag(self.function, kind, name, self.ctx, self.pending)
        return kind

    def keyword(self, name):
        """[`numpy=...`] for variable `name`, or [] where its kind is unknown."""
        return numpy_keyword(self.kind(name), self.flags.get(name))

    def value(self, name):
        """The expression of `keyword`'s value, or None where the kind is unknown."""
        return numpy_value(self.kind(name), self.flags.get(name))

    def note(self):
        note_kinds(self.function, self.pending, self.ctx)
        self.pending = {}


def array_kinds(function, ctx, names=None):
    """The kinds of the arrays `function`'s variables hold (see analysis.array_kinds);
    `names`: its bindings (`bound_values`), where known. A parameter that the body's
    first statements rebind to a new array of a known kind before any other use (`P =
    np.array(P)`, `x = np.asarray(x, dtype=float)`) holds that kind only: the caller's
    array is never read as itself."""
    names = bound_values(function)[0] if names is None else names
    params, modules = set(parameters(function)), module_names(ctx.resolver)
    kinds = ArrayKinds(names, params, modules, ctx.ag)
    replaced = _replaced_parameters(function, params, kinds)
    return ArrayKinds(names, params - replaced, modules, ctx.ag) if replaced else kinds


def _replaced_parameters(function, params, kinds):
    """The parameters `p` whose first use in `function` is a top-level `p = e`, where `e`
    is an array of one kind whatever `p` holds (a NumPy array NumPy makes, a JAX array)."""
    replaced, used = set(), set()
    for stmt in function.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
                isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id in params and \
                stmt.targets[0].id not in used and \
                kinds.of(stmt.value) in (JAX, MADE):
            replaced.add(stmt.targets[0].id)
        used |= {n.id for n in nodes(stmt) if n.__class__ is ast.Name}
        if params <= used:
            break
    return replaced


def kind_flag(function, kind, name, ctx, pending):
    """The name of the flag that holds `kind` (a Kind with parameters) in `function`:
    the one an earlier pass noted there, else one this pass notes (`pending`: {kind: its
    flag}, named after the first variable `name` that asks; see `note_kinds`). One flag
    per kind: it depends on the parameters alone, computed when the function starts."""
    noted = ctx.kind_flags.get(function, {})
    if kind in noted:
        return noted[kind]
    if kind not in pending:
        pending[kind] = ctx.namer.new(f'{name}_is_numpy')
    return pending[kind]


def note_kinds(function, pending, ctx):
    """`a_is_numpy = ag.numpy_kind(a)` first in the body (after a docstring), for each
    kind the parameters given decide (see analysis.array_kinds) that `pending` ({kind:
    its flag}, see `kind_flag`) holds; the flags are then known to later passes."""
    body = function.body
    start = int(isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str))
    body[start:start] = [ast.copy_location(ast.parse(
        f'{flag} = {ctx.ag}.numpy_kind({_kind_arguments(kind)})').body[0], body[start])
        for kind, flag in sorted(pending.items(), key=lambda item: item[1])]
    ctx.kind_flags.setdefault(function, {}).update(pending)


def numpy_keyword(kind, flag):
    """[`numpy=a_is_numpy`] (`flag`) for a base whose `kind` the function's code decides
    (see analysis.array_kinds): `numpy=False` for a JAX array's, `True` for one that
    NumPy makes of no parameter; none where the kind is unknown."""
    value = numpy_value(kind, flag)
    return [] if value is None else [ast.keyword(arg='numpy', value=value)]


def numpy_value(kind, flag):
    """The value of `numpy_keyword`'s keyword, or None."""
    if kind is None:
        return None
    return ast.Constant(False) if kind is JAX else \
        ast.Name(id=flag, ctx=ast.Load()) if kind.params else ast.Constant(True)


def _kind_arguments(kind):
    made = ', made=True' if kind.made else ''
    return ', '.join(sorted(kind.params)) + made


def bound_values(function):
    """({name: the expressions `function` binds to it, None for a binding of another
    form}, the parameters it never rebinds (changes in place, `a += e`, are no
    bindings): those hold the caller's arrays throughout)."""
    params = set(parameters(function))
    bindings, seen = {}, set()
    for node in walk_scope(function):
        if isinstance(node, ast.Assign) and _changed_in_place(node):
            seen.add(id(node.targets[0]))   # (`a = ag.setitem(a, i, v)`: no binding)
        elif isinstance(node, ast.Assign) and _call_writing(node):
            seen.update(id(e) for e in node.targets[0].elts[1:])   # (`r, a =
            # ag.call_writing(..., f, a)`: `f` changed `a` in place; `r` is bound)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            bindings.setdefault(node.targets[0].id, []).append(node.value)
            seen.add(id(node.targets[0]))
        elif isinstance(node, ast.Assign) and _view_binding(node):
            name = node.targets[0].elts[0]   # (`w, w_key = ag.alias(v)`: as `v`)
            bindings.setdefault(name.id, []).append(node.value.args[0])
            seen.add(id(name))
        elif isinstance(node, ast.AugAssign):   # (a change in place: no binding)
            seen.add(id(node.target))
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) \
                and id(node) not in seen:
            bindings.setdefault(node.id, []).append(None)
    return bindings, params - set(bindings)


def _view_binding(node):
    """Whether `node` is passes.views' `v, v_key = ag.alias(a)` or `v, v_key =
    ag.view(a, key, ...)`: `v` holds (a view of) `a`'s array, of its kind."""
    target, value = node.targets[0], node.value
    return (len(node.targets) == 1 and isinstance(target, ast.Tuple)
            and len(target.elts) == 2 and all(isinstance(e, ast.Name) for e in target.elts)
            and target.elts[1].id.startswith(target.elts[0].id + '_key')
            and isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and value.func.attr in ('alias', 'view') and value.args)


def _call_writing(node):
    """Whether `node` is passes.written_arguments' `r, a, b = ag.call_writing(...)`."""
    target, value = node.targets[0], node.value
    return (len(node.targets) == 1 and isinstance(target, ast.Tuple)
            and isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and value.func.attr == 'call_writing')


def _changed_in_place(node):
    """Whether `node` is generated code's `a = ag.setitem(a, ...)` (or `update_item`,
    `setitems`, `write_view`, `in_place`, `with_out`, `held_update`): `a` changed in
    place, of the kind it had."""
    target, value = node.targets[0], node.value
    return (len(node.targets) == 1 and isinstance(target, ast.Name)
            and isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and value.func.attr in IN_PLACE_UPDATES and value.args
            and isinstance(value.args[0], ast.Name) and value.args[0].id == target.id)


IN_PLACE_UPDATES = frozenset({'setitem', 'update_item', 'setitems', 'write_view', 'in_place',
                              'with_out', 'held_update'})
