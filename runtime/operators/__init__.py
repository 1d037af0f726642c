"""The statement operators generated code calls (`ag.if_stmt`, `ag.for_stmt`, `ag.and_`,
...): each adapts its statement's state (runtime.statement), asks runtime.backends.dispatch
which backend runs it, and runs it there."""
