"""Static analyses over one function scope: which names a node reads and writes
(`activity`), and which are live / definitely assigned at each statement (`dataflow`)."""
