"""Whether evaluating an expression can have a side effect that Python might skip.

Python evaluates the test of an `elif` only when the tests before it are false:

    if x > 0:                      # x traced: known only when the program runs
        y = 1.0
    elif rng.draw() < p:           # Python draws only where x <= 0
        y = 2.0

Staged as one `lax.switch`, every test would run while tracing, on every path: a draw
(or a counter ticked, an item appended) that Python does only on some paths would happen
on all of them, silently. The converter keeps such a test inside the false branch of the
tests before it (a nested `if`, as Python's own `else: if ...` is), where it runs only on
that path. Tests without effects still join one switch.

`pure(expr, resolver, ag)` is conservative: a call is pure only when it is one of the
runtime's own operators (their operands are looked at in turn), a builtin that only
computes, a function of a module of JAX, NumPy (not `numpy.random`) or `math`, or an
array method that only reads. Anything else (user functions, methods of objects, `:=`)
may have an effect.
"""
import ast

from autograph.analysis.walk import nodes

_PURE_BUILTINS = frozenset({
    'abs', 'all', 'any', 'bool', 'complex', 'divmod', 'float', 'getattr', 'hasattr', 'int',
    'isinstance', 'issubclass', 'len', 'list', 'max', 'min', 'pow', 'range', 'round',
    'sorted', 'str', 'sum', 'tuple', 'type', 'zip', 'enumerate', 'dict', 'set', 'repr'})

_PURE_MODULES = ('jax', 'numpy', 'math', 'cmath', 'operator')
_EFFECTFUL_MODULES = ('numpy.random', 'jax.debug', 'jax.experimental.io_callback')

_READING_METHODS = frozenset({
    'all', 'any', 'argmax', 'argmin', 'astype', 'copy', 'cumsum', 'dot', 'flatten', 'get',
    'item', 'items', 'keys', 'max', 'mean', 'min', 'prod', 'ravel', 'reshape', 'round',
    'squeeze', 'std', 'sum', 'tolist', 'transpose', 'values', 'var', 'count', 'index',
    'startswith', 'endswith', 'lower', 'upper', 'strip', 'split', 'join', 'format'})

_EFFECTFUL_OPERATORS = frozenset({'call', 'call_writing', 'emit', 'raise_', 'raise_if',
                                  'assert_', 'setitem', 'setitems', 'update_item'})


def pure(expr, resolver, ag):
    """True when evaluating `expr` surely has no side effect (see the module docstring).
    `resolver` classifies the function's global names (passes.calls.LiveResolver); `ag`
    is the name the generated code gives the runtime."""
    for node in nodes(expr):   # (ast.walk's order, without contexts and operators)
        if node.__class__ in _EFFECTFUL_NODES:
            return False
        if node.__class__ is ast.Call and not _pure_call(node.func, resolver, ag):
            return False
    return True


_EFFECTFUL_NODES = frozenset({ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await})


def _pure_call(func, resolver, ag):
    if isinstance(func, ast.Name):
        return func.id in _PURE_BUILTINS and resolver.is_builtin(func.id)
    if not isinstance(func, ast.Attribute):
        return False
    base = func
    while isinstance(base, ast.Attribute):
        base = base.value
    if isinstance(base, ast.Name) and base.id == ag:
        return func.attr not in _EFFECTFUL_OPERATORS
    module = resolver.module_name(base.id) if isinstance(base, ast.Name) else None
    if module is not None:
        dotted = '.'.join([module] + _attributes(func)[:-1])
        return (dotted.split('.')[0] in _PURE_MODULES
                and not dotted.startswith(_EFFECTFUL_MODULES))
    return func.attr in _READING_METHODS


def _attributes(func):
    """['random', 'normal'] for `np.random.normal`: the attributes after the base name."""
    parts = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    return parts[::-1]
