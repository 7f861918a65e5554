"""The forms the code generator expects, from jaxprs written as JAX writes them: the rank-0
and size-1 operands that broadcasting elementwise primitives (`Primitive.broadcasting`,
`core/prims/elementwise.py`) take, as JAX's lax does (and `select_n`'s rank-0 predicate), each
become a `broadcast_in_dim` to the result's shape, as JAX's lowering to HLO makes them; a
`mul` given an `out_dtype` conversions of its operands and a `mul` (`explicit_mul_dtype`); the
AD interpreters' `add_any` an `add`; a sum over axes of size 1 (JAX's transpose of
`expand_dims`) a `reshape`; and the numpy ints of parameters (JAX's batching rules compute
some with numpy) ints. So `simplify`'s rewrites (the products moved out of scans match
gradient sums as `add`) and the code generator see operands of one shape, and the cost model
(`core/profiler/cost.py`) counts the broadcasts' bytes as XLA does. `composition_jaxpr` gives
what `jit` compiles for a primitive numbax composes (`Primitive.composition`), `physical_jaxpr`
what it compiles for an equation on PRNG keys (their data). Loads no back end.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core.avals import ShapedArray
from core.interpreters.partial_eval import trace_to_jaxpr
from core.ir import Eqn, Jaxpr, Literal, Var
from core.prims import elementwise, prng, reductions, shapes


def canonical(eqns: list[Eqn]) -> list[Eqn]:
    """`eqns` with every operand of a broadcasting elementwise equation
    (`Primitive.broadcasting`: `mul a 2.0:f32[]`, or `f32[1,3]` beside `f32[4,1]`) given the
    result's shape through a `broadcast_in_dim`, `add_any` as `add`, a `reduce_sum` over
    axes of size 1 only and a `broadcast_in_dim` that only inserts them (JAX's `expand_dims`
    and its transpose) as a `reshape`, and the numpy
    ints of parameters (`reduce_sum[axes=(np.int64(1),)]`) as ints."""
    out: list[Eqn] = []
    for eqn in eqns:
        if eqn.prim is elementwise.mul_p and eqn.params.get("out_dtype") is not None:
            *converts, eqn = explicit_mul_dtype(eqn)
            out += converts
        if any(_has_numpy_int(v) for v in eqn.params.values()):
            params = {k: _plain(v) for k, v in eqn.params.items()}
            eqn = Eqn(eqn.prim, eqn.inputs, params, eqn.outputs, eqn.source_info)
        if eqn.prim is elementwise.add_any_p:
            eqn = Eqn(elementwise.add_p, eqn.inputs, eqn.params, eqn.outputs, eqn.source_info)
        elif _only_unit_axes(eqn):
            params = {"new_sizes": eqn.outputs[0].aval.shape}
            eqn = Eqn(shapes.reshape_p, eqn.inputs, params, eqn.outputs, eqn.source_info)
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


def explicit_mul_dtype(eqn: Eqn) -> list[Eqn]:
    """A `mul` given an `out_dtype` (`lax.mul(x, y, out_dtype=...)`) as JAX lowers it: the
    conversions of its operands to the result's dtype (a literal converted here), then a `mul`
    of those (`out_dtype=None`).

    Args:
      eqn: the `mul` equation.

    Returns:
      The equations, the `mul` last.
    """
    dt = eqn.outputs[0].aval.dtype
    out, inputs = [], []
    for x in eqn.inputs:
        if x.aval.dtype != dt:
            aval = ShapedArray(x.aval.shape, dt, x.aval.weak_type)
            params = {"new_dtype": dt, "weak_type": aval.weak_type}
            if isinstance(x, Literal):
                value = shapes.convert_element_type_p.impl(np.asarray(x.val), **params)
                x = Literal(np.asarray(value), aval)
            else:
                out.append(
                    Eqn(shapes.convert_element_type_p, [x], params, [Var(aval)], eqn.source_info)
                )
                x = out[-1].outputs[0]
        inputs.append(x)
    params = {**eqn.params, "out_dtype": None}
    return [*out, Eqn(eqn.prim, inputs, params, eqn.outputs, eqn.source_info)]


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


def _only_unit_axes(eqn: Eqn) -> bool:
    """A `reduce_sum` over axes of size 1 (JAX's transpose of `expand_dims`) or a
    `broadcast_in_dim` that only inserts axes of size 1 (JAX's `expand_dims`): a reshape."""
    if eqn.prim is not reductions.reduce_sum_p and eqn.prim is not shapes.broadcast_in_dim_p:
        return False
    x, out = eqn.inputs[0].aval, eqn.outputs[0].aval
    if eqn.prim is reductions.reduce_sum_p:
        return all(x.shape[a] == 1 for a in eqn.params["axes"])
    if x.ndim:
        dims = eqn.params["broadcast_dimensions"]
        same = all(out.shape[d] == n for d, n in zip(dims, x.shape))
        return list(dims) == sorted(dims) and same and out.size == x.size
    return False


def _has_numpy_int(v: Any) -> bool:
    return isinstance(v, np.integer) or (type(v) is tuple and any(_has_numpy_int(x) for x in v))


def _plain(v: Any) -> Any:
    """`v` with the numpy ints in it (JAX's batching and transpose rules compute some
    parameters with numpy, as numbax's do to print as JAX does) made Python ints."""
    if isinstance(v, np.integer):
        return int(v)
    return tuple(_plain(x) for x in v) if type(v) is tuple else v


def composition_jaxpr(eqn: Eqn) -> Jaxpr:
    """The equations a primitive's `composition` binds (`Primitive.def_composition`: JAX's
    `split` as slices), traced on `eqn`'s operands' avals: what `jit` compiles and the cost
    model counts in its place."""
    prim, params = eqn.prim, eqn.params

    def fun(*xs):
        out = prim.composition(*xs, **params)
        return list(out) if prim.multiple_results else [out]

    jaxpr, consts = trace_to_jaxpr(fun, [x.aval for x in eqn.inputs], dce=False)
    if consts:
        raise AssertionError(f"the composition of {prim.name} closes over arrays")
    return jaxpr


def physical_jaxpr(eqn: Eqn) -> Jaxpr:
    """The equations computing `eqn`, which has key operands or results, on the keys' data
    (`core/prims/prng.py`'s physical rules), traced on the data's avals: what `jit` compiles
    in its place."""
    avals = [x.aval for x in eqn.inputs]

    def fun(*xs):
        out = prng.physical(eqn.prim, avals, list(xs), eqn.params)
        return list(out) if eqn.prim.multiple_results else [out]

    jaxpr, consts = trace_to_jaxpr(fun, [prng.physical_aval(a) for a in avals], dce=False)
    if consts:
        raise AssertionError(f"the physical rule of {eqn.prim.name} closes over arrays")
    return jaxpr
