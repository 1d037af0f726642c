"""Which names code only appends to: the lists a converted function keeps as logs.

    calls.append(loss)          # `calls`: appended to
    self.history.extend(xs)     # `history`: appended to
    self.history += [x]         # `history`: appended to
    store = calls.append        # `calls`: appended to (the bound method can only append)
    n = len(calls)              # `calls`: used otherwise (read)

Python reference: a list that a function only appends to never shows the function its
items; only the code after the call sees them. autograph.function keeps such a list out
of a call's key (see autograph/function/logs.py).

A name is *appended to* where it is the receiver of `.append` or `.extend` (called or
not), or the target of `+=`; every other occurrence, as a variable or as an attribute of
anything, is *another use*, and so is a string that names it in a call of `getattr`,
`hasattr`, `setattr`, `delattr` or `vars` (`getattr(self, 'history')`). Names are
compared as names, as runtime.state.places finds state by its names: `history` appended
to on `self` and read on any other object counts as read.

The trees analysed are those of generated code (what runs): the converter's own
keywords of runtime operators (`fields=`, `nonlocals=`, `names=`, `aliased=`, which name
the variables and attributes a statement changes, as strings) are not uses, nor are
the values the converter's identity checks look at; the statements that change them
are analysed where they stand.
"""
import ast
import dataclasses

from autograph.analysis.walk import SCOPES, children, nodes

APPENDING = frozenset({'append', 'extend'})
"""The list methods that only add items at the end."""

_CONVERTER_KEYWORDS = frozenset({'fields', 'nonlocals', 'names', 'aliased'})
_BY_STRING = frozenset({'getattr', 'hasattr', 'setattr', 'delattr', 'vars'})
_IDENTITY_CHECKS = frozenset({'check_attribute_write'})
"""Runtime checks of what a value is (an argument's array, passes.attribute_writes), which
read no items: not uses."""


@dataclasses.dataclass(frozen=True)
class Uses:
    appended: frozenset   # names appended to somewhere
    other: frozenset      # names used any other way somewhere

    @property
    def logs(self):
        """The names only appended to."""
        return self.appended - self.other

    def __or__(self, other):
        return Uses(self.appended | other.appended, self.other | other.other)


NONE = Uses(frozenset(), frozenset())


def uses(tree, runtime_name=None):
    """The Uses of the names in `tree` (a module, function or statement). `runtime_name`:
    the name generated code calls the runtime by (its keywords `fields=` etc. are
    skipped); None for user code."""
    receivers, skipped = set(), set()
    appended, other = set(), set()
    for node in nodes(tree):
        if id(node) in skipped:
            skipped.update(id(child) for child in children(node))
            continue
        cls = node.__class__
        if cls is ast.Attribute and node.attr in APPENDING:
            receivers.add(id(node.value))
        elif cls is ast.AugAssign and node.op.__class__ is ast.Add:
            receivers.add(id(node.target))
        elif cls is ast.Call:
            _call(node, runtime_name, skipped, other)
        name = node.id if cls is ast.Name else node.attr if cls is ast.Attribute else None
        if name is not None:
            (appended if id(node) in receivers else other).add(name)
    return Uses(frozenset(appended), frozenset(other))


def _call(node, runtime_name, skipped, other):
    """A call's converter keywords are skipped; the strings it gives getattr and the like
    (also through `ag.call(getattr, ...)`) are uses of the names they spell."""
    func = node.func
    if runtime_name is not None and func.__class__ is ast.Attribute and \
            func.value.__class__ is ast.Name and func.value.id == runtime_name:
        if func.attr in _IDENTITY_CHECKS:
            skipped.update(id(arg) for arg in node.args)
        for keyword in node.keywords:
            if keyword.arg in _CONVERTER_KEYWORDS:
                skipped.add(id(keyword))
        if node.args and node.args[0].__class__ is ast.Name:
            func = node.args[0]   # ag.call(getattr, obj, 'name')
    if func.__class__ is ast.Name and func.id in _BY_STRING:
        other.update(arg.value for arg in node.args if arg.__class__ is ast.Constant
                     and isinstance(arg.value, str))


def write_only_lists(function, assignments=None):
    """Local names of `function` bound only to new lists (`xs = []`, `xs = [t]`,
    `xs = [f(v) for v in vs]`) and otherwise only appended to, in statements of their
    own (`xs.append(v)`, `xs.extend(vs)`) in `function`'s own body. (`assignments`:
    every `=` statement in `function` when the caller has them, as analysis.mutation
    lists them: where none makes a list, the function is not walked.)

    Python reference: nothing reads such a list or hands it on (a read, a `return xs`, an
    alias, a call given it, `del`, `+=`, a `global`/`nonlocal` declaration are other uses,
    and so are a parameter, the caller's object, and any use in a nested function or
    lambda, which may hand it on), so its items are never seen: the list need not come
    out of a branch or loop that appends to it (passes.control_flow)."""
    if assignments is not None and not any(map(_new_list, assignments)):
        return frozenset()
    every = nodes(function)
    fresh, appended, declared = set(), set(), set()   # (ids of Name nodes; names)
    for node in every:
        cls = node.__class__
        if cls is ast.Assign and _new_list(node):
            fresh.add(id(node.targets[0]))
        elif cls is ast.Expr and node.value.__class__ is ast.Call:
            func = node.value.func
            if func.__class__ is ast.Attribute and func.attr in APPENDING and \
                    func.value.__class__ is ast.Name:
                appended.add(id(func.value))
        elif cls in (ast.Global, ast.Nonlocal):
            declared.update(node.names)
    if not fresh or not appended:   # (most functions: no walk of their nested scopes)
        return frozenset()
    nested = {id(n) for scope in every if scope is not function
              and scope.__class__ in SCOPES for n in nodes(scope)}
    names, other = set(), set(declared)
    for node in every:
        if node.__class__ is ast.Name:
            if id(node) in nested or not (id(node) in fresh or id(node) in appended):
                other.add(node.id)
            elif id(node) in fresh:
                names.add(node.id)
        elif node.__class__ is ast.arg:
            other.add(node.arg)
    return frozenset(names - other)


def _new_list(assign):
    """Whether the `=` statement `assign` is `xs = [...]` (a display or comprehension)."""
    return len(assign.targets) == 1 and assign.targets[0].__class__ is ast.Name and \
        assign.value.__class__ in (ast.List, ast.ListComp)
