"""Calls of methods that the runtime answers for traced receivers (passes.calls routes
them): `x.item()` -> `ag.item(x)`; `float(x).is_integer()` -> `ag.number_method(float(x),
'is_integer')()` (a number's method a traced scalar lacks, runtime.python.number_methods);
`x.argsort(kind='stable')` -> `ag.call(x.argsort, kind='stable')` (NumPy's array method
that JAX's Array takes otherwise, runtime.python.array_methods), also where the
converter knows `x` for an array; `random.gauss(0, 1)` -> `ag.call(random.gauss, 0, 1)`
(a draw the runtime checks, runtime.python.random_draws)."""
import ast

from autograph.runtime.python.array_methods import NAMES as ARRAY_METHODS
from autograph.runtime.python.number_methods import NAMES as NUMBER_METHODS
from autograph.runtime.python.random_draws import GENERATORS


def is_item_call(node):
    """`x.item()`: NumPy's element of a size-1 array as a Python scalar."""
    return (isinstance(node.func, ast.Attribute) and node.func.attr == 'item'
            and not node.args and not node.keywords)


def method_route(node, receiver):
    """'number_method' for `x.is_integer()` (a number's method traced scalars lack), not
    `self`'s; else None."""
    func = node.func
    if func.__class__ is ast.Attribute and func.attr in NUMBER_METHODS and \
            not node.args and not node.keywords and not (
                func.value.__class__ is ast.Name and func.value.id == receiver):
        return 'number_method'
    return None


def is_array_method_call(node, is_module):
    """`x.argsort(...)`, `x.take(...)`, ... (runtime.python.array_methods' NAMES): not a
    module's function (`np.take(x, i)`: `is_module(name)` tells a global module's name)."""
    func = node.func
    if func.__class__ is not ast.Attribute or func.attr not in ARRAY_METHODS:
        return False
    root, _ = _dotted(func.value)
    return not (root.__class__ is ast.Name and is_module(root.id))


def draws_randomly(func, resolver):
    """Whether callee `func` is a function of the `random` or `numpy.random` module
    (`random.gauss`, `np.random.normal`, or `gauss` imported from `random`)."""
    if func.__class__ is ast.Name:
        value = getattr(resolver, 'globals', {}).get(func.id)
        return isinstance(getattr(value, '__self__', None), GENERATORS)
    root, parts = _dotted(func)
    module = resolver.module_name(root.id) if root.__class__ is ast.Name else None
    return module in ('random', 'numpy.random') or (
        module == 'numpy' and len(parts) > 1 and parts[0] == 'random')


def _dotted(expression):
    """(the innermost value, the attribute names after it in order) of `a.b.c`."""
    parts = []
    while expression.__class__ is ast.Attribute:
        parts.append(expression.attr)
        expression = expression.value
    return expression, parts[::-1]
