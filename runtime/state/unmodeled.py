"""Containers that staged code cannot carry: a `set`, a `collections.deque`, a
`queue.Queue`, a `collections.Counter` given to a staged branch or loop body, held by
its closure or by a global it names.

A staged body is traced once, whatever its traced test decides or however many times the
loop runs, and such a container is a Python object, not arrays: a change made to it while
tracing (`q.put(i)` under a traced `if`, `seen.add(v)` in a staged `while`) would be made
once, on every path, where Python makes it only where the code runs. So a staged run of a
body that changes one it is given is a named error (a list or dict is carried as state,
runtime.state.lists; a body run as Python changes it as Python does). Its items are put
back first: a loop over a Python range or a short sequence then runs as Python from them.

A defaultdict that a staged run only reads (its closure holds it) must not gain a key:
`d[k]` of a key it lacks adds the key in Python on the path that reads it only, so a key
the run added is taken out again and the read is a named error (one the body changes,
`d[k] += 1`, is the statement's state and carried as a dict).

Neither can the compiled program of a Function change one: one given a traced value
while the Function is traced (`q.append(x)` of a deque argument or a global) would keep
the trace's placeholder, so that too is a named error (`held`, `untraced`), its items
put back.
"""
import collections
import queue

from ..context import staged_depth
from ..errors import here
from ..messages import container_changed_when_staged, default_read_elsewhere, \
    traced_in_container
from ..values.split import is_traced
from .places import code_names

_KINDS = ((set, 'set'), (collections.deque, 'deque'), (queue.Queue, 'Queue'),
          (collections.Counter, 'Counter'))


def checked(fn):
    """`fn` (a branch or loop body taking the statement's values), raising the named error
    where a staged run of it changes a set, deque, Queue or Counter it is given, its
    closure holds (a variable it only reads: `q.put(i)`) or a global it names holds."""
    depth = staged_depth()
    cells = getattr(fn, '__closure__', None) or ()
    names = tuple(code_names(fn.__code__)) if hasattr(fn, '__code__') else ()
    # (not the globals themselves in this closure, which runtime.backends.dispatch reads)

    def run(*args):
        if staged_depth() <= depth:   # (run as Python: its changes are Python's)
            return fn(*args)
        held = [cell.cell_contents for cell in cells if _filled(cell)]
        namespace = getattr(fn, '__globals__', None) or {}
        outer = [namespace[name] for name in names if name in namespace]
        given = {id(arg) for arg in args}   # (a Counter given is the statement's state:
        before = [(value, _contents(value), _items(value))   # runtime.state.mutation)
                  for value in (*args, *held, *outer) if _kind(value)
                  and not (_kind(value) == 'Counter' and id(value) in given)]
        defaulting = [(value, set(dict.keys(value))) for value in held
                      if id(value) not in given and _defaulting(value)]
        result = fn(*args)
        changed = [(arg, items) for arg, contents, items in before
                   if _contents(arg) != contents]
        for arg, items in changed:   # (a loop may run again as Python: from these)
            _restore(arg, items)
        if changed:
            raise container_changed_when_staged(_kind(changed[0][0]), here())
        for value, keys in defaulting:
            added = [key for key in dict.keys(value) if key not in keys]
            if added:   # (a key read and made by `__missing__`: taken out again)
                for key in added:
                    dict.__delitem__(value, key)
                raise default_read_elsewhere(added[0], here())
        return result
    return run


def held(fn, values):
    """(container, its items) for each set, deque, Queue or Counter among `values` (a
    Function's arguments) and those `fn`'s closure holds or the globals it names hold:
    what `untraced` checks after `fn` was traced."""
    namespace = getattr(fn, '__globals__', None) or {}
    outer = [cell.cell_contents for cell in getattr(fn, '__closure__', None) or ()
             if _filled(cell)]
    outer += [namespace[name] for name in code_names(fn.__code__) if name in namespace] \
        if hasattr(fn, '__code__') else []
    return [(value, _items(value)) for value in (*values, *outer) if _kind(value)]


def untraced(held_before, function):
    """The named error where a container of `held_before` (see `held`) holds a traced
    value after the trace of the Function `function` (its name): every one of them
    given back its items first (a traced value would outlive the trace in it)."""
    traced = [value for value, items in held_before
              if any(is_traced(leaf) for leaf in _new_leaves(value, items))]
    if traced:
        for value, items in held_before:
            _restore(value, items)
        raise traced_in_container(_kind(traced[0]), function)


def _new_leaves(value, items):
    """The values in the items of `value` that are not among `items` (those it held
    before: a deque of the caller's traced values, under its jit, is not the trace's)."""
    known = {id(item) for item in items}
    return [leaf for item in _items(value) if id(item) not in known
            for leaf in (item if isinstance(item, tuple) else (item,))]


def _filled(cell):
    try:
        cell.cell_contents
    except ValueError:   # (a variable not bound yet)
        return False
    return True


def _defaulting(value):
    """Whether `value` is a dict that makes a key it lacks when read (a defaultdict, or
    a dict with keys on some paths only made of one): a staged run that only reads it
    (its closure holds it) must not add a key, which Python adds on one path only."""
    return isinstance(value, dict) and getattr(value, 'default_factory', None) is not None


def _kind(value):
    return next((name for cls, name in _KINDS if isinstance(value, cls)), None)


def _items(value):
    if isinstance(value, dict):   # (a Counter: its keys and counts)
        return list(dict.items(value))
    return list(value.queue if isinstance(value, queue.Queue) else value)


def _restore(value, items):
    """Give `value` back the `items` it held before the staged run changed it."""
    target = value.queue if isinstance(value, queue.Queue) else value
    target.clear()
    if isinstance(target, dict):
        dict.update(target, items)   # (not Counter.update, which adds counts)
    elif isinstance(target, set):
        target.update(items)
    else:
        target.extend(items)


def _contents(value):
    """What tells whether `value` changed: its items' identities, in order."""
    return len(_items(value)), [(id(item) if not isinstance(item, tuple)
                                 else tuple(map(id, item))) for item in _items(value)]
