"""Loops: how a `for` is run besides one staged loop per statement.

- iterables.py: what a `for` iterates (arrays, ranges with traced bounds,
  `autograph.range`, `enumerate`/`zip` of them) and what each would stage;
- loop_policy.py: whether a range with Python bounds is staged or unrolled (and an
  array's rows, when its body cannot be staged);
- vectorized.py: a loop whose iterations are independent, as one `jax.vmap` of its body;
- reductions.py: the accumulators of such a loop (`s += e`, `s = max(s, e)`), reduced
  once over the iterations;
- selects.py: its body evaluated with the branches whose test varies between iterations
  as selects, each value computed over the axes it varies along.

May import backends, staging and every package below them; used by runtime.operators
(and the `ag` namespace: `ag.range`, `ag.enumerate`, `ag.zip`).
"""
