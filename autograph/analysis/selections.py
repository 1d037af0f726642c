"""Which expressions may be a selection whose length is known only when the program runs
(`x[mask]` with a traced mask, `x[i:j]` with traced bounds: runtime.items.masked), or
arithmetic of one: those holding an index, or reading a name assigned such an expression.
A library reduction of one (`jnp.mean(x[mask], axis=0)`) is routed through `ag.call`,
which asks the selection to reduce itself (see passes.calls)."""
import ast

from autograph.analysis.walk import nodes


def sliced_names(scope_nodes):
    """The names that assignments among `scope_nodes` (a function's own) bind to an
    expression that may hold a selection (`s = x[mask]`, `d = x[i:j] - m`, then
    `e = d * 2`)."""
    assigned = []   # (targets, whether the value holds an index, the names it reads)
    for node in scope_nodes:
        if node.__class__ is ast.Assign:
            inner = nodes(node.value)
            assigned.append(([t.id for t in node.targets if t.__class__ is ast.Name],
                             any(n.__class__ is ast.Subscript for n in inner),
                             {n.id for n in inner if n.__class__ is ast.Name}))
    sliced, grown = set(), True
    while grown:
        grown = False
        for targets, indexed, reads in assigned:
            if not sliced.issuperset(targets) and (indexed or not reads.isdisjoint(sliced)):
                sliced.update(targets)
                grown = True
    return sliced


def may_hold_a_selection(expression, sliced):
    """Whether `expression` holds an index or reads one of the names `sliced`."""
    return any(n.__class__ is ast.Subscript or (n.__class__ is ast.Name and n.id in sliced)
               for n in nodes(expression))
