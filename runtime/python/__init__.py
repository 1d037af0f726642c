"""Python: builtins and Python operations that see traced values, each keeping Python's
meaning (`ag.int`, `ag.max`, `ag.sorted`, `ag.call`, `ag.is_`, `ag.filter`, `ag.emit`, ...).

- py_builtins.py: `int`, `float`, `min`/`max`/`sum`/`sorted`, `any`/`all`, `in`, `pow`;
- calls.py: `ag.call` (user functions converted first, runaway recursion stopped);
- identity.py: `is`/`is not` on traced flags and optional values;
- display.py, filtering.py, matching.py: text shown at run time, comprehension filters,
  the subject of a `match`.

May import checks, values, messages and the foundation; used by the operators and the `ag`
namespace.
"""
