"""The operators converted code calls, and nothing else: generated code sees this module
as `ag` (or a hygienic variant) and uses only these names."""
from .asserts import assert_
from .calls import call, call_writing, written
from .comparisons import compare
from .operators.conditionals import if_chain, if_exp, if_exp_chain, if_stmt
from .operators.logical import and_, not_, or_
from .operators.loops import for_stmt, while_stmt
from .filtering import comprehension_test
from .filtering import filter_ as filter
from .identity import is_, is_not
from .items import setitem, update_item
from .item_writes import setitems
from .iterables import enumerate_ as enumerate
from .iterables import range_ as range
from .iterables import zip_ as zip
from .indexing import getitem, repeat
from .matching import python_subject
from .method_state import method_fields
from .py_builtins import all_ as all
from .py_builtins import any_ as any
from .py_builtins import bool_ as bool
from .py_builtins import complex_ as complex
from .py_builtins import float_ as float
from .py_builtins import in_
from .py_builtins import item
from .py_builtins import int_ as int
from .py_builtins import max_ as max
from .py_builtins import min_ as min
from .py_builtins import pow_ as pow
from .py_builtins import sorted_ as sorted
from .py_builtins import sum_ as sum
from .handlers import handlers
from .raises import caused, raise_, raise_if, reraise
from .slicing import getslice, span, window, windows
from .absent import check_defined
from .state import Undefined
from .text import format_ as format
from .text import repr_ as repr
from .text import str_ as str
from .text import message, message_percent, text
from .display import emit

__all__ = ['Undefined', 'all', 'and_', 'any', 'assert_', 'bool', 'call', 'call_writing',
           'caused', 'check_defined', 'compare', 'complex', 'comprehension_test', 'emit',
           'enumerate',
           'filter',
           'float', 'for_stmt', 'format', 'getitem', 'getslice', 'handlers', 'if_chain',
           'if_exp', 'if_exp_chain', 'if_stmt', 'in_', 'int', 'item', 'is_', 'is_not', 'max',
           'message', 'message_percent', 'method_fields', 'min', 'not_', 'or_', 'pow',
           'python_subject', 'raise_', 'raise_if', 'range', 'repeat', 'repr', 'reraise',
           'setitem', 'setitems', 'sorted',
           'span', 'str', 'sum', 'text', 'update_item', 'while_stmt', 'window',
           'windows', 'written', 'zip']
