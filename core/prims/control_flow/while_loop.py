"""`while_p`: loop while a predicate holds (`lax.while_loop`, `fori_loop` with traced bounds).

Operands: `cond_consts`, `body_consts`, then the carry. Params:

    cond_jaxpr     constvar-free: (cond_consts, carry) -> bool scalar
    body_jaxpr     constvar-free: (body_consts, carry) -> new carry
    cond_nconsts   how many leading operands belong to the predicate
    body_nconsts   how many operands after them belong to the body

Outputs: the final carry.

Rules: jvp iterates to a fixpoint on nonzero carry tangents (the predicate ignores them).
The trip count is unknown until the loop ends, so there is no reverse mode: partial
evaluation computes the known carries with a known loop and stages the whole loop for the
unknown ones, and the transpose raises `WhileLoopReverseModeError` naming the fix (JAX's
behaviour). Under vmap a batched predicate runs the loop while any element is still going
and keeps finished elements' carries with a select.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from core import ir, ref_scope, tree_util
from core.ad_util import Zero, instantiate
from core.backends.numpy import run_jaxpr
from core.interpreters import batching
from core.primitive import Primitive
from core.prims.control_flow.carry_check import check_carry_type
from core.prims.control_flow.common import (
    append_unused_inputs,
    axis_name_of,
    batch_jaxpr,
    carry_fixpoint,
    drop_outputs,
    jvp_jaxpr,
    memo,
    pe_jaxpr,
    promote_weak_carry,
    reorder,
    split_list,
    stage,
)
from core.prims.control_flow.errors import WhileLoopReverseModeError
from core.prims.elementwise import select_n
from core.prims.reductions import reduce_or
from core.prims.shapes import broadcast_in_dim, convert_element_type
from core.trace import as_value, get_aval, set_current_trace

while_p = Primitive("while", multiple_results=True, higher_order=True)


def _while_impl(*args, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    cc, bc, carry = split_list(args, [cond_nconsts, body_nconsts])
    while bool(run_jaxpr(cond_jaxpr, *cc, *carry)[0]):
        carry = run_jaxpr(body_jaxpr, *bc, *carry)
    return list(carry)


def _while_abstract_eval(*avals, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    cc, bc, carry = split_list(avals, [cond_nconsts, body_nconsts])
    sig = lambda xs: [(a.shape, a.dtype) for a in xs]  # noqa: E731
    if (
        sig(cond_jaxpr.in_avals) != sig(cc + carry)
        or sig(body_jaxpr.in_avals) != sig(bc + carry)
        or sig(body_jaxpr.out_avals) != sig(carry)
    ):
        raise TypeError(
            f"while: operand types {[a.str_short(short_dtypes=True) for a in avals]} do not fit "
            "the cond/body jaxprs"
        )
    return body_jaxpr.out_avals


def _while_jvp(primals, tangents, *, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    nz = [type(t) is not Zero for t in tangents]
    _, nz_bc, nz_carry = split_list(nz, [cond_nconsts, body_nconsts])
    nz_carry = carry_fixpoint(
        nz_carry, lambda c: jvp_jaxpr(body_jaxpr, tuple(nz_bc + c), tuple(c))[2]
    )
    nz_in = tuple(nz_bc + nz_carry)
    bj, bconsts, _ = jvp_jaxpr(body_jaxpr, nz_in, tuple(nz_carry))
    nj, nb, ncar = len(bconsts), body_nconsts, len(nz_carry)
    n_tb = sum(nz_bc)
    # bj inputs: bconsts, body consts, carry, tangents of nonzero body consts, of carry.
    in_order = (
        list(range(nj + nb))
        + list(range(nj + nb + ncar, nj + nb + ncar + n_tb))
        + list(range(nj + nb, nj + nb + ncar))
        + list(range(nj + nb + ncar + n_tb, len(bj.invars)))
    )
    body = memo(bj, ("while_jvp_order", nb), lambda: reorder(bj, in_order, range(len(bj.outvars))))
    t_avals = [a for a, z in zip(body_jaxpr.out_avals, nz_carry) if z]
    cond = memo(
        cond_jaxpr,
        ("while_cond_ignore", tuple(t_avals)),
        lambda: append_unused_inputs(cond_jaxpr, t_avals),
    )
    cc, bc, carry = split_list(primals, [cond_nconsts, body_nconsts])
    _, t_bc, t_carry = split_list(tangents, [cond_nconsts, body_nconsts])
    t_bc = [t for t in t_bc if type(t) is not Zero]
    t_carry = [instantiate(t) for t, z in zip(t_carry, nz_carry) if z]
    outs = while_p.bind(
        *cc,
        *bconsts,
        *bc,
        *t_bc,
        *carry,
        *t_carry,
        cond_jaxpr=cond,
        body_jaxpr=body,
        cond_nconsts=cond_nconsts,
        body_nconsts=nj + nb + n_tb,
    )
    ts = iter(outs[ncar:])
    return outs[:ncar], [next(ts) if z else Zero(a) for z, a in zip(nz_carry, body_jaxpr.out_avals)]


def _while_partial_eval(trace, args, params):
    cond_jaxpr, body_jaxpr = params["cond_jaxpr"], params["body_jaxpr"]
    ncc, nbc = params["cond_nconsts"], params["body_nconsts"]
    unknowns = [trace.is_own(a) for a in args]
    uk_cc, uk_bc, uk_carry = split_list(unknowns, [ncc, nbc])
    uk_carry = carry_fixpoint(
        uk_carry, lambda c: pe_jaxpr(body_jaxpr, tuple(uk_bc + c), tuple(c))[2]
    )
    cond_uk = pe_jaxpr(cond_jaxpr, tuple(uk_cc + uk_carry), (False,))[2][0]
    if cond_uk or all(uk_carry):
        return trace.stage(while_p, args, params)

    def make():
        jk = pe_jaxpr(body_jaxpr, tuple(uk_bc + uk_carry), tuple(uk_carry))[0]
        body_k = drop_outputs(jk, sum(not u for u in uk_carry))
        keep = [v for v, u in zip(cond_jaxpr.invars, uk_cc + uk_carry) if not u]
        cond_k = drop_outputs(ir.Jaxpr([], keep, cond_jaxpr.eqns, cond_jaxpr.outvars), 1)
        ir.typecheck(body_k)
        ir.typecheck(cond_k)
        return cond_k, body_k

    cond_k, body_k = memo(body_jaxpr, ("while_pe", id(cond_jaxpr), tuple(unknowns)), make)
    cc, bc, carry = split_list(args, [ncc, nbc])
    known = lambda xs, uks: [x for x, u in zip(xs, uks) if not u]  # noqa: E731
    with set_current_trace(trace.parent):
        kouts = while_p.bind(
            *known(cc, uk_cc),
            *known(bc, uk_bc),
            *known(carry, uk_carry),
            cond_jaxpr=cond_k,
            body_jaxpr=body_k,
            cond_nconsts=sum(not u for u in uk_cc),
            body_nconsts=sum(not u for u in uk_bc),
        )
    # The unknown carries need the whole loop (they cannot be split from the trip count).
    uouts = trace.stage(while_p, args, params)
    k = iter(kouts)
    return [u_out if u else next(k) for u_out, u in zip(uouts, uk_carry)]


def _while_transpose(cts, *args, **params):
    raise WhileLoopReverseModeError()


def _while_batch(
    args, dims, *, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts, axis_trace=None
):
    size = batching.batch_size(args, dims)
    name = axis_name_of(axis_trace)
    b = [d is not None for d in dims]
    b_cc, b_bc, b_carry = split_list(b, [cond_nconsts, body_nconsts])
    b_carry = carry_fixpoint(
        b_carry, lambda c: batch_jaxpr(body_jaxpr, size, tuple(b_bc + c), tuple(c), name)[2]
    )
    pred_b = batch_jaxpr(cond_jaxpr, size, tuple(b_cc + b_carry), False, name)[2][0]
    if pred_b:
        b_carry = [True] * len(b_carry)
    _, _, d_carry = split_list(dims, [cond_nconsts, body_nconsts])
    moved = batching.batched_first(args, dims, size)
    cc, bc, _ = split_list(moved, [cond_nconsts, body_nconsts])
    carry = [
        batching.moveaxis(c, d, 0, size) if bb else c
        for c, d, bb in zip(args[cond_nconsts + body_nconsts :], d_carry, b_carry)
    ]
    cj, cconsts, _ = batch_jaxpr(cond_jaxpr, size, tuple(b_cc + b_carry), False, name)
    bj, bconsts, _ = batch_jaxpr(body_jaxpr, size, tuple(b_bc + b_carry), tuple(b_carry), name)
    if not pred_b:
        outs = while_p.bind(
            *cconsts,
            *cc,
            *bconsts,
            *bc,
            *carry,
            cond_jaxpr=cj,
            body_jaxpr=bj,
            cond_nconsts=len(cconsts) + len(cc),
            body_nconsts=len(bconsts) + len(bc),
        )
        return outs, [0 if x else None for x in b_carry]

    n_cj, n_bj = len(cconsts) + len(cc), len(bconsts) + len(bc)
    c_avals = [get_aval(x) for x in [*cconsts, *cc]]
    b_avals = [get_aval(x) for x in [*bconsts, *bc]]
    carry_avals = [get_aval(x) for x in carry]

    def make():
        def any_cond(*vals):
            return [reduce_or(ir.eval_jaxpr(cj, [], *vals)[0], (0,))]

        def select_body(*vals):
            cvals, bvals, cur = split_list(vals, [n_cj, n_bj])
            pred = ir.eval_jaxpr(cj, [], *cvals, *cur)[0]
            new = ir.eval_jaxpr(bj, [], *bvals, *cur)
            return [
                select_n(broadcast_in_dim(pred, get_aval(o).shape, (0,)), o, n)
                for o, n in zip(cur, new)
            ]

        return stage(any_cond, c_avals + carry_avals), stage(
            select_body, c_avals + b_avals + carry_avals
        )

    (cj2, k1), (bj2, k2) = memo(cj, ("while_batched_pred", id(bj)), make)
    outs = while_p.bind(
        *k1,
        *cconsts,
        *cc,
        *k2,
        *cconsts,
        *cc,
        *bconsts,
        *bc,
        *carry,
        cond_jaxpr=cj2,
        body_jaxpr=bj2,
        cond_nconsts=len(k1) + n_cj,
        body_nconsts=len(k2) + n_cj + n_bj,
    )
    return outs, [0] * len(outs)


while_p.def_impl(_while_impl)
while_p.def_abstract_eval(_while_abstract_eval)
while_p.def_jvp(_while_jvp)
while_p.def_partial_eval(_while_partial_eval)
while_p.def_transpose(_while_transpose)
while_p.def_batch(_while_batch)


def while_loop(cond_fun: Callable, body_fun: Callable, init_val: Any) -> Any:
    """`lax.while_loop`: `while cond_fun(val): val = body_fun(val)`.

    Forward-mode differentiable (jvp, jacfwd); reverse mode raises `WhileLoopReverseModeError`
    (use `scan` or `fori_loop` with static bounds).

    Args:
      cond_fun: `val -> bool scalar`.
      body_fun: `val -> val`, keeping the structure, shapes and dtypes.
      init_val: the initial value (a pytree of arrays).

    Returns:
      The final value.
    """
    if not (callable(body_fun) and callable(cond_fun)):  # JAX's check and text
        raise TypeError("lax.while_loop: body_fun and cond_fun arguments should be callable.")
    return ref_scope.threaded(
        lambda refs, scope: _while_loop(cond_fun, body_fun, init_val, refs, scope)
    )


def _while_loop(user_cond: Callable, user_body: Callable, init_val: Any, refs, scope) -> Any:
    # `while_loop` with the Refs its functions use (made outside them) threaded through the
    # carry; writes in `cond_fun` are dropped.
    if refs:
        init_val = (init_val, [ref_scope.read(r) for r in refs])

    def cond_fun(c):
        if not refs:
            return ref_scope.bind_refs(scope, (), (), user_cond, c)[0]
        return ref_scope.bind_refs(scope, refs, c[1], user_cond, c[0])[0]

    @functools.wraps(user_body)
    def body_fun(c):
        if not refs:
            return ref_scope.bind_refs(scope, (), (), user_body, c)[0]
        return tuple(ref_scope.bind_refs(scope, refs, c[1], user_body, c[0]))

    init_flat, tree = tree_util.tree_flatten(init_val)
    init_flat = [as_value(x) for x in init_flat]
    avals = [get_aval(x) for x in init_flat]
    while True:  # each pass that changes the carry types makes one of them strongly typed
        store: list = []

        def body_flat(*xs, store=store):
            out = body_fun(tree_util.tree_unflatten(tree, xs))
            flat, t = tree_util.tree_flatten(out)
            store.append(t)
            return [as_value(o) for o in flat]

        bj, bconsts = stage(body_flat, avals)
        out_avals = bj.out_avals
        if store[0] == tree and promote_weak_carry(avals, out_avals) != avals:
            avals = promote_weak_carry(avals, out_avals)
            continue
        check_carry_type("while_loop body", user_body, tree, avals, store[0], out_avals)
        break
    init_flat = [
        convert_element_type(x, a.dtype, False) if get_aval(x).weak_type and not a.weak_type else x
        for x, a in zip(init_flat, avals)
    ]

    def cond_flat(*xs):
        pred = cond_fun(tree_util.tree_unflatten(tree, xs))
        leaves, pred_tree = tree_util.tree_flatten(pred)
        if len(leaves) != 1 or not tree_util.treedef_is_leaf(pred_tree):
            raise TypeError(f"cond_fun must return a boolean scalar, but got pytree {pred_tree}.")
        aval = get_aval(as_value(pred))
        if aval.shape != () or aval.dtype.kind != "b":
            raise TypeError(  # JAX's text: the ShapedArray repr of the output
                f"cond_fun must return a boolean scalar, but got output type(s) [{aval!r}]."
            )
        return [as_value(pred)]

    cj, cconsts = stage(cond_flat, avals)
    outs = while_p.bind(
        *cconsts,
        *bconsts,
        *init_flat,
        cond_jaxpr=cj,
        body_jaxpr=bj,
        cond_nconsts=len(cconsts),
        body_nconsts=len(bconsts),
    )
    return ref_scope.written_back(refs, tree_util.tree_unflatten(tree, outs))
