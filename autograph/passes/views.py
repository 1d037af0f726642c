"""NumPy's views: writes through a view reach its base, and writes to the base are seen
through the view (see runtime/items/views.py).

    v = a[i]                  v, v_key = ag.view(a, i)
    v += e              ->    v += e
                              a = ag.write_view(a, v_key, v)
    a[0, 0] = 9               a[0, 0] = 9
                              v = ag.read_view(a, v_key, v)
    helper(v)                 helper(v)                 (then passes.written_arguments:
                              a = ag.write_view(a, v_key, v)     `v` rebound by the call)
    c = a                     c, c_key = ag.alias(a)    (all of `a`: NumPy's `c is a`)
    for row in M:             for index, row in ag.enumerate(M):
        row *= 2                  row, row_key = ag.view(M, index, row)
                                  row *= 2
                                  M = ag.write_view(M, row_key, row)

`ag.view` gives the item and its key, or None for the key when NumPy's `a[i]` is a copy
(a single item, an index array, a boolean mask, a list's item): the key is computed once,
where the view is made, as NumPy fixes the view's place there. Only views that matter are
rewritten: those of a variable that is changed in place (`a += e`, `a[k] = e`, a helper
writing it) in the same group of views (a view of a view belongs to its base's group);
a whole alias `c = a` only where an item write or a helper changes its group (`c += e`
alone may mean a new JAX array, as Python gives it).

Which binding of a name reaches each statement is followed through branches and loops
(analysis.views): an in-place change of `v` is written back where every binding that
reaches it made `v` a view of the same variable, and `v` is read again after its base
changes where every binding made it a view of that base. `v = v + e`, or any other
binding, makes `v` a new array (no longer a view). Rebinding the base leaves its views
with the old array, and writes through them go there: the converted code keeps it

    v = b[0:2]                v, v_key = ag.view(b, slice(0, 2))
    b = b + 1                 b_old = b                  (a base of its own)
                              b = b + 1
    v[0] = 9                  v = ag.setitem(v, 0, 9)
                              b_old = ag.write_view(b_old, v_key, v)

(`a_arg` for a parameter whose views were taken of the caller's array: the caller's
array, which passes.argument_reports saves and reports). Where the base is rebound on
some paths only, a flag follows it (`b_is_old`, `a_is_arg`): the write goes to each
array `where=` its flag says. A view on some paths only, changed in place (or read after
its base changed), is an UnsupportedSyntax naming it: NumPy's result would depend on the
path, which the converted code cannot follow.
"""
import ast

from autograph.analysis.activity import scope_of
from autograph.analysis.array_kinds import JAX, given_kinds
from autograph.analysis.census import IN_PLACE, ITEM_STORE
from autograph.analysis.dataflow import Dataflow
from autograph.analysis.parameter_copies import unfollowed_changes
from autograph.analysis.view_bindings import containers, groups, is_whole, known_aliases, own
from autograph.analysis.walk import blocks
from autograph.analysis.written_parameters import is_write_view
from autograph.passes.attribute_views import checked_attribute_views
from autograph.passes.base import StatementRewriter, fix_missing_locations, walk_scope
from autograph.passes.changing_tests import hoist_changing_tests
from autograph.passes.container_items import check_container_items, held_check
from autograph.passes.called_functions import LazyResolver, changes_elsewhere
from autograph.passes.kind_flags import (array_kinds, bound_values, kind_flag, note_kinds,
                                         numpy_keyword)
from autograph.passes.unpacked_aliases import guard_unfollowed, view_bindings_unpacked
from autograph.passes.view_guards import guard, views_or_guards
from autograph.passes.view_keys import (helper_views, in_c_order, layout, note_layouts,
                                        view_key)
from autograph.passes.view_loops import rewrite_loop, shadowed
from autograph.passes.view_targets import split_view_targets, split_view_ternaries

ONLY_WITH = (ast.Subscript, ast.For, ast.Call, IN_PLACE)   # see analysis.census
# (`c = a; f(c)`; `c = a; c += e`)


def transform(function, ctx):
    if not isinstance(function, ast.FunctionDef) or not _may_change_in_place(ctx):
        return function
    resolve = LazyResolver(function, ctx)   # (asked only where a helper may be)
    split_view_targets(function, ctx, resolve)   # (`m.T[0, 1] = e`: a view `m_view` first)
    scanned = _changed_here(function, ctx.ag)
    changed = scanned[0]
    if not changed and not scanned[2] and not changes_elsewhere(ctx):
        return function   # (nothing changed in place that a view or alias could see)
    split_view_ternaries(function, changed)   # (`r = M[i] if c else e`: an `if`)
    check_container_items(function, changed, ctx)   # (`p = params['W']; p -= e`)
    found = view_bindings_unpacked(function, changed, ctx, resolve)
    checked_attribute_views(found, scanned, ctx)
    if not found:
        return function
    unfollowed = unfollowed_changes(function) if any(
        is_whole(stmt) and set(pair) & changed for stmt, pair in found.items()) else set()
    followed = _follow_views(function, found, (changed, resolve), ctx)
    guard_unfollowed(function, unfollowed - followed, ctx)
    return function


def _follow_views(function, found, changes, ctx):
    """Rewrite the views `found` (analysis.view_bindings) that matter; the statements
    whose changes in place it follows."""
    changed, resolve = changes
    if not changes_elsewhere(ctx) and not groups(found, changed):
        return set()   # (no call writes an argument: the changes are all in sight)
    scope = scope_of(function)
    outer = outer_names({base for _, base in found.values()}, scope, ctx) \
        if ctx.census is not None and function is ctx.census.scopes[-1] else {}
    rebindable = scope.locals | set(scope.declared) | set(outer)
    lists = containers(function)   # (`e = d` of a dict, `x = rows[i][j]` of a list of
    bindings = {stmt: pair for stmt, pair in found.items()   # lists: Python's objects)
                if pair[1] in rebindable and pair[0] != ctx.return_value
                and not (pair[1] in lists and _chained(stmt))
                and not shadowed(stmt, scope, ctx)}
    bindings = helper_views(function, bindings, ctx, resolve)
    if not bindings:
        return set()
    names, kept = bound_values(function)
    kinds = array_kinds(function, ctx, names)
    known = known_aliases(function, found, names, kept, kinds)
    hoist_changing_tests(function, {n for pair in bindings.values() for n in pair},
                          resolve, ctx)
    analysis, guarded = views_or_guards(function, bindings, resolve, ctx, known)
    guard(guarded, ctx)
    if not analysis.tracked:
        fix_missing_locations(function)
        return set()
    _drop_dead_reads(function, analysis, ctx)
    given = given_kinds(sorted(analysis.modes), kinds,
                        {base for base, modes in analysis.modes.items() if modes == {'param'}})
    pending = {}
    flags = {base: kind_flag(function, given[base], base, ctx, pending)
             for base in sorted(given) if given[base] is not JAX and given[base].params}
    written = {n for pair in groups(bindings, analysis.by_item).values() for n in pair}
    view_flags = {name: (ctx.namer.new(f'{name}_is_view'), analysis.key_names[name],
                         all(is_whole(s) for s, pair in analysis.tracked.items()
                             if pair[0] == name))
                  for name in sorted(analysis.check_view_flags())}
    rewrite = _Rewrite(ctx, analysis, _kept_names(function, analysis, ctx), (flags, given),
                       known - written)
    rewrite.resolve = resolve
    rewrite.c_order = {base for _, base in analysis.tracked.values()
                       if in_c_order(base, names, set(kept), ctx.ag)}
    rewrite.given_arrays = set(kept)
    rewrite.view_flags = view_flags
    arrays = ctx.own_arrays.get(function, ((), (), (), {}))
    rewrite.own_arrays, rewrite.held, rewrite.held_items = arrays[0], arrays[1], arrays[3]
    rewrite.block(function.body)
    note_layouts(function, rewrite.layouts, ctx)
    _start_view_flags(function, view_flags)
    note_kinds(function, pending, ctx)
    stored = {n.id for n in walk_scope(function)
              if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    declare(function, {name: how for name, how in outer.items() if name in stored})
    fix_missing_locations(function)
    return set(analysis.after)


def outer_names(names, scope, ctx):
    """{name: 'global' or 'nonlocal'} of `names` that are the converted function's
    globals or closure variables (not its own nor declared): where it writes their
    arrays' items or views, they are declared (`declare`) and rebound like its own, and
    a Function reads them as state (a NumPy array's changes reach it in place)."""
    return {name: 'nonlocal' if name in ctx.resolver.free else 'global'
            for name in set(names) - scope.locals - set(scope.declared) if is_outer(name, ctx)}


def is_outer(name, ctx):
    """Whether `name` is one of the converted function's closure variables or globals
    (where the function does not bind it)."""
    return name in ctx.resolver.free or name in ctx.resolver.globals


def declare(function, outer):
    """`global G` / `nonlocal c` first in `function` (after its docstring) for `outer`
    (see `outer_names`)."""
    at = 1 if ast.get_docstring(function, clean=False) is not None else 0
    for label, kind in (('global', ast.Global), ('nonlocal', ast.Nonlocal)):
        names = sorted(n for n, how in outer.items() if how == label)
        if names:
            function.body.insert(at, ast.copy_location(kind(names=names), function.body[0]))


def _start_view_flags(function, view_flags):
    """`c_is_view, c_key = False, ...` first in `function` (after its docstring), for
    each name `c` that is a view on some paths only (analysis.views, 'if view'): no view
    where the function starts. (The key of a whole alias is always `...`; of an item's
    view, None, the key of a copy, until one is taken: `n = ns[k]`, a single item, keeps
    it None, a static key a staged loop carries unchanged.)"""
    at = 1 if ast.get_docstring(function, clean=False) is not None else 0
    for flag, key, whole in view_flags.values():
        for text in (f'{key} = {"..." if whole else "None"}', f'{flag} = False'):
            function.body.insert(at, ast.copy_location(_parse(text), function.body[0]))


def _kept_names(function, analysis, ctx):
    """{base: (the variable keeping the array it held when rebound, its flag)} for the
    bases rebound while their views live on: a parameter's are the caller's array's
    (`a_arg`, `a_is_arg`: passes.argument_reports saves and sets them), another's its
    own (`a_old`, `a_is_old`: set here)."""
    kept = {}
    for base in sorted(analysis.moving):
        if analysis.modes[base] == {'param'}:
            kept[base] = (ctx.namer.new(f'{base}_arg'), ctx.namer.new(f'{base}_is_arg'))
            ctx.kept_arrays.setdefault(function, {})[base] = kept[base]
        else:
            kept[base] = (ctx.namer.new(f'{base}_old'), ctx.namer.new(f'{base}_is_old'))
    return kept


def _may_change_in_place(ctx):
    """Whether the function (or one nested in it) may change a variable in place: an item
    written or deleted, `x += 1`, a call of a function writing its parameters' items."""
    return changes_elsewhere(ctx) or ctx.census.has_any((ITEM_STORE, IN_PLACE, ast.Delete))


def _changed_here(function, ag):
    """(the variables `function`'s own code changes in place: `x += e`, `x[k] = e`, `del
    x[k]`, calls left out, a superset of what analysis.views finds changed where no call
    writes its arguments; its statements `v = obj.a` and `v = obj.a[key]`; the
    attributes whose items it writes, `obj.a[k] = e`, as `ast.dump` texts), from one
    walk."""
    changed, attribute_reads, written = set(), [], set()
    for node in walk_scope(function):
        cls = node.__class__
        if cls is ast.AugAssign and node.target.__class__ is ast.Name:
            changed.add(node.target.id)
        elif cls is ast.Assign:
            if is_write_view(node, ag):
                changed.add(node.targets[0].id)   # (`w = ag.in_place(w, 'sort', ...)`)
            elif len(node.targets) == 1 and node.targets[0].__class__ is ast.Name and (
                    node.value.__class__ is ast.Attribute or (
                        node.value.__class__ is ast.Subscript
                        and node.value.value.__class__ is ast.Attribute)):
                attribute_reads.append(node)
        elif cls is ast.Subscript and node.ctx.__class__ is not ast.Load:
            if node.value.__class__ is ast.Attribute:
                written.add(ast.dump(node.value))
            while node.__class__ is ast.Subscript:
                node = node.value
            if node.__class__ is ast.Name:
                changed.add(node.id)
    return changed, attribute_reads, written


def _chained(stmt):
    """Whether view binding `stmt` is a whole alias or takes more than one step (`x =
    rows[i][j]`, analysis.view_chains): not `v = b[key]` nor a loop's `for v in b`."""
    value = getattr(stmt, 'value', None)
    return isinstance(stmt, ast.Assign) and not (isinstance(value, ast.Subscript)
                                                 and isinstance(value.value, ast.Name))


def _drop_dead_reads(function, analysis, ctx):
    """No `v = ag.read_view(...)` where nothing reads `v` afterwards (and no view of
    `v` is read again from it)."""
    scope = scope_of(function)
    flow = Dataflow(function, {loop: [flag] for loop, flag in ctx.break_flags.items()},
                    scope.closures)
    bases = {base for _, base in analysis.tracked.values()}
    for stmt, actions in analysis.after.items():
        live = flow.live_out.get(stmt)
        if live is not None:
            actions[:] = [action for action in actions if action[0] == 'write'
                          or action[1] in live or action[1] in bases]


class _Rewrite(StatementRewriter):
    def __init__(self, ctx, analysis, kept, given, known):
        super().__init__(ctx)
        self.analysis, self.kept, self.known = analysis, kept, known
        self.given, self.kinds = given   # ({base: its flag}, {base: its kind})
        self.own = {base for base in kept if analysis.modes[base] != {'param'}}
        self.acted = {a[1] for actions in analysis.after.values() for a in actions}
        self.held = self.own_arrays = ()   # (see `held_check`, `_own`)
        self.held_items = {}
        self.resolve, self.c_order, self.given_arrays, self.layouts = None, set(), set(), {}

    def rewrite(self, stmt):
        analysis, new = self.analysis, [stmt]
        if isinstance(stmt, ast.For) and stmt in analysis.tracked:
            self._items(stmt)
        elif stmt in analysis.tracked:
            new = self._bound(stmt)
        saves, flags = self._saves(stmt)
        new = saves + new + flags
        returned = None
        if isinstance(stmt, ast.Return) and analysis.after.get(stmt) and stmt.value:
            returned = self.ctx.namer.new('result')   # (`return fill(row)`: `a` first)
            new[len(saves)] = ast.Assign(targets=[_store(returned)], value=stmt.value)
        for kind, name, base, mode in analysis.after.get(stmt, ()):
            if kind == 'write' and base in self.held:
                new.append(held_check(base, self.ctx, items=self.held_items.get(base)))
            new += self._action(kind, name, base, mode)
        new += self._view_flags(stmt)
        if returned is not None:
            new.append(ast.Return(value=_load(returned)))
        return [ast.fix_missing_locations(ast.copy_location(s, stmt)) for s in new]

    def _bound(self, stmt):
        """`v = a[key]` -> `v, v_key = ag.view(a, key)`, `c = a` -> `c, c_key =
        ag.alias(a)` (as it is where nothing writes `c` back or reads it again)."""
        name, base = self.analysis.tracked[stmt]
        if is_whole(stmt) and name not in self.acted:
            return [stmt] + self._start(base)
        call = (ast.Call(func=self.ctx.runtime('alias'), args=[_load(base)],
                         keywords=self._numpy(base) if name in self.known else [])
                if is_whole(stmt) else
                ast.Call(func=self.ctx.runtime('view'),
                         args=[_load(base)] + view_key(stmt.value, self.ctx, self.resolve),
                         keywords=self._numpy(base) + self._layout(stmt, base)))
        return [ast.Assign(targets=[ast.Tuple(elts=[_store(name),
                                                    _store(self.analysis.key_names[name])],
                                              ctx=ast.Store())], value=call)
                ] + self._start(base)

    def _layout(self, stmt, base):
        """`layout=a_layout` or `c_order=False` for a reshape (see view_keys.layout)."""
        return layout(stmt.value, base, self)

    def _view_flags(self, stmt):
        """After a statement binding a name a flag follows (see `_start_view_flags`):
        `c_is_view = True` where it is the alias `c = base`, else False."""
        if not self.view_flags or blocks(stmt) or stmt.__class__ is ast.AugAssign:
            return []   # (`c += e` changes the array `c` holds: still the alias, or not)
        bound = {n.id for n in own([stmt]) if n.__class__ is ast.Name
                 and n.ctx.__class__ is ast.Store and n.id in self.view_flags}
        alias = self.analysis.tracked.get(stmt, (None,))[0]
        return [_parse(f'{self.view_flags[name][0]} = {name == alias}')
                for name in sorted(bound)]

    def _own(self, base):
        """`, own=True` for a NumPy array the function made and keeps to itself, which
        a traced value makes a traced array (analysis.own_arrays)."""
        return ', own=True' if base in self.own_arrays else ''

    def _numpy(self, base):
        return numpy_keyword(self.kinds.get(base), self.given.get(base))

    def _start(self, base):
        """After a view of `base` is taken: `a_old, a_is_old = a, True` (a base of its
        own whose views may outlive a rebinding on some paths only)."""
        if base not in self.own or base not in self.analysis.flagged:
            return []
        old, flag = self.kept[base]
        return [_parse(f'{old}, {flag} = {base}, True')]

    def _saves(self, stmt):
        """([before `stmt`], [after it]) where `stmt` rebinds a base whose views live
        on: `a_old = a` before, `a_is_old = False` after (where a flag follows it)."""
        saves = []
        for base, mode in self.analysis.before.get(stmt, ()):
            if base not in self.own:
                continue   # (a parameter's: passes.argument_reports saves it)
            old, flag = self.kept[base]
            saves.append(_parse(f'{old} = {base}' if mode == 'plain' else
                                f'{old} = {self.ctx.ag}.given({flag}, {base}, {old})'))
        return saves, [_parse(f'{self.kept[base][1]} = False')
                       for base, _ in self.analysis.before.get(stmt, ())
                       if base in self.own and base in self.analysis.flagged]

    def _action(self, kind, name, base, mode):
        """The statements that write view `name` back into the array of `base`, or read
        it again from there (see analysis.views for the modes)."""
        ag, key = self.ctx.ag, self.analysis.key_names[name]
        old, flag = self.kept.get(base, (None, None))
        if mode == 'if view':   # (`c`, a whole alias of `base` where its flag says)
            flag = self.view_flags[name][0]
            if kind == 'write':
                return [_parse(f'{base} = {ag}.write_view({base}, {key}, {name}, '
                               f'where={flag}{self._own(base)})')]
        if kind == 'write':
            if mode == 'same':
                return [_parse(f'{base} = {ag}.write_view({base}, {key}, {name}'
                               f'{self._own(base)})')]
            if mode == 'moved':
                return [_parse(f'{old} = {ag}.write_view({old}, {key}, {name})')]
            return [_parse(f'{base} = {ag}.write_view({base}, {key}, {name}, where={flag})'),
                    _parse(f'{old} = {ag}.write_view({old}, {key}, {name}, '
                           f'where={ag}.not_({flag}))')]
        source = {'same': base, 'if same': base, 'if view': base, 'moved': old,
                  'either': f'{ag}.given({flag}, {base}, {old})'}[mode]
        where = f', where={flag}' if mode in ('if same', 'if view') else ''
        return [_parse(f'{name} = {ag}.read_view({source}, {key}, {name}{where})')]

    def _items(self, loop):
        """`for row in M:` (or over `M[1:]`...): see passes.view_loops."""
        name, base = self.analysis.tracked[loop]
        view = (name, base, self.analysis.key_names[name], base in self.c_order)
        rewrite_loop(loop, view, self.ctx, self.resolve, self._numpy(base), self._start(base))


def _parse(text):
    """One statement of generated code, from its text (names and the runtime's only)."""
    return ast.parse(text).body[0]


def _load(name):
    return ast.Name(id=name, ctx=ast.Load())


def _store(name):
    return ast.Name(id=name, ctx=ast.Store())
