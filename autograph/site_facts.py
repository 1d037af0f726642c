"""Static facts about the user's lines, for the messages of the runtime's errors.

An error raised while converted code runs names what the user wrote: the list indexed
at a traced position (`'params'`), the container assigned at a traced key, the slice with
traced bounds (`` `xs[i:i + 3]` ``), whether an `if` chain was a `match`. The converter
knows these from the syntax tree; it records them per line of the user's file when it
converts a function, in the line map that runtime.origin keeps for the generated code
(`Location.fact`), so the runtime never parses the user's source.
"""
import ast

from autograph.analysis.walk import nodes
from autograph.runtime.python.argument_aliases import RETURNED


def computed_index(index):
    """True for an index expression that is not a literal, slice or index tuple: the
    reads the converter routes through `ag.getitem` (see passes.sequences)."""
    if isinstance(index, ast.UnaryOp):
        index = index.operand
    return not isinstance(index, (ast.Constant, ast.Slice, ast.Tuple))


def traced_bounds(index):
    """True for a slice with a bound that is not a literal: the slices the converter
    routes through `ag.getslice`/`ag.window` (see passes.sequences)."""
    return isinstance(index, ast.Slice) and any(
        bound is not None and not _literal(bound)
        for bound in (index.lower, index.upper, index.step))


def _literal(node):
    if isinstance(node, ast.UnaryOp):
        node = node.operand
    return isinstance(node, ast.Constant)


def line_facts(function):
    """{line: {fact: value}} for the lines of `function` (a def or lambda, before the
    passes change it):

    - 'indexed': the sequences read at a computed index (`params` in `f(params[i])`);
    - 'assigned': the containers assigned an item (`h` in `h[i % 3] += 1`);
    - 'sliced': the slices with computed bounds (`xs[i:i + 3]`);
    - 'bound': the variables an assignment binds (`y` in `y = op.scale(x)`), on each of
      its lines; '<return>' on the lines of a `return` and of a lambda's body, whose
      value the function gives back (no variable of it is read after);
    - 'kind': 'match' on the lines of a `match`'s cases (lowered to an `if` chain);
      'compound' on the lines that open a compound statement or one of its clauses
      (`if`, `else:`, `while`, `for`, `with`, `try`, ...), whose code the converter
      may lower to a conditional expression (`if c: return a` + `return b`).

    A fact of an expression is recorded on its own line and on the first line of the
    statement that holds it (the line errors point at).
    """
    facts = {}

    def add(lines, key, value):
        for line in lines:
            found = facts.setdefault(line, {}).setdefault(key, [])
            if value not in found:
                found.append(value)

    for statement in _statements(function):
        for node in _own_expressions(statement):
            if isinstance(node, ast.Subscript):
                lines = {node.lineno, statement.lineno}
                if isinstance(node.ctx, ast.Store):
                    add(lines, 'assigned', ast.unparse(node.value))
                elif computed_index(node.slice):
                    add(lines, 'indexed', ast.unparse(node.value))
                if any(traced_bounds(i) for i in (
                        node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice])):
                    add(lines, 'sliced', ast.unparse(node))
        lines = range(statement.lineno, (statement.end_lineno or statement.lineno) + 1)
        if isinstance(statement, _ASSIGNMENTS):
            targets = getattr(statement, 'targets', None) or [statement.target]
            for target in targets:
                for node in ast.walk(target):
                    if isinstance(node, ast.Name):
                        add(lines, 'bound', node.id)
        elif isinstance(statement, (ast.Return, ast.Lambda)):
            add(lines, 'bound', RETURNED)
        if isinstance(statement, _COMPOUND):
            for line in _clause_lines(statement):
                facts.setdefault(line, {})['kind'] = 'compound'
        if isinstance(statement, ast.Match):
            for case in statement.cases:
                facts.setdefault(case.pattern.lineno, {})['kind'] = 'match'
    return {line: {k: tuple(sorted(v)) if isinstance(v, list) else v for k, v in f.items()}
            for line, f in facts.items()}


_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try,
             ast.Match)


def _clause_lines(statement):
    """The line of a compound statement and the lines of its `else:`/`finally:`
    clauses (between the end of one block and the start of the next)."""
    yield statement.lineno
    blocks = [getattr(statement, field, None) or [] for field in
              ('body', 'handlers', 'orelse', 'finalbody')]
    blocks = [b for b in blocks if b]
    for before, after in zip(blocks, blocks[1:]):
        yield from range(before[-1].end_lineno + 1, after[0].lineno + 1)


_ASSIGNMENTS = (ast.Assign, ast.AnnAssign, ast.AugAssign)


def _statements(function):
    for node in nodes(function):
        if isinstance(node, ast.stmt) or node is function:
            yield node


def _own_expressions(statement):
    """The expressions of `statement` itself, not of the statements nested in it."""
    stack = [child for child in ast.iter_child_nodes(statement)
             if not isinstance(child, ast.stmt)]
    while stack:
        node = stack.pop()
        yield node
        stack += [c for c in ast.iter_child_nodes(node) if not isinstance(c, ast.stmt)]
