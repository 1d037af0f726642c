"""Reject what cannot be converted, up front, with a caret under the user's code."""
import gast

from autograph.errors import unsupported

_REJECTED = {
    gast.Yield: 'generators (yield) cannot be converted; return a value or use lax.scan',
    gast.YieldFrom: 'generators (yield from) cannot be converted',
    gast.Await: 'async functions cannot be converted',
    gast.AsyncFor: 'async for cannot be converted',
    gast.AsyncWith: 'async with cannot be converted',
    gast.AsyncFunctionDef: 'async functions cannot be converted',
}


def transform(function, ctx):
    for node in gast.walk(function):
        message = _REJECTED.get(type(node))
        if message is not None:
            raise unsupported(message, ctx.file, node)
    return function
