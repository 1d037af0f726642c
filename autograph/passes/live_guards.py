"""The loops over what their body changes in place that passes.live_iteration cannot
make read live: where the object is a traced NumPy array, each is a named error when it
runs (`ag.unfollowed_items`, see runtime.loops.live_views), never a silent wrong value;
Python's own value elsewhere.

    it = iter(v)                    it = ag.unfollowed_items(iter(v), 'an iterator',
    for e in it:            ->                               v=(v, v_is_numpy))
        v[k] = e

An iterator bound to a name (Python's reads `v` live, and the converted code does not
follow an iterator object); a view a call makes (`np.flip(v)`, a helper's `return
p[::-1]`), iterated while `v` (or the loop variable, a row of it) is changed; a row of
`zip(M, Q)` written through a loop variable that passes.views does not follow (it
follows one). `facts`: passes.live_iteration's readings of the function.
"""
import ast

from autograph.analysis.array_kinds import JAX, module_names
from autograph.analysis.view_chains import chain_of
from autograph.passes.base import walk_scope
from autograph.passes.called_functions import LazyResolver

_NUMPY_VIEWS = frozenset({'flip', 'fliplr', 'flipud', 'transpose', 'swapaxes', 'moveaxis',
                          'squeeze', 'expand_dims', 'ravel', 'reshape', 'diagonal',
                          'asarray', 'asanyarray', 'atleast_1d', 'atleast_2d'})
_VIEW_METHODS = frozenset({'swapaxes', 'squeeze', 'diagonal'})   # (others: passes.views)


def may_view(call, facts):
    """Whether `call` (a loop's iterable) may give a NumPy view of a variable it is
    given: `np.flip(v)` (NumPy's functions that give views), `v.swapaxes(0, 1)`, or a
    call of a function of the user's (analysis.view_chains says which return one)."""
    func = call.func
    if func.__class__ is not ast.Attribute or func.value.__class__ is not ast.Name:
        return False
    if func.value.id == facts.ctx.ag:   # (`ag.call(head, v)`: passes.calls's)
        return func.attr == 'call' and any(a.__class__ is ast.Name for a in call.args[1:])
    return func.attr in _VIEW_METHODS or func.attr in _NUMPY_VIEWS and \
        module_names(facts.ctx.resolver)(func.value.id) == 'numpy'


def guard_view_call(loop, facts):
    """`for e in np.flip(v):` (see `may_view`) whose body changes `v` in place: Python's
    loop reads the view's items live, which the converted loop does not follow through
    a call, so `ag.unfollowed_items(np.flip(v), 'a view (made by a call)', v=(v,
    v_is_numpy))`, a named error where `v` is a traced NumPy array."""
    call, ag = loop.iter, facts.ctx.ag
    changed = facts.changes(loop.body)[0]
    given = [call.func.value] if call.func.attr in _VIEW_METHODS else call.args
    through = loop.target.__class__ is ast.Name and _unfollowed_rows(
        [loop.target.id], loop.body, changed, ag)   # (`row[0] = e`: a write of `v`)
    names = [name for n in given for name in ([n.id] if n.__class__ is ast.Name
                                              else _chained(n, ag))
             if name in changed or through]   # (`np.flip(v.reshape(2, 2))`: `v`)
    if names and call.func.value.id == ag:   # (a user's function: a view?)
        chain = chain_of(call, ag, LazyResolver(facts.function, facts.ctx))
        if chain is None:   # (else what it gives: an iterator, a generator's?)
            return guard_called_items(loop, facts)
        names = [chain[0]] if chain[0] in names else []
    if names:
        loop.iter = _unfollowed(call, 'a view (made by a call)', names, facts)


def guard_called_items(loop, facts):
    """`for y, z in pairs(w):` (any call given an array `w` that the body changes in
    place, not a view of it: a generator of the user's, `map(f, w)`,
    `itertools.pairwise(w)`): where the call gives an iterator, Python reads `w` live as
    it runs, which the converted code does not follow, so `ag.called_items(pairs(w),
    w=(w, w_is_numpy))`, a named error where that iterator is given and `w` is a traced
    NumPy array (a list or an array the call made has its items already)."""
    if _given_names(loop.iter, facts):   # (the body read only where a call is given a
        changed = facts.changes(loop.body)[0]   # variable: not for `range(n)`)
        loop.iter = _called_items(loop.iter, changed, facts)


def _given_names(call, facts):
    """The variables `call` is given, in order (those of the calls `enumerate` or `zip`
    are given); none for `range(...)`, whose items are fresh numbers."""
    if facts.called(call) in ('enumerate', 'zip'):
        return [n for a in call.args if a.__class__ is ast.Call
                for n in _given_names(a, facts)]
    func, ag = call.func, facts.ctx.ag
    if _is_runtime(func, ag, 'range') or func.__class__ is ast.Name and func.id == 'range':
        return []
    args = call.args[1:] if _is_runtime(func, ag, 'call') else call.args
    return [a.id for a in args if a.__class__ is ast.Name]


def _called_items(call, changed, facts):
    """`call` guarded (see `guard_called_items`); under `enumerate` or `zip`, the calls
    they are given (`enumerate(pairs(w))`: the enumerate object is an iterator whatever
    `pairs` gives)."""
    if facts.called(call) in ('enumerate', 'zip'):
        call.args = [_called_items(a, changed, facts) if a.__class__ is ast.Call else a
                     for a in call.args]
        return call
    names = [n for n in _given_names(call, facts) if n in changed]
    return _unfollowed(call, None, names, facts) if names else call


def _is_runtime(func, ag, name):
    return func.__class__ is ast.Attribute and func.value.__class__ is ast.Name and \
        func.value.id == ag and func.attr == name


def guard_zipped_rows(loop, changed, facts):
    """`for r, q in zip(M, Q):` whose body changes `q` in place, a row of `Q` (a view:
    the write reaches `Q`), which passes.views does not follow (it follows one loop
    variable): `ag.unfollowed_items(ag.zip(M, Q), 'a row written through a loop
    variable', Q=(Q, Q_is_numpy))`, a named error where `Q` is a traced NumPy array."""
    ag, target, iterable = facts.ctx.ag, loop.target, loop.iter
    if facts.called(iterable) == 'enumerate' and len(iterable.args) == 1 and \
            target.elts[-1].__class__ is ast.Tuple:   # (passes.views's `index, (r, q)`)
        target, iterable = target.elts[-1], iterable.args[0]
    if facts.called(iterable) != 'zip' or len(target.elts) != len(iterable.args):
        return
    written = _unfollowed_rows([e.id for e in target.elts if e.__class__ is ast.Name],
                               loop.body, changed, ag)
    arrays = [name for e, arg in zip(target.elts, iterable.args)
              if getattr(e, 'id', None) in written
              for name in facts.iterated(arg) or _chained(arg, ag)]
    if arrays:
        loop.iter = _unfollowed(loop.iter, 'rows (written through a loop variable)',
                                arrays, facts)


def _chained(node, ag):
    """[the variable] whose view `node` is by a chain of views (`v.reshape(2, 2)`, see
    analysis.view_chains), else []."""
    chain = chain_of(node, ag)
    return [] if chain is None else [chain[0]]


def _unfollowed_rows(names, body, changed, ag):
    """The loop variables `names` that `body` changes in place where passes.views does
    not follow them as views (no `row, row_key = ag.view(...)` atop `body`)."""
    followed = {stmt.targets[0].elts[0].id for stmt in body
                if stmt.__class__ is ast.Assign and stmt.targets[0].__class__ is ast.Tuple
                and stmt.value.__class__ is ast.Call
                and stmt.value.func.__class__ is ast.Attribute
                and stmt.value.func.attr == 'view'
                and getattr(stmt.value.func.value, 'id', None) == ag}
    return [name for name in names if name in changed and name not in followed]


def _unfollowed(value, what, names, facts):
    """`ag.unfollowed_items(value, what, v=(v, v_is_numpy))` for the arrays `names`
    whose kind is not JAX's (else `value`); with `what` None, `ag.called_items(value,
    v=...)`."""
    names = [n for n in dict.fromkeys(names) if facts.kinds().kind(n) is not JAX]
    if not names:
        return value
    func, args = ('called_items', [value]) if what is None else \
        ('unfollowed_items', [value, ast.Constant(what)])
    return ast.copy_location(ast.Call(
        func=facts.ctx.runtime(func), args=args,
        keywords=[ast.keyword(arg=n, value=ast.Tuple(elts=[
            ast.Name(id=n, ctx=ast.Load()),
            facts.kinds().value(n) or ast.Constant(None)], ctx=ast.Load())) for n in names]),
        value)


def _line(stmt, default):
    """`stmt`'s line, `default` for a statement a pass made without one (the `return
    retval` of passes.returns)."""
    return getattr(stmt, 'lineno', None) or default


def guard_iterator(loop, changed, facts):
    """`it = iter(v)` (or `reversed(v)`, `enumerate(v)`, `zip(v, w)`), then `for e in
    it:` whose body (`changed`: what it changes in place), or the code between, changes
    `v` in place: Python's iterator reads `v` live, which the converted code does not
    follow through an iterator object, so `it = ag.unfollowed_items(iter(v), 'an
    iterator', v=(v, v_is_numpy))`, a named error where `v` is a traced NumPy array."""
    ag = facts.ctx.ag
    for node in facts.bound[loop.iter.id]:
        if facts.is_getitem(node.value.func) or \
                _line(node, loop.lineno) >= loop.lineno:
            continue   # (`v = ag.getitem(m, i)`: a view, not an iterator)
        arrays = facts.iterated(node.value)
        if not arrays:
            continue
        between = [stmt for stmt in walk_scope(facts.function) if isinstance(stmt, ast.stmt)
                   and node.lineno < _line(stmt, 0) < loop.lineno]
        written = changed | facts.changes(between)[0]
        node.value = _unfollowed(node.value, 'an iterator',
                                 [a for a in arrays if a in written], facts)
