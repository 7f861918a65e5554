"""The forms the code generator expects, from jaxprs written as JAX writes them: the rank-0
and size-1 operands that broadcasting elementwise primitives (`Primitive.broadcasting`,
`core/prims/elementwise.py`) take, as JAX's lax does (and `select_n`'s rank-0 predicate), each
become a `broadcast_in_dim` to the
result's shape, as JAX's lowering to HLO makes them, and the AD interpreters' `add_any` an
`add`. So `simplify`'s rewrites (the products moved out of scans match gradient sums as `add`)
and the code generator see operands of one shape, and the cost model (`core/profiler/cost.py`)
counts the broadcasts' bytes as XLA does. Loads no back end.
"""

from __future__ import annotations

import numpy as np

from core.avals import ShapedArray
from core.ir import Eqn, Literal, Var
from core.prims import elementwise, shapes


def canonical(eqns: list[Eqn]) -> list[Eqn]:
    """`eqns` with every operand of a broadcasting elementwise equation
    (`Primitive.broadcasting`: `mul a 2.0:f32[]`, or `f32[1,3]` beside `f32[4,1]`) given the
    result's shape through a `broadcast_in_dim`, and `add_any` as `add`."""
    out: list[Eqn] = []
    for eqn in eqns:
        if eqn.prim is elementwise.add_any_p:
            eqn = Eqn(elementwise.add_p, eqn.inputs, eqn.params, eqn.outputs, eqn.source_info)
        broadcasting = eqn.prim.broadcasting or eqn.prim is elementwise.select_n_p
        shape = eqn.outputs[0].aval.shape if broadcasting else None
        if shape is None or all(x.aval.shape == shape for x in eqn.inputs):
            out.append(eqn)
            continue
        inputs = []
        for x in eqn.inputs:
            aval = x.aval
            if aval.shape != shape:
                full = Var(ShapedArray(shape, aval.dtype, aval.weak_type))
                dims = tuple(range(aval.ndim)) if aval.ndim else ()
                params = {"shape": shape, "broadcast_dimensions": dims}
                out.append(Eqn(shapes.broadcast_in_dim_p, [x], params, [full], eqn.source_info))
                x = full
            inputs.append(x)
        out.append(Eqn(eqn.prim, inputs, eqn.params, eqn.outputs, eqn.source_info))
    return out


def fold_constant_converts(eqns: list[Eqn], outvars: list) -> list[Eqn]:
    """A `convert_element_type` of a literal becomes the converted literal, as XLA folds
    constants (a library function's jit takes a Python scalar as a weakly typed operand and
    converts it inside: `jnp.clip(x, 0, 1)`, `core/jit/library.py`); a program output stays."""
    outputs = {v for v in outvars if isinstance(v, Var)}
    rename: dict[Var, Literal] = {}
    out = []
    for e in eqns:
        ins = [rename.get(x, x) if isinstance(x, Var) else x for x in e.inputs]
        if (
            e.prim is shapes.convert_element_type_p
            and isinstance(ins[0], Literal)
            and e.outputs[0] not in outputs
        ):
            value = shapes.convert_element_type_p.impl(np.asarray(ins[0].val), **e.params)
            rename[e.outputs[0]] = Literal(np.asarray(value), e.outputs[0].aval)
            continue
        out.append(Eqn(e.prim, ins, e.params, e.outputs, e.source_info) if ins != e.inputs else e)
    return out
