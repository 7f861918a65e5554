"""Staging to jaxprs, and partial evaluation (the "linearize" half of reverse mode).

One interpreter does both. A `JaxprTrace` records equations on `JaxprTracer`s:

* `stage_all=True` (make_jaxpr, jit, the bodies of control flow) stages every operation; values
  from outside (concrete arrays, tracers of enclosing transformations) become constvars, scalars
  become literals.
* `stage_all=False` (linearize) stages only operations with an *unknown* input, i.e. one of its
  own tracers; everything else is *known* and is computed right away by the parent trace. Run
  under a JVP trace whose tangent inputs are unknown, it computes primal values eagerly (so
  Python control flow on them works) and records exactly the linear tangent program, whose
  transpose is the VJP. Higher-order primitives split their inner jaxprs with a
  `partial_eval` rule so their known part still runs now.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core import errors, ir, ref_scope, source_info
from core.avals import ShapedArray
from core.config import config
from core.interpreters import check_live, custom_rules, finish
from core.trace import Trace, Tracer, _state, current_trace, get_aval, set_current_trace


class JaxprTracer(Tracer):
    __slots__ = ("var",)

    def __init__(self, trace: JaxprTrace, var: ir.Var):
        self._trace = trace
        self.var = var

    @property
    def aval(self) -> ShapedArray:
        return self.var.aval

    def __repr__(self) -> str:
        return f"JitTracer({self.aval.str_long()})"  # as JAX 0.10 prints traced values


class JaxprTrace(Trace):
    """Records equations; see the module docstring for the two modes."""

    def __init__(self, parent: Trace, stage_all: bool = True):
        self.parent = parent
        self.stage_all = stage_all
        self.eqns: list[ir.Eqn] = []
        self.consts: dict[int, tuple[ir.Var, Any]] = {}
        # (input variable, the value it stands for) of a program traced for jit's concrete
        # arguments, when they are on a mesh (`core/sharding_types.py` types its values)
        self.arguments: list[tuple[ir.Var, Any]] | None = None
        # names argument `k` for errors (`argument x of f`), with `arguments`
        self.describe: Callable[[int], str] | None = None
        # inputs added while tracing (`late_arg`), after the others
        self.late_args: list[ir.Var] = []

    def new_arg(self, aval: ShapedArray) -> JaxprTracer:
        return JaxprTracer(self, ir.Var(aval))

    def late_arg(self, aval: ShapedArray) -> JaxprTracer:
        """A new input of the program, found while tracing (a Ref that `jit`'s function
        closes over: `core/ref_scope.py`); the program takes it after the others."""
        tracer = self.new_arg(aval)
        self.late_args.append(tracer.var)
        return tracer

    def is_own(self, x: Any) -> bool:
        if isinstance(x, JaxprTracer) and x._trace is self:
            return True
        check_live(x)
        return False

    def atom(self, x: Any) -> ir.Atom:
        """The variable or literal standing for `x` in the recorded program."""
        if isinstance(x, JaxprTracer) and x._trace is self:
            return x.var
        check_live(x)
        if type(x) in (bool, int, float, complex):
            return ir.Literal(x, get_aval(x))
        if isinstance(x, np.generic) or (isinstance(x, np.ndarray) and x.ndim == 0):
            return ir.Literal(np.asarray(x), get_aval(x))
        val = getattr(x, "_value", None)
        if val is not None and val.ndim == 0:
            return ir.Literal(val, x.aval)
        entry = self.consts.get(id(x))
        if entry is None:
            entry = self.consts[id(x)] = (ir.Var(get_aval(x)), x)
        return entry[0]

    def process_primitive(self, prim, args: tuple, params: dict) -> Any:
        if not self.stage_all:
            if not any(self.is_own(a) for a in args):
                with set_current_trace(self.parent):
                    return prim.bind(*args, **params)
            if prim.partial_eval is not None:
                return prim.partial_eval(self, args, params)
        return self.stage(prim, args, params)

    def process_custom_jvp(self, fun, jvp, args: tuple, symbolic_zeros: bool) -> Any:
        if self.stage_all:
            jaxpr, consts = self._trace_inner(fun, args)
            params = dict(
                name=getattr(fun, "__name__", "<lambda>"),
                call_jaxpr=jaxpr,
                jvp=jvp,
                num_consts=len(consts),
                symbolic_zeros=symbolic_zeros,
            )
            return self.stage(custom_rules.custom_jvp_call, [*consts, *args], params)
        if not any(self.is_own(a) for a in args):
            return self.parent.process_custom_jvp(fun, jvp, args, symbolic_zeros)
        with set_current_trace(self):
            return fun(*args)

    def process_custom_vjp(self, fun, fwd, bwd, args: tuple) -> Any:
        if self.stage_all:
            jaxpr, consts = self._trace_inner(fun, args)
            name = getattr(fun, "__name__", "<lambda>")
            params = dict(name=name, call_jaxpr=jaxpr, fwd=fwd, bwd=bwd, num_consts=len(consts))
            return self.stage(custom_rules.custom_vjp_call, [*consts, *args], params)
        if not any(self.is_own(a) for a in args):
            return self.parent.process_custom_vjp(fun, fwd, bwd, args)
        with set_current_trace(self):
            return fun(*args)

    def _trace_inner(self, fun: Callable, args: Sequence[Any]) -> tuple[ir.Jaxpr, list[Any]]:
        with set_current_trace(self):
            return trace_to_closed_jaxpr(lambda *xs: list(fun(*xs)), [get_aval(a) for a in args])

    def stage(self, prim, args: Sequence[Any], params: dict) -> Any:
        """Records `prim(*args)` and returns tracers for its outputs."""
        in_atoms = [self.atom(a) for a in args]
        if prim.abstract_eval is None:
            raise errors.PrimitiveRuleError(prim.name, "abstract_eval")
        out = prim.abstract_eval(*[a.aval for a in in_atoms], **params)
        if _state.vma is not None:  # in a `shard_map(check_vma=True)` body: vma types
            out = _state.vma.types(prim, [a.aval for a in in_atoms], params, out)
        info = source_info.current()
        if prim.multiple_results:
            outs = [self.new_arg(a) for a in out]
            self.eqns.append(ir.Eqn(prim, in_atoms, params, [t.var for t in outs], info))
            return outs
        tracer = self.new_arg(out)
        self.eqns.append(ir.Eqn(prim, in_atoms, params, [tracer.var], info))
        return tracer

    def to_jaxpr(self, in_tracers: Sequence[JaxprTracer], outs: Sequence[Any], dce: bool = True):
        """Builds the jaxpr of everything recorded; returns (jaxpr, const values). `dce=False`
        keeps equations whose outputs are unused (`make_jaxpr` shows them, as JAX's does)."""
        out_atoms = [self.atom(o) for o in outs]
        constvars = [v for v, _ in self.consts.values()]
        constvals = [c for _, c in self.consts.values()]
        invars = [t.var for t in in_tracers] + self.late_args
        jaxpr = ir.Jaxpr(constvars, invars, self.eqns, out_atoms)
        if dce:
            jaxpr = dce_jaxpr(jaxpr)
        ir.typecheck(jaxpr)
        return jaxpr, constvals


def dce_jaxpr(jaxpr: ir.Jaxpr) -> ir.Jaxpr:
    """Drops equations whose outputs are unused (except effectful ones, e.g. debug_callback)."""
    live = {v for v in jaxpr.outvars if isinstance(v, ir.Var)}
    kept = []
    for eqn in reversed(jaxpr.eqns):
        if any(v in live for v in eqn.outputs) or ir.eqn_has_effects(eqn):
            kept.append(eqn)
            live.update(x for x in eqn.inputs if isinstance(x, ir.Var))
    if len(kept) == len(jaxpr.eqns):
        return jaxpr
    return ir.Jaxpr(jaxpr.constvars, jaxpr.invars, kept[::-1], jaxpr.outvars)


def trace_to_jaxpr(
    fun: Callable[..., Sequence[Any]],
    in_avals: Sequence[ShapedArray],
    dce: bool = True,
    arguments: Sequence[Any] | None = None,
    describe: Callable[[int], str] | None = None,
) -> tuple[ir.Jaxpr, list[Any]]:
    """Stages a flat function (list of arrays -> list of arrays) to (jaxpr, consts), without
    the equations whose outputs are unused unless `dce=False`; `arguments`: the values the
    first inputs stand for (`JaxprTrace.arguments`), if known, and `describe` names input `k`
    as JAX's errors do (`argument x of f`)."""
    if config.no_tracing:
        raise RuntimeError(f"re-tracing function {fun} for `jit`, but 'no_tracing' is set")
    trace = JaxprTrace(current_trace(), stage_all=True)
    in_tracers = [trace.new_arg(a) for a in in_avals]
    if arguments is not None:
        trace.arguments = list(zip([t.var for t in in_tracers], arguments))
        trace.describe = describe
    with set_current_trace(trace), ref_scope.barrier():
        outs = fun(*in_tracers)
    jaxpr = trace.to_jaxpr(in_tracers, outs, dce)
    finish(trace)
    if config.check_tracer_leaks:
        del in_tracers, outs
        _check_leaks(trace)
    return jaxpr


def _check_leaks(trace: JaxprTrace) -> None:
    """Raises `LeakedTracerError` if a tracer of the finished `trace` is still referenced
    (stored in a list, a global or an object by the traced function): `checking_leaks()`."""
    gc.collect()
    leaked = [r for r in gc.get_referrers(trace) if isinstance(r, JaxprTracer)]
    if leaked:
        raise errors.LeakedTracerError(leaked)


def close_over_consts(jaxpr: ir.Jaxpr) -> ir.Jaxpr:
    """Turns constvars into leading invars (how higher-order primitives take closed-over values)."""
    if not jaxpr.constvars:
        return jaxpr
    return ir.Jaxpr([], jaxpr.constvars + jaxpr.invars, jaxpr.eqns, jaxpr.outvars)


def trace_to_closed_jaxpr(
    fun: Callable[..., Sequence[Any]],
    in_avals: Sequence[ShapedArray],
    arguments: Sequence[Any] | None = None,
    dce: bool = True,
    describe: Callable[[int], str] | None = None,
) -> tuple[ir.Jaxpr, list[Any]]:
    """Like `trace_to_jaxpr`, with the consts as leading inputs of a constvar-free jaxpr."""
    jaxpr, consts = trace_to_jaxpr(fun, in_avals, dce, arguments, describe)
    return close_over_consts(jaxpr), consts
