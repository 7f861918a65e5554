"""Whether, and how, a jitted program splits its batch over the local devices.

`split_plan` inlines the program's calls (nested `jit`, `custom_jvp_call`, `custom_vjp_call`,
`remat`: the split program is only run, never differentiated, so their bodies stand in for
them), picks the batch: the inputs sharing one leading size `B` divisible by the device count
(not counting inputs shaped like an output, which are state: parameters, optimizer moments),
and propagates (`propagate.py`). Seeds in conflict are dropped and the propagation redone.
The program splits when it is worth it: enough estimated work (`MIN_US`), most of its FLOPs
on split values (`MIN_SPLIT_FRACTION`), no effects, callbacks or collectives of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from core import ir
from core.jit.batch_split.propagate import Plan, R, propagate
from core.profiler.cost import equation_cost

__all__ = ["MIN_SPLIT_FRACTION", "MIN_US", "Decision", "inline_calls", "split_plan"]

# The estimated run time (`core.jit.dispatch.estimate_us`) from which a program splits: the
# MLP step at batch 128 (0.8 ms) stays whole, the CNN's at 128 (48 ms) splits.
MIN_US = 5000.0
# The share of the program's FLOPs that must be on split values (or partial sums).
MIN_SPLIT_FRACTION = 0.75

_CALLS = {
    "jit": "jaxpr",
    "pjit": "jaxpr",
    "custom_jvp_call": "call_jaxpr",
    "custom_vjp_call": "call_jaxpr",
    "remat2": "jaxpr",
    "checkpoint": "jaxpr",
}


def _callee(eqn: ir.Eqn) -> ir.Jaxpr | None:
    key = _CALLS.get(eqn.prim.name)
    inner = eqn.params.get(key) if key else None
    if isinstance(inner, ir.ClosedJaxpr) and not len(inner.consts):
        inner = inner.jaxpr
    if isinstance(inner, ir.Jaxpr) and not inner.constvars and len(inner.invars) == len(eqn.inputs):
        return inner
    return None


def inline_calls(jaxpr: ir.Jaxpr) -> ir.Jaxpr:
    """`jaxpr` with the bodies of its calls in their places (fresh variables per call site),
    in scan bodies too; its inputs are the same variables."""
    eqns: list = []
    sub: dict = {}

    def get(x):
        return sub.get(x, x) if isinstance(x, ir.Var) else x

    for eqn in jaxpr.eqns:
        inner = _callee(eqn)
        if inner is None:
            params = eqn.params
            if eqn.prim.name == "scan":
                params = dict(params, jaxpr=inline_calls(params["jaxpr"]))
            elif eqn.prim.name == "cond" and all(
                isinstance(b, ir.Jaxpr) for b in params["branches"]
            ):
                params = dict(params, branches=tuple(map(inline_calls, params["branches"])))
            ins = [get(x) for x in eqn.inputs]
            eqns.append(ir.Eqn(eqn.prim, ins, params, eqn.outputs, eqn.source_info))
            continue
        body, results = ir.copy_eqns(inline_calls(inner), [get(x) for x in eqn.inputs])
        eqns += body
        sub.update(zip(eqn.outputs, results))
    return ir.Jaxpr([], jaxpr.invars, eqns, [get(x) for x in jaxpr.outvars])


def _seeds(jaxpr: ir.Jaxpr, first: int, n: int) -> set[int]:
    """The inputs (positions from `first` on) that hold the batch: those sharing the leading
    size most of the candidates share (ties: the larger size); inputs shaped like an output
    (parameters, optimizer state) are candidates only when no other input is."""
    outs = {(tuple(v.aval.shape), v.aval.dtype) for v in jaxpr.outvars}
    candidates = [
        k
        for k, v in enumerate(jaxpr.invars[first:], first)
        if v.aval.ndim and v.aval.shape[0] >= n and v.aval.shape[0] % n == 0
    ]
    data = [
        k
        for k in candidates
        if (tuple(jaxpr.invars[k].aval.shape), jaxpr.invars[k].aval.dtype) not in outs
    ]
    by_size: dict = {}
    for k in data or candidates:
        by_size.setdefault(jaxpr.invars[k].aval.shape[0], []).append(k)
    if not by_size:
        return set()
    size = max(by_size, key=lambda b: (len(by_size[b]), b))
    return set(by_size[size])


def _forbidden(jaxpr: ir.Jaxpr) -> str | None:
    """Why `jaxpr` cannot run split (effects, callbacks, collectives), or None."""
    if ir.has_effects(jaxpr):
        return "it has side effects"
    for eqn in jaxpr.eqns:
        if getattr(eqn.prim, "collective", False):
            return f"it has a collective ({eqn.prim.name})"
        if "callback" in eqn.prim.name:
            return f"it has a callback ({eqn.prim.name})"
        for value in eqn.params.values():
            for sub in ir.sub_jaxprs(value):
                why = _forbidden(sub)
                if why:
                    return why
    return None


def _work(jaxpr: ir.Jaxpr, plan: Plan | None) -> tuple[float, float]:
    """(all FLOPs, the FLOPs of equations on split values or partial sums) of `jaxpr`."""
    total = split = 0.0
    for k, eqn in enumerate(jaxpr.eqns):
        step = plan.steps[k] if plan is not None else None
        if eqn.prim.name == "scan":
            t, s = _work(eqn.params["jaxpr"], step.body if step is not None else None)
            total += t * eqn.params["length"]
            split += s * eqn.params["length"]
            continue
        if eqn.prim.name == "cond" and step is not None and step.branches is not None:
            works = [_work(b, bp) for b, bp in zip(eqn.params["branches"], step.branches)]
            total += max(t for t, _ in works)
            split += min(s for _, s in works)
            continue
        flops = float(equation_cost(eqn).flops or 0)
        total += flops
        if step is not None and any(s != R for s in (*step.want, *step.outs)):
            split += flops
    return total, split


@dataclass
class Decision:
    """A program's split: the inlined program and its plan, the split inputs (by position),
    or why it does not split (`reason`)."""

    jaxpr: ir.Jaxpr | None = None
    plan: Plan | None = None
    seeds: frozenset = frozenset()
    reason: str = ""


def split_plan(jaxpr: ir.Jaxpr, first: int, n: int, estimate_us: float) -> Decision:
    """Whether and how to split `jaxpr` over `n` devices along its batch.

    Args:
      jaxpr: the constvar-free program (its first `first` inputs are consts, never seeds).
      n: the number of devices.
      estimate_us: its estimated run time (`core.jit.dispatch.estimate_us`).

    Returns:
      The decision (`plan` None when it does not split, with the reason).
    """
    if estimate_us < MIN_US:
        return Decision(reason=f"too little work ({estimate_us:.0f} us estimated < {MIN_US:.0f})")
    why = _forbidden(jaxpr)
    if why:
        return Decision(reason=why)
    flat = inline_calls(jaxpr)
    seeds = _seeds(flat, first, n)
    plan = None
    while seeds:
        states = [0 if k in seeds else R for k in range(len(flat.invars))]
        origins = [frozenset({k}) if k in seeds else frozenset() for k in range(len(flat.invars))]
        plan = propagate(flat, n, states, origins)
        bad = plan.conflicts & seeds
        if not bad:
            break
        seeds -= bad
    if not seeds:
        return Decision(reason=f"no batch input of a size divisible by {n} splits")
    total, split = _work(flat, plan)
    if total and split < MIN_SPLIT_FRACTION * total:
        return Decision(reason=f"only {split / total:.0%} of its FLOPs would split")
    return Decision(flat, plan, frozenset(seeds))
