"""The layout's rules (docs/architecture.md): the runtime imports nothing from the
converter, no two modules import each other (directly or around a cycle, counting imports
inside functions), and no source file grows past a few hundred lines."""
import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = (('autograph', 'autograph'), ('runtime', 'autograph.runtime'))
MAX_LINES = 420


def _modules():
    """{dotted name: (path, is package)} for every source module."""
    found = {}
    for folder, package in PACKAGES:
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


def _imports(modules):
    """{module: the modules it imports}, at module level or inside functions."""
    graph = {}
    for module, (path, is_package) in modules.items():
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
                candidates = [f'{target}.{alias.name}' if f'{target}.{alias.name}' in modules
                              else target for alias in node.names]
            elif isinstance(node, ast.Import):
                candidates = [alias.name for alias in node.names]
            else:
                continue
            graph[module] |= {c for c in candidates if c in modules and c != module}
    return graph


def _cycles(graph):
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


def test_the_runtime_imports_nothing_from_the_converter():
    graph = _imports(_modules())
    runtime = [m for m in graph if m.startswith('autograph.runtime')]
    assert len(runtime) > 20
    outward = {(m, t) for m in runtime for t in graph[m]
               if not t.startswith('autograph.runtime')}
    assert not outward, outward


def test_no_import_cycles():
    graph = _imports(_modules())
    assert _cycles({'a': {'b'}, 'b': {'a'}, 'c': {'a'}}) == [['a', 'b']]   # (the check)
    assert _cycles(graph) == []


def test_source_files_stay_small():
    long = {}
    for module, (path, _) in _modules().items():
        with open(path, encoding='utf-8') as f:
            count = sum(1 for _ in f)
        if count > MAX_LINES:
            long[module] = count
    assert not long, long
