"""The operators converted code calls, and nothing else: generated code sees this module
as `ag` (or a hygienic variant) and uses only these names."""
from runtime.asserts import assert_
from runtime.calls import call
from runtime.control_flow import and_, for_stmt, if_exp, if_stmt, not_, or_, while_stmt
from runtime.iterables import enumerate_ as enumerate
from runtime.iterables import range_ as range
from runtime.iterables import zip_ as zip
from runtime.py_builtins import bool_ as bool
from runtime.py_builtins import float_ as float
from runtime.py_builtins import int_ as int
from runtime.py_builtins import max_ as max
from runtime.py_builtins import min_ as min
from runtime.state import Undefined

__all__ = ['Undefined', 'and_', 'assert_', 'bool', 'call', 'enumerate', 'float', 'for_stmt',
           'if_exp', 'if_stmt', 'int', 'max', 'min', 'not_', 'or_', 'range', 'while_stmt',
           'zip']
