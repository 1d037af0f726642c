"""State: what a staged statement carries besides the variables it assigns.

- statement.py: one Statement per `if`/`while`/`for`, a chain of adapters built once;
- nonlocals.py: variables that nested functions see (cells, globals) changed in place;
- mutation.py: attributes and containers changed in place (`self.n += 1`, `xs[0] = v`);
- places.py, watches.py: places that helpers write (globals, cells, attributes), found
  while a branch is traced, and state that outlives a call;
- lists.py: lists a staged loop appends to; method_state.py: `ag.method_fields`, `ag.item_fields`;
- attributes.py: `ag.setattr`/`ag.delattr`, attributes set by a computed name;
- logs.py: lists a converted Function only appends to, while it is traced (and what
  staged statements append to them).

May import checks (a dict with keys on some paths only, checks.keys.Keyed, is state
like a dict), values, messages and the foundation (context, errors, origin, protocol);
used by staging (lists), operators (statements) and the `ag` namespace.
"""
