"""The state of one `if`/`while`/`for` statement, built once, as a chain of adapters.

Generated code passes a statement its variables (`names`, `args`/`state`) and, where the
converter found them, three more kinds of state:

- `nonlocals=`: variables that nested functions can see, assigned in place by the branch
  and loop functions (runtime.state.nonlocals);
- `fields=`: attributes assigned, and containers changed in place (runtime.state.mutation);
- `aliased=`: lists a loop grows that other code also holds (runtime.state.lists.refill).

While a Function is traced, lists its code only appends to (logs) are none of these:
the statement takes what its staged branches or body append to them out as fields of
its own (runtime.state.logs).

Every operator goes through one `Statement`, which adds them in that order: the
variables in place join the statement's variables (`values`, `names`), the branch and
loop functions take and return them too (`bind`), and `finish` writes them back after
the statement; the objects layer (`objects()`) adds the fields on top for the staged
paths. The operators then see one tuple of values and one tuple of names.

    def if_stmt(cond, if_true, if_false, args, names, fields=None, nonlocals=()):
        statement = Statement(args, names, fields, nonlocals, (if_true, if_false))
        ... statement.bind(if_true) ... statement.values ... statement.names ...
        return statement.finish(result)
"""
from .. import context
from . import lists, restaging, unmodeled, watches
from .logs import StatementLogs, is_log
from .mutation import Mutations
from .nonlocals import Nonlocals, current_value


_RESTAGINGS = 4   # at most: each finds the places that calls of the last one changed


class Statement:
    def __init__(self, values, names, fields=None, nonlocals=(), functions=(), loop=False,
                 aliased=(), returned=False):
        """`functions` are the statement's branch/body/test functions (through whose
        closures the `nonlocals` are found); `loop` tells whether it is a loop (a
        variable in place that has no value yet is then created by the body);
        `returned`: its value is the function's result (see Mutations)."""
        logs = context.current().logs   # (while a Function is traced: see logs.py)
        self._logs = None
        if logs is not None:
            self._logs = StatementLogs(logs, len(functions), loop)
            nonlocals = [name for name in nonlocals
                         if not is_log(current_value(name, functions))]
            fields = _without_logs(fields)
        self._shared = Nonlocals(nonlocals, functions, loop=loop) if nonlocals else None
        self._functions = functions
        # key -> Place: what calls in a staged body changed (as found for this statement
        # earlier in this trace: an enclosing statement staged again stages it again)
        self.site = tuple(getattr(fn, '__code__', None) for fn in functions)
        self.discovered = context.current().discovered   # (of the Function being traced)
        self.mark = None   # (the objects made since the current run began are its own)
        self.pending = False   # (a statement inside found places this one must carry)
        self._extra = dict(self.discovered.get(self.site, {}))
        self._own_names = tuple(names)
        self._fields, self._aliased, self._returned = fields, aliased, returned
        self._objects = None
        shared = self._shared
        self.names = self._own_names + (shared.names if shared else ())
        self.values = tuple(values) + (shared.get() if shared else ())

    def bind(self, fn):
        """A branch or loop body of the statement's variables -> one that also takes and
        returns the variables in place (None stays None); bound in order, branch by
        branch (where logs take out what each appends)."""
        fn = unmodeled.checked(fn)   # (a set, deque or Queue changed while traced)
        if self._shared is not None:
            fn = self._shared.wrap(fn, self._own_names)
        return fn if self._logs is None else self._logs.bind(fn)

    def bind_test(self, fn):
        """A loop test (or a `break` test) -> one that also takes the variables in place."""
        if self._shared is None:
            return fn
        return self._shared.wrap_test(fn)

    def objects(self):
        """The objects layer (see runtime.state.mutation.Mutations) over `values` and `names`:
        its `state` and `all_names` add the fields; its `wrap` adapts bound functions."""
        if self._objects is None:
            on_call = context.current().on_call
            if on_call is not None and self._extra:   # (watchers outside see them first)
                on_call(None, (), list(self._extra.values()))
            extra = [(place.label, watches.PlaceAttribute(place), 'value')
                     for place in self._extra.values()]
            if self._logs is not None:
                extra += self._logs.fields()
            carried = list(self._extra) + (self._shared.keys() if self._shared else [])
            self._objects = Mutations(self.values, self.names, self._fields, extra,
                                      watches.Watch(self._functions, carried),
                                      self._returned)
        return self._objects

    def staged(self, run):
        """`run(objects)`: the statement's staged path, given the objects layer. When
        functions that its branches or body call change places outside the statement
        (a global, an attribute of an object, a list they were given), those are put
        back, and the statement is staged again carrying them as fields (see
        runtime.state.watches.Watch), from the world the first staging started from (see
        runtime.state.watches.Journal)."""
        journal = watches.Journal(self._functions, self.values)
        with context.setting(staging=context.current().staging + (self,)):
            for _ in range(_RESTAGINGS):
                objects = self.objects()
                self.mark = context.made_mark()
                results = journal.recording(objects.fields, run, objects)
                new = {key: place for key, place in objects.watch.changed.items()
                       if key not in self._extra}
                missing = self._logs is not None and self._logs.missing()
                pending, self.pending = self.pending, False   # (see runtime.state.restaging)
                if not new and not missing and not pending:
                    return results
                journal.rewind()   # (the run again starts where this one did)
                self._extra.update(new)
                self._extra.update(self.discovered.get(self.site, {}))
                # (a list is a pytree: each staging has a copy of its own, not to be
                # reused; a helper's closure cell may be made anew by each run around)
                kept = {key: place for key, place in new.items()
                        if key[0] not in ('container', 'cell')}
                self.discovered.setdefault(self.site, {}).update(kept)
                if new and kept == new and not missing and \
                        restaging.outermost_needing(self, kept):
                    return results   # (a statement around stages again: this run is moot)
                self._objects = None
        return results

    def carries(self, places):
        """Whether its current run carries one of `places` ({key: Place}) already: as a
        field, a variable in place, a place found before (see runtime.state.restaging)."""
        watch = self._objects.watch if self._objects is not None else None
        return watch is not None and not watch.carried.isdisjoint(places)

    def finish(self, results):
        """The statement's results for its own names, after writing back what it changed:
        fields and containers (when the objects layer ran), aliased lists, variables in
        place. `results` has one value per name in `all_names` of the objects layer when
        it ran, else one per name in `names`."""
        if self._objects is not None:
            results = self._objects.finish(results)
        if self._aliased:
            results = lists.refill(self.names, self.values, results, self._aliased)
        if self._shared is None:
            return results
        return self._shared.finish(self._own_names, results)


def _without_logs(fields):
    """The converter's `fields` (a function giving {label: (object, attribute)}) but the
    attributes that hold logs (see runtime.state.logs)."""
    if fields is None:
        return None

    def kept():
        return {label: (holder, attr) for label, (holder, attr) in fields().items()
                if not is_log(getattr(holder, attr, None))}
    return kept
