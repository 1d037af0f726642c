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
"""
import ast

from autograph.analysis.activity import scope_of
from autograph.passes.calls import dotted_name
from autograph.runtime.python.calls import NUMPY


def numpy_names(root, ctx):
    """The names of the function as written that may hold NumPy or one of its functions
    (none: the walk of `transform` would find nothing to rewrite), not those it binds."""
    local = scope_of(root).locals if root.__class__ is not ast.Lambda else ()
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
    for node in ast.walk(root):
        if node.__class__ is ast.Call:
            dotted = dotted_name(node.func)
            if dotted and dotted.partition('.')[0] in names:
                known = ctx.resolver.known_name(dotted)
                if known in NUMPY:
                    node.func = ast.copy_location(_twin(ctx, known), node.func)
    return root


def _twin(ctx, known):
    """`ag.numpy.linalg.norm` for 'numpy.linalg.norm'."""
    func = ctx.runtime('numpy')
    for attr in known.split('.')[1:]:
        func = ast.Attribute(value=func, attr=attr, ctx=ast.Load())
    return func
