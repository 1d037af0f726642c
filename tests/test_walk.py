"""analysis.walk's `children`, written out per node class (a function per class, made on
first use), against `ast.iter_child_nodes` without the leaves (contexts and operators)
that no converter visitor looks at: the same nodes in the same order, for every node of
this package's own source and of generated code, and for nodes built by hand without
some of their fields. And the walks built on it (`nodes`, the Visitor's generic_visit)
against `ast.walk` and `ast.NodeVisitor`."""
import ast
import pathlib

import pytest

import autograph
from autograph.analysis import walk
from autograph.passes.base import walk_scope
from benchmarks import conversion_time

_LEAVES = (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)
_PACKAGE = pathlib.Path(autograph.__file__).parent


def expected_children(node):
    return [c for c in ast.iter_child_nodes(node) if not isinstance(c, _LEAVES)]


def trees():
    """The package's modules, and the shapes of the conversion-time benchmark as written
    and as converted."""
    found = [ast.parse(path.read_text()) for path in sorted(_PACKAGE.rglob('*.py'))]
    for source, name in conversion_time.SHAPES.values():
        found.append(ast.parse(source))
        fn, _ = conversion_time.fresh_function(source, name, f'walk {name}')
        found.append(ast.parse(autograph.to_code(fn)))
    return found


def test_children_as_iter_child_nodes_without_leaves():
    count = 0
    for tree in trees():
        for node in ast.walk(tree):
            assert walk.children(node) == expected_children(node), ast.dump(node)[:200]
            count += 1
    assert count > 10000


@pytest.mark.parametrize('node', [
    ast.arguments(),                                        # no fields at all
    ast.Call(func=ast.Name(id='f', ctx=ast.Load())),         # no args, no keywords
    ast.FunctionDef(name='f', body=[ast.Pass()]),            # no arguments, decorators
    ast.Dict(keys=[None, ast.Name(id='k', ctx=ast.Load())],  # `{**a, k: b}`
             values=[ast.Name(id='a', ctx=ast.Load()), ast.Name(id='b', ctx=ast.Load())]),
    ast.Global(names=['a', 'b']),                            # identifiers, not nodes
    ast.Return(),
])
def test_children_of_nodes_built_without_fields(node):
    assert walk.children(node) == expected_children(node)


def test_nodes_and_walk_scope_find_every_node():
    for tree in trees()[-6:]:
        walked = [n for n in ast.walk(tree) if not isinstance(n, _LEAVES)]
        assert walk.nodes(tree) == walked   # (same order: breadth first)
        for function in [n for n in walked if isinstance(n, ast.FunctionDef)]:
            inner = {id(n) for f in ast.walk(function) if isinstance(f, ast.FunctionDef)
                     and f is not function for n in ast.walk(f)}
            own = [n for n in ast.walk(function) if not isinstance(n, _LEAVES)
                   and id(n) not in inner]
            assert sorted(map(id, walk_scope(function))) == sorted(map(id, own))


def test_visitor_visits_what_node_visitor_visits():
    class Standard(ast.NodeVisitor):
        def __init__(self):
            self.seen = []

        def visit_Name(self, node):
            self.seen.append(node.id)

        def visit_Call(self, node):
            self.seen.append('call')
            self.generic_visit(node)

    class Fast(walk.Visitor):
        __init__ = Standard.__init__
        visit_Name = Standard.visit_Name
        visit_Call = Standard.visit_Call

    for tree in trees()[-6:]:
        standard, fast = Standard(), Fast()
        standard.visit(tree)
        fast.visit(tree)
        assert fast.seen == standard.seen and fast.seen
