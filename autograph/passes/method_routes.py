"""Calls of methods that the runtime answers for traced receivers (passes.calls routes
them): `x.item()` -> `ag.item(x)`; `float(x).is_integer()` -> `ag.number_method(float(x),
'is_integer')()` (a number's method a traced scalar lacks, runtime.python.number_methods);
`x.argsort(kind='stable')` -> `ag.array_method(x, 'argsort')(kind='stable')` (NumPy's
array method that JAX's Array takes otherwise, runtime.python.array_methods)."""
import ast

from autograph.runtime.python.array_methods import NAMES as ARRAY_METHODS
from autograph.runtime.python.number_methods import NAMES as NUMBER_METHODS


def is_item_call(node):
    """`x.item()`: NumPy's element of a size-1 array as a Python scalar."""
    return (isinstance(node.func, ast.Attribute) and node.func.attr == 'item'
            and not node.args and not node.keywords)


def method_route(node, receiver, is_module):
    """'number_method' for `x.is_integer()` (a number's method traced scalars lack),
    'array_method' for `x.argsort(kind='stable')` (NumPy's array method JAX's Array
    takes otherwise); None for other calls, for `self`'s methods and for the functions
    of a module (`np.take(x, i)`: `is_module(name)` tells a global module's name)."""
    func = node.func
    if func.__class__ is not ast.Attribute:
        return None
    root = func.value
    while root.__class__ is ast.Attribute:
        root = root.value
    if (func.value.__class__ is ast.Name and func.value.id == receiver) or (
            root.__class__ is ast.Name and is_module(root.id)):
        return None
    if func.attr in NUMBER_METHODS and not node.args and not node.keywords:
        return 'number_method'
    return 'array_method' if func.attr in ARRAY_METHODS else None
