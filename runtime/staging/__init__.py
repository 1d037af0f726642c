"""Staging: the JAX backend. User branches and loop bodies traced into jaxprs and run in
`lax`.

- trace.py: tracing a user function once over named state (and the sandboxed probe);
- branches.py, item_branches.py: `lax.cond`/`lax.switch`/select with branch merging, and
  branches that only write a few items of an array;
- loops.py: while loops, scans and range loops; carry.py: the body traced until the
  types it carries settle;
- slices.py: a scan's own slices for reads `xs[t]` of its index;
- loop_autodiff.py, lockstep.py: loops with a run-time exit lowered for reverse mode, and
  while loops in a vectorised body.

May import state, checks, values, messages and the foundation; used by backends, loops
and the operators.
"""
