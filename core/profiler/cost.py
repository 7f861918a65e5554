"""What one equation costs: FLOPs, transcendental operations and bytes, as XLA counts them.

The rules follow XLA's `HloCostAnalysis` on the unoptimized program (what `jax.jit(f).lower(
*args).cost_analysis()` reports, checked against it in the tests): an elementwise operation is
one FLOP per output element, except transcendental functions (exp, log, tanh, sqrt, ...) which
count as transcendentals instead; `integer_pow` is its multiplications (x**3: 2 per element);
a reduction `in - out` FLOPs; `dot_general` 2 FLOPs per multiply-add; a convolution 2 FLOPs per
multiply-add over the taps that fall inside the (unpadded) input; `reduce_window` and the
cumulative reductions `window - 1` per output element; layout operations (reshape, transpose,
broadcast, slice, pad, gather, ...) none. Operations without a rule (sorts, decompositions,
callbacks, control flow) report `flops=None`: "not known", not zero.

Bytes are the sizes of the distinct operands read and results written, a reduction's initial
value included (XLA's "bytes accessed" before fusion; inside a fused loop the compiled program
touches less memory). `jaxpr_cost` sums them over a program, as `cost_analysis()` reports them.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from core.interpreters.partial_eval import dce_jaxpr
from core.ir import Eqn, Jaxpr, Literal
from core.jit.canonical import (
    canonical,
    composition_jaxpr,
    fold_constant_converts,
    physical_jaxpr,
)
from core.jit.errors import LoweringError
from core.jit.fusion import ELEMENTWISE, SCALAR, classify
from core.prims import prng

_TRANSCENDENTAL = frozenset(
    [
        "exp",
        "exp2",
        "expm1",
        "log",
        "log1p",
        "tanh",
        "sin",
        "cos",
        "tan",
        "asin",
        "acos",
        "atan",
        "atan2",
        "sinh",
        "cosh",
        "asinh",
        "acosh",
        "atanh",
        "sqrt",
        "rsqrt",
        "cbrt",
        "pow",
        "erf",
        "erf_inv",
        "lgamma",
        "digamma",
        "polygamma",
    ]
)
_FREE = frozenset(
    [
        "broadcast_in_dim",
        "reshape",
        "squeeze",
        "transpose",
        "rev",
        "slice",
        "iota",
        "pad",
        "concatenate",
        "stack",
        "point_gather",
        "dynamic_slice",
        "dynamic_update_slice",
        "stop_gradient",
        "axis_index",
    ]
)
_REDUCTIONS = frozenset(
    [
        "reduce_sum",
        "reduce_max",
        "reduce_min",
        "reduce_prod",
        "reduce_and",
        "reduce_or",
        "argmax",
        "argmin",
    ]
)
_CUMULATIVE = frozenset(["cumsum", "cumprod", "cummax", "cummin"])
_WINDOWED = frozenset(["reduce_window_sum", "reduce_window_max", "reduce_window_min"])
_LOGISTIC = (3, 1)  # 1 / (1 + exp(-x)): neg, add, div and one exp per element


class Cost(NamedTuple):
    """The cost of one equation (`flops`/`transcendentals` None when not known)."""

    flops: int | None
    transcendentals: int | None
    bytes_read: int
    bytes_written: int


def _size(aval) -> int:
    return math.prod(aval.shape)


def _nbytes(aval) -> int:
    return _size(aval) * aval.dtype.itemsize  # a key dtype's: its data's


def _pow_multiplies(y: int) -> int:
    """Multiplications of exponentiation by squaring (XLA's integer_pow), plus a division for
    negative exponents."""
    n = abs(int(y))
    if n <= 1:
        return 0 if y >= 0 else 1
    return n.bit_length() - 1 + bin(n).count("1") - 1 + (1 if y < 0 else 0)


def _conv_taps(eqn: Eqn) -> int:
    """Sum over output positions of the kernel taps reading real (not padding) input."""
    lhs, rhs = eqn.inputs[0].aval.shape, eqn.inputs[1].aval.shape
    dn = eqn.params["dimension_numbers"]
    out = eqn.outputs[0].aval.shape
    total = 1
    for i, (lo, _) in enumerate(eqn.params["padding"]):
        n_in = lhs[dn.lhs_spec[2 + i]]
        k = rhs[dn.rhs_spec[2 + i]]
        n_out = out[dn.out_spec[2 + i]]
        stride = eqn.params["window_strides"][i]
        ld, rd = eqn.params["lhs_dilation"][i], eqn.params["rhs_dilation"][i]
        dilated_in = (n_in - 1) * ld + 1
        count = 0
        for o in range(n_out):
            for t in range(k):
                pos = o * stride + t * rd - lo
                count += 0 <= pos < dilated_in and pos % ld == 0
        total *= count
    return total


def _flops(eqn: Eqn) -> tuple[int | None, int | None]:
    name = eqn.prim.name
    out = eqn.outputs[0].aval if eqn.outputs else None
    if name in _FREE:
        return 0, 0
    if name in _TRANSCENDENTAL:
        return 0, _size(out)
    if name == "logistic":
        return _LOGISTIC[0] * _size(out), _LOGISTIC[1] * _size(out)
    if name == "integer_pow":
        return _pow_multiplies(eqn.params["y"]) * _size(out), 0
    if name in _REDUCTIONS:
        return _size(eqn.inputs[0].aval) - _size(out), 0
    if name in _CUMULATIVE:
        return _size(out) * (out.shape[eqn.params["axis"]] - 1), 0
    if name in _WINDOWED:
        return _size(out) * (math.prod(eqn.params["window_dimensions"]) - 1), 0
    if name == "dot_general":
        (lc, _), _ = eqn.params["dimension_numbers"]
        lhs = eqn.inputs[0].aval.shape
        return 2 * _size(out) * math.prod(lhs[d] for d in lc), 0
    if name == "conv_general_dilated":
        dn = eqn.params["dimension_numbers"]
        rhs = eqn.inputs[1].aval.shape
        batch = out.shape[dn.out_spec[0]] // eqn.params["batch_group_count"]
        out_features = rhs[dn.rhs_spec[0]]
        in_features = rhs[dn.rhs_spec[1]]  # already per feature group
        return 2 * batch * out_features * in_features * _conv_taps(eqn), 0
    if name == "point_scatter":
        combines = eqn.params["kind"] != "set"  # add/mul/min/max: one per update
        return (_size(eqn.inputs[2].aval) if combines else 0), 0
    if name != "threefry2x32" and _is_elementwise(eqn):
        return _size(out), 0
    return None, None


def _is_identity(eqn: Eqn) -> bool:
    """Whether XLA's algebraic simplifier removes `eqn` before counting it: `x * 1`, `1 * x`,
    `x + 0`, `0 + x` and `x - 0` with a literal 1 or 0 and `x` of the result's shape and dtype
    (`elu`'s `alpha * expm1(...)` at alpha 1 costs nothing, nor reads or writes)."""
    name = eqn.prim.name
    if name not in ("mul", "add", "sub") or len(eqn.inputs) != 2 or len(eqn.outputs) != 1:
        return False
    unit = 1 if name == "mul" else 0
    out = eqn.outputs[0].aval
    for i in (1,) if name == "sub" else (0, 1):
        literal, other = eqn.inputs[i], eqn.inputs[1 - i]
        if (
            isinstance(literal, Literal)
            and not isinstance(other, Literal)
            and (other.aval.shape, other.aval.dtype) == (out.shape, out.dtype)
            and np.all(np.asarray(literal.val) == unit)
        ):
            return True
    return False


def _is_elementwise(eqn: Eqn) -> bool:
    """Whether the compiled back end runs `eqn` as a scalar expression per element."""
    try:
        return classify(eqn) in (ELEMENTWISE, SCALAR)
    except LoweringError:
        return False


def equation_cost(eqn: Eqn) -> Cost:
    """The FLOPs, transcendentals and bytes of one equation (see the module docstring).

    Args:
      eqn: a jaxpr equation.

    Returns:
      Its `Cost`.
    """
    flops, transcendentals = _flops(eqn)
    seen: set = set()
    read = 0
    for x in eqn.inputs:
        if isinstance(x, Literal):
            read += np.dtype(x.aval.dtype).itemsize
        elif x not in seen:
            seen.add(x)
            read += _nbytes(x.aval)
    if eqn.prim.name in _REDUCTIONS and eqn.outputs:  # XLA's reduce reads its initial value
        read += np.dtype(eqn.outputs[0].aval.dtype).itemsize
    written = sum(_nbytes(v.aval) for v in eqn.outputs)
    return Cost(flops, transcendentals, read, written)


_CALL_PARAMS = {
    "jit": "jaxpr",
    "custom_jvp_call": "call_jaxpr",
    "custom_vjp_call": "call_jaxpr",
    "custom_vmap_call": "call_jaxpr",
    "remat2": "jaxpr",
}


def _inner_jaxprs(eqn: Eqn) -> list | None:
    """The programs whose costs an equation's are, as XLA counts them: a call's callee; a loop's
    body (and a while loop's condition) once, whatever the trip count; every branch of a
    `cond`. None for other equations."""
    name, params = eqn.prim.name, eqn.params
    if (
        getattr(eqn.prim, "composition", None) is not None
    ):  # XLA counts what JAX lowers it to: the composition
        return [composition_jaxpr(eqn)]
    if prng.touches_keys(eqn):  # and keys: as their data
        return [physical_jaxpr(eqn)]
    if name in _CALL_PARAMS:
        return [params[_CALL_PARAMS[name]]]
    if name == "scan":
        return [params["jaxpr"]]
    if name == "while":
        return [params["cond_jaxpr"], params["body_jaxpr"]]
    if name == "cond":
        return list(params["branches"])
    return None


def _with_literal_operands(callee: Jaxpr, operands: list) -> Jaxpr:
    """A callee reading its call's literal operands as literals, their conversions folded, as
    XLA inlines the call and folds them (`jnp.where(p, x, 1.0)` converts the weak 1.0 inside
    its jit)."""
    rename = {v: x for v, x in zip(callee.invars, operands) if isinstance(x, Literal)}
    if not rename:
        return callee
    eqns = [
        Eqn(e.prim, [rename.get(x, x) for x in e.inputs], e.params, e.outputs, e.source_info)
        for e in callee.eqns
    ]
    outvars = [rename.get(v, v) for v in callee.outvars]
    return Jaxpr(callee.constvars, callee.invars, fold_constant_converts(eqns, outvars), outvars)


def jaxpr_cost(jaxpr: Jaxpr) -> dict[str, float]:
    """XLA's cost estimate of a whole jaxpr, as `jax.jit(f).lower(...).cost_analysis()` gives it:
    "flops", "transcendentals" and "bytes accessed" (calls counted through, loop bodies once and
    every branch of a `cond`, as XLA counts them; equations without a rule count 0; as XLA,
    equations whose outputs are unused and multiplications by 1 and additions of 0 (which its
    simplifier removes) are not counted, and a zero count is left out).

    Args:
      jaxpr: the program.

    Returns:
      The counts by XLA's names.
    """
    flops = transcendentals = nbytes = 0
    # JAX lowers a rank-0 or size-1 operand of an elementwise primitive to an HLO broadcast,
    # whose bytes XLA counts
    for eqn in canonical([e for e in dce_jaxpr(jaxpr).eqns if not _is_identity(e)]):
        inner = _inner_jaxprs(eqn)
        if inner is not None:
            for sub in inner:
                sub = getattr(sub, "jaxpr", sub)
                if eqn.prim.name in _CALL_PARAMS:
                    sub = _with_literal_operands(sub, eqn.inputs)
                counts = jaxpr_cost(sub)
                flops += counts.get("flops", 0)
                transcendentals += counts.get("transcendentals", 0)
                nbytes += counts.get("bytes accessed", 0)
            continue
        cost = equation_cost(eqn)
        flops += cost.flops or 0
        transcendentals += cost.transcendentals or 0
        nbytes += cost.bytes_read + cost.bytes_written
    counts = {"flops": flops, "transcendentals": transcendentals, "bytes accessed": nbytes}
    return {k: float(v) for k, v in counts.items() if v}


def jaxpr_flops(jaxpr: Jaxpr) -> int:
    """The FLOPs of a whole jaxpr (calls counted through; unknown equations count 0), as
    `jax.jit(f).lower(...).cost_analysis()['flops']`.

    Args:
      jaxpr: the program.

    Returns:
      The FLOP count.
    """
    return int(jaxpr_cost(jaxpr).get("flops", 0))
