"""The errors of staged code: every ControlFlowError the runtime raises, as a kind with
fields, rendered in one style (see `style`): what happened, where (the user's file:line),
why staging cannot do what Python does, and what to write instead.

One module per family of kinds; KINDS lists them all (name -> Kind).
"""
from .branches import (BRANCHES_DIFFER, TWO_WAY, branch_mismatch, no_value_after_branches,
                       unset_on_a_path, where_differs)
from .lists import (LIST_IN_LOOP, ListReadInLoop, collects_non_arrays, list_hint,
                    read_while_appending)
from .loops import (CONDITION, LOOP_STATE, carry_mismatch, carry_unsettled,
                    condition_no_value, condition_shape, created_in_loop, never_ends,
                    not_initialised)
from .style import KINDS, Kind, problem
