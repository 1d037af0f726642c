"""Reads `xs[t]` of a staged range loop's index become the scan's own slices.

    for t in range(xs.shape[0]):          # staged as lax.scan over t
        h = jnp.tanh(xs[t] + h @ w)

Traced with a traced `t`, the body reads `xs[t]` as JAX's negative-index check plus a
dynamic slice of the closed-over `xs`. `lax.scan(step, h, xs)` written by hand hands the
body its slice instead. `hoist` rewrites the traced body that way: each read of a
closed-over array at exactly the iteration count (an array as long as the loop) becomes
an input of the body that the scan slices, and the index is not carried if nothing else
uses it. Same values (the index never leaves [0, length)); a smaller program.
"""
from jax.extend.core import ClosedJaxpr, Literal, Var


def hoist(closed, length):
    """(rewritten ClosedJaxpr whose inputs are (k, *slices, *rest), the arrays to scan
    over, whether k is still used). `closed` takes (k, *rest), k being the iteration
    count; what nothing uses any more is dropped."""
    jaxpr = closed.jaxpr
    k = jaxpr.invars[0]
    consts = dict(zip(jaxpr.constvars, closed.consts))
    defined = {v: eqn for eqn in jaxpr.eqns for v in eqn.outvars}
    used_by = {}
    for eqn in jaxpr.eqns:
        for v in eqn.invars:
            if isinstance(v, Var):
                used_by.setdefault(v, []).append(eqn)
    dropped, slices, sources = set(), [], []
    for eqn in jaxpr.eqns:
        if eqn.primitive.name != 'dynamic_slice':
            continue
        operand, *indices = eqn.invars
        users = used_by.get(eqn.outvars[0], [])
        if (operand not in consts or operand.aval.shape[:1] != (length,)
                or tuple(eqn.params['slice_sizes']) != (1, *operand.aval.shape[1:])
                or _base(indices[0], length, defined) is not k
                or not all(_literal(_base(i, n, defined), 0)
                           for i, n in zip(indices[1:], operand.aval.shape[1:]))
                or len(users) != 1 or users[0].primitive.name != 'squeeze'
                or tuple(users[0].params['dimensions']) != (0,)
                or eqn.outvars[0] in jaxpr.outvars):
            continue
        dropped |= {id(eqn), id(users[0])}
        slices.append(users[0].outvars[0])
        sources.append(consts[operand])
    eqns = _live([e for e in jaxpr.eqns if id(e) not in dropped], jaxpr.outvars)
    invars = [k, *slices, *jaxpr.invars[1:]]
    debug = jaxpr.debug_info._replace(arg_names=('',) * len(invars))
    new = jaxpr.replace(invars=invars, eqns=eqns, debug_info=debug)
    k_used = any(k in e.invars for e in eqns) or k in jaxpr.outvars
    return ClosedJaxpr(new, closed.consts), sources, k_used


def _base(var, size, defined):
    """What index `var` is, seen through retyping and JAX's negative-index normalisation
    `select(i < 0, i, i + size)` (a no-op for 0 <= i < size): a Var or a Literal."""
    while isinstance(var, Var) and var in defined:
        eqn = defined[var]
        name = eqn.primitive.name
        if name == 'convert_element_type' and eqn.params['new_dtype'] == var.aval.dtype:
            var = eqn.invars[0]
            continue
        if name != 'select_n':
            break
        test, index, shifted = eqn.invars
        test_eqn = defined.get(test) if isinstance(test, Var) else None
        add_eqn = defined.get(shifted) if isinstance(shifted, Var) else None
        if (test_eqn is None or test_eqn.primitive.name != 'lt'
                or test_eqn.invars[0] is not index or not _literal(test_eqn.invars[1], 0)
                or add_eqn is None or add_eqn.primitive.name != 'add'
                or _unconverted(add_eqn.invars[0], defined)
                is not _unconverted(index, defined)
                or not _literal(add_eqn.invars[1], size)):
            break
        var = index
    return var


def _unconverted(var, defined):
    """`var` before a retyping to its own dtype (JAX 0.7 drops the weak type of the
    index before `i + size`)."""
    eqn = defined.get(var) if isinstance(var, Var) else None
    if (eqn is not None and eqn.primitive.name == 'convert_element_type'
            and eqn.params['new_dtype'] == var.aval.dtype):
        return eqn.invars[0]
    return var


def _literal(var, value):
    return isinstance(var, Literal) and var.val == value


def _live(eqns, outvars):
    """`eqns` without those whose results nothing uses (and that have no effects)."""
    needed = {v for v in outvars if isinstance(v, Var)}
    kept = []
    for eqn in reversed(eqns):
        if eqn.effects or any(v in needed for v in eqn.outvars):
            kept.append(eqn)
            needed |= {v for v in eqn.invars if isinstance(v, Var)}
    return kept[::-1]
