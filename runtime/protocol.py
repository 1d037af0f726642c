"""Names shared by the converter and the runtime: the contract of generated code."""

RETURN_VALUE = 'return'
"""`Undefined(RETURN_VALUE)` marks the function's return value before a `return` in a
loop sets it; staged control flow may fill it with zeros since a flag guards its reads."""
