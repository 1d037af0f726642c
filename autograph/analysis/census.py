"""What a function's tree holds, from one walk before any pass runs: its depth, and the
node classes and names that occur in it.

Passes that act only on constructs no earlier pass creates (a `match`, an `assert`, a
`yield`, a comprehension, a call of `super`) say so (`ONLY_WITH` in the pass module) and
the pipeline skips them for functions without those constructs, instead of walking the
tree to find nothing (see passes.run).
"""
import ast
import dataclasses

from autograph.analysis.walk import children


ITEM_STORE = '[]='
"""In `Census.present` when the tree assigns an item (`x[i] = v`, `x[i] += v`): not an
identifier, so no name can be taken for it."""


@dataclasses.dataclass(frozen=True)
class Census:
    depth: int            # the longest path from the root to a leaf, in nodes
    present: frozenset    # node classes, identifiers of `Name` nodes, ITEM_STORE
    scopes: tuple         # the functions in the tree (FunctionDef), innermost first

    def has_any(self, wanted):
        """True when one of `wanted` (node classes or names) occurs in the tree."""
        return not self.present.isdisjoint(wanted)

    def names(self):
        """The identifiers of the `Name` nodes in the tree."""
        return [item for item in self.present if isinstance(item, str) and item != ITEM_STORE]


def census(root, max_depth):
    """The Census of `root`, walked iteratively (a tree too deep for recursion is reported
    by the depth, not by a RecursionError); the walk stops below `max_depth`."""
    present = set()
    scopes = []
    depth = 0
    stack = [(root, 1, False)]
    while stack:
        node, level, done = stack.pop()
        if done:   # after its children: functions come innermost first
            scopes.append(node)
            continue
        cls = node.__class__
        present.add(cls)
        if cls is ast.Name:
            present.add(node.id)
        elif cls is ast.Subscript and node.ctx.__class__ is ast.Store:
            present.add(ITEM_STORE)
        depth = max(depth, level)
        if isinstance(node, ast.FunctionDef):
            stack.append((node, level, True))
        if level <= max_depth:
            stack += [(child, level + 1, False) for child in reversed(children(node))]
    return Census(depth, frozenset(present), tuple(scopes))
