"""Reject what cannot be converted, up front, with a caret under the user's code."""
import ast

from autograph.errors import unsupported
from autograph.passes.base import walk_scope

_REJECTED = {
    ast.Yield: 'generators (yield) cannot be converted; return a value or use lax.scan',
    ast.YieldFrom: 'generators (yield from) cannot be converted',
    ast.Await: 'async functions cannot be converted',
    ast.AsyncFor: 'async for cannot be converted',
    ast.AsyncWith: 'async with cannot be converted',
    ast.AsyncFunctionDef: 'async functions cannot be converted',
}
ONLY_WITH = tuple(_REJECTED)   # see analysis.census


def transform(function, ctx):
    for node in walk_scope(function):
        message = _REJECTED.get(type(node))
        if message is not None:
            raise unsupported(message, ctx, node)
    return function
