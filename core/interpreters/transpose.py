"""Reverse mode: transposing a linear jaxpr (JAX's `backward_pass`).

`backward_pass(jaxpr, consts, args, cts_out)` walks a jaxpr whose linear inputs are marked
`UndefinedPrimal`. Equations that do not depend on a linear input are evaluated forward first
(they compute residual-like values under the current trace); the others are visited in reverse
and each primitive's transpose rule turns the cotangent of its output into cotangents of its
linear inputs. Cotangents accumulate by addition; a missing one is the symbolic `Zero`.

Weak types follow JAX 0.10's rule: a tangent has its primal's weak type (a Python-float input
has weak tangents and weak instantiated zeros), and a cotangent has the type of the value that
flows back, not of the linear program's variable: `grad` seeds `ones_like(out)` (weak only for
a weak output), `vjp` takes the caller's, and an undefined input keeps the aval its caller gives
(`UndefinedPrimal`). So a loop's transpose types its carry by the incoming cotangent
(`core/prims/control_flow/scan.py`), and a `convert_element_type` back to a type the cotangent
already has records nothing (`core/prims/shapes.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core import errors, ir, source_info
from core.ad_util import Zero, add_any, ops
from core.avals import ShapedArray
from core.trace import get_aval


class UndefinedPrimal:
    """Marks a linear input of a primitive being transposed (its value is not known)."""

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    def __repr__(self) -> str:  # JAX's
        return f"UndefinedPrimal({self.aval})"


def is_undefined(x: Any) -> bool:
    return type(x) is UndefinedPrimal


def check_one_linear(name: str, x: Any, y: Any) -> None:
    """The check of a bilinear primitive's transpose rule (`mul`, `dot_general`): only one of
    its operands may be linear, else the function transposed is not linear (JAX asserts)."""
    if is_undefined(x) and is_undefined(y):
        raise errors.NonlinearTransposeError(
            f"cannot transpose {name} of two linear values ({x.aval.str_short()} and "
            f"{y.aval.str_short()}): the function is not linear in its arguments\nTranspose "
            "a function linear in its inputs (close over constant factors), or use `vjp`."
        )


def unbroadcast(aval: ShapedArray, ct: Any) -> Any:
    """The cotangent `ct` of a broadcast operand of `aval`'s shape (a rank-0 or size-1
    operand of a broadcasting elementwise primitive, `Primitive.broadcasting`): summed over the
    axes the primitive broadcast it along, as JAX's `_unbroadcast`."""
    shape = get_aval(ct).shape
    if shape == aval.shape:
        return ct
    if not aval.shape:
        return ops.reduce_sum(ct, tuple(range(len(shape))))
    axes = tuple(i for i, (a, b) in enumerate(zip(aval.shape, shape)) if a != b)
    return ops.reshape(ops.reduce_sum(ct, axes), aval.shape)


def backward_pass(
    jaxpr: ir.Jaxpr,
    consts: Sequence[Any],
    args: Sequence[Any],
    cts_out: Sequence[Any],
    cts_in: Sequence[Any] | None = None,
) -> list[Any]:
    """Returns the cotangents of the `UndefinedPrimal` entries of `args` (Zero when none).

    `cts_in` (one entry per input, None for none) are cotangents the inputs already have, to
    which the pass adds theirs as it writes them (JAX's accumulators: a transposed loop body
    adds each const's cotangent to the sum carried so far where it is computed)."""
    primal_env: dict[ir.Var, Any] = {}
    linear: set[ir.Var] = set()

    def read_primal(x: ir.Atom) -> Any:
        if isinstance(x, ir.Literal):
            return x.as_array()
        if x in linear:
            undefined = primal_env.get(x)
            return UndefinedPrimal(x.aval) if undefined is None else undefined
        return primal_env[x]

    primal_env.update(zip(jaxpr.constvars, consts, strict=True))
    for v, a in zip(jaxpr.invars, args, strict=True):
        # an undefined input keeps the caller's aval (JAX's accumulators): a loop's transpose
        # types its carry by the incoming cotangent, whose weak type may not be the body's
        primal_env[v] = a
        if is_undefined(a):
            linear.add(v)

    linear_eqns = []
    for eqn in jaxpr.eqns:
        if any(isinstance(x, ir.Var) and x in linear for x in eqn.inputs):
            linear.update(eqn.outputs)
            linear_eqns.append(eqn)
        else:
            with source_info.use(eqn.source_info):
                out = eqn.prim.bind(*[read_primal(x) for x in eqn.inputs], **eqn.params)
            outs = out if eqn.prim.multiple_results else [out]
            primal_env.update(zip(eqn.outputs, outs, strict=True))

    ct_env: dict[ir.Var, Any] = {}

    def write_ct(v: ir.Atom, ct: Any) -> None:
        if isinstance(v, ir.Var) and v in linear and ct is not None and type(ct) is not Zero:
            ct = unbroadcast(v.aval, ct)
            ct_env[v] = add_any(ct_env[v], ct) if v in ct_env else ct

    def read_ct(v: ir.Var) -> Any:
        return ct_env.pop(v, Zero(v.aval))

    for v, ct in zip(jaxpr.invars, cts_in or [None] * len(jaxpr.invars), strict=True):
        write_ct(v, ct)
    for v, ct in zip(jaxpr.outvars, cts_out, strict=True):
        write_ct(v, ct)
    for eqn in reversed(linear_eqns):
        cts = [read_ct(v) for v in eqn.outputs]
        if all(type(c) is Zero for c in cts):
            continue
        if eqn.prim.transpose is None:
            raise errors.PrimitiveRuleError(eqn.prim.name, "transpose")
        ct_arg = cts if eqn.prim.multiple_results else cts[0]
        with source_info.use(source_info.transposed(eqn.source_info)):
            cts_in = eqn.prim.transpose(ct_arg, *[read_primal(x) for x in eqn.inputs], **eqn.params)
        for x, ct in zip(eqn.inputs, cts_in, strict=True):
            write_ct(x, ct)
    return [read_ct(v) if is_undefined(a) else None for v, a in zip(jaxpr.invars, args)]
