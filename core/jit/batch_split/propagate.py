"""Sharding propagation over a jaxpr for one device axis and the batch dimension.

Every variable gets a state: replicated (`R`: each device holds the whole value), split along
axis `k` (an int: device `d` holds the `d`-th of `n` equal blocks of that axis), or a partial
sum (`P`: each device holds a part, the value is their sum). The inputs that hold the batch are
seeded split; one forward pass over the equations gives each equation the states it wants of
its inputs and the states of its outputs, by one rule per primitive (`RULES`). An input whose
state is not the wanted one is converted (R->S a local slice, S->R an all_gather, P->R a psum,
R->P device 0 keeps the value); the elementwise primitives (`Primitive.elementwise`) share one
rule, and any other primitive without a rule takes its inputs replicated, which is always
correct. A partial sum flows only through linear operations.

Each split variable remembers the seeds it came from; when a split value has to be gathered
(it met an operation that cannot take it split), its seeds are in conflict: `split_plan`
drops them and propagates again (a bias of shape `(B,)` that is the batch's size by
coincidence). `scan` carries are found by a fixpoint over the body; `cond`'s outputs join its
branches' states.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from core import ir

__all__ = ["P", "R", "Plan", "State", "local_shape", "propagate"]

R = "R"
P = "P"
State = Any  # R, P, or an int: the split axis


def local_shape(shape: tuple, state: State, n: int) -> tuple:
    """The per-device shape of a value of `shape` in `state` on `n` devices."""
    if isinstance(state, int):
        return (*shape[:state], shape[state] // n, *shape[state + 1 :])
    return tuple(shape)


@dataclass
class Step:
    """What one equation does: the states it wants of its inputs, those of its outputs, for
    `scan` the plan of its body (`cond`: of its branches) and the states its body's outputs
    leave in; `reduce` names
    the collective a split reduction ends with (`pmax`, `pmin`)."""

    want: list
    outs: list
    body: Plan | None = None
    body_out: list | None = None
    branches: list | None = None
    reduce: str | None = None


@dataclass
class Plan:
    """The states of a jaxpr's variables and what each equation does, on `n` devices."""

    n: int
    states: dict = field(default_factory=dict)
    origins: dict = field(default_factory=dict)
    steps: list = field(default_factory=list)
    conflicts: set = field(default_factory=set)
    conversions: int = 0  # collectives the conversions add (psum, all_gather)

    def state(self, x: Any) -> State:
        return R if isinstance(x, ir.Literal) else self.states.get(x, R)


def _divides(size: int, n: int) -> bool:
    return size % n == 0 and size >= n


# ---------------------------------------------------------------------------------------------
# The rules: (eqn, input states, devices) -> Step


def _replicated(eqn: ir.Eqn, states: list, n: int) -> Step:
    return Step([R] * len(states), [R] * len(eqn.outputs))


_LINEAR_UNARY = {
    "neg",
    "copy",
    "copy_p",
    "stop_gradient",
    "real",
    "imag",
    "conj",
    "reduce_precision",
}
_ADDITIVE = {"add", "sub", "add_any"}


def _is_float(aval: Any) -> bool:
    return np.issubdtype(np.dtype(aval.dtype), np.inexact)


def _elementwise(eqn: ir.Eqn, states: list, n: int) -> Step:
    arrays = [k for k, x in enumerate(eqn.inputs) if x.aval.ndim > 0]
    split = [states[k] for k in arrays if isinstance(states[k], int)]
    out_rank = eqn.outputs[0].aval.ndim
    if split and out_rank:
        axis = split[0]
        # an operand of size 1 along the axis broadcasts (numbax's elementwise rank promotion)
        want = [
            axis if k in arrays and eqn.inputs[k].aval.shape[axis] != 1 else R
            for k in range(len(states))
        ]
        return Step(want, [axis] * len(eqn.outputs))
    partial = [k for k in arrays if states[k] == P]
    if partial and len(eqn.outputs) == 1 and _is_float(eqn.outputs[0].aval):
        name = eqn.prim.name
        others = [k for k in range(len(states)) if k not in partial]
        linear = (
            (name in _LINEAR_UNARY and len(states) == 1)
            or (name == "convert_element_type" and _is_float(eqn.inputs[0].aval))
            or (name in _ADDITIVE and not others and len(arrays) == len(states))
            or (name == "mul" and len(partial) == 1)
            or (name == "div" and partial == [0])
        )
        if linear:
            return Step([P if k in partial else R for k in range(len(states))], [P])
    return _replicated(eqn, states, n)


def _broadcast_in_dim(eqn: ir.Eqn, states: list, n: int) -> Step:
    s = states[0]
    dims = eqn.params["broadcast_dimensions"]
    extra = [R] * (len(states) - 1)
    if isinstance(s, int) and eqn.params["shape"][dims[s]] == eqn.inputs[0].aval.shape[s]:
        return Step([s, *extra], [dims[s]])
    if s == P and math.prod(eqn.params["shape"]) == eqn.inputs[0].aval.size:
        return Step([P, *extra], [P])
    # a partial sum broadcast to a larger shape: summed first, where it is small (BatchNorm's
    # gradient of the batch mean, broadcast over the batch)
    return _replicated(eqn, states, n)


def _reshape(eqn: ir.Eqn, states: list, n: int) -> Step:
    s = states[0]
    if s == P:
        return Step([P] + [R] * (len(states) - 1), [P])
    if not isinstance(s, int) or eqn.params.get("dimensions") is not None:
        return _replicated(eqn, states, n)
    shape, out = eqn.inputs[0].aval.shape, eqn.outputs[0].aval.shape
    before = math.prod(shape[:s])
    for j in range(len(out)):
        if math.prod(out[:j]) == before and _divides(out[j], n):
            return Step([s], [j])
    return _replicated(eqn, states, n)


def _transpose(eqn: ir.Eqn, states: list, n: int) -> Step:
    s = states[0]
    if isinstance(s, int):
        return Step([s], [list(eqn.params["permutation"]).index(s)])
    return Step([s], [s])


def _squeeze(eqn: ir.Eqn, states: list, n: int) -> Step:
    s = states[0]
    dims = [d % eqn.inputs[0].aval.ndim for d in eqn.params["dimensions"]]
    if isinstance(s, int):
        return Step([s], [s - sum(d < s for d in dims)])
    return Step([s], [s])


def _reduce_sum(eqn: ir.Eqn, states: list, n: int) -> Step:
    s = states[0]
    axes = eqn.params["axes"]
    if isinstance(s, int):
        return Step([s], [P if s in axes else s - sum(a < s for a in axes)])
    return Step([s], [s])


def _reduce_extreme(kind: str) -> Callable:
    def rule(eqn: ir.Eqn, states: list, n: int) -> Step:
        s = states[0]
        axes = eqn.params["axes"]
        if isinstance(s, int):
            if s in axes:
                return Step([s], [R], reduce=kind)
            return Step([s], [s - sum(a < s for a in axes)])
        return _replicated(eqn, states, n)

    return rule


def _reduce_keeping(eqn: ir.Eqn, states: list, n: int) -> Step:
    """A reduction over `axes` that a split axis can only pass through (argmax...)."""
    s = states[0]
    axes = eqn.params["axes"]
    if isinstance(s, int) and s not in axes:
        return Step([s], [s - sum(a < s for a in axes)])
    return _replicated(eqn, states, n)


def _along_axis(eqn: ir.Eqn, states: list, n: int) -> Step:
    """cumsum and its kin: a split axis other than `axis` passes through."""
    s = states[0]
    if isinstance(s, int) and s != eqn.params["axis"]:
        return Step([s], [s])
    if s == P and eqn.prim.name == "cumsum":
        return Step([P], [P])
    return _replicated(eqn, states, n)


def _rev(eqn: ir.Eqn, states: list, n: int) -> Step:
    s = states[0]
    if (isinstance(s, int) and s not in eqn.params["dimensions"]) or s == P:
        return Step([s], [s])
    return _replicated(eqn, states, n)


def _dot_general(eqn: ir.Eqn, states: list, n: int) -> Step:
    (lc, rc), (lb, rb) = eqn.params["dimension_numbers"]
    ls, rs = states[:2]
    lhs, rhs = eqn.inputs[:2]
    if ls == P and rs == R or ls == R and rs == P:
        return Step([ls, rs], [P])
    lfree = [d for d in range(lhs.aval.ndim) if d not in lc and d not in lb]
    rfree = [d for d in range(rhs.aval.ndim) if d not in rc and d not in rb]

    def paired(s: int, mine: tuple, other: tuple, free: list, offset: int, left: bool):
        if s in mine[1]:  # a batch dimension: the other side's partner splits too
            i = list(mine[1]).index(s)
            o = other[1][i]
            return ([s, o] if left else [o, s]), i
        if s in mine[0]:
            i = list(mine[0]).index(s)
            o = other[0][i]
            return ([s, o] if left else [o, s]), P
        return ([s, R] if left else [R, s]), offset + free.index(s)

    if isinstance(ls, int):
        want, out = paired(ls, (lc, lb), (rc, rb), lfree, len(lb), True)
    elif isinstance(rs, int):
        want, out = paired(rs, (rc, rb), (lc, lb), rfree, len(lb) + len(lfree), False)
    else:
        return _replicated(eqn, states, n)
    return Step(want, [out])


def _conv(eqn: ir.Eqn, states: list, n: int) -> Step:
    dn = eqn.params["dimension_numbers"]
    ls, rs = states[:2]
    if eqn.params["feature_group_count"] != 1 or eqn.params["batch_group_count"] != 1:
        return _replicated(eqn, states, n)
    lhs_spec, rhs_spec, out_spec = dn.lhs_spec, dn.rhs_spec, dn.out_spec
    if ls == lhs_spec[0]:
        return Step([ls, R], [out_spec[0]])
    if ls == lhs_spec[1] or rs == rhs_spec[1]:  # a kernel's gradient: contracted over the batch
        return Step([lhs_spec[1], rhs_spec[1]], [P])
    if ls == P and rs == R:
        return Step([P, R], [P])
    return _replicated(eqn, states, n)


def _window(eqn: ir.Eqn, states: list, n: int) -> Step:
    """reduce_window_*, select_and_scatter_add...: an axis whose window is one element."""
    s = next((x for x in states if isinstance(x, int)), None)
    p = eqn.params
    if s is not None:
        pad = p.get("padding", ())
        ok = p["window_dimensions"][s] == 1 and p["window_strides"][s] == 1
        ok = ok and (not pad or tuple(pad[s]) == (0, 0))
        for key in ("base_dilation", "window_dilation"):
            ok = ok and (key not in p or p[key][s] == 1)
        arrays = [k for k, x in enumerate(eqn.inputs) if x.aval.ndim == eqn.outputs[0].aval.ndim]
        if ok:
            return Step([s if k in arrays else R for k in range(len(states))], [s])
    if eqn.prim.name == "reduce_window_sum" and states[0] == P:
        return Step([P], [P])
    return _replicated(eqn, states, n)


def _concatenate(eqn: ir.Eqn, states: list, n: int) -> Step:
    s = next((x for x in states if isinstance(x, int)), None)
    if s is not None and s != eqn.params["dimension"]:
        return Step([s] * len(states), [s])
    return _replicated(eqn, states, n)


def _pad(eqn: ir.Eqn, states: list, n: int) -> Step:
    s = states[0]
    if isinstance(s, int) and tuple(eqn.params["padding_config"][s]) == (0, 0, 0):
        return Step([s, R], [s])
    return _replicated(eqn, states, n)


def _slice(eqn: ir.Eqn, states: list, n: int) -> Step:
    s = states[0]
    p = eqn.params
    if isinstance(s, int):
        strides = p.get("strides")
        whole = p["start_indices"][s] == 0 and p["limit_indices"][s] == eqn.inputs[0].aval.shape[s]
        if whole and (strides is None or strides[s] == 1):
            return Step([s], [s])
    return _replicated(eqn, states, n)


def _dynamic_slice(eqn: ir.Eqn, states: list, n: int) -> Step:
    """A split axis the slice takes whole (its start index clamps to 0) passes through."""
    s = states[0]
    if isinstance(s, int) and eqn.params["slice_sizes"][s] == eqn.inputs[0].aval.shape[s]:
        return Step([s] + [R] * (len(states) - 1), [s])
    return _replicated(eqn, states, n)


def _dynamic_update_slice(eqn: ir.Eqn, states: list, n: int) -> Step:
    """An update as long as the operand along the split axis passes it through."""
    s = next((x for x in states[:2] if isinstance(x, int)), None)
    operand, update = eqn.inputs[:2]
    if s is not None and update.aval.shape[s] == operand.aval.shape[s]:
        return Step([s, s] + [R] * (len(states) - 2), [s])
    return _replicated(eqn, states, n)


def _gather(eqn: ir.Eqn, states: list, n: int) -> Step:
    dn = eqn.params["dimension_numbers"]
    os_, is_ = states[:2]
    operand, indices = eqn.inputs[:2]
    out_rank = eqn.outputs[0].aval.ndim
    batch_out = [d for d in range(out_rank) if d not in dn.offset_dims]
    index_batch = list(range(indices.aval.ndim - 1))  # the index vector is the last axis
    extra = [R] * (len(states) - 2)
    if isinstance(is_, int) and is_ < indices.aval.ndim - 1:
        if is_ in dn.start_indices_batching_dims:
            partner = dn.operand_batching_dims[list(dn.start_indices_batching_dims).index(is_)]
            return Step([partner, is_, *extra], [batch_out[index_batch.index(is_)]])
        return Step([R, is_, *extra], [batch_out[index_batch.index(is_)]])
    if isinstance(os_, int):
        if os_ in dn.operand_batching_dims:
            partner = dn.start_indices_batching_dims[list(dn.operand_batching_dims).index(os_)]
            return Step([os_, partner, *extra], [batch_out[index_batch.index(partner)]])
        window = [
            d
            for d in range(operand.aval.ndim)
            if d not in dn.collapsed_slice_dims and d not in dn.operand_batching_dims
        ]
        whole = eqn.params["slice_sizes"][os_] == operand.aval.shape[os_]
        if os_ in window and os_ not in dn.start_index_map and whole:
            return Step([os_, R, *extra], [dn.offset_dims[window.index(os_)]])
    return _replicated(eqn, states, n)


def _scatter_add(eqn: ir.Eqn, states: list, n: int) -> Step:
    dn = eqn.params["dimension_numbers"]
    os_, is_, us = states[:3]
    operand, indices, updates = eqn.inputs[:3]
    update_batch = [d for d in range(updates.aval.ndim) if d not in dn.update_window_dims]
    window = [
        d
        for d in range(operand.aval.ndim)
        if d not in dn.inserted_window_dims and d not in dn.operand_batching_dims
    ]
    nidx = indices.aval.ndim - 1
    if isinstance(is_, int) and is_ < nidx or isinstance(us, int) and us in update_batch:
        k = is_ if isinstance(is_, int) and is_ < nidx else update_batch.index(us)
        if k in dn.scatter_indices_batching_dims:
            partner = dn.operand_batching_dims[list(dn.scatter_indices_batching_dims).index(k)]
            return Step([partner, k, update_batch[k]], [partner])
        if os_ != P and operand.aval.dtype == updates.aval.dtype and _is_float(operand.aval):
            return Step([P, k, update_batch[k]], [P])  # the embedding's gradient
    if isinstance(os_, int) and os_ in window and os_ not in dn.scatter_dims_to_operand_dims:
        return Step([os_, R, dn.update_window_dims[window.index(os_)]], [os_])
    if os_ == P and us == P and is_ == R:
        return Step([P, R, P], [P])
    return _replicated(eqn, states, n)


# The rules by primitive name; an elementwise primitive (`Primitive.elementwise`) without one
# takes `_elementwise`, any other `_replicated`.
RULES: dict[str, Callable[[ir.Eqn, list, int], Step]] = {
    "broadcast_in_dim": _broadcast_in_dim,
    "reshape": _reshape,
    "transpose": _transpose,
    "squeeze": _squeeze,
    "reduce_sum": _reduce_sum,
    "reduce_max": _reduce_extreme("pmax"),
    "reduce_min": _reduce_extreme("pmin"),
    "argmax": _reduce_keeping,
    "argmin": _reduce_keeping,
    "reduce_prod": _reduce_keeping,
    "reduce_and": _reduce_keeping,
    "reduce_or": _reduce_keeping,
    "cumsum": _along_axis,
    "cumprod": _along_axis,
    "cummax": _along_axis,
    "cummin": _along_axis,
    "cumlogsumexp": _along_axis,
    "rev": _rev,
    "dot_general": _dot_general,
    "conv_general_dilated": _conv,
    "reduce_window_sum": _window,
    "reduce_window_max": _window,
    "reduce_window_min": _window,
    "reduce_window": _window,
    "select_and_scatter_add": _window,
    "select_and_gather_add": _window,
    "concatenate": _concatenate,
    "pad": _pad,
    "slice": _slice,
    "dynamic_slice": _dynamic_slice,
    "dynamic_update_slice": _dynamic_update_slice,
    "gather": _gather,
    "scatter-add": _scatter_add,
}


# ---------------------------------------------------------------------------------------------
# The pass


def _join(a: State, b: State) -> State:
    """The state two values meeting in a scan carry both convert to cheaply."""
    if a == b:
        return a
    if R in (a, b):
        other = b if a == R else a
        return other  # R slices to a split for free; R -> P keeps it on device 0
    return R


def _plain(states: list) -> list:
    """The states with numpy integers (from parameters) as Python ints."""
    return [int(s) if isinstance(s, np.integer) else s for s in states]


def _valid(state: State, aval: Any, n: int) -> bool:
    if isinstance(state, int):
        return 0 <= state < aval.ndim and _divides(aval.shape[state], n)
    return state != P or _is_float(aval)


def propagate(jaxpr: ir.Jaxpr, n: int, in_states: list, in_origins: list | None = None) -> Plan:
    """The states of `jaxpr`'s variables given those of its inputs.

    Args:
      jaxpr: a constvar-free jaxpr (calls inlined: `inline.inline_calls`).
      n: the number of devices.
      in_states: the state of each input.
      in_origins: the seeds (a frozenset of input positions) each input came from.

    Returns:
      The plan: states, each equation's step, the seeds in conflict.
    """
    plan = Plan(n)
    for k, (v, s) in enumerate(zip(jaxpr.invars, in_states)):
        plan.states[v] = s
        plan.origins[v] = in_origins[k] if in_origins else frozenset()
    for eqn in jaxpr.eqns:
        states = [plan.state(x) for x in eqn.inputs]
        if eqn.prim.name == "scan":
            step = _scan(eqn, states, plan, n)
        elif eqn.prim.name == "cond":
            step = _cond(eqn, states, plan, n)
        else:
            rule = RULES.get(eqn.prim.name) or (
                _elementwise if eqn.prim.elementwise else _replicated
            )
            step = rule(eqn, states, n)
            step.want, step.outs = _plain(step.want), _plain(step.outs)
            if not all(_valid(s, v.aval, n) for s, v in zip(step.outs, eqn.outputs)) or not all(
                _valid(s, x.aval, n) for s, x in zip(step.want, eqn.inputs)
            ):
                step = _replicated(eqn, states, n)
        _convert(plan, eqn.inputs, step.want)
        origins = frozenset().union(
            *[plan.origins.get(x, frozenset()) for x in eqn.inputs if isinstance(x, ir.Var)]
        )
        for v, s in zip(eqn.outputs, step.outs):
            plan.states[v] = s
            plan.origins[v] = origins if s != R else frozenset()
        plan.steps.append(step)
    return plan


def _convert(plan: Plan, inputs: list, want: list) -> None:
    """Counts the conversions of `inputs` to the `want`ed states; a split value gathered or
    split along another axis puts its seeds in conflict."""
    seen = set()
    for x, w in zip(inputs, want):
        s = plan.state(x)
        if s == w or (x, w) in seen:
            continue
        seen.add((x, w))
        if isinstance(s, int):
            plan.conflicts |= plan.origins.get(x, frozenset())
            plan.conversions += 1
        elif s == P:
            plan.conversions += 1


def _fixpoint(body: ir.Jaxpr, n: int, consts: list, carry: list, xs: list, origins: list):
    """(carry states, body plan, body output states) once the carries are stable."""
    nc, ncarry = len(consts), len(carry)
    for _ in range(8):
        inner = propagate(body, n, consts + carry + xs, origins)
        out = [inner.state(v) for v in body.outvars]
        joined = [
            _join(c, o) if _valid(_join(c, o), v.aval, n) else R
            for c, o, v in zip(carry, out[:ncarry], body.invars[nc:])
        ]
        if joined == carry:
            return carry, inner, out
        carry = joined
    carry = [R] * ncarry
    inner = propagate(body, n, consts + carry + xs, origins)
    return carry, inner, [inner.state(v) for v in body.outvars]


def _scan(eqn: ir.Eqn, states: list, plan: Plan, n: int) -> Step:
    p = eqn.params
    body, nc, ncarry = p["jaxpr"], p["num_consts"], p["num_carry"]
    consts = [R if s == P else s for s in states[:nc]]
    carry = list(states[nc : nc + ncarry])
    xs = [s - 1 if isinstance(s, int) and s > 0 else R for s in states[nc + ncarry :]]
    origins = [plan.origins.get(x, frozenset()) for x in eqn.inputs]
    carry, inner, out = _fixpoint(body, n, consts, carry, xs, origins)
    # a replicated float carry that the body only adds to (a gradient accumulated over the
    # steps) stays a partial sum: tried as one, kept where the body gives one back
    trial = [P if c == R and _is_float(v.aval) else c for c, v in zip(carry, body.invars[nc:])]
    if trial != carry:
        tried = propagate(body, n, consts + trial + xs, origins)
        back = [tried.state(v) for v in body.outvars[:ncarry]]
        kept = [t if t == P and b == P else c for c, t, b in zip(carry, trial, back)]
        if kept != carry:
            carry, inner, out = _fixpoint(body, n, consts, kept, xs, origins)
    _convert(inner, body.outvars[:ncarry], carry)
    plan.conflicts |= inner.conflicts
    plan.conversions += inner.conversions * p["length"]
    ys = [s + 1 if isinstance(s, int) else s for s in out[ncarry:]]
    want = consts + carry + [s + 1 if isinstance(s, int) else R for s in xs]
    return Step(want, carry + ys, body=inner, body_out=carry + out[ncarry:])


def _cond(eqn: ir.Eqn, states: list, plan: Plan, n: int) -> Step:
    """`cond`: each branch propagated from the operands' states (partial sums summed first,
    the branch index replicated); the outputs take the states the branches' outputs join to."""
    branches = eqn.params["branches"]
    ops = [R if s == P else s for s in states[1:]]
    origins = [plan.origins.get(x, frozenset()) for x in eqn.inputs[1:]]
    inners = [propagate(b, n, ops, origins) for b in branches]
    outs = None
    for inner, b in zip(inners, branches):
        mine = [inner.state(v) for v in b.outvars]
        outs = mine if outs is None else [_join(a, c) for a, c in zip(outs, mine)]
    outs = [s if _valid(s, v.aval, n) else R for s, v in zip(outs, eqn.outputs)]
    for inner, b in zip(inners, branches):
        _convert(inner, b.outvars, outs)
        plan.conflicts |= inner.conflicts
        plan.conversions += inner.conversions
    return Step([R, *ops], outs, body_out=outs, branches=inners)
