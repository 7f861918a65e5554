"""`cond_p`: pick one of several staged branches by an integer index (`lax.cond`, `lax.switch`).

Operands: `index` (int32 scalar, clamped into range), then the branch operands. Param:
`branches`, a tuple of constvar-free jaxprs with identical input and output types. Every
branch is traced (abstractly) at the call; only the chosen one runs.

Rules: jvp takes the jvp of every branch (tangent outputs nonzero in any branch are
instantiated in all); partial evaluation splits every branch, merges their residuals as JAX
does (the k-th residual of a type in every branch shares one output; a branch fills the slots
it does not use with `empty2` placeholders) and stages the unknown halves as a second cond; the
transpose transposes each branch; under vmap an unbatched index keeps the cond, a batched one
runs every branch and selects elementwise (as JAX does).

Lowering: `if/elif` on the clamped index, each arm a call of the lowered branch jaxpr.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core import dtypes, ir, ref_scope, tree_util
from core.ad_util import Zero, instantiate
from core.avals import ShapedArray
from core.backends.numpy import run_jaxpr
from core.config import config
from core.interpreters import batching
from core.interpreters.transpose import UndefinedPrimal, backward_pass, is_undefined
from core.primitive import Primitive
from core.prims import elementwise as ew
from core.prims.control_flow.common import (
    axis_name_of,
    batch_jaxpr,
    join_consts,
    jvp_jaxpr,
    memo,
    pe_jaxpr,
    prune_jaxpr,
    register_output_pruner,
    stage,
)
from core.prims.control_flow.errors import BranchTypeError, PredicateTypeError
from core.prims.elementwise import eq, full_like, ne, select_n, stop_gradient_p
from core.prims.shapes import broadcast_in_dim, convert_element_type, empty_like_aval
from core.trace import Tracer, as_value, get_aval, set_current_trace

cond_p = Primitive("cond", multiple_results=True, higher_order=True)


def _ids(branches) -> tuple[int, ...]:
    # Memo keys name the sibling branches by id: holding them would keep the weak key alive.
    return tuple(map(id, branches))


def _cond_impl(index, *ops, branches):
    i = int(np.clip(index, 0, len(branches) - 1))
    return run_jaxpr(branches[i], *ops)


def _cond_abstract_eval(index, *avals, branches):
    if index.shape != () or index.dtype != dtypes.int32:
        raise TypeError(
            f"cond index must be an int32 scalar, got {index.str_short(short_dtypes=True)}"
        )
    for b in branches:
        if [(a.shape, a.dtype) for a in b.in_avals] != [(a.shape, a.dtype) for a in avals]:
            raise TypeError(
                f"cond branch expects {[a.str_short(short_dtypes=True) for a in b.in_avals]}, got "
                f"{[a.str_short(short_dtypes=True) for a in avals]}"
            )
    # The outputs have the first branch's types, weak types included (as in JAX: branches that
    # differ only in weak types are not unified, so `cond(p, lambda: f32(1), lambda: 2.0)`, whose
    # first branch is the false one, is weakly typed whichever runs).
    return list(branches[0].out_avals)


def _cond_jvp(primals, tangents, *, branches):
    index, *ops = primals
    nz = tuple(type(t) is not Zero for t in tangents[1:])
    none = (False,) * len(branches[0].outvars)
    out_nz = tuple(any(f) for f in zip(*[jvp_jaxpr(b, nz, none)[2] for b in branches]))
    derived = [jvp_jaxpr(b, nz, out_nz) for b in branches]
    new, consts = join_consts([(j, c) for j, c, _ in derived])
    nz_ts = [t for t in tangents[1:] if type(t) is not Zero]
    outs = cond_p.bind(index, *consts, *ops, *nz_ts, branches=tuple(new))
    n = len(branches[0].outvars)
    ts = iter(outs[n:])
    avals = branches[0].out_avals
    return outs[:n], [next(ts) if z else Zero(a) for z, a in zip(out_nz, avals)]


def _merge_residuals(res_avals: list[list[ShapedArray]]) -> tuple[list, list[list[int]]]:
    """JAX's `_merge_branch_residuals`: the residual slots of a split cond, one per type and
    occurrence (the k-th residual of a type of every branch shares a slot), in branch order,
    and the slot of each branch's residuals."""
    tagged = []
    for avals in res_avals:
        seen: dict[ShapedArray, int] = {}
        row = []
        for a in avals:
            row.append((a, seen.get(a, 0)))
            seen[a] = seen.get(a, 0) + 1
        tagged.append(row)
    slots = list(dict.fromkeys(t for row in tagged for t in row))
    index = {t: i for i, t in enumerate(slots)}
    return [a for a, _ in slots], [[index[t] for t in row] for row in tagged]


def _known_branch_with_all_res(jk: ir.Jaxpr, nk: int, slots: list[int], all_avals: list):
    """A known branch returning every residual slot: its own residuals in theirs, an `empty2`
    placeholder in the others (made for every slot first, as JAX's `_join_cond_outputs`)."""

    def f(*args):
        outs = ir.eval_jaxpr(jk, [], *args)
        res = [empty_like_aval(a) for a in all_avals]
        for i, r in zip(slots, outs[nk:]):
            res[i] = r
        return outs[:nk] + res

    return stage(f, jk.in_avals, dce=False)


def _cond_partial_eval(trace, args, params):
    branches = params["branches"]
    index, *ops = args
    if trace.is_own(index):
        return trace.stage(cond_p, args, params)
    unknowns = tuple(trace.is_own(a) for a in ops)
    none = (False,) * len(branches[0].outvars)
    out_uk = tuple(any(f) for f in zip(*[pe_jaxpr(b, unknowns, none)[2] for b in branches]))

    def make():
        splits = [pe_jaxpr(b, unknowns, out_uk) for b in branches]
        nk = sum(not u for u in out_uk)
        all_avals, slots = _merge_residuals([jk.out_avals[nk:] for jk, _, _, _ in splits])
        known = [
            _known_branch_with_all_res(jk, nk, mine, all_avals)
            for (jk, _, _, _), mine in zip(splits, slots)
        ]
        known, kconsts = join_consts(known)
        unknown = []
        for (_, ju, _, nres), mine in zip(splits, slots):
            res_vars = [ir.Var(a) for a in all_avals]
            for i, v in zip(mine, ju.invars[:nres]):
                res_vars[i] = v
            unknown.append(ir.Jaxpr([], res_vars + ju.invars[nres:], ju.eqns, ju.outvars))
        return tuple(known), kconsts, tuple(unknown), nk

    known, kconsts, unknown, nk = memo(branches[0], ("cond_pe", _ids(branches), unknowns), make)
    known_ops = [a for a, u in zip(ops, unknowns) if not u]
    with set_current_trace(trace.parent):
        kouts = cond_p.bind(index, *kconsts, *known_ops, branches=known)
    kvals, res = kouts[:nk], kouts[nk:]
    uk_ops = [a for a, u in zip(ops, unknowns) if u]
    uouts = (
        trace.stage(cond_p, [index, *res, *uk_ops], dict(branches=unknown)) if any(out_uk) else []
    )
    k, u = iter(kvals), iter(uouts)
    return [next(u) if uk else next(k) for uk in out_uk]


def _cond_transpose(cts, index, *ops, branches):
    undef = tuple(is_undefined(o) for o in ops)
    cts = [instantiate(c) for c in cts]

    def make():
        in_avals = branches[0].in_avals
        known_avals = [a for a, u in zip(in_avals, undef) if not u]

        def transposed(b):
            def f(*vals):
                known, ct_vals = vals[: len(known_avals)], vals[len(known_avals) :]
                it = iter(known)
                full = [UndefinedPrimal(a) if u else next(it) for a, u in zip(in_avals, undef)]
                res = backward_pass(b, [], full, list(ct_vals))
                return [instantiate(r) for r, u in zip(res, undef) if u]

            return stage(f, known_avals + b.out_avals)

        new, consts = join_consts([transposed(b) for b in branches])
        return tuple(new), consts

    new, consts = memo(branches[0], ("cond_transpose", _ids(branches), undef), make)
    known = [o for o in ops if not is_undefined(o)]
    outs = iter(cond_p.bind(index, *consts, *known, *cts, branches=new))
    return [None] + [next(outs) if u else None for u in undef]


def _select_taken(taken: Any, x: Any) -> Any:
    """`x` where the batched predicate `taken` holds, `stop_gradient(x)` elsewhere."""
    aval = get_aval(x)
    if type(aval.dtype) is dtypes.KeyDType:  # no derivative to stop
        return x
    if get_aval(taken).ndim != aval.ndim:
        taken = broadcast_in_dim(taken, aval.shape, (0,))
    return select_n(taken, stop_gradient_p.bind(x), x)


def _cond_batch(args, dims, *, branches, axis_trace=None):
    index, *ops = args
    idim, *odims = dims
    size = batching.batch_size(args, dims)
    name = axis_name_of(axis_trace)
    n_out = len(branches[0].outvars)
    if idim is not None:
        # A batched predicate: run every branch on the whole batch and select per element. As
        # JAX's, every operand is batched, and a branch sees the elements it does not take
        # through `stop_gradient`, so that a branch undefined there (a `sqrt` of a negative
        # guarded by the predicate) puts no NaN in the derivative.
        index = batching.moveaxis(index, idim, 0, size)
        ops = [batching.moveaxis(o, d, 0, size) for o, d in zip(ops, odims)]
        outs = []
        for i, b in enumerate(branches):
            bj, consts, _ = batch_jaxpr(b, size, (True,) * len(ops), True, name)
            taken = eq(index, full_like(index, i, shape=()))
            masked = [_select_taken(taken, o) for o in ops]
            outs.append(ir.eval_jaxpr(bj, [], *consts, *masked))
        if len(branches) == 1:
            return outs[0], [0] * n_out
        res = []
        for cases in zip(*outs):
            shape = get_aval(cases[0]).shape
            which = broadcast_in_dim(index, shape, (0,))
            res.append(select_n(which, *cases))
        return res, [0] * n_out
    ops = [o if d is None else batching.moveaxis(o, d, 0, size) for o, d in zip(ops, odims)]
    in_b = tuple(d is not None for d in odims)
    out_b = tuple(
        any(f) for f in zip(*[batch_jaxpr(b, size, in_b, False, name)[2] for b in branches])
    )
    new, consts = join_consts([batch_jaxpr(b, size, in_b, out_b, name)[:2] for b in branches])
    outs = cond_p.bind(index, *consts, *ops, branches=tuple(new))
    return outs, [0 if b else None for b in out_b]


cond_p.def_impl(_cond_impl)
cond_p.def_abstract_eval(_cond_abstract_eval)
cond_p.def_jvp(_cond_jvp)
cond_p.def_partial_eval(_cond_partial_eval)
cond_p.def_transpose(_cond_transpose)
cond_p.def_batch(_cond_batch)


def _cond_prune(eqn: ir.Eqn, used: list[bool]) -> ir.Eqn:
    """The cond without its unused outputs, in every branch."""
    keep = [i for i, u in enumerate(used) if u]
    branches = tuple(
        prune_jaxpr(ir.Jaxpr([], b.invars, b.eqns, [b.outvars[i] for i in keep]))
        for b in eqn.params["branches"]
    )
    outs = [eqn.outputs[i] for i in keep]
    return ir.Eqn(cond_p, eqn.inputs, {**eqn.params, "branches": branches}, outs, eqn.source_info)


register_output_pruner(cond_p, _cond_prune)


# ---------------------------------------------------------------------------------------------
# The user-facing wrappers


def _trace_branches(funs: Sequence[Callable], operands: tuple, what: str):
    leaves, in_tree = tree_util.tree_flatten(operands)
    leaves = [as_value(x) for x in leaves]
    avals = [get_aval(x) for x in leaves]
    traced, out_trees = [None] * len(funs), [None] * len(funs)
    # JAX traces `cond`'s true branch (branch 1) before its false one; switch's in order
    for k in [1, 0] if what == "cond" else range(len(funs)):
        store: list = []

        def flat(*xs, fun=funs[k], store=store):
            out = fun(*tree_util.tree_unflatten(in_tree, xs))
            out_flat, out_tree = tree_util.tree_flatten(out)
            store.append(out_tree)
            return [as_value(o) for o in out_flat]

        traced[k] = stage(flat, avals)
        out_trees[k] = store[0]
    for i, ((j, _), t) in enumerate(zip(traced, out_trees)):
        j0 = traced[0][0]
        if t != out_trees[0] or [(a.shape, a.dtype) for a in j.out_avals] != [
            (a.shape, a.dtype) for a in j0.out_avals
        ]:
            first = (  # JAX's first line, then what differs
                f"{what} branch outputs must have the same pytree structure, but they differ:"
                if t != out_trees[0]
                else f"{what} branches must have equal output types but they differ."
            )
            raise BranchTypeError(
                f"{first}\nBranch 0 returns {out_trees[0]} with "
                f"{[a.str_short(short_dtypes=True) for a in j0.out_avals]}, branch {i} returns "
                f"{t} with "
                f"{[a.str_short(short_dtypes=True) for a in j.out_avals]}. Cast with .astype(...) "
                "or reshape so "
                "they agree."
            )
    jaxprs, consts = join_consts(traced)
    return jaxprs, consts, leaves, out_trees[0]


def _bind_branches(index: Any, funs: Sequence[Callable], operands: tuple, what: str) -> Any:
    return ref_scope.threaded(
        lambda refs, scope: _bind_branches_with(index, funs, operands, what, refs, scope)
    )


def _bind_branches_with(index, funs, operands, what, refs, scope) -> Any:
    # The branches with the Refs they use (made outside them) as an extra operand and output.
    if refs:
        operands = (*operands, [ref_scope.read(r) for r in refs])
        funs = [
            lambda *a, fun=fun: ref_scope.bind_refs(scope, refs, a[-1], fun, *a[:-1])
            for fun in funs
        ]
    else:
        funs = [lambda *a, fun=fun: ref_scope.bind_refs(scope, (), (), fun, *a)[0] for fun in funs]
    jaxprs, consts, leaves, out_tree = _trace_branches(funs, operands, what)
    fwd = _forwarded_inputs(jaxprs)
    jaxprs = [
        ir.Jaxpr(j.constvars, j.invars, j.eqns, [v for v, f in zip(j.outvars, fwd) if f is None])
        for j in jaxprs
    ]
    bound = cond_p.bind(index, *consts, *leaves, branches=tuple(jaxprs))
    inputs, rest = [*consts, *leaves], iter(bound)
    outs = [next(rest) if f is None else inputs[f] for f in fwd]
    return ref_scope.written_back(refs, tree_util.tree_unflatten(out_tree, outs))


def _forwarded_inputs(jaxprs: Sequence[ir.Jaxpr]) -> list[int | None]:
    """Per output, the input every branch returns unchanged (its position), else None. JAX's
    `cond` returns such an operand itself, so it stays unbatched under `vmap` (`out_axes=None`
    works) and is the very object passed in."""
    fwd: list[int | None] = []
    for i in range(len(jaxprs[0].outvars)):
        found = set()
        for j in jaxprs:
            positions = {id(v): k for k, v in enumerate(j.invars)}
            found.add(positions.get(id(j.outvars[i])))
        fwd.append(found.pop() if len(found) == 1 else None)
    return fwd


def _concrete(x: Any) -> Any:
    if isinstance(x, Tracer):
        return x.to_concrete_value()
    return np.asarray(x)


def _predicate_aval(pred: Any) -> Any:
    if pred is None:
        raise PredicateTypeError("cond predicate is None; pass a boolean or number scalar.")
    if isinstance(pred, Sequence):
        raise PredicateTypeError(
            f"Pred must be a scalar, got {pred} of type {type(pred)}\nPass a boolean or "
            "number scalar."
        )
    try:
        aval = get_aval(pred)
    except TypeError:  # JAX's words for a value that is no JAX type (a function, an object)
        raise PredicateTypeError(
            f"Pred type must be either boolean or number, got {pred}.\nPass a boolean or "
            "number scalar."
        ) from None
    if aval.shape != ():
        raise PredicateTypeError(
            f"Pred must be a scalar, got {np.asarray(pred)} of shape {aval.shape}.\nFor "
            "elementwise selection use jnp.where(pred, x, y)."
        )
    if dtypes.kind(aval.dtype) not in "biuf":
        raise PredicateTypeError(
            f"Pred type must be either boolean or number, got {aval.dtype}.\nCompare it "
            "explicitly (e.g. `x != 0`) to get a boolean."
        )
    return aval


_NO_OPERAND = object()


def _keyword_operand(operands: tuple, operand: Any) -> tuple:
    """`operands`, or `(operand,)` when given by the older `operand=` keyword (JAX's
    TypeError when both are)."""
    if operand is _NO_OPERAND:
        return operands
    if operands:
        raise TypeError(
            "if 'operand' keyword is passed then no positional operands can be passed, got "
            f"operand={operand!r} and positional operands {operands}"
        )
    return (operand,)


def cond(
    pred: Any, true_fun: Callable, false_fun: Callable, *operands: Any, operand: Any = _NO_OPERAND
) -> Any:
    """`lax.cond`: `true_fun(*operands)` if `pred` else `false_fun(*operands)`.

    Both branches are traced; only one runs. Under `vmap` with a batched `pred` both run and
    the results are selected elementwise.

    Args:
      pred: a boolean or real-number scalar (a number counts as true when nonzero).
      true_fun: function of `*operands`.
      false_fun: function of `*operands` returning the same structure, shapes and dtypes.
      *operands: the operands (pytrees of arrays).
      operand: the one operand, by JAX's older keyword (not with `*operands`).

    Returns:
      The output of the selected branch.
    """
    operands = _keyword_operand(operands, operand)
    if not (callable(true_fun) and callable(false_fun)):
        raise TypeError("lax.cond: true_fun and false_fun arguments should be callable.")
    aval = _predicate_aval(pred)
    if config.disable_jit:
        val = _concrete(pred)
        if val is not None:
            return true_fun(*operands) if bool(val) else false_fun(*operands)
    if aval.dtype != dtypes.bool_:  # a number is true when nonzero (NaN included), as in JAX
        pred = ne(pred, full_like(pred, 0))
    index = convert_element_type(pred, np.int32)
    return _bind_branches(index, [false_fun, true_fun], operands, "cond")


def switch(
    index: Any, branches: Sequence[Callable], *operands: Any, operand: Any = _NO_OPERAND
) -> Any:
    """`lax.switch`: `branches[index](*operands)`, the index clamped into range.

    Args:
      index: an integer scalar.
      branches: a sequence of functions with the same output structure, shapes and dtypes.
      *operands: the operands (pytrees of arrays).
      operand: the one operand, by JAX's older keyword (not with `*operands`).

    Returns:
      The output of the selected branch.
    """
    operands = _keyword_operand(operands, operand)
    if not hasattr(branches, "__iter__"):  # JAX iterates over them first
        raise TypeError(
            f"'{type(branches).__name__}' object is not iterable\n"
            "lax.switch: branches argument should be a sequence of callables."
        )
    if not isinstance(branches, Sequence) or not all(callable(b) for b in branches):
        raise TypeError("lax.switch: branches argument should be a sequence of callables.")
    branches = list(branches)
    if not branches:
        raise ValueError("Empty branch sequence")
    try:
        aval = get_aval(index)
    except TypeError:  # JAX's words for a sequence, a string, a function
        shape = (
            np.shape(index) if isinstance(index, Sequence) and not isinstance(index, str) else ()
        )
        if shape != ():
            raise TypeError(f"Branch index must be scalar, got {index} of shape {shape}.") from None
        raise TypeError(
            f"Index type must be an integer, got {index}.\nPass an integer scalar."
        ) from None
    if aval.shape != ():
        raise TypeError(
            f"Branch index must be scalar, got {np.asarray(index)} of shape {aval.shape}."
        )
    if dtypes.kind(aval.dtype) not in "iu":
        raise TypeError(
            f"Index type must be an integer, got {np.asarray(index)} as {aval.dtype}\n"
            "Cast the index with `.astype(jnp.int32)`."
        )
    if len(branches) == 1:
        return branches[0](*operands)
    if config.disable_jit:
        val = _concrete(index)
        if val is not None:
            return branches[int(np.clip(val, 0, len(branches) - 1))](*operands)
    index = convert_element_type(index, np.int32)
    index = ew.clamp(np.int32(0), index, np.int32(len(branches) - 1))  # as JAX's switch
    return _bind_branches(index, branches, operands, "switch")
