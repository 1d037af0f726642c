"""Items: reading and writing items and slices with NumPy's meaning on JAX arrays and
Python's on lists (`ag.getitem`, `ag.setitem`, `ag.update_item`, `ag.setitems`,
`ag.getslice`, `ag.window`, `ag.windows`, `ag.span`).

- indexing.py: `seq[i]` with a traced `i` on a Python list or tuple;
- items.py, item_writes.py: item and slice assignment, several items as one write;
- slicing.py, masked.py: slices whose bounds or length are known only when the program
  runs (windows, and masked slices read by a reduction);
- parts.py: in a vectorised loop's body, `xs[i]` as the iteration's item of `xs`;
- flat.py: NumPy's flat items (`a.flat[k] = e`) as item keys of the array.

May import checks, values, messages and the foundation; used by loops (iterables), the
operators and the `ag` namespace.
"""
