"""`ast.parse` and `compile` of a tree, safe to call from several threads at once.

CPython 3.11 converts between its C syntax tree and Python's `ast` objects with a recursion
counter kept per interpreter, not per thread. Two threads converting trees at once can then
fail with "SystemError: AST constructor recursion depth mismatch" (CPython gh-106905). Every
conversion between source text, `ast` objects and code in this package goes through the two
functions below, which take one lock. Compiling source *text* straight to code does not build
`ast` objects and needs no lock.
"""

import ast
import threading

_LOCK = threading.Lock()


def parse(text):
    """`ast.parse(text)`, one thread at a time."""
    with _LOCK:
        return ast.parse(text)


def compile_tree(tree, filename, mode, **options):
    """`compile(tree, filename, mode, **options)` for an `ast` tree, one thread at a time."""
    with _LOCK:
        return compile(tree, filename, mode, **options)
