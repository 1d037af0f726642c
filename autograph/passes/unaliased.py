"""A whole alias of a new list or dict that no code can tell from a copy ->
`ag.unaliased(A)`, a copy (analysis.whole_aliases):

    for i in range(n):                    for i in range(n):
        cur = [0.0] * (n + 1)                 cur = [0.0] * (n + 1)
        ...                                   ...
        if cur[n] > limit:                    if cur[n] > limit:
            break                                 break
        prev = cur                ->          prev = ag.unaliased(cur)

In Python `prev is cur` after the alias; a staged `if` or loop that binds `prev` to
that list on some paths only cannot decide which object the name holds afterwards, a
named error (runtime.state.mutation). Where nothing changes the list in place or hands
it on before both names are bound again, the copy gives every value Python's alias
gives, and the staged statement merges it as a new list (the rolling rows of a dynamic
program, the best candidate so far: `if score > best_score: best = candidate`).

Runs after passes.loop_exits, on structured control flow (analysis.dataflow).
"""
import ast

from autograph.analysis.array_kinds import module_names
from autograph.analysis.whole_aliases import unobserved_aliases

ONLY_WITH = (ast.List, ast.Dict, ast.ListComp, ast.DictComp, 'list', 'dict', 'sorted')
# (see analysis.census: the names' lists are new ones)
_READING_MODULES = frozenset({'numpy', 'jax'})   # (module_names' tops)


def transform(function, ctx):
    if not isinstance(function, ast.FunctionDef):
        return function
    modules = module_names(ctx.resolver)

    def library(func):   # (`np.array(best)`, `jnp.sum(row)`: not `np.random.shuffle`)
        parts = []
        while func.__class__ is ast.Attribute:
            parts.append(func.attr)
            func = func.value
        return func.__class__ is ast.Name and 'random' not in parts and \
            modules(func.id) in _READING_MODULES
    for stmt, value in unobserved_aliases(function, library):
        copied = ast.copy_location(ast.Call(func=ctx.runtime('unaliased'), args=[value],
                                            keywords=[]), value)
        if stmt.value is value:
            stmt.value = copied
        else:   # (`best, best_score = candidate, s`)
            stmt.value.elts[stmt.value.elts.index(value)] = copied
    return function
