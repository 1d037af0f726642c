"""What a function's tree holds, from one walk before any pass runs: its depth, and the
node classes and names that occur in it.

Passes that act only on constructs no earlier pass creates (a `match`, an `assert`, a
`yield`, a comprehension, a call of `super`) say so (`ONLY_WITH` in the pass module) and
the pipeline skips them for functions without those constructs, instead of walking the
tree to find nothing (see passes.run).
"""
import ast
import collections
import dataclasses

from autograph.analysis.walk import CHILDREN, blocks
from autograph.runtime.python.in_place import FUNCTIONS


ITEM_STORE = '[]='
"""In `Census.present` when the tree assigns an item (`x[i] = v`, `x[i] += v`): not an
identifier, so no name can be taken for it."""

ATTRIBUTE_DICT = '__dict__[]='
"""In `Census.present` when the tree assigns or deletes an item of `o.__dict__` or of
`vars(...)` (an attribute by a computed name, see passes.attribute_dicts)."""

LOOP_ELSE = 'loop else'
"""In `Census.present` when a `for` or `while` of the tree has an `else` clause (not an
identifier either)."""

ATTRIBUTE_STORE = '.='
"""In `Census.present` when the tree assigns an attribute (`o.x = v`, `o.x += v`)."""

IN_PLACE = '+='
"""In `Census.present` when an augmented assignment of the tree may change an array in
place (`x += e` of NumPy's array, `o.x *= e`, `x[i] -= e`; also a NumPy call writing
into an array, `np.exp(v, out=w)`, `np.copyto(w, v)`): every one but a counter's
update, `n += 1` where `n` is bound nowhere in the tree but by number literals (`n = 0`,
`n += 1`, `n = n - 0.5`), which holds a number (or a traced scalar) and never an array."""

DIRECTIVE = '.set_loop_options'
"""In `Census.present` when the tree reads an attribute named `set_loop_options` (the
loop directive of passes.directives, `autograph.set_loop_options`; read as a variable,
it is among the names)."""

ITERATED = 'for in'
"""In `Census.present` when a `for` statement of the tree iterates anything but a call
of `range` (whose items are fresh numbers: no variable's items are read, see
passes.live_iteration)."""


@dataclasses.dataclass(frozen=True)
class Census:
    depth: int            # the longest path from the root to a leaf, in nodes (not
                          # counting contexts and operators, see analysis.walk)
    present: frozenset    # node classes (comparison operators' and `/`, `//`, `%`
                          # too), identifiers of `Name` nodes, ITEM_STORE,
                          # ATTRIBUTE_DICT, ATTRIBUTE_STORE, LOOP_ELSE, DIRECTIVE,
                          # IN_PLACE, ITERATED
    scopes: tuple         # the functions in the tree (FunctionDef), innermost first
    attributes: frozenset = frozenset()   # the names of the attributes the tree uses

    def has_any(self, wanted):
        """True when one of `wanted` (node classes or names) occurs in the tree."""
        return not self.present.isdisjoint(wanted)

    def adding(self, *found):
        """This census with `found` present too: a pass that creates a construct that a
        later pass acts on only where present (see passes.run) records it so."""
        return dataclasses.replace(self, present=self.present | frozenset(found))

    def has_attribute(self, wanted):
        """True when the tree uses an attribute named one of `wanted` (`x.info`)."""
        return not self.attributes.isdisjoint(wanted)

    def names(self):
        """The identifiers of the `Name` nodes in the tree."""
        return [item for item in self.present
                if isinstance(item, str) and item not in _MARKERS]


_DIVISIONS = frozenset({ast.Div, ast.FloorDiv, ast.Mod})

_WRITING_FUNCTIONS = FUNCTIONS | {'at'}
"""NumPy's functions that write into the array given first (`np.copyto(w, v)`, a ufunc's
`at`): an IN_PLACE change."""

_MARKERS = frozenset({ITEM_STORE, ATTRIBUTE_DICT, ATTRIBUTE_STORE, LOOP_ELSE, DIRECTIVE,
                      IN_PLACE, ITERATED})


def _attribute_dict(value):
    """Whether `value` may be an object's attribute dict: `o.__dict__`, `vars(...)`."""
    return (value.__class__ is ast.Attribute and value.attr == '__dict__') or (
        value.__class__ is ast.Call and value.func.__class__ is ast.Name
        and value.func.id == 'vars')


def census(root, max_depth):
    """The Census of `root`, walked level by level (a tree too deep for recursion is
    reported by the depth, not by a RecursionError); the walk stops below `max_depth`."""
    present, attributes = set(), set()
    bindings = _Bindings()
    functions = 0
    depth = 0
    level = [root]
    while level and depth <= max_depth:
        depth += 1
        below = []
        for node in level:
            cls = node.__class__
            present.add(cls)
            if cls is ast.Name:
                present.add(node.id)
                if node.ctx.__class__ is not ast.Load:
                    bindings.stored.append(node.id)
                continue   # (nothing under it but its context)
            if cls is ast.Constant:
                continue
            if cls in _BINDING:
                bindings.note(node, cls)
            if cls is ast.Subscript and node.ctx.__class__ is not ast.Load:
                if node.ctx.__class__ is ast.Store:
                    present.add(ITEM_STORE)
                if _attribute_dict(node.value):
                    present.add(ATTRIBUTE_DICT)
            elif cls is ast.Attribute:
                attributes.add(node.attr)
                if node.ctx.__class__ is ast.Store:
                    present.add(ATTRIBUTE_STORE)
                elif node.attr == 'set_loop_options':
                    present.add(DIRECTIVE)
                elif node.attr in _WRITING_FUNCTIONS:
                    present.add(IN_PLACE)
            elif cls is ast.keyword and node.arg == 'out':
                present.add(IN_PLACE)   # (NumPy writes into the array given)
            elif cls is ast.Compare:   # (`is`: see passes.identity)
                present.update(op.__class__ for op in node.ops)
            elif (cls is ast.BinOp or cls is ast.AugAssign) and \
                    node.op.__class__ in _DIVISIONS:   # (see passes.text, passes.division)
                present.add(node.op.__class__)
            elif cls is ast.FunctionDef:
                functions += 1
            elif cls is ast.For or cls is ast.While:
                if node.orelse:
                    present.add(LOOP_ELSE)
                if cls is ast.For and not _of_range(node.iter):
                    present.add(ITERATED)
            below += CHILDREN[cls](node)
        level = below
    if bindings.changes_in_place() or level:   # (or a walk stopped early)
        present.add(IN_PLACE)
    scopes = ((root,) if functions == 1 and root.__class__ is ast.FunctionDef
              else tuple(_functions_innermost_first(root)) if depth <= max_depth else ())
    return Census(depth, frozenset(present), scopes, frozenset(attributes))


class _Bindings:
    """The bindings of names seen by the census's walk, to tell a counter's update `n +=
    1` (see IN_PLACE) from an augmented assignment that may change an array in place."""

    def __init__(self):
        self.stored = []       # the names of the Name nodes bound (stored or deleted)
        self.literal = []      # the names bound by a number literal (`n = 0`, `n += 1`)
        self.other = set()     # the names bound otherwise (a parameter, `def`, `global`)
        self.updated = set()   # the names of the augmented assignments `n += 1`
        self.in_place = False  # an augmented assignment of another kind seen

    def note(self, node, cls):
        if cls is ast.AugAssign:
            if node.target.__class__ is ast.Name and _is_number(node.value):
                self.updated.add(node.target.id)
                self.literal.append(node.target.id)
            else:
                self.in_place = True
        elif cls is ast.Assign:
            target = node.targets[0]
            if len(node.targets) == 1 and target.__class__ is ast.Name and (
                    _is_number(node.value) or _counted(node.value, target.id)):
                self.literal.append(target.id)
        elif cls is ast.arg:
            self.other.add(node.arg)
        elif cls is ast.Global or cls is ast.Nonlocal:
            self.other.update(node.names)
        elif cls is ast.alias:
            self.other.add((node.asname or node.name).split('.')[0])
        elif cls is ast.MatchMapping:
            self.other.add(node.rest)
        else:   # (a `def` or class, `except ... as e`, a capture pattern)
            self.other.add(node.name)

    def changes_in_place(self):
        """Whether an augmented assignment may change an array in place: one that is not
        a counter's update, or one of a name also bound otherwise than by a number."""
        if self.in_place:
            return True
        if not self.updated:
            return False
        stored, literal = collections.Counter(self.stored), collections.Counter(self.literal)
        return any(name in self.other or stored.get(name) != literal.get(name)
                   for name in self.updated)


_BINDING = frozenset({ast.AugAssign, ast.Assign, ast.arg, ast.Global, ast.Nonlocal,
                      ast.alias, ast.MatchMapping, ast.FunctionDef, ast.AsyncFunctionDef,
                      ast.ClassDef, ast.ExceptHandler, ast.MatchAs, ast.MatchStar})
"""The nodes that bind names (other than `Name` nodes) or may bind them by a literal."""


def _is_number(value):
    """Whether `value` is a number literal: `0`, `1.5`, `-1` (no string, no container)."""
    if value.__class__ is ast.UnaryOp and value.op.__class__ in (ast.USub, ast.UAdd):
        value = value.operand
    return value.__class__ is ast.Constant and value.value.__class__ in (int, float,
                                                                        complex, bool)


def _counted(value, name):
    """Whether `value` is `name` and a number literal in a binary operation: `n + 1`,
    `2 * n` (a number, where `name` holds one)."""
    if value.__class__ is not ast.BinOp:
        return False
    left, right = value.left, value.right
    return (left.__class__ is ast.Name and left.id == name and _is_number(right)) or (
        right.__class__ is ast.Name and right.id == name and _is_number(left))


def _of_range(iterable):
    """Whether `iterable` is a call of a function named `range`."""
    return iterable.__class__ is ast.Call and iterable.func.__class__ is ast.Name and \
        iterable.func.id == 'range'


def _functions_innermost_first(node):
    """The FunctionDefs at or under `node`, each after those nested in it. (They are
    statements: the walk goes through statement blocks only.)"""
    for block in blocks(node):
        for stmt in block:
            yield from _functions_innermost_first(stmt)
    if node.__class__ is ast.FunctionDef:
        yield node
