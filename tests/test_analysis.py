"""The analyses, one line per case, through their dumps."""
import ast

import pytest

from autograph.analysis.activity import activity, scope_of
from autograph.analysis import definite
from autograph.analysis.census import census
from autograph.analysis.dataflow import Dataflow
from autograph.analysis.scopes import sharing


def stmt(code):
    return ast.parse(code).body[0]


@pytest.mark.parametrize('code,dump', [
    ('a = b + c', "reads=['b', 'c'] writes=['a']"),
    ('a += 1', "reads=['a'] writes=['a']"),
    ('x[i] = v', "reads=['i', 'v', 'x'] writes=['x']"),
    ('obj.attr = v', "reads=['obj', 'v'] writes=['obj']"),
    ('out.append(v)', "reads=['out', 'v'] writes=['out']"),
    ('a, (b, c) = t', "reads=['t'] writes=['a', 'b', 'c']"),
    ('def g(p):\n    return p + q', "reads=['q'] writes=['g']"),
    ('f = lambda p: p * k', "reads=['k'] writes=['f']"),
    ('ys = [y * s for y in xs]', "reads=['s', 'xs'] writes=['ys']"),
    ('for i in r:\n    t = t + i', "reads=['i', 'r', 't'] writes=['i', 't']"),
])
def test_activity(code, dump):
    assert activity(stmt(code)).dump() == dump


def test_local_names_exclude_globals_and_nonlocals():
    function = stmt('def f(a):\n    global g\n    g = 1\n    b = 2\n'
                    '    def h():\n        nonlocal b\n        b = 3\n    import os\n')
    assert sorted(scope_of(function).locals) == ['a', 'b', 'h', 'os']


@pytest.mark.parametrize('code,dump', [
    ('def f(x):\n    return x', "captured=[] writers={} escaped=[]"),
    ('def f(x):\n    g = lambda: x\n    return g', "captured=['x'] writers={} escaped=[]"),
    ('def f(x):\n    return [y for y in x]', "captured=[] writers={} escaped=[]"),
    ('def f(xs):\n    def add(v):\n        xs.append(v)\n    add(1)',
     "captured=['xs'] writers={'add': ['xs']} escaped=[]"),
    ('def f():\n    n = 0\n    def inc():\n        nonlocal n\n        n += 1\n    return inc',
     "captured=['n'] writers={'inc': ['n']} escaped=['inc']"),
    ('def f():\n    n = 0\n    def inc():\n        nonlocal n\n        n += 1\n'
     '    def twice():\n        inc()\n        inc()\n    twice()',
     "captured=['inc', 'n'] writers={'inc': ['n'], 'twice': ['n']} escaped=['inc']"),
])
def test_sharing(code, dump):
    assert sharing(stmt(code)).dump() == dump


@pytest.mark.parametrize('code,dump', [
    ('def f(x):\n    y = x\n    return y', "safe=['x', 'y']"),
    ('def f(x):\n    if x:\n        y = 1\n    return y', "safe=['x']"),
    ('def f(x):\n    if x:\n        y = 1\n    else:\n        y = 2\n    return y',
     "safe=['x', 'y']"),
    ('def f(xs, t):\n    for x in xs:\n        if x == t:\n            i = x\n'
     '            break\n    else:\n        i = -1\n    return i',
     "safe=['i', 't', 'x', 'xs']"),
    ('def f(n):\n    while n:\n        k = n\n        n -= 1\n    return k', "safe=['n']"),
    ('def f(x):\n    try:\n        y = 1 / x\n    except ZeroDivisionError:\n        y = 0\n'
     '    return y', "safe=['x', 'y']"),
    ('def f(x):\n    g = lambda: y\n    y = x\n    return g()', "safe=['g', 'x']"),
    ('def f(x):\n    with open(x) as h:\n        y = h.read()\n    return y',
     "safe=['h', 'x']"),
    ('def f(x):\n    if (y := x):\n        pass\n    return y', "safe=['x']"),
])
def test_assigned_before_reads(code, dump):
    assert definite.dump(stmt(code)) == dump


@pytest.mark.parametrize('code,dumps', [
    ('def f(x):\n    a = x\n    b = a\n    return a',
     ["live_out=['a'] defined_in=['x']", "live_out=['a'] defined_in=['a', 'x']",
      "live_out=[] defined_in=['a', 'b', 'x']"]),
    ('def f(x):\n    for i in x:\n        s = i\n    return s',
     ["live_out=['s'] defined_in=['x']", "live_out=[] defined_in=['x']"]),
    ('def f(x):\n    while x:\n        x -= 1\n        t = x\n    return 0',
     ["live_out=[] defined_in=['x']", "live_out=[] defined_in=['x']"]),
])
def test_dataflow(code, dumps):
    function = stmt(code)
    flow = Dataflow(function)
    assert [flow.dump(s) for s in function.body] == dumps


def flow_of(code):
    function = stmt(code)
    return function, Dataflow(function)


def test_liveness_and_definedness_around_an_if():
    function, flow = flow_of(
        'def f(x):\n'
        '    y = 1\n'
        '    if x:\n'
        '        z = y\n'
        '        y = 2\n'
        '    else:\n'
        '        w = 3\n'
        '    return y\n')
    branch = function.body[1]
    assert flow.dump(branch) == "live_out=['y'] defined_in=['x', 'y']"
    assert flow.dump(branch.body[0]) == "live_out=[] defined_in=['x', 'y']"   # y rewritten
    assert flow.dump(branch.body[1]) == "live_out=['y'] defined_in=['x', 'y', 'z']"
    assert flow.dump(function.body[2]) == "live_out=[] defined_in=['x', 'y']"


def test_loop_head_carries_only_what_is_read_again():
    function, flow = flow_of(
        'def f(n):\n'
        '    i = 0\n'
        '    acc = 0\n'
        '    while i < n:\n'
        '        tmp = i * 2\n'
        '        acc = acc + tmp\n'
        '        i = i + 1\n'
        '    return acc\n')
    loop = function.body[2]
    assert sorted(flow.loop_head[loop]) == ['acc', 'i', 'n']
    assert 'tmp' not in flow.loop_head[loop]


def test_names_read_by_nested_functions_are_live_where_the_function_is():
    function, flow = flow_of(
        'def f(x):\n'
        '    def g():\n'
        '        return y\n'
        '    if x:\n'
        '        y = 1\n'
        '    else:\n'
        '        y = 2\n'
        '    return g()\n')
    assert 'y' in flow.live_out[function.body[1]]


def test_a_nested_function_used_only_inside_a_loop_does_not_make_its_reads_carried():
    function, flow = flow_of(
        'def f(xs):\n'
        '    total = 0\n'
        '    for x in xs:\n'
        '        def scaled(k):\n'
        '            return x * k\n'
        '        total = total + scaled(2)\n'
        '    return total\n')
    loop = function.body[1]
    assert sorted(flow.loop_head[loop]) == ['total']


def test_namers_from_code_and_from_tree_avoid_the_same_names():
    from autograph.naming import Namer

    def f(x, ag=1):
        if_true = [v for v in range(3)]

        def loop_body(y):
            return y + retval  # noqa: F821

        return ag + len(if_true) + loop_body(x)
    import inspect
    import textwrap
    tree = ast.parse(textwrap.dedent(inspect.getsource(f)))
    for namer in (Namer.for_code(f.__code__), Namer.for_tree(tree)):
        assert [namer.new(n) for n in ('ag', 'if_true', 'loop_body', 'retval', 'x')] == [
            'ag_1', 'if_true_1', 'loop_body_1', 'retval_1', 'x_1']


@pytest.mark.parametrize('code,names,depth', [
    ('def f(x):\n    return x + 1', ['x'], 4),   # def, return, binop, name (not its load)
    ('def f(x):\n    x[0] = 1', ['[]=', 'x'], 4),
    ('def f(x):\n    y = x[0]', ['x', 'y'], 4),
    ('def f(self):\n    def g():\n        return super().h()\n    return g',
     ['g', 'super'], 7),
])
def test_census_names_and_depth(code, names, depth):
    found = census(stmt(code), max_depth=100)
    assert sorted(found.names() + (['[]='] if found.has_any(['[]=']) else [])) == names
    assert found.depth == depth


def test_census_attributes_and_percent():
    found = census(stmt('def f(log, x):\n    log.info(x.shape)\n    return x % 2'), 100)
    assert found.has_attribute(['info']) and found.has_attribute(['shape', 'other'])
    assert not found.has_attribute(['warn']) and found.has_any([ast.Mod])
    plain = census(stmt('def f(x):\n    return x + 2'), 100)
    assert not plain.has_any([ast.Mod]) and not plain.attributes


def test_census_lists_functions_innermost_first_and_stops_at_the_limit():
    tree = stmt('def f():\n    def g():\n        def h():\n            pass\n'
                '    def k():\n        pass')
    found = census(tree, max_depth=100)
    assert [scope.name for scope in found.scopes] == ['h', 'g', 'k', 'f']
    assert found.has_any([ast.Pass]) and not found.has_any([ast.Match, ast.Yield])
    assert census(tree, max_depth=3).depth == 4   # walked no deeper than asked


@pytest.mark.parametrize('code,dump', [
    ('def f(a):\n a[0] = 1\n return a', ['written [\'a\']']),
    ('def f(a):\n a = a.copy()\n a[0] = 1\n return a', ['written []']),
    ('def f(a, v):\n a[:2] = v\n a = a * 2\n return a',
     ["written ['a']", 'save a before line 3', 'line 4 reports saved a']),
    ('def f(a, c):\n if c:\n  a = a * 2\n a[0] = 1',
     ["written ['a']", 'save a before line 3', 'flag a', 'end reports a or saved a']),
    ('def f(a, n):\n for i in n:\n  a[i] = 0\n  a = a + 1',
     ["written ['a']", 'flag a', 'select a before line 4', 'end reports a or saved a']),
    ('def f(a, n):\n a[0] = 1\n for a in n:\n  a[0] = 0\n return a',   # (a loop's
     ["written ['a', 'n']", 'flag a', 'select a before line 3',           # target: the
      'line 5 reports a or saved a', 'a rebound by a part of line 3']),   # flag too)
    ('def f(a, c):\n a[0] = 1\n b = (a := a * 2) if c else 0\n return a',
     ["written []", 'a rebound at line 3', 'a returned at line 4']),  # (`:=` on some paths)
    ('def f(a):\n v = a[0:2]\n a = a * 2\n v[0] = 9\n return a',   # (a view written
     ["written ['a']", 'save a before line 3', 'line 5 reports saved a']),  # after: `a`'s)
])
def test_entry_values(code, dump):
    from autograph.analysis.written_parameters import entry_of_tree
    assert entry_of_tree(ast.parse(code).body[0], lambda name: None).dump() == dump


def test_entry_values_where_no_parameter_is_rebound_are_those_the_flow_finds(monkeypatch):
    """analysis.entry_values answers without following the flow where no parameter is
    rebound and no view is taken: the same answer, for every function in this repo."""
    import pathlib
    from autograph.analysis import entry_values as values
    from autograph.analysis import written_parameters
    shortcuts = []

    def both(function, params, effects, views=None):
        found = values.entry_values(function, params, effects, views)
        assert found == values._followed(function, params, effects, views or {}), \
            f'{function.name} at line {function.lineno}'
        if not views and not values._rebinds(function, set(params)):
            shortcuts.append(found.written)
        return found
    monkeypatch.setattr(written_parameters, 'entry_values', both)
    root = pathlib.Path(__file__).parent.parent
    for path in sorted(root.glob('tests/**/*.py')) + sorted(root.glob('examples/**/*.py')):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef):
                written_parameters.entry_of_tree(node, lambda name: None)
    assert sum(1 for written in shortcuts if written) > 50   # (the shortcut is tested)
