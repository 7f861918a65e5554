"""The per-device program of a batch-split jaxpr.

`per_device(jaxpr, plan, axis_name)` re-stages the jaxpr on the per-device shapes: each equation
is bound again on its inputs converted to the states its step wants (one conversion per
variable and wanted state, shared by its users; a partial sum's psum takes every other partial
sum then computed that some user takes summed along: one exchange for a train step's
gradients), with its shape parameters made local; a split
reduction ends with its collective (`pmax`/`pmin`), a `scan` gets its body staged the same way,
a `cond` its branches.
The collectives (`psum`, `all_gather`, `axis_index`) name a private axis, bound by the caller
(`core.parallel.axis_env.tracing`). The outputs leave replicated, so every device returns the
unsplit program's values and device 0's are the call's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import ir
from core.avals import ShapedArray
from core.interpreters.partial_eval import close_over_consts, trace_to_jaxpr
from core.jit.batch_split.propagate import P, Plan, R, local_shape
from core.prims import elementwise as ew
from core.prims import shapes
from core.prims.collectives import wrappers as collectives
from core.prims.dynamic_slice import dynamic_slice_in_dim

__all__ = ["per_device"]


def _local_avals(vars_: list, states: list, n: int) -> list[ShapedArray]:
    return [
        ShapedArray(local_shape(v.aval.shape, s, n), v.aval.dtype, v.aval.weak_type)
        for v, s in zip(vars_, states)
    ]


class _Emitter:
    """Binds a plan's equations on per-device values (one staged jaxpr)."""

    def __init__(self, plan: Plan, axis: Any):
        self.plan, self.axis, self.n = plan, axis, plan.n
        self.env: dict = {}
        self.converted: dict = {}
        # {output: its broadcast_in_dim equation}: a block of it is broadcast locally
        self.defs: dict = {}
        self.to_sum: list = []  # the partial sums some user takes summed, in program order
        self.summed: dict = {}  # partial sum -> its psum

    def _sum(self, x: Any) -> Any:
        """The psum of partial sum `x`, psummed together with every other partial sum already
        computed that a later user takes summed (a train step's gradients: one exchange)."""
        if x not in self.summed:
            ready = [v for v in self.to_sum if v in self.env and v not in self.summed]
            for v, total in zip(ready, collectives.psum([self.env[v] for v in ready], self.axis)):
                self.summed[v] = total
        return self.summed[x]

    def read(self, x: Any) -> Any:
        return x.as_array() if isinstance(x, ir.Literal) else self.env[x]

    def value(self, x: Any, want: Any) -> Any:
        """`x`'s per-device value in the state `want` (converted once per variable)."""
        have = self.plan.state(x)
        val = self.read(x)
        if have == P and want != P:
            val, have = self._sum(x), R
        if have == want or x.aval.ndim == 0 and have == R and want != P:
            return val
        key = (x, want)
        if key not in self.converted:
            made = self.defs.get(x)
            if have == R and isinstance(want, int) and made is not None:
                self.converted[key] = self._local_broadcast(made, want)
            else:
                self.converted[key] = convert(val, have, want, x.aval, self.axis, self.n)
        return self.converted[key]

    def _local_broadcast(self, eqn: ir.Eqn, axis: int) -> Any:
        """The block along `axis` of the replicated output of broadcast_in_dim `eqn`, broadcast
        from the block of its operand (a scalar's zeros: no full-size array made then sliced).
        """
        (x,) = eqn.inputs
        dims = tuple(eqn.params["broadcast_dimensions"])
        shape = list(eqn.params["shape"])
        if axis in dims and x.aval.shape[dims.index(axis)] != 1:
            operand = self.value(x, dims.index(axis))
        else:  # as the equation took it (a partial sum summed first)
            operand = self.value(x, R)
        shape[axis] //= self.n
        return eqn.prim.bind(operand, **dict(eqn.params, shape=tuple(shape)))

    def run(self, jaxpr: ir.Jaxpr, args: list, out_states: list) -> list:
        """Binds `jaxpr`'s equations on `args`; returns its outputs in `out_states`."""
        plan = self.plan
        wanted = [
            (x, w) for e, st in zip(jaxpr.eqns, plan.steps) for x, w in zip(e.inputs, st.want)
        ]
        wanted += list(zip(jaxpr.outvars, out_states))
        self.to_sum = list(dict.fromkeys(x for x, w in wanted if w != P and plan.state(x) == P))
        for v, a in zip(jaxpr.invars, args):
            self.env[v] = a
        for eqn, step in zip(jaxpr.eqns, plan.steps):
            ins = [self.value(x, w) for x, w in zip(eqn.inputs, step.want)]
            outs = self.bind(eqn, step, ins)
            for v, o in zip(eqn.outputs, outs):
                self.env[v] = o
            if eqn.prim.name == "broadcast_in_dim" and len(eqn.inputs) == 1:
                self.defs[eqn.outputs[0]] = eqn
        return [self.value(v, s) for v, s in zip(jaxpr.outvars, out_states)]

    def bind(self, eqn: ir.Eqn, step: Any, ins: list) -> list:
        if step.body is not None:
            return _scan(eqn, step, ins, self.axis)
        if step.branches is not None:
            return _cond(eqn, step, ins, self.axis)
        params = _local_params(eqn, step, self.n)
        out = eqn.prim.bind(*ins, **params)
        outs = list(out) if eqn.prim.multiple_results else [out]
        if step.reduce is not None:
            outs = [getattr(collectives, step.reduce)(o, self.axis) for o in outs]
        return outs


def convert(val: Any, have: Any, want: Any, aval: Any, axis: Any, n: int) -> Any:
    """`val` (a per-device value of global `aval` in state `have`, not a partial sum) in
    state `want`."""
    if isinstance(have, int):
        val, have = collectives.all_gather(val, axis, axis=have, tiled=True), R
    if want == R:
        return val
    if want == P:  # device 0 keeps the value, the others hold zeros
        first = ew.eq(collectives.axis_index(axis), np.int32(0))
        shape = tuple(np.shape(val))
        return ew.select(
            shapes.broadcast_in_dim(first, shape, ()) if shape else first,
            val,
            shapes.zeros_like(val),
        )
    size = aval.shape[want] // n
    start = ew.mul(collectives.axis_index(axis), np.int32(size))
    return dynamic_slice_in_dim(val, start, size, axis=want)


def _local_params(eqn: ir.Eqn, step: Any, n: int) -> dict:
    """`eqn`'s parameters for its per-device shapes."""
    params = dict(eqn.params)
    out = eqn.outputs[0].aval.shape if eqn.outputs else ()
    local = local_shape(out, step.outs[0], n) if eqn.outputs else ()
    for key in ("shape", "new_sizes"):
        if key in params and tuple(params[key]) == tuple(out):
            params[key] = local
    if eqn.prim.name == "slice" and isinstance(step.want[0], int):
        limits = list(params["limit_indices"])
        limits[step.want[0]] //= n
        params["limit_indices"] = tuple(limits)
    if eqn.prim.name in ("gather", "dynamic_slice") and isinstance(step.want[0], int):
        sizes = list(params["slice_sizes"])
        k = step.want[0]
        if sizes[k] == eqn.inputs[0].aval.shape[k]:
            sizes[k] //= n
        params["slice_sizes"] = tuple(sizes)
    return params


def _stage(body: ir.Jaxpr, plan: Plan, out_states: list, axis: Any) -> tuple[ir.Jaxpr, list]:
    """`body` staged per device under `plan`, its outputs in `out_states` (a jaxpr with
    constvars, and their values)."""
    in_states = [plan.state(v) for v in body.invars]
    avals = _local_avals(body.invars, in_states, plan.n)

    def local_body(*args: Any) -> list:
        return _Emitter(plan, axis).run(body, list(args), out_states)

    return trace_to_jaxpr(local_body, avals, dce=True)


def _cond(eqn: ir.Eqn, step: Any, ins: list, axis: Any) -> list:
    """The cond of `eqn` with its branches staged per device (each takes every branch's
    consts, ahead of the operands)."""
    staged = [
        _stage(b, plan, step.body_out, axis)
        for b, plan in zip(eqn.params["branches"], step.branches)
    ]
    branches = []
    for i, (jaxpr, _) in enumerate(staged):
        lead: list = []
        for k, (other, _) in enumerate(staged):
            lead += jaxpr.constvars if k == i else [ir.Var(v.aval) for v in other.constvars]
        branches.append(ir.Jaxpr([], lead + jaxpr.invars, jaxpr.eqns, jaxpr.outvars))
    consts = [c for _, cs in staged for c in cs]
    params = dict(eqn.params, branches=tuple(branches))
    return list(eqn.prim.bind(ins[0], *consts, *ins[1:], **params))


def _scan(eqn: ir.Eqn, step: Any, ins: list, axis: Any) -> list:
    """The scan of `eqn` with its body staged per device."""
    p = eqn.params
    staged, consts = _stage(p["jaxpr"], step.body, step.body_out, axis)
    local = close_over_consts(staged)
    params = dict(p, jaxpr=local, num_consts=p["num_consts"] + len(consts))
    if "linear" in params:
        params["linear"] = (False,) * len(consts) + tuple(params["linear"])
    return list(eqn.prim.bind(*consts, *ins, **params))


def per_device(jaxpr: ir.Jaxpr, plan: Plan, axis: Any) -> tuple[ir.Jaxpr, list]:
    """The per-device program of `jaxpr` under `plan` (its inputs in their planned states, on
    the per-device shapes; its outputs replicated), with the collectives over `axis`.

    Args:
      jaxpr: the (inlined) program.
      plan: its plan (`propagate.propagate`).
      axis: the private axis name, bound by the caller while this stages.

    Returns:
      (a constvar-free jaxpr whose leading inputs are the consts, the consts' values).
    """
    in_states = [plan.state(v) for v in jaxpr.invars]
    avals = _local_avals(jaxpr.invars, in_states, plan.n)

    def fun(*args: Any) -> list:
        return _Emitter(plan, axis).run(jaxpr, list(args), [R] * len(jaxpr.outvars))

    staged, consts = trace_to_jaxpr(fun, avals, dce=True)
    return close_over_consts(staged), consts
