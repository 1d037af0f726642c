"""Python: builtins and Python operations that see traced values, each keeping Python's
meaning (`ag.int`, `ag.max`, `ag.sorted`, `ag.call`, `ag.is_`, `ag.filter`, `ag.emit`, ...).

- py_builtins.py: `int`, `float`, `min`/`max`/`sum`/`sorted`, `any`/`all`, `pow`;
- membership.py, equality.py, ordering.py: `in`; `==`, `<`, ... of sequences; sort orders;
- calls.py: `ag.call` (user functions converted first), recursion.py (runaway recursion
  stopped); written.py, argument_aliases.py: the parameters a function writes, reported
  to its caller (`ag.written`, `ag.given`), and the checks of arrays given twice or of
  writes a call cannot give back;
- traced_math.py, traced_statistics.py, traced_numpy.py, number_methods.py: `math`,
  `statistics`, NumPy's functions and numbers' methods of traced values;
  traced_heapq.py: `heapq`'s selections, and its functions that reorder a list in place;
- identity.py: `is`/`is not` on traced flags and optional values;
- display.py, filtering.py, matching.py: text shown at run time, comprehension filters,
  the subject of a `match`;
- in_place.py: NumPy's methods and functions that write into an array given to them
  (`w.sort()`, `np.add.at(w, i, v)`, `np.exp(v, out=w)`).

May import items (the bounds of the indices NumPy's writes take), state (a staged
loop's lists, which `heapq` reads whole), checks, values, messages and the foundation; used by the operators and the `ag` namespace.
"""
