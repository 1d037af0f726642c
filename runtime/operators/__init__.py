"""Operators: the statements generated code calls (`ag.if_stmt`, `ag.if_chain`,
`ag.while_stmt`, `ag.for_stmt`, `ag.and_`, `ag.or_`, `ag.not_`, `ag.compare`).

Each builds its statement's state (runtime.state.statement), asks
runtime.backends.dispatch which backend runs it, and runs it there. The top layer: it may
import every package below it; only the `ag` namespace (runtime/__init__.py) imports it.
"""
