"""The keys of NumPy views in converted code (for passes.views and
passes.written_arguments): a subscript's key as an expression, and the key of a chain of
views (analysis.view_chains) as `ag.chain(...)` of its steps (runtime.items.view_chains);
the views helpers return that the converted code cannot follow (`helper_views`).
"""
import ast
import copy

from autograph.analysis.view_bindings import effects, own_statements
from autograph.analysis.view_chains import (chain_of, has_function_form, unfollowed_method,
                                            unrouted)
from autograph.analysis.walk import blocks
from autograph.passes.sequences import key_expression

_STEPS = {'reshape': 'reshaped', 'ravel': 'raveled', 'transpose': 'transposed',
          'swapaxes': 'swapped', 'moveaxis': 'moved', 'asarray': 'as_array'}


def view_key(value, ctx, resolve=None):
    """[the key] of the view binding's value `b[key]`, or [its key, the value] of a
    chain of views (analysis.view_chains): `b[1:][::-1]` -> `ag.chain(slice(1, None),
    slice(None, None, -1))`, `b.reshape(2, 2)` -> `ag.chain(ag.reshaped(2, 2))`,
    `b.ravel()` -> `ag.chain(ag.raveled())`, `b.swapaxes(0, 1)` -> `ag.chain(
    ag.swapped(0, 1))`, `b.view()` -> `ag.chain()`, `head(b)` (`return p[:2]`) ->
    `slice(None, 2)`; the value is the item where `b` is no array (runtime.items.views's
    `view`), left out where a step is one of NumPy's functions (`np.ravel(b)`, which
    the runtime reads by the steps)."""
    chain = chain_of(value, ctx.ag, resolve)
    if chain is None:
        return [key_expression(value.slice, ctx)]
    parts = [key_expression(copy.deepcopy(part), ctx) if kind == 'item' else
             ast.Call(func=ctx.runtime(_STEPS[kind]),
                      args=[copy.deepcopy(p) for p in part if not isinstance(p, ast.keyword)],
                      keywords=[copy.deepcopy(p) for p in part if isinstance(p, ast.keyword)])
             for kind, part in chain[1]]
    key = ast.Call(func=ctx.runtime('chain'), args=parts, keywords=[])
    return [key] if has_function_form(value, resolve) else [key, value]


_MADE = {'zeros', 'ones', 'empty', 'full', 'arange', 'array', 'copy', 'linspace', 'eye',
         'identity', 'zeros_like', 'ones_like', 'empty_like', 'full_like'}


def reshapes(value, ctx, resolve):
    """Whether the view binding's value is a chain of views with a reshape (`ravel`)."""
    chain = chain_of(value, ctx.ag, resolve)
    return chain is not None and chain[1] is not None and any(
        kind in ('reshape', 'ravel') for kind, _ in chain[1])


def in_c_order(name, bindings, params, ag=None):
    """Whether the array of `name` is laid out in C order wherever it is bound
    (`bindings`: kind_flags.bound_values's): a parameter it never rebinds (the caller's
    array, as a converted Function is given it), or arithmetic (`v * 1.0`), `.copy()`
    (also as passes.calls routes it, `ag.call(v.copy)`), `np.zeros(...)`... or such a
    parameter on every binding."""
    values = bindings.get(name)
    if values is None:
        return name in params
    return all(_made_in_c_order(value, params, ag) for value in values)


def _made_in_c_order(value, params, ag):
    value = unrouted(value, ag)
    if isinstance(value, (ast.BinOp, ast.UnaryOp)):
        return True
    if isinstance(value, ast.Name):
        return value.id in params
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and not value.keywords):
        return False
    func = value.func
    return func.attr == 'copy' and not value.args or (
        func.attr in _MADE and isinstance(func.value, ast.Name)
        and func.value.id in ('np', 'numpy'))


def layout(value, base, rewrite):
    """The keywords of `ag.view` for the view binding's `value` of `base`, where it is
    a chain of views with a reshape (`reshapes`; `rewrite`: passes.views' rewriter):
    `layout=a_layout` where `base` is a parameter that holds the caller's array
    throughout (`rewrite.given_arrays`; its layout noted where the function starts,
    `note_layouts`, in `rewrite.layouts`), `c_order=False` where the converted code
    does not follow its memory layout (not in `rewrite.c_order`, see `in_c_order`)."""
    ctx, layouts = rewrite.ctx, rewrite.layouts
    if not reshapes(value, ctx, rewrite.resolve):
        return []
    if base in rewrite.given_arrays:
        if base not in layouts:
            layouts[base] = ctx.namer.new(f'{base}_layout')
        return [ast.keyword(arg='layout', value=ast.Name(id=layouts[base], ctx=ast.Load()))]
    return [] if base in rewrite.c_order else [
        ast.keyword(arg='c_order', value=ast.Constant(False))]


def note_layouts(function, layouts, ctx):
    """`a_layout = ag.layout_of(a)` first in `function` (after its docstring) for each
    parameter `a` in `layouts` (see `layout`): the memory layout of the caller's array
    the traced value it is given stands for (runtime.context's `layouts`), taken before
    any write makes a new traced value of it."""
    at = 1 if ast.get_docstring(function, clean=False) is not None else 0
    for base, name in sorted(layouts.items(), reverse=True):
        function.body.insert(at, ast.copy_location(ast.parse(
            f'{name} = {ctx.ag}.layout_of({base})').body[0], function.body[0]))


def helper_views(function, bindings, ctx, resolve):
    """`bindings` but the views helpers return that the converted code cannot follow
    (`h = part(w)`, `part` returning a view of its parameter, analysis.view_chains):
    left out, and where `h` or `w` is changed in place by another statement, checked
    where the call runs (`h = ag.helper_result(part(w))`: an error where the result is
    an array that may be a view, see runtime.items.views; `t = bump(s)`, a helper's `n
    += 1; return n` on a number, is none); so are the methods that may give a view no
    step follows (`s = ag.helper_result(m.squeeze(), method='squeeze')`)."""
    kept = {}
    for stmt, (name, base) in bindings.items():
        chain = chain_of(stmt.value, ctx.ag, resolve) \
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) else None
        if chain is None or chain[1] is not None:
            kept[stmt] = (name, base)
            continue
        others = [node for node in own_statements(function.body)
                  if node is not stmt and not blocks(node)]
        if any({name, base} & set(effects(node, ctx.ag, resolve)[2]) for node in others):
            method = unfollowed_method(stmt.value)
            stmt.value = ast.copy_location(ast.Call(
                func=ctx.runtime('helper_result'), args=[stmt.value],
                keywords=[] if method is None else
                [ast.keyword(arg='method', value=ast.Constant(method))]), stmt.value)
    return kept
