"""Arrays that a called function writes items of: the caller's variable is rebound.

NumPy's `a[i] = v` in a helper writes into the caller's array. A JAX array cannot be
written in place (`a[i] = v` is `a = a.at[i].set(v)`, see passes.item_assignments), so a
function that writes items of its parameters reports their final values, and its callers
rebind the variables they passed (analysis.written_parameters finds which):

    swap(a, i, j)           ->  result, a = ag.call_writing((0,), swap, a, i, j)
    n = fill(out, x)        ->  n, out = ag.call_writing((0,), fill, out, x)
    merge(a[lo:hi])         ->  result, view = ag.call_writing((0,), merge, a[lo:hi])
                                a[lo:hi] = view      (a view: the write lands in `a`)

and in such a function (`def swap(a, i, j)`):

    return value            ->  return ag.written(value, a=a)
    (the end of the body)   ->  return ag.written(None, a=a)

Where the function's code decides whether the variable given holds a NumPy array
(`b = a + 0.0`, `b = jnp.zeros(3)`; see passes.kind_flags), the positions say it:
`ag.call_writing({0: b_is_numpy}, bump, b)` (a helper's `x += e` changes a NumPy array
in place and rebinds its own name for a JAX array).

`ag.written` gives a plain `value` except to `ag.call_writing`, which gets the values too
(they flow out of staged branches and loops as part of the result). A parameter written
and then rebound (`a[:2] = v; a = a * 2`) reports the array it held before the
rebinding: `a_arg = a` goes before it, and `return ag.written(value, a=a_arg)`
(analysis.entry_values). Where the parameter is the caller's array on some paths only,
a flag follows it at run time (passes.argument_reports).

A call inside a statement's expression (`return fill(out, x) + 1`) is computed first,
by its own statement, where Python computes nothing before it that it could change (no
call of user code, no read of what it writes) and surely computes it (not in `and`/`or`,
`x if c else y`, a lambda or a comprehension): `result, out = ag.call_writing(...)`,
then `return result + 1`. Other calls rebind nothing. An argument rebound is a variable,
or a subscript of one; `helper(x + 1)` rebinds nothing, as in Python, and neither does
`helper(LIST)` for a global or closure variable the function does not assign that holds
a list or dict (written in place). A parameter updated in place (`f += r * s`) is
written too: the caller's variable is rebound when it holds an array (not a number).
"""
import ast

from autograph import templates
from autograph.analysis.activity import scope_of
from autograph.analysis.census import IN_PLACE, ITEM_STORE
from autograph.analysis.walk import children
from autograph.analysis.written_parameters import (argument_base, entry_of_tree,
                                                   may_write_parameters, own_nodes,
                                                   parameters_written,
                                                   positions_written, split_call)
from autograph.errors import unsupported
from autograph.passes.argument_reports import (bound, follow, given, kept_by_calls,
                                               names_kept, report)
from autograph.passes.apart_checks import apart_checks
from autograph.passes.base import StatementRewriter
from autograph.passes.called_functions import call_resolver, names_writing_function
from autograph.passes.kind_flags import KindFlags
from autograph.passes.sequences import key_expression
from autograph.passes.container_items import held_check


def transform(function, ctx):
    if not isinstance(function, ast.FunctionDef):
        return function
    named = ctx.census is None or names_writing_function(ctx)
    if not named and function not in ctx.kept_arrays and not (
            ctx.census.has_any((ITEM_STORE, IN_PLACE))
            and (len(ctx.census.scopes) > 1 or may_write_parameters(function, ctx.ag))):
        return function   # (nothing to rewrite: no call writes, no parameter written,
        #                    no view written into the caller's array: passes.views; a
        #                    `def` of the tree may write, called by another: `hv` -> `hw`)
    scope = scope_of(function)
    resolve = call_resolver(function, ctx, scope)
    entry = entry_of_tree(function, resolve, ctx.ag)
    views = ctx.kept_arrays.get(function, {})
    saved, flags = names_kept(entry, ctx.namer, views)
    _check_kept(function, (entry, saved), views, ctx)
    for name, node, what in entry.problems[:1]:
        how = (f"by `except ... as {name}`" if isinstance(node, ast.ExceptHandler) else
               "by a `case` pattern, when it matches" if isinstance(node, ast.pattern) else
               "by an assignment expression (:=) that Python evaluates on some paths only "
               "(in `and`/`or`, `x if c else y`, a comprehension or a lambda)")
        raise unsupported(
            f"'{name}' is {what} here, where it is the caller's array on some paths only: "
            f"it is rebound {how}, which the converted code cannot follow. Assign "
            f"'{name}' in a statement of its own, or copy it first "
            f"(`{name} = {name}.copy()`)", ctx, node if node is not None else function)
    by_call = kept_by_calls(function, entry, resolve, ctx.ag)
    if named or len(ctx.census.scopes) > 1:   # (else no call writes its arguments)
        sites = _CallSites(ctx, resolve, _in_place(ctx, scope.locals | set(scope.declared)),
                           saved, (entry, flags))
        sites.kinds, sites.function = KindFlags(function, ctx), function
        sites.block(function.body)
        sites.kinds.note()
    if entry.saves or entry.maybe_saves or entry.flagged:
        follow(function, entry, saved, flags, by_call, ctx)   # (after: see `_CallSites`)
    if entry.written:
        report(function, entry, ctx, saved, flags)
    return function


def _check_kept(function, kept_by, views, ctx):
    """The parameters whose views passes.views writes into the caller's array after a
    rebinding are followed here too (saved where rebound; flagged where the views use
    the flag), or named in an error (a rebinding no statement of its own makes)."""
    entry, saved = kept_by
    for name, (_, flag) in views.items():
        if name in entry.written and name in saved and (
                name in entry.flagged or not _uses(function, flag)):
            continue
        problem = next((node for p, node, _ in entry.problems if p == name), function)
        raise unsupported(
            f"'{name}' is rebound here while NumPy views of it, taken from the caller's "
            f"array, are changed later: the converted code cannot follow which array the "
            f"caller holds. Change the views before rebinding '{name}', or copy it "
            f"first (`{name} = {name}.copy()`)", ctx, problem)


def _uses(function, name):
    return any(isinstance(n, ast.Name) and n.id == name for n in own_nodes(function))


def _in_place(ctx, own_names):
    """Whether a name the function does not assign holds a list or dict now (a global's
    or a closure's): a helper writes its items in place, so the caller has nothing to
    rebind (and rebinding it would make it a local variable of the caller)."""
    globals_ = getattr(ctx.resolver, 'globals', None) or {}
    closure = getattr(ctx.resolver, 'closure', {})

    def in_place(name):
        if name in own_names:
            return False
        return type(closure.get(name, globals_.get(name))) in (list, dict)
    return in_place


class _CallSites(StatementRewriter):
    """Rewrites the calls that write arguments. An assignment rewritten stays the same
    node (`a = f(b)` -> `a, b = ag.call_writing(...)`), and a call computed first by a
    statement of its own goes before it: argument_reports.follow, after, puts `a_arg = a`
    just before it (after the call's write)."""

    def __init__(self, ctx, resolve, in_place, saved, flagged):
        super().__init__(ctx)
        self.resolve = resolve
        self.in_place = in_place
        self.saved = saved   # parameter -> the variable keeping the caller's array
        self.entry, self.flags = flagged   # (see analysis.entry_values)
        self.sure = self.maybe = ()   # the parameters the statement rewritten rebinds
                                      # while surely / maybe the caller's array
        self.kinds = None   # (passes.kind_flags, set by `transform`)

    def rewrite(self, stmt):
        self.sure = self.entry.saves.get(stmt, ())
        self.maybe = self.entry.maybe_saves.get(stmt, ())
        call = getattr(stmt, 'value', None)
        if (isinstance(call, ast.Call) and isinstance(stmt, (ast.Expr, ast.Assign, ast.Return))
                and not (isinstance(stmt, ast.Assign) and len(stmt.targets) != 1)):
            result = (stmt.targets[0] if isinstance(stmt, ast.Assign)
                      else ast.Name(id=self.ctx.namer.new('result'), ctx=ast.Store()))
            new = self._writing(call, result)
            if new is not None:
                if isinstance(stmt, ast.Return):   # (the same node: see `report`)
                    stmt.value = ast.Name(id=result.id, ctx=ast.Load())
                    new.append(stmt)
                elif isinstance(stmt, ast.Assign):   # (after the checks, see `_writing`)
                    at = next(i for i, s in enumerate(new) if isinstance(s, ast.Assign))
                    stmt.targets, stmt.value = new[at].targets, new[at].value
                    new[at] = stmt
                return [ast.fix_missing_locations(ast.copy_location(s, stmt)) for s in new]
        return self._hoisted(stmt)

    def _positions(self, call):
        func, args = split_call(call, self.ctx.ag)
        if func is call.func:   # not a call of user code
            return func, args, None
        args = _keywords_given_by_position(call, func, args, self.resolve, self.ctx)
        return func, args, [p for p in positions_written(func, args, self.resolve)
                            if not (isinstance(args[p], ast.Name)
                                    and self.in_place(args[p].id))]

    def _writing(self, call, result):
        """The statements `result, a = ag.call_writing(...)` (and `a[lo:hi] = view` for
        a view given) for `call`, or None when it writes no argument."""
        func, args, positions = self._positions(call)
        if not positions:
            return None
        apart = apart_checks(func, args, positions, self.ctx.ag)
        namer = self.ctx.namer
        targets, after = [result], []
        for position in positions:
            arg = args[position]
            if isinstance(arg, ast.Name) and arg.id in bound(result):
                # `a = helper(a)`, `a, b = helper(a)`: the write is to the array `a`
                # held before (the caller's, if `a` is a parameter: kept), `a` is bound
                # to (part of) the result
                kept = (arg.id in self.sure and self.saved.get(arg.id)
                        or namer.new(f'{arg.id}_written'))
                targets.append(ast.Name(id=kept, ctx=ast.Store()))
                after += self._kept(arg.id, kept)
            elif isinstance(arg, ast.Name):
                targets.append(ast.Name(id=arg.id, ctx=ast.Store()))
            else:   # a view `a[lo:hi]`: written back into `a`
                view = namer.new('view')
                targets.append(ast.Name(id=view, ctx=ast.Store()))
                store = templates.store_copy(arg)
                self.ctx.census = self.ctx.census.adding(ITEM_STORE)
                after.append(ast.Assign(targets=[store], value=ast.Name(id=view, ctx=ast.Load())))
                args = self._view_given(args, position)
        rebinding = ast.Call(func=self.ctx.runtime('call_writing'),
                             args=[self._kinds_at(positions, args), func, *args],
                             keywords=call.keywords)
        arrays = self.ctx.own_arrays.get(self.function, ((), (), (), {}))
        checks = [held_check(args[p].id, self.ctx, item=True,
                             items=arrays[3].get(args[p].id)) for p in positions
                  if isinstance(args[p], ast.Name) and args[p].id in arrays[1]]
        return apart + checks + [ast.Assign(
            targets=[ast.Tuple(elts=targets, ctx=ast.Store())], value=rebinding)] + after

    def _kinds_at(self, positions, args):
        """`(0, 2)`, the positions written, or `{0: b_is_numpy, 2: None}` where the
        function's code decides whether the variable given holds a NumPy array (see
        passes.kind_flags; runtime.python.calls.call_writing)."""
        kinds = [self.kinds.value(args[p].id) if isinstance(args[p], ast.Name) else None
                 for p in positions]
        if all(kind is None for kind in kinds):
            return ast.Tuple(elts=[ast.Constant(p) for p in positions], ctx=ast.Load())
        return ast.Dict(keys=[ast.Constant(p) for p in positions],
                        values=[kind or ast.Constant(None) for kind in kinds])

    def _view_given(self, args, position):
        """`args` with `a[k]` at `position` given as `ag.view_of(a, k)`: NumPy's view, the
        array `a[k] += e` in the function changes in place, where `a` is a NumPy array
        (a JAX array's `a[k]` is a new array, which `+=` rebinds: see
        runtime.python.calls.call_writing)."""
        arg = args[position]
        if not isinstance(arg.value, ast.Name):
            return args
        part = ast.Call(func=self.ctx.runtime('view_of'),
                        args=[arg.value, key_expression(arg.slice, self.ctx)], keywords=[])
        return [*args[:position], ast.copy_location(part, arg), *args[position + 1:]]

    def _kept(self, name, kept):
        """After `a, a_written = ag.call_writing(..., a)` where `a` may be the caller's
        array: `a_arg` is `a_written` if it was (and `a` no longer is)."""
        if name not in self.flags or name not in [*self.sure, *self.maybe]:
            return []
        flag = ast.Name(id=self.flags[name], ctx=ast.Store())
        return ([ast.Assign(targets=[ast.Name(id=self.saved[name], ctx=ast.Store())],
                            value=given(name, self.saved, self.flags, self.ctx, kept))]
                if name in self.maybe else []) + [
                    ast.Assign(targets=[flag], value=ast.Constant(False))]

    def _hoisted(self, stmt):
        """A call that writes its arguments inside a statement's expression (`return
        helper(c) + 1`), computed first by its own statement when Python computes
        nothing before it that it could change: no call of user code, no read of the
        variables it writes (`result = ag.call_writing(...)`, then `return result + 1`)."""
        field = _COMPUTED_FIRST.get(type(stmt))
        if field is None or getattr(stmt, field) is None:
            for expression in _own_expressions(stmt):   # (a `while` test: every iteration)
                self._refuse_writing_calls(expression, f'in a `{type(stmt).__name__.lower()}` '
                                                       f'statement\'s own expressions')
            return [stmt]
        before = [] if not isinstance(stmt, ast.AugAssign) else _names(stmt.target)
        new, replaced, called, done = [], {}, False, set()
        for node, opaque in _in_order(getattr(stmt, field)):
            if opaque or not isinstance(node, ast.Call):
                if opaque:
                    self._refuse_writing_calls(node, 'inside `and`/`or`, a conditional '
                                               'expression, a lambda or a comprehension')
                called = called or (opaque and any(isinstance(n, ast.Call)
                                                   for n in ast.walk(node)))
                before += _names(node) if opaque else _names(node, deep=False)
                continue
            func, args, positions = self._positions(node)
            bases = {argument_base(args[p]) for p in positions or ()}
            inner = {id(n) for n in ast.walk(node)}
            if positions and not called and not bases & {
                    n.id for n in before if id(n) not in inner | done}:
                result = ast.Name(id=self.ctx.namer.new('result'), ctx=ast.Store())
                new += self._writing(node, result)
                replaced[id(node)] = result.id
                done |= inner   # (computed by then: what it reads is read in order)
            elif positions:
                raise _unsupported_call(node, 'after code in the same expression that '
                                        'reads what it writes or calls a function', self.ctx)
            elif positions is not None:
                called = True
        if not new:
            return [stmt]
        setattr(stmt, field, _Replace(replaced).visit(getattr(stmt, field)))
        return [ast.fix_missing_locations(ast.copy_location(s, stmt)) for s in new + [stmt]]


    def _refuse_writing_calls(self, node, where):
        """The named error for a call in `node` that writes items of an argument (its
        writes could not reach the caller's variable)."""
        for call in ast.walk(node):
            if isinstance(call, ast.Call) and self._positions(call)[2]:
                raise _unsupported_call(call, where, self.ctx)


def _unsupported_call(call, where, ctx):
    return unsupported(
        f'a call that writes items of an array it is given, {where}: its writes would '
        f'not reach the caller\'s array; call it in a statement of its own '
        f'(`result = f(a)`) and use `result` in the expression', ctx, call)


_COMPUTED_FIRST = {ast.Expr: 'value', ast.Assign: 'value', ast.AugAssign: 'value',
                   ast.Return: 'value', ast.If: 'test', ast.For: 'iter'}
"""The expression of a statement that Python computes once, before anything else the
statement does: a call in it may be computed by a statement of its own just before."""



def _own_expressions(stmt):
    """The expressions of `stmt` itself, not of the statements in its blocks."""
    for field, value in ast.iter_fields(stmt):
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, ast.AST) and not isinstance(
                    item, (ast.stmt, ast.excepthandler, ast.match_case)):
                yield item


_OPAQUE = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
           ast.BoolOp, ast.IfExp)
"""Expressions whose parts Python may compute in part, or later (a call in one is never
moved out of it)."""


def _in_order(node):
    """(node, opaque) for the nodes of the expression `node` in the order Python
    computes them (a call after its function and arguments); an `_OPAQUE` one whole."""
    if isinstance(node, _OPAQUE):
        yield node, True
        return
    for child in children(node):
        yield from _in_order(child)
    yield node, False


def _names(node, deep=True):
    """The Name nodes read in `node` (only `node` itself unless `deep`)."""
    found = ast.walk(node) if deep else [node]
    return [n for n in found if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]


class _Replace(ast.NodeTransformer):
    """Replaces the nodes whose id is a key of `names` by a read of that name."""

    def __init__(self, names):
        self.names = names

    def generic_visit(self, node):
        if id(node) in self.names:
            return ast.copy_location(ast.Name(id=self.names[id(node)], ctx=ast.Load()), node)
        return super().generic_visit(node)


def _keywords_given_by_position(call, func, args, resolve, ctx):
    """`args` with `call`'s keyword arguments given by position where one of them is a
    variable (or a view) whose items the callee writes: `scale(x=x, c=2.0)` -> `scale(x,
    2.0)`, whose write of `x` is then followed as a positional one's. Where they cannot
    move so (other keywords first, `**kw`, values whose order of evaluation would
    change), an UnsupportedSyntax (the write would be lost)."""
    if not call.keywords:
        return args
    written, params = parameters_written(func, resolve)
    given = [k.arg for k in call.keywords
             if k.arg in written and argument_base(k.value) is not None]
    if not given:
        return args
    names = [k.arg for k in call.keywords]
    wanted = params[len(args):len(args) + len(names)]
    in_order = names == wanted
    if None in names or sorted(names) != sorted(wanted) or any(
            isinstance(a, ast.Starred) for a in args) or not (in_order or all(
                not isinstance(n, ast.Call) for k in call.keywords for n in ast.walk(k.value))):
        raise unsupported(
            f"{ast.unparse(func)}() writes the items of its parameter '{given[0]}', given "
            f"by keyword here, which the converted code cannot follow: give it by position",
            ctx, call)
    values = [k.value for k in sorted(call.keywords, key=lambda k: wanted.index(k.arg))]
    call.args += values   # (after `f` in `ag.call(f, ...)`, after the others in `f(...)`)
    call.keywords = []
    return list(args) + values
