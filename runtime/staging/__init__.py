"""JAX staging: user branches and loop bodies traced into jaxprs and run in `lax`.

- trace.py: tracing a user function once over named state (and the sandboxed probe);
- types.py: avals, weak-type promotion and casts;
- branches.py: `lax.cond`/`lax.switch`/select with branch merging;
- loops.py: while loops, scans and range loops, with carry reconciliation.
"""
