"""analysis.mutation.Mutation (one bottom-up walk, facts per statement) against the
direct definition: walking each statement's own nodes again for every query."""
import ast

import pytest

from autograph.analysis.activity import MUTATING_METHODS, base_name
from autograph.analysis.mutation import Mutation
from autograph.passes.base import SCOPES

PROGRAMS = [
    '''
def f(self, xs, d):
    ys = xs
    for i in range(3):
        if i > 0:
            xs.append(i)
            self.count = self.count + 1
            d['a'].extend([i])
        else:
            ys = ag.setitem(ys, 0, i)
            self.items[0].x = i
            self.items[i].y = i
        def g():
            zs.append(1)
        h = lambda: ws.append(2)
    while self.n < 3:
        self.n += 1
        model.step(xs)
        ag.call(obj.update_all, xs)
    return xs
''',
    '''
def f(a):
    if a:
        a.b.c = 1
        b = a
        b.x = 2
    return a
''',
]


def own_nodes(stmts):
    stack = list(stmts)
    while stack:
        node = stack.pop()
        yield node
        stack += [c for c in ast.iter_child_nodes(node) if not isinstance(c, SCOPES)]


def changed(stmts):
    names = set()
    for node in own_nodes(stmts):
        if isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.ctx, ast.Store):
            names.add(base_name(node))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in MUTATING_METHODS):
            names.add(base_name(node.func.value))
        elif (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
              and getattr(node.value.func, 'attr', None) == 'setitem'):
            names.add(node.targets[0].id)
    return names - {None}


def rebound(stmts):
    updated = {id(n.targets[0]) for n in own_nodes(stmts) if isinstance(n, ast.Assign)
               and isinstance(n.value, ast.Call)
               and getattr(n.value.func, 'attr', None) == 'setitem'}
    return {n.id for n in own_nodes(stmts) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Store) and id(n) not in updated}


def calls(stmts):
    found = []
    for stmt in stmts:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                via = node.func.attr == 'call' and getattr(node.func.value, 'id', None) == 'ag'
                target = node.args[0] if via else node.func
                item = ITEM_METHODS.get(node.func.attr) \
                    if getattr(node.func.value, 'id', None) == 'ag' else None
                if item and node.args and isinstance(node.args[0], ast.Name):
                    found.append((node.args[0].id, item, False))   # (a user class's)
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
                    found.append((target.value.id, target.attr, via))
    return found


ITEM_METHODS = {'setitem': '__setitem__', 'update_item': '__setitem__',
                'getitem': '__getitem__'}


@pytest.mark.parametrize('source', PROGRAMS)
def test_facts_match_the_per_statement_walks(source):
    function = ast.parse(source).body[0]
    mutation = Mutation(function, 'ag')
    statements = [n for n in ast.walk(function) if isinstance(n, ast.stmt)]
    for stmt in statements:
        blocks = [[stmt]] + [getattr(stmt, f) for f in ('body', 'orelse')
                             if isinstance(getattr(stmt, f, None), list)]
        for block in blocks:
            assert mutation.changed_in_place(block) == changed(block), ast.unparse(stmt)
            assert mutation.rebound(block) == rebound(block)
            assert mutation.attribute_calls(block) == calls(block)


def test_attributes_outer_first_and_rebound_objects_left_out():
    function = ast.parse(PROGRAMS[1]).body[0]
    mutation = Mutation(function, 'ag')
    found = mutation.assigned_attributes(function.body[0].body)
    assert list(found) == ['a.b', 'a.b.c']   # b is rebound: b.x is a new object's


def test_a_statement_not_in_the_function_is_an_error():
    mutation = Mutation(ast.parse(PROGRAMS[1]).body[0], 'ag')
    with pytest.raises(KeyError):
        mutation.rebound([ast.parse('x = 1').body[0]])
