"""NumPy's functions of values that may be traced -> `ag.numpy.<name>` (the last step).

    K = np.exp(-M / reg)          ->  K = ag.numpy.exp(-M / reg)
    nrm = np.linalg.norm(b)       ->  nrm = ag.numpy.linalg.norm(b)

NumPy refuses a traced argument (it asks for the values); the runtime's twin is NumPy's
function for values that are not traced and the `jax.numpy` function of the same name
and meaning for traced ones (runtime.python.traced_numpy, which lists the functions and
says why the others are left out).

This runs after every other pass, on the whole converted tree: the analyses of the passes
before (which arrays are NumPy's, which calls make new arrays or views, which have no
effect) read `np.exp(...)` as the user wrote it.

`np.asarray(x, dtype=float)` (the first line of many NumPy routines) is rewritten only
where its result is bound to a variable that no code of the converted tree changes in
place (`a = ag.setitem(a, ...)`, `a += e`, a helper writing it), returned, an operand of
arithmetic or the array of a method call that does not change it: NumPy's result may
be the caller's array itself, or a read-only view of a JAX array, whose writes no
traced copy can stand for (those stay the named error; `np.asarray(x)` without a dtype
is a view passes.views follows).
"""
import ast

from autograph.passes.calls import dotted_name
from autograph.passes.in_place_calls import IN_PLACE_METHODS
from autograph.passes.kind_flags import IN_PLACE_UPDATES
from autograph.runtime.python.calls import NUMPY
from autograph.runtime.python.traced_numpy import BOUND_ONLY


def numpy_names(ctx, local):
    """The names of the function as written that may hold NumPy or one of its functions
    (none: the walk of `transform` would find nothing to rewrite), not those it binds
    (`local`: its scope's, see analysis.activity.scope_of)."""
    return {name for name in ctx.census.names()
            if name not in local and _numpy_name(ctx.resolver, name)}


def _numpy_name(resolver, name):
    module = resolver.module_name(name)
    if module is not None:
        return module == 'numpy' or module.startswith('numpy.')
    return resolver.known_name(name) in NUMPY


def transform(root, ctx, names):
    """Rewrite the calls of `root` (and of the functions in it) in place: those whose
    function is one of `names` (see `numpy_names`) or an attribute of one."""
    unchanged = None   # (the `np.asarray` calls it may rewrite: found where one is met)
    for node in ast.walk(root):
        if node.__class__ is ast.Call:
            dotted = dotted_name(node.func)
            if dotted and dotted.partition('.')[0] in names:
                known = ctx.resolver.known_name(dotted)
                if known in NUMPY and known[len('numpy.'):] in BOUND_ONLY:
                    unchanged = _unchanged_results(root) if unchanged is None else unchanged
                    if id(node) not in unchanged:
                        continue
                if known in NUMPY:
                    node.func = ast.copy_location(_twin(ctx, known), node.func)
    return root


def _unchanged_results(root):
    """The ids of the expressions of `root` whose value nothing changes in place: the
    value of `name = e` where no code of `root` changes `name` in place; `return e` (or an
    item of a returned tuple); an operand of arithmetic; `e.method(...)` of a method that
    does not change `e`."""
    changed, bound = set(), []
    for node in ast.walk(root):
        cls = node.__class__
        if cls is ast.Return and node.value is not None:
            bound += [(None, e) for e in (node.value.elts if node.value.__class__ is
                                          ast.Tuple else [node.value])]
        elif cls is ast.BinOp:
            bound += [(None, node.left), (None, node.right)]
        elif cls is ast.Call and node.func.__class__ is ast.Attribute and \
                node.func.attr not in IN_PLACE_METHODS:
            bound.append((None, node.func.value))
        elif cls is ast.AugAssign and node.target.__class__ is ast.Name:
            changed.add(node.target.id)
        elif cls is ast.Assign:
            targets, value = node.targets, node.value
            if len(targets) == 1 and targets[0].__class__ is ast.Name:
                bound.append((targets[0].id, value))
                if _updates(value, IN_PLACE_UPDATES):
                    changed.add(targets[0].id)   # (`a = ag.setitem(a, i, v)`)
            elif _updates(value, ('call_writing', 'view', 'alias')):
                changed |= {n.id for t in targets for n in ast.walk(t)
                            if n.__class__ is ast.Name}   # (`r, a = ag.call_writing(...)`)
        elif cls is ast.Subscript and node.ctx.__class__ is not ast.Load:
            changed |= {n.id for n in ast.walk(node.value) if n.__class__ is ast.Name}
        if cls is ast.Call and node.func.__class__ is ast.Attribute and \
                node.func.attr in IN_PLACE_METHODS:
            changed |= {n.id for n in ast.walk(node.func.value) if n.__class__ is ast.Name}
    return {id(value) for name, value in bound if name not in changed}


def _updates(value, attributes):
    return value.__class__ is ast.Call and value.func.__class__ is ast.Attribute and \
        value.func.attr in attributes


def _twin(ctx, known):
    """`ag.numpy.linalg.norm` for 'numpy.linalg.norm'."""
    func = ctx.runtime('numpy')
    for attr in known.split('.')[1:]:
        func = ast.Attribute(value=func, attr=attr, ctx=ast.Load())
    return func
