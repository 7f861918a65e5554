"""Machinery shared by the control-flow primitives: staging bodies and transforming jaxprs.

Control-flow primitives hold constvar-free jaxprs in their params (closed-over values are
explicit leading operands). Their rules never re-trace user code; they transform the held
jaxprs, each transformation being "trace `eval_jaxpr` under another interpreter":

* `jvp_jaxpr`   (primals, nonzero tangents) -> (primal outs, nonzero tangent outs)
* `batch_jaxpr` inputs/outputs batched along axis 0 where flagged
* `pe_jaxpr`    known/unknown split (`partial_eval_jaxpr`) that can force outputs unknown

Each reports which outputs came out nonzero/batched/unknown, so loop rules can iterate to a
fixpoint on the carry. Results are memoized weakly on the source jaxpr (the same jaxpr is
transformed again at every call of a jitted or differentiated function).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

from core import dtypes, ir
from core.ad_util import Zero, instantiate
from core.avals import ShapedArray
from core.interpreters.batching import BatchTrace, BatchTracer, moveaxis
from core.interpreters.jvp import JVPTrace, JVPTracer
from core.interpreters.partial_eval import JaxprTrace, dce_jaxpr, trace_to_closed_jaxpr
from core.trace import current_trace, set_current_trace

_derived: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def memo(jaxpr: ir.Jaxpr, key: tuple, make: Callable[[], Any]) -> Any:
    """`make()` cached on (`jaxpr` (weakly), `key`)."""
    per = _derived.get(jaxpr)
    if per is None:
        per = _derived[jaxpr] = {}
    if key not in per:
        per[key] = make()
    return per[key]


def clear_memo() -> None:
    """Drops every cached derived jaxpr (`core.clear_caches`)."""
    _derived.clear()


def stage(fun: Callable[..., Sequence[Any]], in_avals: Sequence[ShapedArray], dce: bool = True):
    """Stages a flat function to `(jaxpr, consts)`; the consts are the jaxpr's leading inputs
    (`dce=False` keeps equations whose outputs are unused, as JAX's staging does)."""
    return trace_to_closed_jaxpr(fun, list(in_avals), dce=dce)


def promote_weak_carry(
    in_avals: Sequence[ShapedArray], out_avals: Sequence[ShapedArray]
) -> list[ShapedArray]:
    """The carry types to stage a loop body again with, as JAX promotes weakly typed ones.

    An initial value that is weakly typed (a Python scalar) and comes out of the body with another
    dtype takes the promoted dtype of both, strongly typed: `fori_loop(0, n, lambda i, c: c + x,
    0)` with a float32 `x` carries float32. A weak input whose output has its dtype but is
    strongly typed stays weak, as in JAX (the body converts it where it meets strong values).
    Other mismatches are left for the caller to report.
    """
    out = []
    for a, o in zip(in_avals, out_avals):
        if a.weak_type and a.shape == o.shape and a.dtype != o.dtype:
            a = a.update(dtype=dtypes.result_type(a, o), weak_type=False)
        out.append(a)
    return out


def reorder(jaxpr: ir.Jaxpr, in_order: Sequence[int], out_order: Sequence[int]) -> ir.Jaxpr:
    """The same program with its inputs and outputs permuted (`new[i] = old[order[i]]`)."""
    return ir.Jaxpr(
        [], [jaxpr.invars[i] for i in in_order], jaxpr.eqns, [jaxpr.outvars[i] for i in out_order]
    )


def append_unused_inputs(jaxpr: ir.Jaxpr, avals: Sequence[ShapedArray]) -> ir.Jaxpr:
    """The jaxpr with extra trailing inputs of the given avals that it ignores."""
    return ir.Jaxpr([], jaxpr.invars + [ir.Var(a) for a in avals], jaxpr.eqns, jaxpr.outvars)


def join_consts(pairs: Sequence[tuple[ir.Jaxpr, list[Any]]]) -> tuple[list[ir.Jaxpr], list[Any]]:
    """Makes jaxprs with different leading consts all take the concatenation of every const."""
    all_consts = [c for _, cs in pairs for c in cs]
    avals = [[v.aval for v in j.invars[: len(cs)]] for j, cs in pairs]
    out = []
    for i, (j, cs) in enumerate(pairs):
        before = [a for av in avals[:i] for a in av]
        after = [a for av in avals[i + 1 :] for a in av]
        dummies_before = [ir.Var(a) for a in before]
        dummies_after = [ir.Var(a) for a in after]
        inv = dummies_before + j.invars[: len(cs)] + dummies_after + j.invars[len(cs) :]
        out.append(ir.Jaxpr([], inv, j.eqns, j.outvars))
    return out, all_consts


# ---------------------------------------------------------------------------------------------
# jvp


def jvp_jaxpr(jaxpr: ir.Jaxpr, nonzeros: tuple[bool, ...], instantiate_out: tuple[bool, ...]):
    """The jvp of a jaxpr.

    Returns `(jaxpr', consts, out_nonzeros)`; `jaxpr'` takes `consts, primals, tangents of the
    nonzero inputs` and returns `primal outs, tangents of the nonzero outputs`. An output's
    tangent is nonzero when it depends on a nonzero input or `instantiate_out` asks for it.
    """

    def make():
        n = len(jaxpr.invars)
        out_nz: list[bool] = []

        def f(*args):
            primals, tangents = args[:n], iter(args[n:])
            trace = JVPTrace(current_trace())
            ins = [
                JVPTracer(trace, p, next(tangents)) if nz else p for p, nz in zip(primals, nonzeros)
            ]
            with set_current_trace(trace):
                outs = ir.eval_jaxpr(jaxpr, [], *ins)
            pairs = [trace.to_primal_tangent(o) for o in outs]
            out_nz[:] = [
                type(t) is not Zero or inst for (_, t), inst in zip(pairs, instantiate_out)
            ]
            with set_current_trace(trace.parent):
                tans = [instantiate(t) for (_, t), nz in zip(pairs, out_nz) if nz]
                return [p for p, _ in pairs] + tans

        avals = jaxpr.in_avals + [a for a, nz in zip(jaxpr.in_avals, nonzeros) if nz]
        new, consts = stage(f, avals)
        return new, consts, tuple(out_nz)

    return memo(jaxpr, ("jvp", tuple(nonzeros), tuple(instantiate_out)), make)


# ---------------------------------------------------------------------------------------------
# vmap


def batch_jaxpr(
    jaxpr: ir.Jaxpr,
    size: int,
    batched: tuple[bool, ...],
    instantiate_out: tuple[bool, ...] | bool,
    axis_name: Any = None,
):
    """The jaxpr vectorized over a new leading axis of size `size` on the `batched` inputs.

    Returns `(jaxpr', consts, out_batched)`; `jaxpr'` takes `consts, inputs` (batched ones with
    the new axis first) and returns outputs with the new axis first where `out_batched`.
    """
    if isinstance(instantiate_out, bool):
        instantiate_out = (instantiate_out,) * len(jaxpr.outvars)

    def make():
        out_b: list[bool] = []

        def f(*args):
            trace = BatchTrace(current_trace(), size, axis_name)
            ins = [BatchTracer(trace, a, 0) if b else a for a, b in zip(args, batched)]
            with set_current_trace(trace):
                outs = ir.eval_jaxpr(jaxpr, [], *ins)
            vd = [trace.to_val_dim(o) for o in outs]
            out_b[:] = [d is not None or inst for (_, d), inst in zip(vd, instantiate_out)]
            with set_current_trace(trace.parent):
                return [moveaxis(v, d, 0, size) if b else v for (v, d), b in zip(vd, out_b)]

        avals = [
            a.update(shape=(size, *a.shape)) if b else a for a, b in zip(jaxpr.in_avals, batched)
        ]
        new, consts = stage(f, avals)
        return new, consts, tuple(out_b)

    key = ("batch", size, tuple(batched), tuple(instantiate_out), axis_name)
    return memo(jaxpr, key, make)


# ---------------------------------------------------------------------------------------------
# partial evaluation


def partial_eval_jaxpr(jaxpr: ir.Jaxpr, unknowns: Sequence[bool]):
    """Splits a constvar-free jaxpr into known and unknown parts by re-tracing it.

    Returns `(jaxpr_known, jaxpr_unknown, out_unknowns, num_res)`: `jaxpr_known` takes the known
    inputs and returns the known outputs followed by `num_res` residuals; `jaxpr_unknown` takes
    the residuals followed by the unknown inputs and returns the unknown outputs. The equations
    are re-bound under a partial-evaluation trace, so higher-order primitives
    (cond, scan, while, jit) split their own bodies with their `partial_eval` rules: a
    scan inside a scan, or a cond inside a jitted function, stays reverse-differentiable.
    """
    outer = JaxprTrace(current_trace(), stage_all=True)
    inner = JaxprTrace(outer, stage_all=False)
    ins = [inner.new_arg(a) if u else outer.new_arg(a) for a, u in zip(jaxpr.in_avals, unknowns)]
    with set_current_trace(inner):
        outs = ir.eval_jaxpr(jaxpr, [], *ins)
    out_uk = [inner.is_own(o) for o in outs]
    with set_current_trace(inner):
        ju, res = inner.to_jaxpr(
            [t for t, u in zip(ins, unknowns) if u], [o for o, u in zip(outs, out_uk) if u]
        )
    ju = ir.Jaxpr([], ju.constvars + ju.invars, ju.eqns, ju.outvars)
    with set_current_trace(outer):
        jk, consts = outer.to_jaxpr(
            [t for t, u in zip(ins, unknowns) if not u],
            [o for o, u in zip(outs, out_uk) if not u] + list(res),
        )
    if consts:  # rules only create scalar constants, which are literals
        raise NotImplementedError("partial evaluation of a jaxpr produced array constants")
    ir.typecheck(ju)
    return jk, ju, out_uk, len(res)


def pe_jaxpr(jaxpr: ir.Jaxpr, unknowns: tuple[bool, ...], instantiate_out: tuple[bool, ...]):
    """`partial_eval_jaxpr` whose outputs flagged in `instantiate_out` are always unknown.

    Returns `(jaxpr_known, jaxpr_unknown, out_unknowns, num_res)` as `partial_eval_jaxpr`: the
    known jaxpr returns known outputs then residuals; the unknown one takes residuals then the
    unknown inputs. A known output forced unknown travels as an extra residual.
    """

    def make():
        jk, ju, out_uk, nres = partial_eval_jaxpr(jaxpr, list(unknowns))
        force = [inst and not uk for inst, uk in zip(instantiate_out, out_uk)]
        if not any(force):
            return jk, ju, tuple(out_uk), nres
        nk = len(jk.outvars) - nres
        known_outs, res = jk.outvars[:nk], jk.outvars[nk:]
        kept, extra = [], []
        uk_outs = iter(ju.outvars)
        merged: list[ir.Atom] = []
        new_res: list[ir.Var] = []
        k = iter(known_outs)
        for uk, fc in zip(out_uk, force):
            if uk:
                merged.append(next(uk_outs))
                continue
            v = next(k)
            if not fc:
                kept.append(v)
            elif isinstance(v, ir.Literal):
                merged.append(v)
            else:
                extra.append(v)
                nv = ir.Var(v.aval)
                new_res.append(nv)
                merged.append(nv)
        jk2 = ir.Jaxpr([], jk.invars, jk.eqns, kept + list(res) + extra)
        ju_inv = ju.invars[:nres] + new_res + ju.invars[nres:]
        ju2 = ir.Jaxpr([], ju_inv, ju.eqns, merged)
        ir.typecheck(jk2)
        ir.typecheck(ju2)
        out_uk2 = tuple(uk or fc for uk, fc in zip(out_uk, force))
        return jk2, ju2, out_uk2, nres + len(extra)

    return memo(jaxpr, ("pe", tuple(unknowns), tuple(instantiate_out)), make)


# Rules `rule(eqn, used) -> eqn'` of higher-order primitives (registered by scan and cond) that
# drop the outputs `used` marks False from an equation, as JAX's DCE rules.
_output_pruners: dict[Any, Callable[[ir.Eqn, list[bool]], ir.Eqn]] = {}


def register_output_pruner(prim: Any, rule: Callable[[ir.Eqn, list[bool]], ir.Eqn]) -> None:
    """Registers `prim`'s rule for `prune_jaxpr`."""
    _output_pruners[prim] = rule


def prune_jaxpr(jaxpr: ir.Jaxpr) -> ir.Jaxpr:
    """`dce_jaxpr` that also drops the unused outputs of scans and conds (and the equations of
    their bodies only those computed): a known scan's per-step residuals that nothing reads."""
    live = {v for v in jaxpr.outvars if isinstance(v, ir.Var)}
    kept = []
    for eqn in reversed(jaxpr.eqns):
        used = [v in live for v in eqn.outputs]
        if not any(used) and not ir.eqn_has_effects(eqn):
            continue
        rule = _output_pruners.get(eqn.prim)
        if rule is not None and not all(used) and not ir.eqn_has_effects(eqn):
            eqn = rule(eqn, used)
        kept.append(eqn)
        live.update(x for x in eqn.inputs if isinstance(x, ir.Var))
    return ir.Jaxpr(jaxpr.constvars, jaxpr.invars, kept[::-1], jaxpr.outvars)


def drop_outputs(jaxpr: ir.Jaxpr, keep: int) -> ir.Jaxpr:
    """The jaxpr with only its first `keep` outputs (dead equations removed)."""
    return dce_jaxpr(ir.Jaxpr([], jaxpr.invars, jaxpr.eqns, jaxpr.outvars[:keep]))


def carry_fixpoint(
    carry: list[bool], out_flags: Callable[[list[bool]], Sequence[bool]]
) -> list[bool]:
    """A loop's carry flags (nonzero tangent, unknown, batched) at their fixpoint: `carry`
    or-ed with the flags the body gives its carry outputs, until they no longer grow.

    Args:
      carry: the flags of the carry's initial values.
      out_flags: the flags of the body's outputs (carry outputs first) for carry flags.

    Returns:
      The flags, each set where any iteration may set it.
    """
    for _ in range(len(carry) + 1):
        new = [a or b for a, b in zip(carry, out_flags(carry))]
        if new == carry:
            break
        carry = new
    return carry


def split_list(xs: Sequence[Any], sizes: Sequence[int]) -> list[list[Any]]:
    """Cuts `xs` into consecutive pieces of the given sizes (the rest is the last piece)."""
    out, start = [], 0
    for s in sizes:
        out.append(list(xs[start : start + s]))
        start += s
    out.append(list(xs[start:]))
    return out


def axis_name_of(axis_trace: Any) -> Any:
    """The axis name of a batch rule's `axis_trace` (None without one)."""
    return None if axis_trace is None else axis_trace.axis_name
