"""Forward-mode automatic differentiation: the JVP interpreter.

A `JVPTracer` carries a primal and a tangent. `JVPTrace.process_primitive` unboxes its own
tracers (anything else is a constant with a symbolic `Zero` tangent), skips straight to the parent
when every tangent is zero, and otherwise runs the primitive's jvp rule under the parent trace.
Rules are written with ordinary primitives, so they are traceable, differentiable and batchable
themselves: that is what makes higher-order derivatives and `jit(grad(f))` work.

Symbolic zeros and tangent addition are `core.ad_util`'s. Helpers at the bottom build rules
for whole families: `defjvp` (one function per argument, summing the non-zero contributions),
`defjvp_zero` (piecewise-constant ops), `deflinear`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from core import errors
from core.ad_util import Zero, add_any, instantiate, ops
from core.avals import ShapedArray, typed, vma_of
from core.interpreters import check_live, custom_rules, finish
from core.trace import Trace, Tracer, current_trace, get_aval, set_current_trace


def tangent_aval(aval: ShapedArray) -> ShapedArray:
    """Tangents of floats are floats of the same dtype; integer/bool values have zero tangents.
    Inside a `shard_map` body a tangent varies along the mesh axes its value does."""
    plain = ShapedArray(aval.shape, aval.dtype, aval.weak_type)
    vma = vma_of(aval)
    return typed(plain, vma, aval.order) if vma else plain


class JVPTracer(Tracer):
    __slots__ = ("primal", "tangent")

    def __init__(self, trace: JVPTrace, primal: Any, tangent: Any):
        self._trace = trace
        self.primal = primal
        self.tangent = tangent

    @property
    def aval(self) -> ShapedArray:
        return get_aval(self.primal)

    def to_concrete_value(self) -> Any:
        p = self.primal
        if isinstance(p, Tracer):
            return p.to_concrete_value()
        return getattr(p, "_value", p)

    def __repr__(self) -> str:
        """JAX 0.10's: `JVPTracer(primal=1.0, tangent=1.0)` under `jvp`, and under `grad`/`vjp`/
        `linearize` (whose tangents are staged out) `GradTracer(primal=1.0, typeof(tangent)=
        f32[])`; a traced primal or tangent prints its own repr (`primal=JitTracer(...)`)."""
        primal = repr(self.primal) if isinstance(self.primal, Tracer) else str(self.primal)
        if self._trace.linearizing:
            tangent = get_aval(self.tangent).str_short(short_dtypes=True)
            return f"GradTracer(primal={primal}, typeof(tangent)={tangent})"
        t = self.tangent
        return f"JVPTracer(primal={primal}, tangent={repr(t) if isinstance(t, Tracer) else t})"


class JVPTrace(Trace):
    def __init__(self, parent: Trace, linearizing: bool = False, given: dict | None = None):
        """`linearizing`: the tangents are staged out into a linear jaxpr (`grad`, `vjp`,
        `linearize`), which only changes how the tracers print (JAX's `GradTracer`).
        `given`: `{id(input value): the Python or numpy value jvp was given}`; custom_jvp rules
        see the given values (JAX passes its inputs through unconverted)."""
        self.parent = parent
        self.linearizing = linearizing
        self.given = given or {}

    def to_primal_tangent(self, x: Any) -> tuple[Any, Any]:
        if isinstance(x, JVPTracer) and x._trace is self:
            return x.primal, x.tangent
        check_live(x)
        return x, Zero(tangent_aval(get_aval(x)))

    def process_primitive(self, prim, args: tuple, params: dict) -> Any:
        primals, tangents = zip(*map(self.to_primal_tangent, args)) if args else ((), ())
        with set_current_trace(self.parent):
            if all(type(t) is Zero for t in tangents):
                return prim.bind(*primals, **params)
            if prim.jvp is None:
                raise errors.PrimitiveRuleError(prim.name, "jvp")
            primal_out, tangent_out = prim.jvp(primals, tangents, **params)
        if prim.multiple_results:
            return [self.box(p, t) for p, t in zip(primal_out, tangent_out, strict=True)]
        return self.box(primal_out, tangent_out)

    def box(self, primal: Any, tangent: Any) -> Any:
        if type(tangent) is Zero:
            return primal
        return JVPTracer(self, primal, tangent)

    def process_custom_jvp(self, fun, jvp, args: tuple, symbolic_zeros: bool) -> Any:
        primals, tangents = zip(*map(self.to_primal_tangent, args)) if args else ((), ())
        if all(type(t) is Zero for t in tangents):
            return self.parent.process_custom_jvp(fun, jvp, primals, symbolic_zeros)
        if self.given:
            primals = tuple(self.given.get(id(p), p) for p in primals)
            tangents = tuple(self.given.get(id(t), t) for t in tangents)
        with set_current_trace(self.parent):
            if not symbolic_zeros:
                tangents = [instantiate(t) for t in tangents]
            primal_out, tangent_out = jvp(list(primals), list(tangents))
        return [self.box(p, t) for p, t in zip(primal_out, tangent_out, strict=True)]

    def process_custom_vjp(self, fun, fwd, bwd, args: tuple) -> Any:
        primals, tangents = zip(*map(self.to_primal_tangent, args)) if args else ((), ())
        if all(type(t) is Zero for t in tangents):
            return self.parent.process_custom_vjp(fun, fwd, bwd, primals)
        with set_current_trace(self.parent):
            primal_out, tangent_out = custom_rules.custom_vjp_call_jvp(fwd, bwd, primals, tangents)
        return [self.box(p, t) for p, t in zip(primal_out, tangent_out, strict=True)]


def jvp_flat(fun: Callable, primals: Sequence[Any], tangents: Sequence[Any]) -> tuple:
    """The JVP of `fun` (arrays in, a list of arrays out) at `primals` along `tangents`, for
    rules written as the derivative of a composite (`core.api.jvp` adds pytrees and checks).

    Returns:
      `(primal outputs, tangent outputs)`, lists; zero tangents come out as zero arrays.
    """
    trace = JVPTrace(current_trace())
    with set_current_trace(trace):
        outs = fun(*[trace.box(p, t) for p, t in zip(primals, tangents, strict=True)])
    pairs = [trace.to_primal_tangent(o) for o in outs]
    with set_current_trace(trace.parent):
        result = [p for p, _ in pairs], [instantiate(t) for _, t in pairs]
    finish(trace)
    return result


# ---------------------------------------------------------------------------------------------
# Rule builders


def broadcast_tangent(t: Any, shape: tuple[int, ...]) -> Any:
    """A tangent contribution broadcast to the output's `shape`: the tangent of a rank-0 (or
    size-1) operand of a broadcasting primitive (`Primitive.broadcasting`) is smaller than the
    output."""
    aval = get_aval(t)
    if aval.shape == shape:
        return t
    if not aval.shape:
        return ops.broadcast_in_dim(t, shape, ())
    # JAX's `_maybe_broadcast`: the size-1 axes reshaped away, then broadcast
    dims = tuple(i for i, (a, b) in enumerate(zip(aval.shape, shape)) if a == b)
    return ops.broadcast_in_dim(ops.reshape(t, tuple(shape[i] for i in dims)), shape, dims)


def defjvp(prim, *fns: Callable | None) -> None:
    """Rule from per-argument functions `fn(tangent_i, *primals, **params) -> contribution`."""

    def rule(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        aval = get_aval(out)
        total: Any = Zero(tangent_aval(aval))
        for fn, t in zip(fns, tangents):
            if fn is not None and type(t) is not Zero:
                total = add_any(total, broadcast_tangent(fn(t, *primals, **params), aval.shape))
        return out, total

    prim.def_jvp(rule)


def defjvp2(prim, *fns: Callable | None) -> None:
    """Like `defjvp`, but each function also receives the output: `fn(t, out, *primals)`."""

    def rule(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        aval = get_aval(out)
        total: Any = Zero(tangent_aval(aval))
        for fn, t in zip(fns, tangents):
            if fn is not None and type(t) is not Zero:
                total = add_any(
                    total, broadcast_tangent(fn(t, out, *primals, **params), aval.shape)
                )
        return out, total

    prim.def_jvp(rule)


def defjvp_zero(prim) -> None:
    """Piecewise-constant (or integer-valued) primitives: the tangent is always zero."""

    def rule(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        if prim.multiple_results:
            return out, [Zero(tangent_aval(get_aval(o))) for o in out]
        return out, Zero(tangent_aval(get_aval(out)))

    prim.def_jvp(rule)


def deflinear(prim) -> None:
    """Primitives linear in all their array arguments: the tangent is the primitive itself.

    Marks the primitive `linear`, so the registry test requires a transpose rule for it.
    """
    prim.linear = True

    def rule(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        if all(type(t) is Zero for t in tangents):
            if prim.multiple_results:
                return out, [Zero(tangent_aval(get_aval(o))) for o in out]
            return out, Zero(tangent_aval(get_aval(out)))
        return out, prim.bind(*[instantiate(t) for t in tangents], **params)

    prim.def_jvp(rule)
