"""The layout's rules (docs/architecture.md): packages import only the layers below them
(tests/import_graph.py lists the layers), the runtime imports nothing from the converter,
no two modules import each other (directly or around a cycle, counting imports inside
functions), and no source file or function grows past a few hundred, or sixty, lines."""
import ast
import os
import re

from tests import import_graph as ig

MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 60


def test_the_runtime_imports_nothing_from_the_converter():
    graph = ig.imports(ig.modules())
    runtime = [m for m in graph if m.startswith('autograph.runtime')]
    assert len(runtime) > 20
    outward = {(m, t) for m in runtime for t in graph[m]
               if not t.startswith('autograph.runtime')}
    assert not outward, outward


def test_no_import_cycles():
    graph = ig.imports(ig.modules())
    assert ig.cycles({'a': {'b'}, 'b': {'a'}, 'c': {'a'}}) == [['a', 'b']]   # (the check)
    assert ig.cycles(graph) == []


def test_every_module_lies_in_a_layer():
    assert [m for m in ig.modules() if ig.unit_of(m) is None] == []


def test_packages_import_only_the_layers_below_them():
    graph = ig.imports(ig.modules())
    assert ig.violations(graph) == []
    # (the check) an import upward, and one between siblings of a layer, are found
    values, staging = 'autograph.runtime.values.split', 'autograph.runtime.staging.trace'
    items, state = 'autograph.runtime.items.items', 'autograph.runtime.state.lists'
    wrong = {**graph, values: graph[values] | {staging}, items: graph[items] | {state}}
    assert ig.violations(wrong) == [(items, state), (values, staging)]


def test_every_runtime_package_says_what_it_is_and_what_it_may_import():
    for module, (path, is_package) in ig.modules().items():
        if is_package and module.startswith('autograph.runtime.'):
            with open(path, encoding='utf-8') as f:
                doc = ast.get_docstring(ast.parse(f.read())) or ''
            assert 'import' in doc and len(doc) > 200, module


def test_the_documented_layers_are_the_import_graph():
    with open(os.path.join(ig.ROOT, 'docs', 'architecture.md'), encoding='utf-8') as f:
        text = f.read()
    shown = re.search(r'<!-- layers: python -m tests.import_graph -->\n```text\n(.*?)\n```',
                      text, re.S)
    assert shown, 'docs/architecture.md lost its picture of the layers'
    assert shown.group(1) == ig.picture(ig.imports(ig.modules()))


def _sources():
    for module, (path, _) in ig.modules().items():
        with open(path, encoding='utf-8') as f:
            yield module, f.read()


def test_source_files_stay_small():
    long = {module: text.count('\n') for module, text in _sources()
            if text.count('\n') > MAX_FILE_LINES}
    assert not long, long


def test_functions_stay_short():
    long = {}
    for module, text in _sources():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long[f'{module}.{node.name}'] = lines
    assert not long, long
