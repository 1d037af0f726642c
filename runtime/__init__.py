"""The operators converted code calls, and nothing else: generated code sees this module
as `ag` (or a hygienic variant) and uses only these names."""
from .checks.asserts import assert_
from .python import calls as _calls
from .python.calls import call, call_writing, object_update
from .python.written import given, written
from .operators.comparisons import compare
from .operators.conditionals import if_chain, if_exp, if_exp_chain, if_stmt, kept_item, static
from .operators.logical import and_, not_, or_
from .operators.loops import for_stmt, while_stmt
from .operators.sums import sum_over_range
from .python.division import divide
from .python.filtering import comprehension_test
from .python.filtering import filter_ as filter
from .python.selections import keep, selection
from .python.selections import len_ as len
from .python.selections import next_ as next
from .python.identity import is_, is_not
from .items.items import (check_attribute_write, check_exchange, check_held, check_unfollowed,
                          held_update, setitem, update_item)
from .items.item_writes import setitems
from .items.views import (alias, attribute_view, helper_result, layout_of, numpy_kind,
                          read_view, seen, unviewed, view, view_of, write_view)
from .items.flat import flat_key, flat_value
from .items.view_chains import as_array, chain, moved, raveled, reshaped, swapped, transposed
from .loops.iterables import enumerate_ as enumerate
from .loops.iterables import range_ as range
from .loops.iterables import zip_ as zip
from .loops.live_views import called_items, items_of, unfollowed_items
from .loops.live_views import reversed_ as reversed
from .items.indexing import getitem, repeat
from .python.matching import python_subject
from .state.method_state import item_fields, method_fields
from .python.py_builtins import all_ as all
from .python.py_builtins import any_ as any
from .python.py_builtins import bool_ as bool
from .python.py_builtins import complex_ as complex
from .python.py_builtins import check_field
from .python.py_builtins import float_ as float
from .state.attributes import attributes
from .state.attributes import delattr_ as delattr
from .python.py_builtins import getattr_ as getattr
from .state.attributes import setattr_ as setattr
from .python.py_builtins import hasattr_ as hasattr
from .python.membership import in_
from .python.equality import eq, ge, gt, le, lt, ne
from .python.py_builtins import item
from .python.py_builtins import int_ as int
from .python.py_builtins import max_ as max
from .python.py_builtins import min_ as min
from .python.py_builtins import pow_ as pow
from .python.py_builtins import sorted_ as sorted
from .python.py_builtins import list_sort as _list_sort
from .items.indexing import dict_get as _dict_get, list_index as _list_index
from .python.py_builtins import sum_ as sum
from .checks.handlers import handlers
from .checks.raises import caused, raise_, raise_if, reraise
from .items.slicing import getslice, span, window, windows
from .checks.absent import check_defined
from .values.split import Undefined
from .values.text import format_ as format
from .values.text import repr_ as repr
from .values.text import str_ as str
from .values.text import message, message_percent, text
from .python.display import emit
from .python.in_place import in_place, with_out
from .python.argument_aliases import check_apart
from .state.held_lists import unaliased
from .python import traced_math as math
from .python import traced_statistics as statistics
from .python import traced_heapq as heapq
from .python.number_methods import number_method
from .python import traced_numpy as numpy

__all__ = ['attribute_view', 'Undefined', 'alias', 'all', 'and_', 'any', 'assert_', 'attributes', 'bool', 'call',
           'call_writing', 'called_items',
           'caused', 'chain', 'check_apart', 'unaliased', 'check_defined', 'check_attribute_write', 'check_exchange', 'check_held', 'check_unfollowed', 'check_field', 'compare', 'complex', 'comprehension_test', 'emit',
           'enumerate', 'eq', 'ge', 'gt', 'le', 'lt',
           'filter', 'flat_key', 'flat_value', 'layout_of',
           'delattr', 'divide', 'float', 'for_stmt', 'format', 'getattr', 'getitem', 'given', 'hasattr', 'getslice', 'handlers', 'heapq', 'held_update', 'helper_result', 'if_chain',
           'if_exp', 'if_exp_chain', 'if_stmt', 'in_', 'in_place', 'int', 'item', 'items_of', 'is_', 'is_not', 'keep',
           'kept_item',
           'len', 'math', 'max',
           'item_fields', 'message', 'message_percent', 'method_fields', 'min', 'ne', 'next', 'not_', 'number_method', 'numpy', 'numpy_kind', 'object_update',
           'or_', 'pow',
           'python_subject', 'raise_', 'raise_if', 'range', 'read_view', 'repeat', 'repr',
           'raveled', 'reraise', 'reshaped', 'as_array', 'moved', 'swapped', 'reversed',
           'seen', 'selection', 'setattr', 'setitem', 'setitems', 'sorted',
           'span', 'static', 'statistics', 'str', 'sum', 'sum_over_range', 'text', 'transposed', 'unfollowed_items', 'unviewed', 'update_item', 'view', 'view_of', 'while_stmt',
           'window', 'with_out',
           'windows', 'write_view', 'written', 'zip']

_calls.use_versions({**{name: globals()[name] for name in _calls.OVERRIDDEN_BUILTINS},
                     'list.sort': _list_sort, 'dict.get': _dict_get,
                     'list.index': _list_index})
