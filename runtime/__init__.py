"""The operators converted code calls, and nothing else: generated code sees this module
as `ag` (or a hygienic variant) and uses only these names."""
from .asserts import assert_
from .calls import call
from .control_flow import and_, for_stmt, if_exp, if_stmt, not_, or_, while_stmt
from .identity import is_, is_not
from .iterables import enumerate_ as enumerate
from .iterables import range_ as range
from .iterables import zip_ as zip
from .py_builtins import bool_ as bool
from .py_builtins import float_ as float
from .py_builtins import int_ as int
from .py_builtins import max_ as max
from .py_builtins import min_ as min
from .state import Undefined

__all__ = ['Undefined', 'and_', 'assert_', 'bool', 'call', 'enumerate', 'float', 'for_stmt',
           'if_exp', 'if_stmt', 'int', 'is_', 'is_not', 'max', 'min', 'not_', 'or_', 'range',
           'while_stmt', 'zip']
