"""The texts of analysis.views's UnsupportedSyntax errors: NumPy views the converted
code cannot follow (each names the view or base and says what to write instead), and the
origins of a name (see analysis.views) that make reading it one of them."""
from autograph.errors import unsupported

STALE = 'stale'     # an origin: a view on some paths whose base changed since
NESTED = 'nested'   # an origin: `v = v[k]`, a view of the view `v` was (not followed)
UNKEPT = 'unkept'   # an origin: a view of an array a call changed, then not kept
UNSEEN = 'unseen'   # an origin: a view of an array its base, rebound on some paths
                    # only, may no longer hold, that changed since (an error where used)


def check_read(name, origins, tracked, ctx, stmt):
    """An UnsupportedSyntax at `stmt`, which reads `name`, where its `origins` make it a
    view the converted code does not follow (`tracked`: {view binding: (view, base)})."""
    if UNKEPT in origins:
        raise unsupported(unkept(name), ctx, stmt)
    if UNSEEN in origins:
        base = min((tracked[o][1] for o in origins if o in tracked), default=name)
        raise unsupported(rebound_on_some_paths(base), ctx, stmt)
    if STALE in origins and NESTED in origins:
        raise unsupported(nested(name), ctx, stmt)
    if STALE in origins:
        bases = {tracked[o][1] for o in origins if o in tracked}
        raise some_paths_error(name, bases, 'is read here after its base changed', ctx, stmt)


def some_paths_error(name, bases, what, ctx, node):
    """The UnsupportedSyntax of `on_some_paths` at `node`, marked `views_on_some_paths`:
    where the views are items that are numbers when the program runs, it has no cause
    (passes.view_guards checks them there instead)."""
    error = unsupported(on_some_paths(name, bases, what), ctx, node)
    error.views_on_some_paths = True
    return error


def on_some_paths(name, bases, what):
    base = ' or '.join(f"'{b}'" for b in sorted(bases)) or 'an array'
    return (f"'{name}' {what}, but it is a NumPy view of {base} on some paths only "
            f"(bound from it, or an item or slice of it, on one path, otherwise on "
            f"another): whether {base} changes with it depends on the path, which the converted "
            f"code cannot follow. Bind '{name}' the same way on every path, or make the "
            f"copy explicit (`{name} = ....copy()`)")


def lost(name):
    return (f"'{name}' is changed in place here, but it is a NumPy view of an array that "
            f"its base no longer holds, and that the converted code did not keep: the "
            f"base was rebound by a loop's target, a `with`, `except` or `match` "
            f"binding, or was itself a view, or a newer view of it was taken since. "
            f"Change the view before the base is rebound, or make the copy explicit "
            f"(`{name} = ....copy()`)")


def unkept(name):
    return (f"'{name}' is read here, but it is a NumPy view of an array that a call "
            f"changed in place and whose variable was then rebound to the call's "
            f"result (`b = f(b)`): the converted code did not keep that array. Rebind "
            f"the result to another name, or make the copy explicit "
            f"(`{name} = ....copy()`)")


def nested(name):
    return (f"'{name}' is used here as a NumPy view, but it was bound from an item or "
            f"slice of its own earlier value (`{name} = {name}[...]`), a view of a view "
            f"that the converted code cannot follow. Give the new view a name of its own "
            f"(`{name}_part = {name}[...]`)")


def callers_on_some_paths(base):
    return (f"'{base}' is rebound here while NumPy views of it are used later, but those "
            f"views were taken where '{base}' was the caller's array on some paths only "
            f"(or on some calls only): the converted code cannot follow which array they "
            f"write. Take the views where '{base}' is bound the same way on every path, "
            f"or copy it first (`{base} = {base}.copy()`)")


def rebound_on_some_paths(base):
    return (f"'{base}' is changed in place here, and NumPy views of it taken before it "
            f"was rebound on some paths are used later: the converted code cannot follow "
            f"which array they belong to. Copy the views (`v = {base}[...].copy()`)")
