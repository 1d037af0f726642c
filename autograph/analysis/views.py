"""Which variables are NumPy views of which, where (for passes.views).

    v = a[i]        # a view binding: `v` is a view of `a` (when `i` is a basic index)
    c = a           # a whole alias: a view of all of `a` (where its group is written
                    # by item or by a helper, or has a `known` kind: see
                    # view_bindings.aliases_written)
    v += e          # an in-place change of `v`: `a` changes too
    a[0] = 9        # an in-place change of `a`: `v` sees it
    v = v + e       # a rebinding: `v` is a new array from here on
    a = a * 2       # a rebinding of the base: `v` is still a view of the array `a` held

analysis.view_bindings finds the statements `v = b[key]`, `v = b` and the loops `for v
in b:`. `Views(..., known)`: names whose kind (NumPy or JAX) passes.views passes on.
`Views(...)` follows, through branches and loops, which bindings reach each statement
(the origins of each name: a view binding, or OTHER for any other binding or none) and,
per base, whether it was rebound since its views were taken (MOVED: False, True or
both, on some paths), and records:

- `tracked[binding] = (v, b)`: the bindings of views in a group changed in place (a view
  of a view belongs to its base's group);
- `after[stmt]`: what follows an in-place change: ('write', v, b, mode) writes the view
  `v` back into the array of `b` (its base's own base next, ...), ('read', u, b, mode)
  reads the view `u` again from there. The mode says where that array is: 'same' (in
  `b`), 'moved' (in the array `b` held when rebound: kept in a variable of its own),
  'either' (rebound on some paths: a flag says), 'if same' (a read only where `b` still
  holds the views' array), 'if view' (`v` is a whole alias of `b` on some paths only:
  a flag says, see `check_view_flags`);
- `before[stmt]`: (b, 'plain' or 'either') where `stmt` rebinds a base whose views live
  on: its array is kept first; `moving`, the bases so kept, `flagged`, those that a flag
  follows, `modes[b]`: 'param' (a parameter whose views were taken of the caller's
  array: passes.argument_reports keeps it) or 'local';
- `key_names[v]`: the variable holding v's key.

An in-place change of a name that is a view on some paths only (or of different bases),
or a read of one whose base changed, is an UnsupportedSyntax where no flag can follow it
('if view': a whole alias, or an item's view changed in place or read later, bound by
statements of its own, each view of the same base); so is a change of a view
whose old array the converted code did not keep (its base rebound by a loop's target, a
`with`, or while itself a view; a newer view of the base taken since).
"""
import ast

from autograph.analysis import view_errors as errors
from autograph.analysis.view_errors import NESTED, STALE, UNKEPT, UNSEEN
from autograph.analysis.dataflow import Dataflow
from autograph.analysis.walk import blocks as statement_lists
from autograph.analysis.view_bindings import (aliases_written, blocks, effects, groups,
                                             header, is_whole, nested_reads, own,
                                             self_view, stored)
from autograph.analysis.written_parameters import parameters
from autograph.errors import unsupported

OTHER = 'other'     # an origin: any binding that is not a tracked view's (or none)
ORPHAN = 'orphan'   # an origin: a view of an array its base held before a newer view
_NOT_VIEW = frozenset({OTHER})
MOVED, ENTRY = 'moved', 'entry'   # state keys (MOVED, base), (ENTRY, parameter)
LOST = 'lost'   # a base rebound where the converted code cannot keep its old array
_SAME = frozenset({False})


class Views:
    def __init__(self, function, bindings, resolve, ctx, known=frozenset()):
        self.ctx, self.resolve, self.after, self.before = ctx, resolve, {}, {}
        self.function, self.bound_at = function, {}   # (name: the statements binding it)
        self._flow = None   # (a Dataflow of `function`, when first needed)
        shared = ctx.sharing.get(function) if hasattr(ctx, 'sharing') else None
        self.writers = shared.writers if shared is not None else {}
        changed, self.by_item = set(), set()   # (by_item: changed by item or helper)
        for stmt in function.body:   # (each walks the statements in it too)
            found = effects(stmt, self.ctx.ag, self.resolve, self.writers)
            changed.update(found[2])
            self.by_item.update(found[3])
        self.tracked = groups(aliases_written(bindings, self.by_item | known), changed)
        self.key_names = {}
        for name, _ in sorted(set(self.tracked.values())):
            if name not in self.key_names:
                self.key_names[name] = ctx.namer.new(f'{name}_key')
        self.params = set(parameters(function))
        self.modes, self.flagged, self.moving = {}, set(), {}
        if self.tracked:
            start = {(MOVED, base): _SAME for _, base in self.tracked.values()}
            start.update({(ENTRY, p): frozenset({True}) for p in self.params})
            self._block(function.body, start, True)
            self._check_modes()

    def _check_modes(self):
        """A base whose views outlive a rebinding keeps its old array in one variable:
        the caller's array (`a_arg`, a parameter whose views were all taken while it
        held it) or its own (`a_old`, any other); where no view writes it or is read
        again from it (`old = a; a = a * 2; a[0] = 1`), nothing keeps it."""
        used = {a[2] for acts in self.after.values() for a in acts if a[3] != 'same'}
        self.moving = {b: stmt for b, stmt in self.moving.items() if b in used}
        self.before = {stmt: [(b, m) for b, m in pairs if b in used]
                       for stmt, pairs in self.before.items()}
        self.flagged &= used
        for base, stmt in self.moving.items():
            if len(self.modes.get(base, ())) != 1 or 'mixed' in self.modes[base]:
                raise unsupported(errors.callers_on_some_paths(base), self.ctx, stmt)

    # --- the flow through statements ---------------------------------------------------

    def _block(self, stmts, state, record):
        for stmt in stmts:
            state = self._statement(stmt, state, record)
        return state

    def _statement(self, stmt, state, record):
        if isinstance(stmt, ast.If):
            self._loads(stmt.test, state, stmt)
            return _join(self._block(stmt.body, state, record),
                         self._block(stmt.orelse, state, record))
        if isinstance(stmt, (ast.For, ast.While)):
            return self._loop(stmt, state, record)
        if isinstance(stmt, (ast.With, ast.Try, ast.Match)):
            return self._compound(stmt, state, record)
        return self._simple(stmt, state, record)

    def _loop(self, loop, state, record):
        if isinstance(loop, ast.For):
            self._loads(loop.iter, state, loop)
        head = state
        while True:   # (the origins only grow: a fixed point)
            joined = _join(head, self._iteration(loop, head, False))
            if joined == head:
                break
            head = joined
        if record:
            self._iteration(loop, head, True)
        return self._block(loop.orelse, head, record)

    def _iteration(self, loop, head, record):
        if isinstance(loop, ast.For):
            state = head
            for name in stored(loop.target):
                state = self._rebind(name, state, loop, record)
        else:
            state = head
            self._loads(loop.test, state, loop)
        return self._block(loop.body, state, record)

    def _compound(self, stmt, state, record):
        """`with`, `try`, `match`: each block from what reaches the statement and what
        each block before it leaves (a block may not run, or run in part)."""
        for node in header(stmt):
            self._loads(node, state, stmt)
            for name in stored(node):
                state = self._rebind(name, state, None, record)
        for handler in getattr(stmt, 'handlers', ()):
            if handler.name:
                state = self._rebind(handler.name, state, None, record)
        out = state
        for block in blocks(stmt):
            out = _join(out, self._block(block, out, record))
        return out

    def _simple(self, stmt, state, record):
        loads, stores, changed, _ = effects(stmt, self.ctx.ag, self.resolve, self.writers)
        for name in loads:
            self._check_fresh(name, state, stmt)
        actions = []
        for name in changed:
            if name in stores and any(self._views_of(name, state)):
                state = self._changed_and_rebound(name, state, stmt, (record, actions))
            else:
                state = self._change(name, state, stmt, actions)
        for name in stores:
            if name not in changed or not any(self._views_of(name, state)):
                state = self._rebind(name, state, stmt, record)
        if record and actions:
            self.after[stmt] = actions
        return state

    # --- one statement's effects ---------------------------------------------------------

    def _change(self, name, state, stmt, actions):
        """`name` changed in place at `stmt`: write it back into its base (and that one
        into its own base...), then read again the views of what changed. A base
        rebound since the view was taken gets the write in the array it held
        (mode 'moved'; 'either' where rebound on some paths only)."""
        changed, current = [(name, 'current')], name
        while True:
            origins = state.get(current, _NOT_VIEW)
            if NESTED in origins:
                raise unsupported(errors.nested(current), self.ctx, stmt)
            views = [o for o in origins if o in self.tracked]
            if ORPHAN in origins or UNKEPT in origins or UNSEEN in origins or not views:
                if ORPHAN in origins or UNKEPT in origins or UNSEEN in origins:
                    raise unsupported(errors.lost(current), self.ctx, stmt)
                break
            bases = {self.tracked[o][1] for o in views}
            base = min(bases)
            some_paths = len(views) != len(origins)
            if len(bases) != 1 or (some_paths and not self._alias_on_some_paths(
                    origins, base, items=True)):
                raise errors.some_paths_error(current, bases, 'is changed in place here',
                                              self.ctx, stmt)
            mode = self._mode(base, state, current, stmt)
            if some_paths and mode != 'same':
                raise unsupported(errors.lost(current), self.ctx, stmt)
            mode = 'if view' if some_paths else mode
            actions.append(('write', current, base, mode))
            if mode not in ('same', 'if view'):
                changed.append((base, 'old'))
                break
            if base in [b for b, _ in changed]:
                break
            changed.append((base, 'current'))
            current = base
        return self._refresh(changed, state, actions, stmt)

    def _changed_and_rebound(self, name, state, stmt, recording):
        """`a = f(a)`, `f` writing `a`, while views of `a` live on: they see the write,
        in the array `a` held. The caller's array, a parameter's, gets it (the call
        gives its write to `a_arg`, see passes.argument_reports); another's views are
        UNKEPT (an error where they are used)."""
        record, actions = recording
        if name not in self.params or state[(ENTRY, name)] != frozenset({True}):
            for view in list(self._views_of(name, state)):   # (an error where used)
                state[view] = frozenset({UNKEPT})
            return self._rebind(name, state, stmt, record)
        state = self._rebind(name, state, stmt, record)
        return self._refresh([(name, 'old')], state, actions, stmt)

    def _mode(self, base, state, view, stmt):
        """Where the array of `view`, a view of `base`, is now: 'same' (in `base`),
        'moved' (in the array `base` held before its rebinding), 'either'."""
        moved = state[(MOVED, base)]
        if LOST in moved or (moved != _SAME and any(
                o in self.tracked for o in state.get(base, ()))):
            raise unsupported(errors.lost(view), self.ctx, stmt)
        if moved == _SAME:
            return 'same'
        if moved == frozenset({True}):
            return 'moved'
        self.flagged.add(base)
        return 'either'

    def _refresh(self, changed, state, actions, stmt):
        """Read again the views of the arrays `changed` ((name, 'current'): the array
        the name holds; (name, 'old'): the one it held before its rebinding), and their
        views...; a view on some paths only becomes STALE (an error where it is read), and
        one of an array its base may no longer hold UNSEEN (an error where it is used)."""
        state, queue, done = dict(state), list(changed), {b for b, _ in changed}
        while queue:
            base, which = queue.pop(0)
            mode = self._read_mode(base, which, state, stmt)
            if mode == LOST:
                for name in [n for n in state if isinstance(n, str) and n not in done]:
                    if any(o in self.tracked and self.tracked[o][1] == base
                           for o in state[name]):
                        if name in nested_reads(self.function):   # (read unseen)
                            raise unsupported(errors.rebound_on_some_paths(base),
                                              self.ctx, stmt)
                        state[name] = state[name] | {UNSEEN}
                continue
            if mode is None:
                continue
            for name in sorted(n for n in state if isinstance(n, str)):
                origins = state[name]
                of_base = [o for o in origins if o in self.tracked
                           and self.tracked[o][1] == base]
                if name in done or not of_base:
                    continue
                if len(of_base) == len(origins) or (
                        mode == 'same' and self._alias_on_some_paths(
                            origins, base, items=self._read_later(name, stmt))):
                    actions.append(('read', name, base,
                                    mode if len(of_base) == len(origins) else 'if view'))
                    done.add(name)
                    queue.append((name, 'current'))
                else:
                    state[name] = origins | {STALE}
        return state

    def _alias_on_some_paths(self, origins, base, items=False):
        """Whether `origins` are whole aliases `c = base` on some paths and other
        bindings on the others (`x0 = x1` at the end of a sweep that reads `x0` and
        writes `x1`): a flag follows which (`c_is_view`, see passes.views), where each
        other binding of the name is a statement of its own (`check_view_flags`). With
        `items`, where the name is changed in place, also views of items (`n = ns[k]`
        on one path, `n = 3 * n + 1` on another: a single item's key is None)."""
        return OTHER in origins and all(
            o == OTHER or (o in self.tracked and self.tracked[o][1] == base and
                           (items or is_whole(o)))
            for o in origins)

    def _read_later(self, name, stmt):
        """Whether `name` may be read after `stmt` before it is bound again (a flag and
        a key follow an item's view on some paths only where it is: a staged loop would
        carry a key it does not need, of a kind that differs by path)."""
        if self._flow is None:
            self._flow = Dataflow(self.function, {loop: [flag] for loop, flag in
                                                  self.ctx.break_flags.items()})
        return name in self._flow.live_out.get(stmt, (name,))

    def check_view_flags(self):
        """The names a flag follows (`_alias_on_some_paths`): an UnsupportedSyntax where
        a loop's target, a `with`, `except` or `match` binds one (no statement of its
        own to set the flag after)."""
        flagged = {a[1] for acts in self.after.values() for a in acts if a[3] == 'if view'}
        for name in sorted(flagged):
            for stmt in self.bound_at.get(name, ()):
                if not isinstance(stmt, ast.stmt) or statement_lists(stmt):
                    raise errors.some_paths_error(name, {}, 'is bound here', self.ctx,
                                                  stmt or self.function)
        return flagged

    def _read_mode(self, base, which, state, stmt):
        """How the views of `base` are read again after its array `which` changed:
        'same', 'moved', 'either' (as `_mode`), 'if same' (only where `base` still holds
        the views' array), None (its views hold another array), or LOST (they may hold
        an array the converted code did not keep: an error where one is used)."""
        moved = state.get((MOVED, base), _SAME)
        if which == 'old':
            return 'moved' if moved == frozenset({True}) else 'either'
        if moved == _SAME:
            return 'same'
        if False not in moved:
            return None
        if LOST in moved:
            return LOST
        self.flagged.add(base)
        return 'if same'

    def _rebind(self, name, state, stmt, record=False):
        """`name` bound at `stmt` (a tracked view binding, or anything else): the views
        of its old value keep that value, which the converted code keeps (`_move`)."""
        state = dict(state)
        self.bound_at.setdefault(name, set()).add(stmt)
        views = {o for o in state.get(name, ()) if o in self.tracked}
        if (MOVED, name) in state and any(self._views_of(name, state)):
            state = self._move(name, state, stmt, record, bool(views))
        if name in self.params:
            state[(ENTRY, name)] = frozenset({False})
        if stmt in self.tracked and self.tracked[stmt][0] == name:
            state[name] = frozenset({stmt})
            state = self._made(self.tracked[stmt][1], name, state)
        elif views and self_view(stmt, name):   # (`row = row[1:]`: a view still)
            state[name] = frozenset(views | {NESTED})
        else:
            state.pop(name, None)
        return state

    def _views_of(self, base, state, but=None):
        """The names that are views of `base` (on some path) in `state`."""
        for other, origins in state.items():
            if isinstance(other, str) and other != but and any(
                    o in self.tracked and self.tracked[o][1] == base for o in origins):
                yield other

    def _move(self, base, state, stmt, record, is_view):
        """`base` rebound at `stmt` while views of it are live: they keep the array it
        held, saved before `stmt` (`a_old = a`, see passes.views) where `stmt` is a
        statement of its own and `base` no view of another array."""
        moved = state[(MOVED, base)]
        if (LOST in moved or is_view or not isinstance(stmt, ast.stmt)
                or isinstance(stmt, (ast.For, ast.While, ast.With, ast.Try))):
            state[(MOVED, base)] = frozenset({LOST})
            return state
        if moved != frozenset({True}):
            mode = 'plain' if moved == _SAME else 'either'
            if mode == 'either':
                self.flagged.add(base)
            if record:
                self.before.setdefault(stmt, []).append((base, mode))
        self.moving.setdefault(base, stmt)
        state[(MOVED, base)] = frozenset({True})
        return state

    def _made(self, base, name, state):
        """A new view `name` of `base`: the views of an array `base` held before are
        orphans (an error where changed), and `base` is the views' array again."""
        if state[(MOVED, base)] != _SAME:
            for other in list(self._views_of(base, state, but=name)):
                state[other] = frozenset(ORPHAN if o in self.tracked else o
                                         for o in state[other])
        state[(MOVED, base)] = _SAME
        entry = state.get((ENTRY, base))
        self.modes.setdefault(base, set()).add(
            'local' if entry is None or entry == _SAME else
            'param' if entry == frozenset({True}) else 'mixed')
        return state

    def _loads(self, node, state, stmt):
        for inner in own([node]):
            if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Load):
                self._check_fresh(inner.id, state, stmt)

    def _check_fresh(self, name, state, stmt):
        errors.check_read(name, state.get(name, _NOT_VIEW), self.tracked, self.ctx, stmt)


def _join(one, other):
    out = {}
    for name in one.keys() | other.keys():
        out[name] = one.get(name, _NOT_VIEW) | other.get(name, _NOT_VIEW)
    return out
