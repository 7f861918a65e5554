"""`scan_p`: a loop over the leading axis of its inputs, carrying state (`lax.scan`).

Operands: `consts` (loop-invariant), `init` (the carry), `xs` (sliced along axis 0).
Params (everything the lowering needs):

    jaxpr       constvar-free: (consts, carry, x slices) -> (new carry, y slices)
    num_consts  how many leading operands are consts
    num_carry   how many operands after them are the carry (the rest are xs)
    length      the trip count (the leading size of every x and y)
    reverse     iterate from length-1 down to 0 (ys are still stored at their own index)
    unroll      an unrolling hint for the lowering (the semantics do not depend on it)

Outputs: the final carry, then the ys stacked along a new leading axis of size `length`.

Rules: jvp and vmap iterate to a fixpoint on which carries have nonzero tangents / are
batched. Partial evaluation (the heart of reverse mode) splits the body into a known scan,
run now, that also emits per-iteration residuals as extra ys, and an unknown (linear) scan
staged on those residuals. As in JAX, whatever the known body computes from its consts alone is
computed once before the loop (the known scan takes it as consts), and only per-step residuals
are stacked: known consts and xs are passed through, loop-invariant ones passed as consts of the
unknown scan. The transpose of a linear scan is a scan in the opposite direction whose carry
holds the carry cotangent (typed by the cotangent that comes in, as JAX's) and the accumulated
const cotangents.

`fori_loop` with static bounds and `map` are scans; `fori_loop` with traced bounds is a while.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from core import dtypes, ir, ref_scope, tree_util
from core.ad_util import Zero, instantiate, zeros_like_aval
from core.array import Array
from core.config import config
from core.errors import ConcretizationTypeError, traced_shape
from core.interpreters import batching
from core.interpreters.partial_eval import dce_jaxpr
from core.interpreters.transpose import UndefinedPrimal, backward_pass, is_undefined
from core.primitive import Primitive
from core.prims.control_flow import eager_program
from core.prims.control_flow.carry_check import check_carry_type
from core.prims.control_flow.common import (
    axis_name_of,
    batch_jaxpr,
    carry_fixpoint,
    jvp_jaxpr,
    memo,
    pe_jaxpr,
    promote_weak_carry,
    prune_jaxpr,
    register_output_pruner,
    reorder,
    split_list,
    stage,
)
from core.prims.control_flow.errors import (
    LoopBoundsShapeError,
    ScanLengthError,
    ScanNoLeadingAxisError,
)
from core.prims.control_flow.while_loop import while_loop
from core.prims.indexing import concatenate
from core.prims.shapes import convert_element_type, expand_dims
from core.trace import EvalTrace, Tracer, as_value, get_aval, set_current_trace

scan_p = Primitive("scan", multiple_results=True, higher_order=True)


def _scan_impl(*args, jaxpr, num_consts, num_carry, length, reverse, unroll):
    avals = [get_aval(a) for a in args]
    # The interpreter below converts operands to the body's types; a compiled program needs
    # them exact (a weak Python int under x64 may come in as int32 for an int64 carry).
    if _fits(avals, jaxpr, num_consts, num_carry, length):
        params = _params(jaxpr, num_consts, num_carry, length, reverse, unroll)
        out_avals = _scan_abstract_eval(*avals, **params)
        program = eager_program.compiled(scan_p, args, params, out_avals, length)
        if program is not None:
            return program(*[np.asarray(a, order="C") for a in args])
    consts, carry, xs = split_list(args, [num_consts, num_carry])
    in_avals = jaxpr.in_avals
    with set_current_trace(EvalTrace()):
        consts = [Array(np.asarray(c), a.weak_type) for c, a in zip(consts, in_avals)]
        carry = [Array(np.asarray(c), a.weak_type) for c, a in zip(carry, in_avals[num_consts:])]
        x_avals = in_avals[num_consts + num_carry :]
        y_avals = jaxpr.out_avals[num_carry:]
        ys = [np.empty((length, *a.shape), a.dtype) for a in y_avals]
        for step in range(length):
            i = length - 1 - step if reverse else step
            xi = [Array(x[i], a.weak_type) for x, a in zip(xs, x_avals)]
            outs = ir.eval_jaxpr(jaxpr, [], *consts, *carry, *xi)
            carry = [
                o if isinstance(o, Array) else Array(np.asarray(o, a.dtype), a.weak_type)
                for o, a in zip(outs[:num_carry], jaxpr.out_avals)
            ]
            for y, o in zip(ys, outs[num_carry:]):
                y[i] = np.asarray(getattr(o, "_value", o))
    return [c._value for c in carry] + ys


def _fits(avals, jaxpr, num_consts, num_carry, length) -> bool:
    """Whether operands of these avals are exactly what the scan's body takes."""
    xs = avals[num_consts + num_carry :]
    got = [*avals[: num_consts + num_carry]] + [a.update(shape=a.shape[1:]) for a in xs]
    return all(a.shape[:1] == (length,) for a in xs) and [(a.shape, a.dtype) for a in got] == [
        (a.shape, a.dtype) for a in jaxpr.in_avals
    ]


def _scan_abstract_eval(*avals, jaxpr, num_consts, num_carry, length, reverse, unroll):
    if not _fits(avals, jaxpr, num_consts, num_carry, length):
        raise TypeError(
            f"scan of length {length} expects consts/carry/x slices "
            f"{[a.str_short(short_dtypes=True) for a in jaxpr.in_avals]}, got "
            f"{[a.str_short(short_dtypes=True) for a in avals]}"
        )
    outs = jaxpr.out_avals
    return outs[:num_carry] + [a.update(shape=(length, *a.shape)) for a in outs[num_carry:]]


def _params(jaxpr, num_consts, num_carry, length, reverse, unroll) -> dict:
    return dict(
        jaxpr=jaxpr,
        num_consts=num_consts,
        num_carry=num_carry,
        length=length,
        reverse=reverse,
        unroll=unroll,
    )


def _scan_jvp(primals, tangents, *, jaxpr, num_consts, num_carry, length, reverse, unroll):
    nz = [type(t) is not Zero for t in tangents]
    nz_consts, nz_carry, nz_xs = split_list(nz, [num_consts, num_carry])
    ny = len(jaxpr.outvars) - num_carry
    nz_carry = carry_fixpoint(
        nz_carry,
        lambda c: jvp_jaxpr(jaxpr, tuple(nz_consts + c + nz_xs), tuple(c) + (False,) * ny)[2],
    )
    nz_in = tuple(nz_consts + nz_carry + nz_xs)
    jj, jconsts, out_nz = jvp_jaxpr(jaxpr, nz_in, tuple(nz_carry) + (False,) * ny)
    # jj's inputs: jconsts, consts, carry, xs, then tangents of the nonzero ones, in order.
    nj, n_in = len(jconsts), len(primals)
    t_pos = iter(range(nj + n_in, nj + n_in + sum(nz_in)))
    t_idx = [next(t_pos) if z else None for z in nz_in]
    sections = split_list(list(range(n_in)), [num_consts, num_carry])
    in_order = list(range(nj))
    for sec in sections:
        in_order += [nj + i for i in sec] + [t_idx[i] for i in sec if t_idx[i] is not None]
    n_out = len(jaxpr.outvars)
    t_out = iter(range(n_out, n_out + sum(out_nz)))
    t_out_idx = [next(t_out) if z else None for z in out_nz]
    out_order = []
    for sec in split_list(list(range(n_out)), [num_carry])[:2]:
        out_order += sec + [t_out_idx[i] for i in sec if t_out_idx[i] is not None]
    body = memo(
        jj, ("scan_jvp_order", num_consts, num_carry), lambda: reorder(jj, in_order, out_order)
    )
    tans = [instantiate(t) if z else None for t, z in zip(tangents, nz_in)]
    ops = list(jconsts)
    for sec in sections:
        ops += [primals[i] for i in sec] + [tans[i] for i in sec if tans[i] is not None]
    n_tc = sum(nz_consts)
    outs = scan_p.bind(
        *ops,
        **_params(body, nj + num_consts + n_tc, num_carry + sum(nz_carry), length, reverse, unroll),
    )
    carry, t_carry, ys, t_ys = split_list(outs, [num_carry, sum(nz_carry), ny])
    t_all = iter(t_carry + t_ys)
    out_avals = _scan_abstract_eval(
        *[get_aval(p) for p in primals],
        jaxpr=jaxpr,
        num_consts=num_consts,
        num_carry=num_carry,
        length=length,
        reverse=reverse,
        unroll=unroll,
    )
    return carry + ys, [next(t_all) if z else Zero(a) for z, a in zip(out_nz, out_avals)]


def _scan_partial_eval(trace, args, params):
    jaxpr, nc, ncar = params["jaxpr"], params["num_consts"], params["num_carry"]
    length, reverse, unroll = params["length"], params["reverse"], params["unroll"]
    unknowns = [trace.is_own(a) for a in args]
    uk_consts, uk_carry, uk_xs = split_list(unknowns, [nc, ncar])
    ny = len(jaxpr.outvars) - ncar
    uk_carry = carry_fixpoint(
        uk_carry,
        lambda c: pe_jaxpr(jaxpr, tuple(uk_consts + c + uk_xs), tuple(c) + (False,) * ny)[2],
    )
    uk_in = tuple(uk_consts + uk_carry + uk_xs)
    plan = memo(jaxpr, ("scan_pe", uk_in, nc, ncar), lambda: _plan_scan_pe(jaxpr, uk_in, nc, ncar))
    jk, ju, out_uk, hoist, n_body_consts, int_src, ext_src = plan
    known_args = [a for a, u in zip(args, uk_in) if not u]
    n_kc = sum(not u for u in uk_consts)
    n_kcar = sum(not u for u in uk_carry)
    with set_current_trace(trace.parent):
        hoisted = ir.eval_jaxpr(hoist, [], *known_args[:n_kc]) if hoist.outvars else []
        body_consts, hoisted_res = hoisted[:n_body_consts], hoisted[n_body_consts:]
        kouts = scan_p.bind(
            *body_consts,
            *known_args[n_kc:],
            **_params(jk, n_body_consts, n_kcar, length, reverse, unroll),
        )
    nk = len(kouts) - sum(i < 0 for i in ext_src)
    kvals, stacked = kouts[:nk], kouts[nk:]
    uk_args = [a for a, u in zip(args, uk_in) if u]
    int_res = [args[i] if i >= 0 else hoisted_res[~i] for i in int_src]
    ext_res = [args[i] if i >= 0 else stacked[~i] for i in ext_src]
    n_uconsts = len(int_res) + sum(uk_consts)
    uparams = _params(ju, n_uconsts, sum(uk_carry), length, reverse, unroll)
    uouts = trace.stage(scan_p, int_res + uk_args + ext_res, uparams) if any(out_uk) else []
    k, u = iter(kvals), iter(uouts)
    return [next(u) if uk else next(k) for uk in out_uk]


def _plan_scan_pe(jaxpr: ir.Jaxpr, uk_in: tuple, nc: int, ncar: int):
    """Splits a scan body and lays both halves out as scan bodies, as JAX's
    `_scan_partial_eval` does.

    Everything of the known body that depends on its consts alone is loop-invariant: it is
    computed once, before the loop, by a separate `hoist` jaxpr (JAX's `_scan_known_hoisting`),
    and the known scan takes the invariant values its body reads as consts, in the order it
    first reads them. The residuals are then

    * known consts and xs of the body, passed to the unknown scan as they are (no copies);
    * invariant values, computed by `hoist` and passed to the unknown scan as consts;
    * the rest, per-iteration values the known scan emits as extra ys (stacked).

    The unknown body takes, as JAX's: the intensive residuals (consts and hoisted, in residual
    order), the unknown consts, carry and xs, then the extensive residuals (xs and stacked, in
    residual order).

    Returns `(known body, unknown body, out_unknowns, hoist, n_body_consts, int_src, ext_src)`:
    `hoist` maps the known consts to the known body's consts then the hoisted residuals;
    `int_src`/`ext_src` give each residual's source: an operand position (>= 0), or `~k` for
    the k-th hoisted or stacked value.
    """
    ny = len(jaxpr.outvars) - ncar
    jk, ju, out_uk, nres = pe_jaxpr(jaxpr, uk_in, tuple(uk_in[nc : nc + ncar]) + (False,) * ny)
    nk = len(jk.outvars) - nres
    n_kc = sum(not u for u in uk_in[:nc])
    # jk's inputs are the known operands in order; map them back to operand positions.
    known_pos = [p for p, u in enumerate(uk_in) if not u]
    pos = {v: known_pos[i] for i, v in enumerate(jk.invars)}
    invariant = set(jk.invars[:n_kc])
    body_eqns, invariant_eqns = [], []
    for eqn in jk.eqns:
        ins = [x for x in eqn.inputs if isinstance(x, ir.Var)]
        if not ir.eqn_has_effects(eqn) and all(x in invariant for x in ins):
            invariant.update(eqn.outputs)
            invariant_eqns.append(eqn)
        else:
            body_eqns.append(eqn)
    res = jk.outvars[nk:]
    int_src, ext_src, hoisted, stacked, int_idx, ext_idx = [], [], [], [], [], []
    for r, v in enumerate(res):
        p = pos.get(v) if isinstance(v, ir.Var) else None
        if p is not None and p < nc:  # a known const operand
            src, idx = int_src, int_idx
            src.append(p)
        elif p is not None and p >= nc + ncar:  # a known xs operand
            src, idx = ext_src, ext_idx
            src.append(p)
        elif not isinstance(v, ir.Var) or v in invariant:
            src, idx = int_src, int_idx
            src.append(~len(hoisted))
            hoisted.append(v)
        else:
            src, idx = ext_src, ext_idx
            src.append(~len(stacked))
            stacked.append(v)
        idx.append(r)
    body = dce_jaxpr(ir.Jaxpr([], jk.invars[n_kc:], body_eqns, jk.outvars[:nk] + stacked))
    reads = [x for e in body.eqns for x in e.inputs] + body.outvars
    body_consts = list(dict.fromkeys(x for x in reads if isinstance(x, ir.Var) and x in invariant))
    jk2 = ir.Jaxpr([], body_consts + body.invars, body.eqns, body.outvars)
    # (the invariant equations only: an effect in the body, such as a print, stays there)
    hoist = dce_jaxpr(ir.Jaxpr([], jk.invars[:n_kc], invariant_eqns, body_consts + hoisted))
    in_order = int_idx + list(range(nres, len(ju.invars))) + ext_idx
    ju2 = reorder(ju, in_order, range(len(ju.outvars)))
    ir.typecheck(jk2)
    ir.typecheck(hoist)
    ir.typecheck(ju2)
    return jk2, ju2, out_uk, hoist, len(body_consts), int_src, ext_src


def _scan_transpose(cts, *args, jaxpr, num_consts, num_carry, length, reverse, unroll):
    consts, init, xs = split_list(args, [num_consts, num_carry])
    # The carry is linear even where its initial value is a known (zero) tangent.
    c_undef = tuple(is_undefined(c) for c in consts)
    x_undef = tuple(is_undefined(x) for x in xs)
    c_avals, in_carry, x_avals = split_list(jaxpr.in_avals, [num_consts, num_carry])
    ys_nz = tuple(type(c) is not Zero for c in cts[num_carry:])  # zero ones stay symbolic
    # Only the carries whose cotangent can be nonzero are carried (JAX's linear scan has lost
    # the others to dead-code elimination): a zero one's weak type reaches no gradient.
    live = _live_carries(jaxpr, num_consts, num_carry, cts[:num_carry], ys_nz)
    ct_carry = [instantiate(c) for c, k in zip(cts[:num_carry], live) if k]
    n_live = len(ct_carry)
    ct_ys = [c for c in cts[num_carry:] if type(c) is not Zero]
    # As JAX's, the transposed body's carry and ys cotangents are typed by the cotangents that
    # come in, not by the linear body: a weakly typed carry tangent (of a Python-float init)
    # has the cotangent `grad` seeds (strong for a strong result) and no conversion back.
    carry_avals = [get_aval(c) for c in ct_carry]
    nz_avals = [get_aval(c).update(shape=get_aval(c).shape[1:]) for c in ct_ys]
    def_consts = [c for c in consts if not is_undefined(c)]
    def_xs = [x for x in xs if not is_undefined(x)]
    acc_avals = [a for a, u in zip(c_avals, c_undef) if u]

    def make():
        dc_avals = [a for a, u in zip(c_avals, c_undef) if not u]
        dx_avals = [a for a, u in zip(x_avals, x_undef) if not u]
        y_avals = jaxpr.out_avals[num_carry:]
        sizes = [len(dc_avals), len(acc_avals), n_live, len(nz_avals)]

        def body(*vals):  # JAX's layout: consts, carries, then the ys' cotangents and the xs
            dc, acc, cc, cy, dx = split_list(vals, sizes)
            dci, dxi, cyi, cci = iter(dc), iter(dx), iter(cy), iter(cc)
            cy = [next(cyi) if nz else Zero(a) for a, nz in zip(y_avals, ys_nz)]
            cc = [next(cci) if k else Zero(a) for a, k in zip(jaxpr.out_avals, live)]
            cai = iter(carry_avals)
            full = (
                [UndefinedPrimal(a) if u else next(dci) for a, u in zip(c_avals, c_undef)]
                + [UndefinedPrimal(next(cai) if k else a) for a, k in zip(in_carry, live)]
                + [UndefinedPrimal(a) if u else next(dxi) for a, u in zip(x_avals, x_undef)]
            )
            acci = iter(acc)  # each const's sum so far, added to where its cotangent is made
            sums = [next(acci) if u else None for u in c_undef]
            sums += [None] * (len(full) - num_consts)
            res = backward_pass(jaxpr, [], full, list(cc) + list(cy), sums)
            r_consts, r_carry, r_xs = split_list(res, [num_consts, num_carry])
            return (
                [instantiate(r) for r, u in zip(r_consts, c_undef) if u]
                + [instantiate(r) for r, k in zip(r_carry, live) if k]
                + [instantiate(r) for r, u in zip(r_xs, x_undef) if u]
            )

        return stage(body, dc_avals + acc_avals + carry_avals + nz_avals + dx_avals)

    weak = tuple(a.weak_type for a in carry_avals + nz_avals)
    key = ("scan_transpose", c_undef, x_undef, ys_nz, live, weak, num_consts, num_carry)
    tj, tconsts = memo(jaxpr, key, make)
    acc0 = [zeros_like_aval(a) for a in acc_avals]
    outs = scan_p.bind(
        *tconsts,
        *def_consts,
        *acc0,
        *ct_carry,
        *ct_ys,
        *def_xs,
        **_params(
            tj, len(tconsts) + len(def_consts), len(acc0) + n_live, length, not reverse, unroll
        ),
    )
    ct_consts, ct_init, ct_xs = split_list(outs, [len(acc0), n_live])
    cc, cx, ci = iter(ct_consts), iter(ct_xs), iter(ct_init)
    ct_init = [
        next(ci) if k else Zero(i.aval) if is_undefined(i) else None for i, k in zip(init, live)
    ]
    return (
        [next(cc) if u else None for u in c_undef]
        + [c if is_undefined(i) else None for c, i in zip(ct_init, init)]
        + [next(cx) if u else None for u in x_undef]
    )


def _live_carries(
    jaxpr: ir.Jaxpr, num_consts: int, num_carry: int, ct_carry: list, ys_nz: tuple
) -> tuple[bool, ...]:
    """Which carries of a linear scan body get a nonzero cotangent in its transpose: those
    whose final cotangent is nonzero, and, to a fixpoint, those from which the body computes a
    carry or y with a nonzero cotangent (a reverse reachability over the body's equations,
    which holds for every primitive's transpose)."""
    live = tuple(type(c) is not Zero for c in ct_carry)
    carry_in = jaxpr.invars[num_consts : num_consts + num_carry]
    while True:
        outs = [v for v, k in zip(jaxpr.outvars, live + ys_nz) if k]
        reached = {v for v in outs if isinstance(v, ir.Var)}
        for eqn in reversed(jaxpr.eqns):
            if any(v in reached for v in eqn.outputs):
                reached.update(x for x in eqn.inputs if isinstance(x, ir.Var))
        new = tuple(k or v in reached for k, v in zip(live, carry_in))
        if new == live:
            return live
        live = new


def _scan_batch(
    args, dims, *, jaxpr, num_consts, num_carry, length, reverse, unroll, axis_trace=None
):
    size = batching.batch_size(args, dims)
    name = axis_name_of(axis_trace)
    b = [d is not None for d in dims]
    b_consts, b_carry, b_xs = split_list(b, [num_consts, num_carry])
    ny = len(jaxpr.outvars) - num_carry
    b_carry = carry_fixpoint(
        b_carry,
        lambda c: batch_jaxpr(
            jaxpr, size, tuple(b_consts + c + b_xs), tuple(c) + (False,) * ny, name
        )[2],
    )
    bj, bconsts, out_b = batch_jaxpr(
        jaxpr, size, tuple(b_consts + b_carry + b_xs), tuple(b_carry) + (False,) * ny, name
    )
    consts, carry, xs = split_list(args, [num_consts, num_carry])
    d_consts, d_carry, d_xs = split_list(dims, [num_consts, num_carry])
    consts = [
        c if d is None else batching.moveaxis(c, d, 0, size) for c, d in zip(consts, d_consts)
    ]
    carry = [
        batching.moveaxis(c, d, 0, size) if bb else c for c, d, bb in zip(carry, d_carry, b_carry)
    ]
    xs = [x if d is None else batching.moveaxis(x, d, 1, size) for x, d in zip(xs, d_xs)]
    outs = scan_p.bind(
        *bconsts,
        *consts,
        *carry,
        *xs,
        **_params(bj, len(bconsts) + num_consts, num_carry, length, reverse, unroll),
    )
    out_dims = [0 if bb else None for bb in out_b[:num_carry]]
    out_dims += [1 if bb else None for bb in out_b[num_carry:]]
    return outs, out_dims


scan_p.def_impl(_scan_impl)
scan_p.def_abstract_eval(_scan_abstract_eval)
scan_p.def_jvp(_scan_jvp)
scan_p.def_partial_eval(_scan_partial_eval)


def _scan_prune(eqn: ir.Eqn, used: list[bool]) -> ir.Eqn:
    """The scan without its unused ys (the carry stays: the next step reads it)."""
    ncar = eqn.params["num_carry"]
    keep = [i for i, u in enumerate(used) if u or i < ncar]
    body = eqn.params["jaxpr"]
    body = prune_jaxpr(ir.Jaxpr([], body.invars, body.eqns, [body.outvars[i] for i in keep]))
    outs = [eqn.outputs[i] for i in keep]
    return ir.Eqn(scan_p, eqn.inputs, {**eqn.params, "jaxpr": body}, outs, eqn.source_info)


register_output_pruner(scan_p, _scan_prune)
scan_p.def_transpose(_scan_transpose)
scan_p.def_batch(_scan_batch)


# ---------------------------------------------------------------------------------------------
# The user-facing wrappers


def _trace_body(f: Callable, init_flat: list, init_tree: Any, x_avals: list, x_tree: Any):
    """Stages `f(carry, x) -> (carry, y)`; returns (jaxpr, consts, y_tree, carry avals)."""
    carry_avals = [get_aval(c) for c in init_flat]
    while True:  # each pass that changes the carry types makes one of them strongly typed
        store: list = []

        def flat(*args, carry_avals=carry_avals, store=store):
            carry = tree_util.tree_unflatten(init_tree, args[: len(carry_avals)])
            x = tree_util.tree_unflatten(x_tree, args[len(carry_avals) :])
            out = f(carry, x)
            if not isinstance(out, (tuple, list)) or len(out) != 2:
                got = tree_util.tree_map(lambda o: get_aval(as_value(o)), out)
                got = (
                    repr(tuple(got))
                    if isinstance(out, (tuple, list))
                    else got.str_short(short_dtypes=False)
                )
                raise TypeError(  # JAX's text, then the fix
                    f"scan body output must be a pair, got {got}.\n"
                    "Return (new_carry, None) when there is no output."
                )
            c_flat, c_tree = tree_util.tree_flatten(out[0])
            y_flat, y_tree = tree_util.tree_flatten(out[1])
            store.append((c_tree, y_tree))
            return [as_value(o) for o in c_flat] + [as_value(o) for o in y_flat]

        jaxpr, consts = stage(flat, carry_avals + x_avals)
        c_tree, y_tree = store[0]
        out_avals = jaxpr.out_avals[: len(carry_avals)]
        if c_tree == init_tree and promote_weak_carry(carry_avals, out_avals) != carry_avals:
            carry_avals = promote_weak_carry(carry_avals, out_avals)
            continue
        c_out = jaxpr.out_avals[: c_tree.num_leaves]
        check_carry_type("scan body", f, init_tree, carry_avals, c_tree, c_out)
        break
    return jaxpr, consts, y_tree, carry_avals


def scan(
    f: Callable,
    init: Any,
    xs: Any = None,
    length: int | None = None,
    reverse: bool = False,
    unroll: int | bool = 1,
    _split_transpose: bool = False,
) -> Any:
    """`lax.scan`: loops `f(carry, x) -> (carry, y)` over the leading axis of `xs`.

    Args:
      f: the body; the carry keeps its structure, shapes and dtypes.
      init: the initial carry (a pytree of arrays).
      xs: a pytree of arrays sliced along axis 0, or None.
      length: the trip count; required when `xs` is None.
      reverse: run from the last index to the first.
      unroll: an unrolling hint for the compiled loop (True: fully).

    Returns:
      `(final carry, stacked ys)`.
    """
    if not callable(f):
        raise TypeError("lax.scan: f argument should be a callable.")
    if not isinstance(unroll, bool) and int(unroll) < 0:
        raise ValueError("`unroll` must be a `bool` or a non-negative `int`.")
    xs_flat, xs_tree = tree_util.tree_flatten(xs)
    for x in xs_flat:
        if not get_aval(as_value(x)).ndim:  # JAX's texts, then the fix
            raise ScanNoLeadingAxisError(
                f"scan got value with no leading axis to scan over: {x}.\n"
                "Every xs leaf needs a leading axis (the one scanned over)."
            )
    xs_flat = [as_value(x) for x in xs_flat]
    sizes = [get_aval(x).shape[0] for x in xs_flat]
    if isinstance(length, Tracer):  # JAX's words
        raise ConcretizationTypeError(
            traced_shape(get_aval(length)),
            "The `length` argument to `scan` expects a concrete `int` value. For scan-like "
            "iteration with a dynamic length, use `while_loop` or `fori_loop`.",
        )
    if length is not None:
        if any(s != int(length) for s in sizes):
            raise ScanLengthError(
                f"scan got `length` argument of {length} which disagrees with leading axis "
                f"sizes {sizes}.\nPass the xs leaves' leading size, or no `length`."
            )
        n = int(length)
    elif len(set(sizes)) > 1:
        raise ScanLengthError(
            "scan got values with different leading axis sizes: "
            f"{', '.join(map(str, sizes))}.\nEvery xs leaf must have the same leading size."
        )
    elif not sizes:
        raise ScanLengthError(
            "scan got no values to scan over and `length` not provided.\n"
            "Pass length=... when xs is None."
        )
    else:
        n = sizes[0]
    if config.disable_jit:
        return _python_scan(f, init, xs_flat, xs_tree, n, reverse)
    return ref_scope.threaded(
        lambda refs, scope: _scan(f, init, xs_flat, xs_tree, n, reverse, unroll, refs, scope)
    )


def _python_scan(f, init, xs_flat, xs_tree, n, reverse) -> Any:
    """`scan` under `disable_jit`, as JAX's: a Python loop over the slices, the carry as the
    body returns it (a Python scalar stays one), the ys stacked at the end."""
    if n == 0:  # JAX's words, then the fix
        raise ValueError(
            "zero-length scan is not supported in disable_jit() mode because the output type "
            "is unknown.\nRun the scan with jit enabled, or give it at least one step."
        )
    order = range(n - 1, -1, -1) if reverse else range(n)
    carry, ys = init, []
    for i in order:
        x = tree_util.tree_unflatten(xs_tree, [x[i] for x in xs_flat])
        carry, y = f(carry, x)
        ys.append(y)
    if reverse:
        ys.reverse()
    stacked = tree_util.tree_map(
        lambda *y: concatenate([expand_dims(as_value(v), (0,)) for v in y], 0), *ys
    )
    return carry, stacked


def _scan(f, init, xs_flat, xs_tree, n, reverse, unroll, refs, scope) -> Any:
    # `scan` with the Refs its body uses (made outside it) threaded through the carry.
    @functools.wraps(f)
    def body(carry, x):
        if not refs:
            return ref_scope.bind_refs(scope, (), (), f, carry, x)[0]
        out, new = ref_scope.bind_refs(scope, refs, carry[1], f, carry[0], x)
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            return out  # `_trace_body` reports it
        return (out[0], new), out[1]

    if refs:
        init = (init, [ref_scope.read(r) for r in refs])
    raw_init, init_tree = tree_util.tree_flatten(init)
    init_flat = [as_value(c) for c in raw_init]
    x_avals = [get_aval(x).update(shape=get_aval(x).shape[1:]) for x in xs_flat]
    jaxpr, consts, y_tree, carry_avals = _trace_body(body, init_flat, init_tree, x_avals, xs_tree)
    promoted = [
        convert_element_type(c, a.dtype, False) if get_aval(c).weak_type and not a.weak_type else c
        for c, a in zip(init_flat, carry_avals)
    ]  # a forwarded carry comes back as given unless it was promoted
    raw_init = [r if p is c else p for r, c, p in zip(raw_init, init_flat, promoted)]
    init_flat = promoted
    unroll = n if unroll is True else max(int(unroll), 1)
    fwd = _Forwarding(jaxpr, len(consts), len(init_flat))
    outs = scan_p.bind(
        *fwd.moved(init_flat),
        *consts,
        *fwd.kept(init_flat),
        *xs_flat,
        **_params(fwd.jaxpr, fwd.num_consts, fwd.num_carry, n, bool(reverse), unroll),
    )
    carry, ys = fwd.outputs(outs, raw_init, xs_flat)
    carry = ref_scope.written_back(refs, tree_util.tree_unflatten(init_tree, carry))
    return carry, tree_util.tree_unflatten(y_tree, ys)


class _Forwarding:
    """JAX's forwarding in `lax.scan`: a carry that the body returns unchanged is read-only, so
    it becomes a const of the loop and the caller gets its initial value back as given (a
    Python float stays one); a y that is an x slice is not stacked again, the caller gets the
    x itself. `jaxpr` is the body with both removed (moved carries first among the consts).

    Args:
      jaxpr: the traced body, inputs (consts, carries, xs), outputs (carries, ys).
      num_consts, num_carry: the counts of its consts and carries.
    """

    def __init__(self, jaxpr: ir.Jaxpr, num_consts: int, num_carry: int):
        where = {v: i for i, v in enumerate(jaxpr.invars)}
        found = [where.get(v) if isinstance(v, ir.Var) else None for v in jaxpr.outvars]
        self.move = [found[i] == num_consts + i for i in range(num_carry)]
        first_x = num_consts + num_carry
        self.x_of_y = [
            f - first_x if f is not None and f >= first_x else None for f in found[num_carry:]
        ]
        ins = jaxpr.invars
        consts, carries, xs = ins[:num_consts], ins[num_consts:first_x], ins[first_x:]
        moved = [v for v, m in zip(carries, self.move) if m]
        self.jaxpr = ir.Jaxpr(
            [],
            [*moved, *consts, *(v for v, m in zip(carries, self.move) if not m), *xs],
            jaxpr.eqns,
            [v for v, m in zip(jaxpr.outvars[:num_carry], self.move) if not m]
            + [v for v, x in zip(jaxpr.outvars[num_carry:], self.x_of_y) if x is None],
        )
        self.num_consts = num_consts + len(moved)
        self.num_carry = num_carry - len(moved)

    def moved(self, init: list) -> list:
        """The initial carries that become consts."""
        return [c for c, m in zip(init, self.move) if m]

    def kept(self, init: list) -> list:
        """The initial carries that stay carries."""
        return [c for c, m in zip(init, self.move) if not m]

    def outputs(self, outs: list, raw_init: list, xs: list) -> tuple[list, list]:
        """The final carries and the ys from the loop's outputs: a moved carry is its initial
        value as the caller gave it, a forwarded y the x it forwards."""
        outs = iter(outs)
        carry = [c if m else next(outs) for c, m in zip(raw_init, self.move)]
        ys = [next(outs) if x is None else xs[x] for x in self.x_of_y]
        return carry, ys


def _concrete_int(x: Any) -> int | None:
    if isinstance(x, Tracer):
        x = x.to_concrete_value()
        if x is None:
            return None
    return int(np.asarray(x))


def _fori_bounds_dtype(lower: Any, upper: Any) -> np.dtype:
    """The loop index's dtype under traced bounds: theirs when they agree (floats included),
    else the strong one's when one signed bound is weakly typed (a Python int); any other mix
    raises, as in JAX."""
    (lo_dt, lo_weak), (hi_dt, hi_weak) = dtypes.dtype_and_weak(lower), dtypes.dtype_and_weak(upper)
    if lo_dt == hi_dt:  # float bounds too: concrete ones count from int(lower), as in JAX
        return lo_dt
    if lo_dt.kind == hi_dt.kind == "i" and lo_weak != hi_weak:
        return hi_dt if lo_weak else lo_dt
    raise TypeError(
        "lower and upper arguments to fori_loop must have equal types, got "
        f"{lo_dt.name} and {hi_dt.name}\nCast one with `.astype(...)`."
    )


def fori_loop(
    lower: Any, upper: Any, body_fun: Callable, init_val: Any, *, unroll: int | bool | None = None
) -> Any:
    """`lax.fori_loop`: `val = body_fun(i, val)` for `i` in `[lower, upper)`.

    With concrete bounds (Python ints) it is a `scan` (reverse-differentiable, one native
    loop); with traced bounds it is a `while_loop` (forward-differentiable only).

    Args:
      lower: the first index.
      upper: one past the last index.
      body_fun: `(i, val) -> val`, keeping the structure, shapes and dtypes of `val`.
      init_val: the initial value.
      unroll: an unrolling hint (static bounds only).

    Returns:
      The final value.
    """
    if not callable(body_fun):  # JAX's check and text
        raise TypeError("lax.fori_loop: body_fun argument should be callable.")
    shape = np.broadcast_shapes(get_aval(as_value(lower)).shape, get_aval(as_value(upper)).shape)
    if shape:  # JAX's loop condition `i < upper` is then not a scalar
        raise LoopBoundsShapeError(
            "cond_fun must return a boolean scalar, but got output type(s) "
            f"[ShapedArray(bool[{','.join(map(str, shape))}])].\n"
            "fori_loop's bounds must be scalars: pass `n[0]` or `int(n)`."
        )
    dt = _fori_bounds_dtype(lower, upper)
    lo, hi = _concrete_int(lower), _concrete_int(upper)
    if lo is not None and hi is not None:

        def step(carry, _):
            i, x = carry
            return (i + 1, body_fun(i, x)), None

        if config.disable_jit and hi <= lo:  # the Python loop cannot run no step (JAX)
            return init_val
        # the index starts as the Python int `lo`: weakly typed, as in JAX
        (_, out), _ = scan(
            step,
            (lo, init_val),
            None,
            length=max(hi - lo, 0),
            unroll=1 if unroll is None else unroll,
        )
        return out
    if unroll is not None and unroll is not False and unroll != 1:
        raise ValueError(
            "Can only use `unroll` in `fori_loop` if the loop bounds are statically known."
        )
    if dtypes.dtype_and_weak(lower)[0] != dt:
        lower = convert_element_type(lower, dt)
    if dtypes.dtype_and_weak(upper)[0] != dt:
        upper = convert_element_type(upper, dt)

    def body(carry):
        i, hi_, x = carry
        return i + 1, hi_, body_fun(i, x)

    _, _, out = while_loop(lambda c: c[0] < c[1], body, (lower, upper, init_val))
    return out
