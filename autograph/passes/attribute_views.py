"""NumPy views of attributes, which passes.views does not follow (runtime.items.views'
`attribute_view` makes them a named error where they are views):

    v = obj.a[key]      ->    v = ag.attribute_view(obj.a, key)
    w = obj.a           ->    w = ag.attribute_view(obj.a, whole=True)
"""
import ast

from autograph.analysis.view_chains import may_be_basic
from autograph.passes.sequences import key_expression


def checked_attribute_views(found, scanned, ctx):
    """`v = ag.attribute_view(obj.a, key)` for `v = obj.a[key]` (and `w =
    ag.attribute_view(obj.a, whole=True)` for `w = obj.a`) where `v` is changed in place
    or `obj.a`'s items are written: NumPy's view of an attribute's array is not
    followed, so a named error where it is one (runtime.items.views.attribute_view).
    `scanned`: passes.views' `_changed_here`."""
    changed, attribute_reads, written = scanned
    if not attribute_reads:
        return
    changed = set(changed)
    pairs = found.values()   # (analysis.view_bindings: of variables)
    for _ in pairs:   # (a base whose view is changed is changed: `w = obj.a; v = w[0]`)
        changed |= {base for name, base in pairs if name in changed}
    for node in attribute_reads:
        if node in found:
            continue   # (`u = w.T`: a chain of views of a variable, see passes.view_keys)
        value, name = node.value, node.targets[0].id
        if isinstance(value, ast.Attribute) and name in changed:
            args, keywords = [value], [ast.keyword(arg='whole', value=ast.Constant(True))]
        elif isinstance(value, ast.Subscript) and may_be_basic(value.slice) and (
                name in changed or ast.dump(value.value) in written):
            args, keywords = [value.value, key_expression(value.slice, ctx)], []
        else:
            continue
        node.value = ast.copy_location(ast.Call(func=ctx.runtime('attribute_view'),
                                                args=args, keywords=keywords), value)
