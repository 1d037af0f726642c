"""The errors of staged code: every ControlFlowError the runtime raises, as a kind with
fields, rendered in one style (see `style`): what happened, where (the user's file:line),
why staging cannot do what Python does, and what to write instead.

One module per family of kinds; KINDS lists them all (name -> Kind). May import only
the foundation (errors, protocol): every package above raises these.
"""
from .branches import (BRANCHES_DIFFER, TWO_WAY, branch_mismatch, no_value_after_branches,
                       unset_on_a_path, where_differs)
from .keys import (default_read_elsewhere, key_absent_in_result, key_default_differs,
                   keys_unknown)
from .lists import (LIST_IN_LOOP, ListReadInLoop, collects_non_arrays,
                    container_changed_when_staged, list_hint, read_while_appending)
from .loops import (CONDITION, LOOP_STATE, carry_mismatch, carry_unsettled,
                    collective_under_varying, condition_no_value, condition_shape,
                    created_in_loop, held_list_staged, live_iterable_rebound,
                    live_iterable_unfollowed, never_ends, not_initialised)
from .shapes import (RUN_TIME_SHAPE, boolean_mask, sequence_index, slice_longer,
                     slice_may_shorten, slice_width, slice_write_count, traced_slice,
                     varying_slice_used)
from .staging import (FRAMEWORK_LOWERING, IN_PLACE_CHANGE, STAGING_LIMIT,
                      aliased_on_some_paths, caller_array_unknown, changed_and_replaced,
                      item_copy_changed, missing_primitive, nested_too_deep,
                      pytree_changed_in_place, staged_recursion, view_base_unknown,
                      view_on_some_paths, view_not_followed, random_drawn_when_traced, opaque_container_changed,
                      array_kind_unknown, attribute_view_changed, helper_view_unknown,
                      method_view_unknown, view_layout_unknown)
from .results import (RESULT_LEAVES_TRACE, log_in_foreign_trace, optional_in_foreign_trace,
                      traced_in_container, traced_in_object)
from .style import KINDS, Kind, problem
from .values import (PYTHON_VALUE_NEEDED, ambiguous_in, argsort_ties, ambiguous_truth, operands_differ,
                     caught_staged_raise, chosen_used, heap_of_traced_items, items_differ, no_order, no_text,
                     numpy_argument_through_attribute, numpy_exchanged, numpy_given_twice, numpy_held_write, numpy_traced_write,
                     numpy_unfollowed, written_argument_lost,
                     optional_truth, range_step, unordered_items,
                     reused_iterator, scalar_iteration, text_used_as_data,
                     traced_conversion, traced_filter, traced_key, traced_match_subject,
                     traced_range, traced_repeat, value_for_python)
