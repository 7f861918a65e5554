"""`checkpoint` / `remat`: JAX's gradient checkpointing (rematerialization).

`checkpoint(f)(*args)` stages `f` to a jaxpr and binds `remat2` with it (the name JAX's jaxprs
print). Evaluated, compiled (core/jit/simplify.py inlines it) or under `vmap` and `jvp`, the
jaxpr just runs. Reverse mode is where it differs: linearizing splits the differentiated jaxpr
(`_partial_eval`) into

* a known part, run on the forward pass: the primal outputs, plus the values the `policy` lets
  be saved (`checkpoint_policies.dots_with_no_batch_dims_saveable` saves matrix products, the
  name policies save `checkpoint_name`d values);
* a staged part, the backward pass's program: one `remat2` equation (`differentiated=True`)
  holding the tangent equations, preceded by every primal equation they need that may not be
  saved, recomputed there from the checkpoint's inputs and the saved values. Its transpose rule
  splits that jaxpr again (the recomputation, then the transposed linear part) and binds it as
  a `remat2`, as JAX's does (so `make_jaxpr(grad(checkpoint(f)))` prints JAX's program).

The known outputs are always the forward pass's values, even when the backward pass recomputes
them (a result that a tangent equation reads through exp or tanh). So the residuals kept
between the passes are the checkpoint's inputs and the saveable values the backward pass reads,
as in JAX (`core.ad_checkpoint.print_saved_residuals` lists them). A checkpoint holding a
higher-order primitive the tangents flow through (a scan or cond) is recomputed whole in the
backward pass from its inputs (JAX's default policy); partial: another policy's saveable values
inside it are recomputed too (`everything_saveable` saves what plain linearization saves); the
forward pass's scan or cond computes no residuals (`common.prune_jaxpr`). A function that
writes a Ref made outside it runs as is.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from core import ir, tree_util
from core.ad_util import Zero
from core.api import _given_inputs
from core.array import Array
from core.interpreters import batching
from core.interpreters.jvp import tangent_aval
from core.interpreters.partial_eval import dce_jaxpr
from core.interpreters.transpose import UndefinedPrimal, backward_pass, is_undefined
from core.primitive import Primitive
from core.prims.control_flow.common import (
    batch_jaxpr,
    jvp_jaxpr,
    memo,
    pe_jaxpr,
    prune_jaxpr,
    stage,
)
from core.ref_scope import RefEffectError
from core.trace import (
    EvalTrace,
    Tracer,
    as_value,
    current_trace,
    get_aval,
    set_current_trace,
    to_numpy,
)


def checkpoint(
    fun: Callable | None = None,
    *,
    prevent_cse: bool = True,
    policy: Callable[..., bool] | None = None,
    static_argnums: int | Sequence[int] = (),
    static_argnames: str | Sequence[str] = (),
    **removed: Any,
) -> Callable:
    """Marks `fun` for rematerialization under reverse-mode differentiation.

    Args:
      fun: the function (omit it to use `checkpoint(policy=...)` as a decorator factory).
      prevent_cse: accepted for compatibility. Under `jit` the forward and backward passes
        are one program, and numbax's compiler merges a recomputed equation with an equal one
        of the forward pass (common subexpressions), as XLA does with `prevent_cse=False`:
        the value is then kept rather than recomputed.
      policy: a function `(prim, *avals, **params) -> bool` saying which intermediate values
        may be saved, e.g. `checkpoint_policies.dots_saveable`; None saves none.
      static_argnums: positions of arguments passed as they are, not traced (Python values
        the function branches on).
      static_argnames: names of such arguments (by keyword, or by position when `fun`'s
        signature names them).
      **removed: `concrete=`, which JAX removed (its `NotImplementedError`); any other
        keyword is a `TypeError`.

    Returns:
      A function computing the same values as `fun`, whose reverse-mode derivative saves only
      its inputs and the values `policy` allows, recomputing the others.
    """
    if "concrete" in removed:
        raise NotImplementedError(
            "The `concrete` option to `jax.checkpoint` was deprecated in JAX v0.8.2, and "
            "removed in JAX v0.10.0. In its place please use `static_argnums`; for details "
            "refer to https://docs.jax.dev/en/latest/jep/11830-new-remat-checkpoint.html."
        )
    if removed:
        raise TypeError(f"checkpoint() got an unexpected keyword argument {next(iter(removed))!r}")
    if fun is None:
        return functools.partial(
            checkpoint,
            prevent_cse=prevent_cse,
            policy=policy,
            static_argnums=static_argnums,
            static_argnames=static_argnames,
        )
    given = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    names = (static_argnames,) if isinstance(static_argnames, str) else tuple(static_argnames)
    static = given + _positions_of(fun, names)

    @functools.wraps(fun)
    def remat_fun(*args: Any, **kwargs: Any) -> Any:
        if not all(-len(args) <= d < len(args) for d in given):
            raise ValueError(  # JAX's words
                "the `static_argnums` argument to `jax.checkpoint` / `jax.remat` can only take "
                "integer values greater than or equal to `-len(args)` and less than "
                f"`len(args)`, but got {given}, while `len(args)` = {len(args)}"
            )
        fixed = {n % len(args) for n in static if -len(args) <= n < len(args)}
        dynamic = [a for i, a in enumerate(args) if i not in fixed]
        static_kw = {k: v for k, v in kwargs.items() if k in names}
        kwargs = {k: v for k, v in kwargs.items() if k not in names}
        leaves, in_tree = tree_util.tree_flatten((dynamic, kwargs))
        flat = [as_value(x) for x in leaves]
        avals = tuple(get_aval(x) for x in flat)
        key = (
            in_tree,
            avals,
            tuple((i, args[i]) for i in sorted(fixed)),
            tuple(sorted(static_kw.items())),
        )
        staged = _cached(fun, key)
        if staged is None:
            store: list = []

            def flat_fun(*leaves: Any) -> list[Any]:
                dyn, kw = tree_util.tree_unflatten(in_tree, leaves)
                it = iter(dyn)
                full = [args[i] if i in fixed else next(it) for i in range(len(args))]
                out_flat, out_tree = tree_util.tree_flatten(fun(*full, **kw, **static_kw))
                store.append(out_tree)
                return [as_value(o) for o in out_flat]

            try:
                jaxpr, consts = stage(flat_fun, list(avals))
            except RefEffectError:  # writes a Ref made outside: run as is, as JAX allows
                return fun(*args, **kwargs)
            staged = (jaxpr, consts, store[0])
            if not any(isinstance(c, Tracer) for c in consts):
                _cache(fun, key, staged)
        jaxpr, consts, out_tree = staged
        outs = remat_p.bind(
            *consts,
            *flat,
            differentiated=False,
            jaxpr=jaxpr,
            policy=policy,
            prevent_cse=prevent_cse,
        )
        # an input returned untouched comes out as given (a Python float stays one), as JAX's
        position = {id(v): i for i, v in enumerate(jaxpr.invars[len(consts) :])}
        as_given = _given_inputs(flat, leaves, canonical=True)
        outs = [
            as_given.get(id(flat[position[id(v)]]), o) if id(v) in position else o
            for v, o in zip(jaxpr.outvars, outs)
        ]
        return tree_util.tree_unflatten(out_tree, outs)

    return remat_fun


def _positions_of(fun: Callable, names: tuple[str, ...]) -> tuple[int, ...]:
    """The positions of `fun`'s positional parameters named in `names` (none when `fun` has
    no inspectable signature), so that static arguments are static however they are passed."""
    if not names:
        return ()
    try:
        params = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        return ()
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return tuple(i for i, p in enumerate(params) if p.kind in positional and p.name in names)


# The staged jaxpr per function (weakly) and argument types, as JAX caches a checkpointed
# function's trace: a function is traced once per argument types, whatever policy wraps it.
_traces: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _cached(fun: Callable, key: tuple) -> tuple | None:
    try:
        return _traces.get(fun, {}).get(key)
    except TypeError:  # an unhashable static argument, or a function without weak references
        return None


def _cache(fun: Callable, key: tuple, staged: tuple) -> None:
    with contextlib.suppress(TypeError):
        _traces.setdefault(fun, {})[key] = staged


def remat(
    fun: Callable,
    *,
    prevent_cse: bool = True,
    policy: Callable[..., bool] | None = None,
    static_argnums: int | Sequence[int] = (),
    **removed: Any,
) -> Callable:
    """`checkpoint` under JAX's other name, with JAX's narrower signature: the function is
    required and static arguments are given by position only.

    Args:
      fun: the function.
      prevent_cse: as `checkpoint`'s.
      policy: as `checkpoint`'s.
      static_argnums: as `checkpoint`'s.
      **removed: `concrete=` (JAX's `NotImplementedError`); any other keyword is a `TypeError`.

    Returns:
      `checkpoint(fun, ...)`.
    """
    for name in removed:
        if name != "concrete":
            raise TypeError(f"remat() got an unexpected keyword argument {name!r}")
    return checkpoint(
        fun, prevent_cse=prevent_cse, policy=policy, static_argnums=static_argnums, **removed
    )


# ---------------------------------------------------------------------------------------------
# The primitive


def _impl(*args: Any, jaxpr: ir.Jaxpr, **params: Any) -> list[Any]:
    return [to_numpy(o) for o in ir.eval_jaxpr(jaxpr, [], *[Array(a) for a in args])]


def _jvp(primals, tangents, *, jaxpr, prevent_cse, differentiated, policy):
    nonzeros = tuple(type(t) is not Zero for t in tangents)
    n_out = len(jaxpr.outvars)
    new, consts, out_nz = jvp_jaxpr(jaxpr, nonzeros, (False,) * n_out)
    outs = remat_p.bind(
        *consts,
        *primals,
        *[t for t in tangents if type(t) is not Zero],
        differentiated=differentiated,  # as JAX's jvp: only partial evaluation sets it
        jaxpr=new,
        policy=policy,
        prevent_cse=prevent_cse,
    )
    tans = iter(outs[n_out:])
    tangents_out = [
        next(tans) if nz else Zero(tangent_aval(a)) for nz, a in zip(out_nz, jaxpr.out_avals)
    ]
    return outs[:n_out], tangents_out


def _batch(args, dims, *, jaxpr, axis_trace, **params):
    size = batching.batch_size(args, dims)
    args = batching.batched_first(args, dims, size)
    batched = tuple(d is not None for d in dims)
    new, consts, out_b = batch_jaxpr(jaxpr, size, batched, False, axis_trace.axis_name)
    outs = remat_p.bind(*consts, *args, jaxpr=new, **params)
    return outs, [0 if b else None for b in out_b]


def _saveable(policies: tuple, eqn: ir.Eqn) -> bool:
    """Whether every enclosing checkpoint's policy lets `eqn`'s outputs be saved."""
    avals = [x.aval for x in eqn.inputs]
    for p in policies:
        if p is not None and not callable(p):  # as JAX, checked when it is first applied
            raise TypeError(
                f"'{type(p).__name__}' object is not callable\ncheckpoint policy must be a "
                f"callable such as checkpoint_policies.dots_saveable, got {p!r}"
            )
    return all(p is not None and p(eqn.prim, *avals, **eqn.params) for p in policies)


def _flatten(jaxpr: ir.Jaxpr, policy: Any, unknown: set) -> tuple[list, list[ir.Atom]] | None:
    """The equations of `jaxpr` with the nested checkpoints that have unknown inputs inlined
    (renamed), each with the policies of the checkpoints around it, and the outputs; `unknown`
    grows by the unknown variables. None when another higher-order primitive has unknown inputs
    (it would need its own partial evaluation)."""
    sub: dict[ir.Var, ir.Atom] = {}
    out: list[tuple[ir.Eqn, tuple]] = []

    def s(x: ir.Atom) -> ir.Atom:
        return sub.get(x, x) if isinstance(x, ir.Var) else x

    def visit(eqns: list[ir.Eqn], policies: tuple, fresh: bool) -> bool:
        for eqn in eqns:
            ins = [s(x) for x in eqn.inputs]
            if any(isinstance(x, ir.Var) and x in unknown for x in ins):
                if eqn.prim is remat_p:
                    inner = eqn.params["jaxpr"]
                    sub.update(zip(inner.invars, ins))
                    if not visit(inner.eqns, (*policies, eqn.params["policy"]), True):
                        return False
                    sub.update(zip(eqn.outputs, [s(v) for v in inner.outvars]))
                    continue
                if eqn.prim.higher_order:
                    return False
            outs = eqn.outputs
            if fresh:
                outs = [ir.Var(v.aval) for v in eqn.outputs]
                sub.update(zip(eqn.outputs, outs))
            if any(isinstance(x, ir.Var) and x in unknown for x in ins):
                unknown.update(outs)
            out.append((ir.Eqn(eqn.prim, ins, eqn.params, outs, eqn.source_info), policies))
        return True

    if not visit(jaxpr.eqns, (policy,), False):
        return None
    return out, [s(v) for v in jaxpr.outvars]


def _partial_eval(trace, args, params):
    """Linearizing: the known part runs now (at the parent); the rest is staged on `trace` as
    one `remat2` equation (`differentiated=True`, as JAX's) reading the saved known values
    (see the module docstring)."""
    jaxpr, policy = params["jaxpr"], params["policy"]
    uk = tuple(trace.is_own(a) for a in args)
    try:  # the split per jaxpr, unknown inputs and policy (an unhashable policy: each time)
        plan = memo(jaxpr, ("remat_pe", uk, policy), lambda: _split(jaxpr, uk, policy))
    except TypeError:
        plan = _split(jaxpr, uk, policy)
    if plan is None:  # saves what linearizing it saves
        with set_current_trace(trace):
            return ir.eval_jaxpr(jaxpr, [], *args)
    known_jaxpr, backward, out_uk = plan
    with set_current_trace(trace.parent):
        values = ir.eval_jaxpr(known_jaxpr, [], *[a for a, u in zip(args, uk) if not u])
    n_known = len(out_uk) - sum(out_uk)
    staged = []
    if backward.outvars:
        operands = [*values[n_known:], *[a for a, u in zip(args, uk) if u]]
        staged = trace.stage(remat_p, operands, {**params, "jaxpr": backward,
                                                 "differentiated": True})  # fmt: skip
    k, u = iter(values[:n_known]), iter(staged)
    return [next(u) if unknown else next(k) for unknown in out_uk]


def _split(jaxpr: ir.Jaxpr, uk: tuple, policy: Any) -> tuple | None:
    """`(known, backward, out_unknowns)`: `known` maps the known inputs to the known outputs
    and the residuals, `backward` the residuals and the unknown inputs to the unknown outputs,
    recomputing the known values it reads that the policy does not let be saved. The known
    outputs are the forward pass's values, even those `backward` recomputes (a result that a
    tangent equation reads through exp or tanh). None: linearize as without checkpoint."""
    unknown: set[ir.Var] = {v for v, u in zip(jaxpr.invars, uk) if u}
    flat = _flatten(jaxpr, policy, unknown)
    if flat is None:
        return None if isinstance(policy, _Everything) else _split_whole(jaxpr, uk)
    eqns, outvars = flat

    def is_unknown(x: ir.Atom) -> bool:
        return isinstance(x, ir.Var) and x in unknown

    staged = [e for e, _ in eqns if any(is_unknown(x) for x in e.inputs)]
    known = [(e, p) for e, p in eqns if not any(is_unknown(x) for x in e.inputs)]
    # Which known values the staged part reads: saved (inputs, saveable outputs) or recomputed.
    needed = {x for e in staged for x in e.inputs if isinstance(x, ir.Var) and x not in unknown}
    recompute = []
    for eqn, policies in reversed(known):
        if any(v in needed for v in eqn.outputs) and not _saveable(policies, eqn):
            recompute.append(eqn)
            needed.update(x for x in eqn.inputs if isinstance(x, ir.Var))
    recomputed = {v for e in recompute for v in e.outputs}
    saved = [
        v
        for v in [*jaxpr.invars, *(v for e, _ in known for v in e.outputs)]
        if v in needed and v not in recomputed
    ]
    known_out = [v for v in outvars if not is_unknown(v)]
    known_inputs = [v for v in jaxpr.invars if v not in unknown]
    # without the equations only recomputed ones read, as JAX's
    known_jaxpr = _scans_called(
        dce_jaxpr(ir.Jaxpr([], known_inputs, [e for e, _ in known], known_out + saved))
    )
    again = {id(e) for e in recompute + staged}
    backward = ir.Jaxpr(
        [],
        saved + [v for v in jaxpr.invars if v in unknown],
        [e for e, _ in eqns if id(e) in again],
        [v for v in outvars if is_unknown(v)],
    )
    ir.typecheck(backward)
    return known_jaxpr, backward, tuple(is_unknown(v) for v in outvars)


def _scans_called(jaxpr: ir.Jaxpr) -> ir.Jaxpr:
    """`jaxpr` with each `scan` a `closed_call` of it, as JAX's partial evaluation of a
    checkpoint writes the known part of a scan. Partial: JAX's call also computes the loop
    invariants it hoists out of the body, which numbax's scan computes before it."""
    eqns = [_closed_call(e) if e.prim.name == "scan" else e for e in jaxpr.eqns]
    return ir.Jaxpr(jaxpr.constvars, jaxpr.invars, eqns, jaxpr.outvars)


def _split_whole(jaxpr: ir.Jaxpr, uk: tuple) -> tuple:
    """`_split` of a checkpoint holding a higher-order primitive with unknown inputs (a scan or
    cond the tangents flow through): the forward pass runs the known part of the split jaxpr
    (the primitive's own partial evaluation splits it) without its residuals, and the backward
    pass recomputes everything else from the checkpoint's inputs, as JAX's default policy does.
    Partial: the values a policy would save inside are recomputed too."""
    jk, _, out_uk, nres = pe_jaxpr(jaxpr, uk, (False,) * len(jaxpr.outvars))
    n_known = len(jk.outvars) - nres
    backward = dce_jaxpr(
        ir.Jaxpr([], jaxpr.invars, jaxpr.eqns, [v for v, u in zip(jaxpr.outvars, out_uk) if u])
    )
    used = {x for e in backward.eqns for x in e.inputs} | set(backward.outvars)
    known_pos = [i for i, u in enumerate(uk) if not u]
    saved = [j for j, i in enumerate(known_pos) if jaxpr.invars[i] in used]
    forward = prune_jaxpr(ir.Jaxpr([], jk.invars, jk.eqns, jk.outvars[:n_known]))
    known_jaxpr = _scans_called(
        ir.Jaxpr(
            [], forward.invars, forward.eqns, [*forward.outvars, *[jk.invars[j] for j in saved]]
        )
    )
    inputs = [jaxpr.invars[known_pos[j]] for j in saved]
    inputs += [v for v, u in zip(jaxpr.invars, uk) if u]
    backward = ir.Jaxpr([], inputs, backward.eqns, backward.outvars)
    ir.typecheck(backward)
    return known_jaxpr, backward, out_uk


def _transpose(cts, *args, jaxpr, **params):
    """The backward pass of a staged `remat2`: its known inputs are the saved values, its
    unknown ones linear. Bound as a `remat2` of the transposed program (as JAX's), which
    recomputes the other known values, splitting the jaxpr (`pe_jaxpr`: a scan or cond inside
    splits itself) and transposing its linear part."""
    linear = tuple(is_undefined(a) for a in args)
    nonzero = tuple(type(c) is not Zero for c in cts)

    def make():
        n_out = len(jaxpr.outvars)
        jk, ju, _, nres = pe_jaxpr(jaxpr, linear, (True,) * n_out)
        jk = prune_jaxpr(jk)  # a recomputed scan's primal ys are not residuals
        out_nz: list[bool] = []

        def backward(*vals):
            n_known = len(vals) - sum(nonzero)
            known, cts_nz = vals[:n_known], iter(vals[n_known:])
            res = ir.eval_jaxpr(jk, [], *known)
            ct = [next(cts_nz) if nz else Zero(a) for nz, a in zip(nonzero, jaxpr.out_avals)]
            lin = [UndefinedPrimal(a) for a, u in zip(jaxpr.in_avals, linear) if u]
            got = backward_pass(ju, [], [*res, *lin], ct)[nres:]
            out_nz[:] = [type(g) is not Zero for g in got]
            return [g for g in got if type(g) is not Zero]

        in_avals = [a for a, u in zip(jaxpr.in_avals, linear) if not u]
        new, consts = stage(
            backward, in_avals + [a for a, nz in zip(jaxpr.out_avals, nonzero) if nz]
        )
        return new, consts, out_nz

    new, consts, out_nz = memo(jaxpr, ("remat_transpose", linear, nonzero), make)
    outs = iter(
        remat_p.bind(
            *consts,
            *[a for a in args if not is_undefined(a)],
            *[c for c in cts if type(c) is not Zero],
            **{**params, "jaxpr": new, "differentiated": True},
        )
        if any(out_nz)
        else []
    )
    lin_avals = (a.aval for a in args if is_undefined(a))
    cts_in = [next(outs) if nz else Zero(a) for nz, a in zip(out_nz, lin_avals)]
    it = iter(cts_in)
    return [next(it) if u else None for u in linear]


remat_p = Primitive("remat2", multiple_results=True, higher_order=True)
remat_p.def_impl(_impl)
remat_p.def_abstract_eval(lambda *avals, jaxpr, **params: jaxpr.out_avals)
remat_p.def_jvp(_jvp)
remat_p.def_batch(_batch)
remat_p.def_partial_eval(_partial_eval)
remat_p.def_transpose(_transpose)


# ---------------------------------------------------------------------------------------------
# closed_call: the known part of a differentiated checkpoint's scan, as JAX's


def _closed_call_impl(*args: Any, call_jaxpr: ir.Jaxpr) -> list[Any]:
    return _impl(*args, jaxpr=call_jaxpr)


def _closed_call_jvp(primals, tangents, *, call_jaxpr):
    # JAX's call rule: a closed_call of the program's jvp
    nonzeros = tuple(type(t) is not Zero for t in tangents)
    n_out = len(call_jaxpr.outvars)
    new, consts, out_nz = jvp_jaxpr(call_jaxpr, nonzeros, (False,) * n_out)
    nz_tangents = [t for t in tangents if type(t) is not Zero]
    outs = closed_call_p.bind(*consts, *primals, *nz_tangents, call_jaxpr=new)
    tans = iter(outs[n_out:])
    avals = call_jaxpr.out_avals
    return outs[:n_out], [
        next(tans) if nz else Zero(tangent_aval(a)) for nz, a in zip(out_nz, avals)
    ]


def _closed_call_batch(args, dims, *, call_jaxpr, axis_trace):
    size = batching.batch_size(args, dims)
    args = batching.batched_first(args, dims, size)
    batched = tuple(d is not None for d in dims)
    new, consts, out_b = batch_jaxpr(call_jaxpr, size, batched, False, axis_trace.axis_name)
    outs = closed_call_p.bind(*consts, *args, call_jaxpr=new)
    return outs, [0 if b else None for b in out_b]


def _closed_call_transpose(cts, *args, call_jaxpr):
    # the program's transpose, inlined (numbax's; JAX binds a closed_call of it)
    got = backward_pass(call_jaxpr, [], list(args), list(cts))
    return [g if is_undefined(a) else None for g, a in zip(got, args)]


def _closed_call_partial_eval(trace, args, params):
    """Linearizing a call: the known part of its program runs now (a closed_call at the parent,
    so the primal outputs stay known), the rest is staged as a closed_call of the residuals and
    the unknown inputs (JAX's call rule)."""
    call_jaxpr = params["call_jaxpr"]
    uk = tuple(trace.is_own(a) for a in args)
    jk, ju, out_uk, nres = pe_jaxpr(call_jaxpr, uk, (False,) * len(call_jaxpr.outvars))
    with set_current_trace(trace.parent):
        known = closed_call_p.bind(*[a for a, u in zip(args, uk) if not u], call_jaxpr=jk)
    n_known = len(known) - nres
    staged = trace.stage(
        closed_call_p,
        [*known[n_known:], *[a for a, u in zip(args, uk) if u]],
        {"call_jaxpr": ju},
    )
    k, u = iter(known[:n_known]), iter(staged)
    return [next(u) if unknown else next(k) for unknown in out_uk]


def _closed_call(eqn: ir.Eqn) -> ir.Eqn:
    """`eqn` wrapped in a `closed_call` of a program of that one equation (fresh variables)."""
    fresh = {v: ir.Var(v.aval) for v in eqn.inputs if isinstance(v, ir.Var)}
    inner_out = [ir.Var(v.aval) for v in eqn.outputs]
    inner = ir.Eqn(
        eqn.prim, [fresh.get(x, x) for x in eqn.inputs], eqn.params, inner_out, eqn.source_info
    )
    call_jaxpr = ir.Jaxpr([], list(fresh.values()), [inner], inner_out)
    ir.typecheck(call_jaxpr)
    return ir.Eqn(
        closed_call_p,
        [v for v in eqn.inputs if isinstance(v, ir.Var)],
        {"call_jaxpr": call_jaxpr},
        eqn.outputs,
        eqn.source_info,
    )


# JAX's `closed_call_p`: a call of a closed program, which JAX's partial evaluation of a
# checkpoint writes for the known part of each scan (`_scan_partial_eval_custom`); eager and
# compiled calls run the program (`jit` inlines it)
closed_call_p = Primitive("closed_call", multiple_results=True, higher_order=True)
closed_call_p.def_impl(_closed_call_impl)
closed_call_p.def_abstract_eval(lambda *avals, call_jaxpr: call_jaxpr.out_avals)
closed_call_p.def_composition(lambda *args, call_jaxpr: ir.eval_jaxpr(call_jaxpr, [], *args))
closed_call_p.def_jvp(_closed_call_jvp)
closed_call_p.def_batch(_closed_call_batch)
closed_call_p.def_transpose(_closed_call_transpose)
closed_call_p.def_partial_eval(_closed_call_partial_eval)


# ---------------------------------------------------------------------------------------------
# Names and policies


def _name_impl(x: Any, *, name: str) -> Any:
    return x


def _name_jvp(primals, tangents, *, name):
    (x,), (t,) = primals, tangents
    return name_p.bind(x, name=name), t  # the tangent is not named


def _name_batch(args, dims, *, name):
    return name_p.bind(args[0], name=name), dims[0]


name_p = Primitive("name")
name_p.def_impl(_name_impl)
name_p.def_abstract_eval(lambda aval, *, name: aval)
name_p.def_jvp(_name_jvp)
name_p.def_batch(_name_batch)


def checkpoint_name(x: Any, name: str) -> Any:
    """Tags every array of `x` (a pytree) with `name` for the name policies
    (`save_only_these_names`, ...); the values are unchanged.

    Args:
      x: a pytree of arrays.
      name: the name.

    Returns:
      `x`, its arrays staged through the `name` primitive.
    """
    if type(current_trace()) is EvalTrace:
        return x  # nothing traced: the identity, Python scalars as they are (JAX's)
    return tree_util.tree_map(lambda leaf: name_p.bind(as_value(leaf), name=name), x)


def _dot_like(prim: Any) -> bool:
    return getattr(prim, "name", "") in ("dot_general", "conv_general_dilated")


@dataclass(frozen=True)
class _Everything:
    def __call__(self, *args: Any, **params: Any) -> bool:
        return True

    def __repr__(self) -> str:
        return "everything_saveable"


@dataclass(frozen=True)
class _Nothing:
    def __call__(self, *args: Any, **params: Any) -> bool:
        return False

    def __repr__(self) -> str:
        return "nothing_saveable"


@dataclass(frozen=True)
class DotsSaveable:
    """Saves the results of matrix products (of those with no batch dimensions only, when
    `only_if_no_batch_dims`), as JAX's policy object of the same name."""

    only_if_no_batch_dims: bool

    def __call__(self, prim: Any, *avals: Any, **params: Any) -> bool:
        if self.only_if_no_batch_dims:
            if getattr(prim, "name", "") != "dot_general":
                return False
            (_, _), (lhs_batch, _) = params["dimension_numbers"]
            return not lhs_batch
        return _dot_like(prim)


@dataclass(frozen=True)
class SaveOnlyTheseNames:
    """Saves the values named (`checkpoint_name`) with one of `saveable_names`."""

    saveable_names: frozenset

    def __call__(self, prim: Any, *avals: Any, **params: Any) -> bool:
        return prim is name_p and params["name"] in self.saveable_names


@dataclass(frozen=True)
class SaveAnyNamesButThese:
    """Saves the named values except those named with one of `names_not_to_save`."""

    names_not_to_save: frozenset

    def __call__(self, prim: Any, *avals: Any, **params: Any) -> bool:
        return prim is name_p and params["name"] not in self.names_not_to_save


@dataclass(frozen=True)
class SaveFromBothPolicies:
    """Saves what either policy saves."""

    policy_1: Callable
    policy_2: Callable

    def __call__(self, *args: Any, **params: Any) -> bool:
        return bool(self.policy_1(*args, **params) or self.policy_2(*args, **params))


class checkpoint_policies:  # noqa: N801  (JAX's name)
    """The policies of `jax.checkpoint_policies`: which intermediate values a checkpointed
    function may save for the backward pass."""

    everything_saveable = _Everything()
    nothing_saveable = _Nothing()
    dots_saveable = DotsSaveable(only_if_no_batch_dims=False)
    checkpoint_dots = dots_saveable
    dots_with_no_batch_dims_saveable = DotsSaveable(only_if_no_batch_dims=True)
    checkpoint_dots_with_no_batch_dims = dots_with_no_batch_dims_saveable

    @staticmethod
    def save_only_these_names(*names: str) -> Callable[..., bool]:
        return SaveOnlyTheseNames(frozenset(names))

    @staticmethod
    def save_any_names_but_these(*names: str) -> Callable[..., bool]:
        return SaveAnyNamesButThese(frozenset(names))

    save_anything_except_these_names = save_any_names_but_these

    @staticmethod
    def offload_dot_with_no_batch_dims(offload_src: Any, offload_dst: Any) -> Callable[..., bool]:
        """`dots_with_no_batch_dims_saveable`; JAX offloads those values to host memory, here
        (one CPU memory space) offloading is saving."""
        del offload_src, offload_dst
        return checkpoint_policies.dots_with_no_batch_dims_saveable

    @staticmethod
    def save_and_offload_only_these_names(
        *,
        names_which_can_be_saved: Sequence[str],
        names_which_can_be_offloaded: Sequence[str],
        offload_src: Any,
        offload_dst: Any,
    ) -> Callable[..., bool]:
        """`save_only_these_names` of both name lists (offloading is saving on one CPU)."""
        del offload_src, offload_dst
        both = set(names_which_can_be_saved) & set(names_which_can_be_offloaded)
        if both:
            raise ValueError(
                "The names should be exclusive and should not intersect in "
                "`names_which_can_be_saved` and `names_which_can_be_offloaded`; both contain "
                f"{sorted(both)}."
            )
        return checkpoint_policies.save_only_these_names(
            *names_which_can_be_saved, *names_which_can_be_offloaded
        )

    @staticmethod
    def save_from_both_policies(p1: Callable, p2: Callable) -> Callable[..., bool]:
        return SaveFromBothPolicies(p1, p2)


__all__ = ["checkpoint", "checkpoint_name", "checkpoint_policies", "remat"]
