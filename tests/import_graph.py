"""The import graph of autograph/ and runtime/, and the layers it must respect.

`LAYERS` lists the packages (and top-level modules) from the top down. A module may import
modules of its own package and of any layer below its own: never one above, nor a sibling
on its own layer. tests/test_architecture.py checks this; `python -m tests.import_graph`
prints the picture of the layers that docs/architecture.md shows (a test checks that the
document's copy is this program's output, so the picture stays true).
"""
import ast
import os
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = (('autograph', 'autograph'), ('runtime', 'autograph.runtime'))

_RT = 'autograph.runtime.'
LAYERS = [
    # the converter, from its public surface down
    ('autograph', 'autograph.__main__'),
    ('autograph.cli',),
    ('autograph.api',),
    ('autograph.function',),
    ('autograph.conversion',),
    ('autograph.passes',),
    ('autograph.naming', 'autograph.site_facts'),
    ('autograph.analysis',),
    ('autograph.codegen', 'autograph.parsing', 'autograph.templates', 'autograph.limits',
     'autograph.prebuilt'),
    ('autograph.errors', 'autograph.syntax_trees', 'autograph.attached',
     'autograph.library', 'autograph.unparsing'),
    ('autograph.expression_text',),
    # the runtime: the `ag` namespace, then its packages from the top down
    ('autograph.runtime',),
    (_RT + 'operators',),
    (_RT + 'loops',),
    (_RT + 'backends',),
    (_RT + 'staging',),
    (_RT + 'python',),
    (_RT + 'items', _RT + 'state'),
    (_RT + 'checks',),
    (_RT + 'values',),
    (_RT + 'messages',),
    (_RT + 'errors',),
    (_RT + 'context', _RT + 'origin', _RT + 'protocol'),
]


def modules():
    """{dotted name: (path, is package)} for every source module."""
    found = {}
    for folder, package in SOURCES:
        for directory, _, files in os.walk(os.path.join(ROOT, folder)):
            for name in files:
                if not name.endswith('.py'):
                    continue
                path = os.path.join(directory, name)
                parts = os.path.relpath(path, os.path.join(ROOT, folder))[:-3].split(os.sep)
                if parts[-1] == '__init__':
                    parts = parts[:-1]
                found['.'.join([package, *parts])] = (path, name == '__init__.py')
    return found


def imports(found):
    """{module: the modules it imports}, at module level or inside functions."""
    graph = {}
    for module, (path, is_package) in found.items():
        package = module if is_package else module.rpartition('.')[0]
        with open(path, encoding='utf-8') as f:
            tree = ast.parse(f.read())
        graph[module] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = package
                for _ in range(max(node.level - 1, 0)):
                    base = base.rpartition('.')[0]
                target = (base + ('.' + node.module if node.module else '') if node.level
                          else node.module)
                # `from package import module` imports that module; `from module
                # import name`, the module.
                candidates = [f'{target}.{alias.name}' if f'{target}.{alias.name}' in found
                              else target for alias in node.names]
            elif isinstance(node, ast.Import):
                candidates = [alias.name for alias in node.names]
            else:
                continue
            graph[module] |= {c for c in candidates if c in found and c != module}
    return graph


def cycles(graph):
    """The strongly connected groups of more than one module (Tarjan)."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))
    for v in graph:
        if v not in index:
            visit(v)
    return groups


def unit_of(module, layers=LAYERS):
    """The package or module of `layers` that holds `module` (the longest match), or None."""
    units = [u for layer in layers for u in layer
             if module == u or (module.startswith(u + '.') and u != 'autograph'
                                and u != 'autograph.runtime')]
    return max(units, key=len) if units else None


def depth(unit, layers=LAYERS):
    return next(i for i, layer in enumerate(layers) if unit in layer)


def violations(graph, layers=LAYERS):
    """(module, imported module) for every import of a sibling or of a higher layer."""
    found = []
    for module, targets in graph.items():
        unit = unit_of(module, layers)
        for target in targets:
            other = unit_of(target, layers)
            if other != unit and depth(other, layers) <= depth(unit, layers):
                found.append((module, target))
    return sorted(found)


def unit_graph(graph, layers=LAYERS):
    """{unit: the units it imports}."""
    edges = {u: set() for layer in layers for u in layer}
    for module, targets in graph.items():
        unit = unit_of(module, layers)
        edges[unit] |= {unit_of(t, layers) for t in targets} - {unit}
    return edges


def _short(unit):
    return unit.replace('autograph.runtime', 'runtime', 1) if unit != 'autograph' else unit


def picture(graph, layers=LAYERS):
    """The layers from the top down, each unit with the units it imports (text)."""
    edges = unit_graph(graph, layers)
    lines = []
    for i, layer in enumerate(layers):
        if i and layer[0] == 'autograph.runtime':
            lines.append('-' * 72)
        for unit in layer:
            used = sorted(edges[unit], key=lambda u: (depth(u, layers), u))
            lines += textwrap.wrap(', '.join(_short(u) for u in used) or '-', width=88,
                                   initial_indent=f'{_short(unit):22} -> ',
                                   subsequent_indent=' ' * 26, break_on_hyphens=False)
        if i + 1 < len(layers) and layers[i + 1][0] != 'autograph.runtime':
            lines.append(' ' * 22 + '    |')
    return '\n'.join(lines)


if __name__ == '__main__':
    sys.stdout.write(picture(imports(modules())) + '\n')
