"""Hygienic names for generated code: `if_true`, `if_true_1`, ... never a user's name."""
import ast

from autograph.analysis.walk import nodes


class Namer:
    def __init__(self, taken):
        self.taken = set(taken)
        self.made = set()   # the names `new` gave (never a user's)
        self._next = {}   # base -> the first suffix not tried yet (new names stay linear)
        self._functions = {}   # base -> the names `function` gave, in order

    @classmethod
    def for_tree(cls, tree, extra=()):
        """A namer that avoids every identifier used anywhere in `tree`."""
        taken = set(extra)
        for node in nodes(tree):
            if isinstance(node, ast.Name):
                taken.add(node.id)
            elif isinstance(node, ast.arg):
                taken.add(node.arg)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                taken.add(node.name)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                taken.update(node.names)
        return cls(taken)

    @classmethod
    def for_code(cls, code):
        """A namer that avoids every name a compiled function (and the functions nested
        in it) uses: the same names as its tree holds, read without walking it."""
        taken, stack = set(), [code]
        while stack:
            current = stack.pop()
            taken.update(current.co_names, current.co_varnames, current.co_freevars,
                          current.co_cellvars)
            stack += [c for c in current.co_consts if isinstance(c, type(code))]
        return cls(taken)

    def new(self, base):
        n = self._next.get(base, 0)
        name = base if n == 0 else f'{base}_{n}'
        while name in self.taken:
            n += 1
            name = f'{base}_{n}'
        self._next[base] = n + 1
        self.taken.add(name)
        self.made.add(name)
        return name

    def function(self, base, index=0):
        """The name of a generated function that the statement right after its `def`
        calls and nothing reads again (a branch, a loop's body or test): the same for
        every statement, `index` telling apart those one statement defines (the `elif`
        branches of one chain). Generated code reads like hand-written JAX (`def body`
        for every loop), and CPython compiles a function with many such definitions in
        time linear in their number (it copies the names of the enclosing scope into
        each nested one's: distinct names made that quadratic, 10,000 `if`s ~20 s)."""
        names = self._functions.setdefault(base, [])
        while len(names) <= index:
            names.append(self.new(base))
        return names[index]
