"""Names resolved from a module's import statements, without running it: what the CLI
(`autograph-show`), which reads a file, knows of the names a function calls (see
passes.calls.LiveResolver for a live function's)."""
import ast
import builtins

from autograph.analysis.activity import activity
from autograph.passes.calls import Resolution
from autograph.runtime.python.calls import NUMPY, REDUCTIONS, TRANSFORMS, TWINNED
from autograph.runtime.values.stacked import STACKERS


class StaticResolver:
    """Resolves names from a module's import statements, without running it."""

    def __init__(self, module):
        self.imports = {}
        self.defined = set()
        for node in module.body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    self.imports[alias.asname or alias.name.split('.')[0]] = (
                        alias.name if alias.asname else alias.name.split('.')[0])
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    self.imports[alias.asname or alias.name] = f'{node.module}.{alias.name}'
            else:
                self.defined |= activity(node).writes

    def classify(self, name):
        from autograph.library import is_library_module
        if name in self.imports:
            module = self.imports[name]
            return Resolution.LIBRARY if is_library_module(module) else Resolution.USER
        if name in self.defined:
            return Resolution.USER
        if hasattr(builtins, name):
            return Resolution.BUILTIN
        return Resolution.USER

    def is_library_name(self, name):
        """True for a name imported from a library module; a global the module defines
        holds what running it would make: unknown (False)."""
        return self.classify(name) == Resolution.LIBRARY

    def is_user_object(self, name):
        """Unknown without running the module: array computations stay plain calls."""
        return False

    def holds_sequence(self, name):
        """Unknown without running the module: comparisons stay as written."""
        return False

    def module_name(self, name):
        """The dotted name `import` binds to `name` (a module, or a name imported from
        one), or None."""
        return self.imports.get(name) if name not in self.defined else None

    def is_builtin(self, name):
        return self.classify(name) == Resolution.BUILTIN

    def known_name(self, dotted):
        base, _, rest = dotted.partition('.')
        full = self.imports.get(base, base) + ('.' + rest if rest else '')
        return full if full in TRANSFORMS or full in STACKERS or full in REDUCTIONS \
            or full in TWINNED or full in NUMPY else None
