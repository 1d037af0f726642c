"""The backends that run a converted statement, and the dispatch that picks one.

- Python: the statement as Python runs it (a concrete condition or iterable);
- JAX: `lax.cond`/`switch`/`select`, while loops and `lax.scan` (runtime.staging);
- a framework's own primitives (framework.py): a `Lowering` registered for its values.

`dispatch.py` alone decides which one runs each statement.

May import staging, values, messages and the foundation (context, errors, origin,
protocol); used by the operators, loops and the converter's `autograph.register`.
"""
