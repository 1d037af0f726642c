"""Which attributes of its parameters a function may create on some paths only, so that
its callers check their reads afterwards.

    def fill(box, x):
        if x > 0:
            box.c = x              # created on some paths: {'box': {'c'}}

    def caller(x):
        box = Box()
        fill(box, x)
        return box.c               # Python: AttributeError where x <= 0

Staged, `fill`'s `if` leaves `box.c` holding a value on both paths and a flag saying
where Python's has it (runtime.context.field_flag); the caller's read must check that
flag (`ag.check_field(box, 'c')`, passes.attribute_reads) although the caller assigns no
attribute itself. An attribute is created on some paths by an assignment, deletion or
`setattr` with a constant name inside an `if`, `while` or `for` (or a function the
converter made of one's block), and by a call that passes the parameter on to a function
that creates it on some paths, or that creates it at all from inside such a statement.
In a function that may return from inside a statement, every attribute it creates is
created on some paths.

`of_tree(function, callees, made)` reads a FunctionDef (its calls resolved by a
`Callees`: functions by name, methods of objects whose class is known, methods by name
for the others; `made`: the names of the functions the converter made of blocks, in a
tree already converted); `of_function(fn)` reads a live function's source, once per
code object (a method's calls of its own class's methods on `self` are resolved too). A
function that (indirectly) calls itself counts what was found so far. The result may
name more than the program creates (a check where nothing is created does nothing); it
misses what it cannot read: functions without source, classes the module does not name.
"""
import ast
import dataclasses
import dis
import inspect
import threading
import weakref

from autograph.analysis.walk import SCOPES, blocks, children
from autograph.analysis.written_parameters import parameters, resolver_of, split_call

_COMPOUND = (ast.If, ast.While, ast.For)


@dataclasses.dataclass(frozen=True)
class Created:
    """`some_paths[p]`: attributes of parameter `p` created on some paths only;
    `anywhere[p]`: those created at all (on every path or some). `params`: the names
    of the positional parameters, in order."""
    params: tuple
    some_paths: dict
    anywhere: dict


NOTHING = Created((), {}, {})

_cache = weakref.WeakKeyDictionary()   # code object -> Created
_active = threading.local()


class Callees:
    """The functions the calls of one function reach: `functions(name)` gives a live
    function, a Created or None; `classes` maps variables to the class of the object
    they hold (`self` in a method), whose methods calls such as `self.m(...)` reach;
    `methods` maps method names to the functions of that name that may create
    attributes in the classes the code can name (see `methods_named`), which a call
    `o.m(...)` on an object of unknown class may reach."""

    def __init__(self, functions, classes=None, methods=None):
        self.functions, self.classes = functions, classes or {}
        self.methods = methods or {}

    def created(self, call, ag=None):
        """[(variable, attributes created on some paths, attributes created at all)] for
        the variables `call` passes to a function creating attributes of them (an object
        whose method is called is passed first)."""
        func, args = split_call(call, ag)
        callees = []
        if isinstance(func, ast.Name):
            callees = [self.functions(func.id)]
            if isinstance(callees[0], type):   # (its `__init__`, given the new object)
                callees = [class_attribute(callees[0], '__init__')]
                args = [None] + list(args)
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            receiver = self.classes.get(func.value.id)
            callees = ([class_attribute(receiver, func.attr)] if receiver is not None
                       else self.methods.get(func.attr, []))
            args = [func.value] + list(args)
        found = []
        for callee in callees:
            if callee is not None and not isinstance(callee, Created):
                callee = of_function(callee) if inspect.isfunction(callee) else None
            if callee is not None and callee.anywhere:
                found += _passed(callee, args)
        return found

    def constructed(self, stmt, ag=None):
        """[(variable, attributes)] for `v = C(...)` where `C` names a class whose
        `__init__` creates those attributes of the new object on some paths."""
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Call)):
            return []
        func, _ = split_call(stmt.value, ag)
        cls = self.functions(func.id) if isinstance(func, ast.Name) else None
        init = class_attribute(cls, '__init__') if isinstance(cls, type) else None
        created = of_function(init) if inspect.isfunction(init) else NOTHING
        attrs = created.some_paths.get(created.params[0]) if created.params else None
        return [(stmt.targets[0].id, attrs)] if attrs else []


def _passed(callee, args):
    """(variable, some paths, anywhere) for the arguments `args` given to the
    parameters of `callee` (a Created) that it creates attributes of."""
    found = []
    for param, arg in zip(callee.params, args):
        if isinstance(arg, ast.Starred):
            break
        if isinstance(arg, ast.Name) and param in callee.anywhere:
            found.append((arg.id, callee.some_paths.get(param, frozenset()),
                          callee.anywhere[param]))
    return found


def of_tree(function, callees, made=frozenset(), ag=None):
    """The Created of the FunctionDef `function` (see the module's docstring)."""
    params = tuple(parameters(function))
    some_paths, anywhere = {}, {}

    def add(name, attrs, conditional):
        if name in params and attrs:
            anywhere.setdefault(name, set()).update(attrs)
            if conditional:
                some_paths.setdefault(name, set()).update(attrs)

    early = _returns_early(function)   # (then what follows the return is conditional)
    pending = [(stmt, early) for stmt in reversed(function.body)]
    while pending:
        stmt, conditional = pending.pop()
        if isinstance(stmt, SCOPES):
            if isinstance(stmt, ast.FunctionDef) and stmt.name in made:
                pending += [(s, True) for s in reversed(stmt.body)]
            continue
        for node in _own_nodes(stmt):
            for name, attrs, some in _creations(node, callees, ag):
                add(name, attrs, conditional or some)
        inner = conditional or isinstance(stmt, _COMPOUND)
        for block in blocks(stmt):
            pending += [(s, inner) for s in reversed(block)]
    if not anywhere:
        return dataclasses.replace(NOTHING, params=params)
    return Created(params, {k: frozenset(v) for k, v in some_paths.items()},
                   {k: frozenset(v) for k, v in anywhere.items()})


def _returns_early(function):
    """Whether `function` may return from inside an `if`, loop, `with` or `try` of its
    own (not of functions nested in it)."""
    stack = [child for stmt in function.body for block in blocks(stmt) for child in block]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            return True
        if not isinstance(node, SCOPES):
            stack += [child for block in blocks(node) for child in block]
    return False


def _own_nodes(stmt):
    """The nodes of `stmt`'s own expressions and targets (not its blocks', nor inside
    lambdas or comprehensions' scopes: they may run where Python does not)."""
    out, stack = [], [c for c in children(stmt) if not isinstance(c, ast.stmt)]
    while stack:
        node = stack.pop()
        out.append(node)
        if not isinstance(node, SCOPES):
            stack += [c for c in children(node) if not isinstance(c, ast.stmt)]
    return out


def _creations(node, callees, ag):
    """(parameter name, attributes, on some paths only) that the node `node` creates:
    `p.x = v` / `del p.x` (on every path of the statement), `setattr(p, 'x', v)`, and a
    call passing `p` to a function that creates attributes of that parameter."""
    if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load):
        if isinstance(node.value, ast.Name):
            return [(node.value.id, {node.attr}, False)]
        return []
    if not isinstance(node, ast.Call):
        return []
    func, args = split_call(node, ag)
    named = _named_setattr(func, args, ag)
    if named is not None:
        return [named]
    found = []
    for name, some_paths, anywhere in callees.created(node, ag):
        found += [(name, some_paths, True), (name, anywhere, False)]
    return found


def _named_setattr(func, args, ag):
    """(p, {'x'}, False) for `setattr(p, 'x', v)` / `ag.setattr(p, 'x', v)`, else None."""
    is_setattr = (isinstance(func, ast.Name) and func.id == 'setattr') or (
        isinstance(func, ast.Attribute) and func.attr == 'setattr' and ag is not None
        and isinstance(func.value, ast.Name) and func.value.id == ag)
    if (is_setattr and len(args) == 3 and isinstance(args[0], ast.Name)
            and isinstance(args[1], ast.Constant) and isinstance(args[1].value, str)):
        return args[0].id, {args[1].value}, False
    return None


def of_function(fn):
    """`of_tree` for a live Python function (its source read once per code object)."""
    code = getattr(fn, '__code__', None)
    if code is None or not inspect.isfunction(fn):
        return NOTHING
    if code in _cache:
        return _cache[code]
    methods = methods_named(fn.__globals__, attribute_names(code))
    if not (methods or _may_create(fn)):
        _cache[code] = NOTHING
        return NOTHING
    active = getattr(_active, 'codes', None)
    if active is None:
        active = _active.codes = set()
    if code in active:
        return NOTHING   # a recursive call: what its own body creates counts
    from autograph import parsing
    from autograph.library import is_library
    if is_library(fn):
        return NOTHING
    active.add(code)
    try:
        node = parsing.parse_function(fn).node
        found = NOTHING
        if isinstance(node, ast.FunctionDef):
            owner = owner_class(fn)
            params = parameters(node)
            classes = {params[0]: owner} if owner is not None and params else {}
            found = of_tree(node, Callees(resolver_of(fn), classes, methods))
    except Exception:   # no source: nothing known
        found = NOTHING
    finally:
        active.discard(code)
    _cache[code] = found
    return found


def class_attribute(cls, name):
    """What `cls` (or a class it inherits from) defines as `name` in its body, or None:
    a method as a plain function (no descriptor runs, no `__getattr__`)."""
    for klass in cls.__mro__:
        found = vars(klass).get(name)
        if found is not None:
            return found
    return None


def may_create_in_class(cls, skip=None):
    """Whether a method of `cls` (its own or inherited, other than the one whose code is
    `skip`) may create attributes (see `creating_methods`)."""
    return any(fn.__code__ is not skip for fn in creating_methods(cls).values())


def creating_methods(cls):
    """{name: function} of the methods of `cls` (its own or inherited, not a library
    class's, not `__init__` and the like: no call names them) that may create
    attributes (see `_may_create`: told from code objects). Found once per class."""
    found = _creating_methods.get(cls)
    if found is None:
        from autograph.library import is_library
        found = _creating_methods[cls] = {}
        for klass in reversed(cls.__mro__):   # (a subclass's method replaces its base's)
            for name, value in vars(klass).items():
                if inspect.isfunction(value) and not is_library(value) and \
                        not (name.startswith('__') and name.endswith('__')) and \
                        _may_create(value):
                    found[name] = value
    return found


def attribute_names(code):
    """The names `code` and the code nested in it read as globals or attributes."""
    names, stack = set(), [code]
    while stack:
        code = stack.pop()
        names.update(code.co_names)
        stack += [c for c in code.co_consts if inspect.iscode(c)]
    return names


def methods_named(namespace, names):
    """{name: [functions]} for the `names` (method names a function's code reads) that
    methods of the classes in `namespace` (a module's globals) define and that may
    create attributes (`creating_methods`)."""
    found = {}
    for value in list(namespace.values()):
        if isinstance(value, type):
            for name, fn in creating_methods(value).items():
                if name in names:
                    found.setdefault(name, []).append(fn)
    return found


_creating_methods = weakref.WeakKeyDictionary()   # class -> {name: method}


def owner_class(fn):
    """The class whose body defined the function `fn` (a method), found from its
    qualified name in its module, or None (a function, a class defined in a function)."""
    parts = fn.__qualname__.split('.')
    if len(parts) < 2 or '<locals>' in parts:
        return None
    found = fn.__globals__.get(parts[0])
    for part in parts[1:-1]:
        found = getattr(found, part, None)
    return found if isinstance(found, type) else None


def _may_create(fn):
    """Whether `fn` may create an attribute: its code (or code nested in it) stores,
    deletes or sets one by name, or names a Python function it may pass an object to
    (a method of its class, for a method).
    (Told from the code object: most helpers are not read at all.)"""
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    owner = owner_class(fn)
    stack = [fn.__code__]
    while stack:
        code = stack.pop()
        if _ATTRIBUTE_OPS.intersection(code.co_code[::2]) or 'setattr' in code.co_names:
            return True
        for name in code.co_names + code.co_freevars:
            cell = cells.get(name)
            value = fn.__globals__.get(name) if cell is None else _contents(cell)
            if inspect.isfunction(value) or (owner is not None and inspect.isfunction(
                    class_attribute(owner, name))):
                return True
        stack += [c for c in code.co_consts if inspect.iscode(c)]
    return False


def _contents(cell):
    try:
        return cell.cell_contents
    except ValueError:   # (not bound yet)
        return None


_ATTRIBUTE_OPS = frozenset({dis.opmap['STORE_ATTR'], dis.opmap['DELETE_ATTR']})
