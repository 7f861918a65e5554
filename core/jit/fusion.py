"""Fusion planning: which equations of a jaxpr share one loop nest, and in what order units run.

Equations are classified by their lowering rule (see `core/backends/numba/registry.py`):

  ELEMENTWISE  a `Scalar` rule on a non-scalar output: a member of a loop group
  SCALAR       a `Scalar` rule on a 0-d output: one statement, no loop
  REDUCE       a `Reduce` rule: a sink of the loop group over its operand's shape
  VIEW         a `View` rule: index arithmetic, no code of its own
  KERNEL       a `Kernel` rule: its own statements, reading materialized inputs

Walking the equations in order, an ELEMENTWISE or REDUCE equation joins the groups of its
elementwise producers that loop over the same shape (merging them), unless that would make a
group depend on itself through an equation outside it (the tinygrad rule: a value that is
broadcast, transposed, or read by a kernel must be stored first); a float sum in XLA's
order (`loops.OWN_ORDER`: its loops are its own) is the only reduction of its group. Values
used outside their group are `stored`; everything else lives in registers for one iteration.
Units (groups and single equations) are then ordered topologically, keeping the jaxpr's order
where free.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from core.backends.numba.registry import Reduce, Scalar, View, lowering_rule
from core.ir import Eqn, Var
from core.jit.errors import LoweringError
from core.jit.loops import OWN_ORDER

ELEMENTWISE, SCALAR, REDUCE, VIEW, KERNEL = "elementwise", "scalar", "reduce", "view", "kernel"


@dataclass
class Unit:
    """A group of fused equations (kind ELEMENTWISE/REDUCE) or a single equation."""

    kind: str
    eqns: list[Eqn]
    shape: tuple[int, ...] = ()  # the loop shape of a group
    stored: set[Var] = field(default_factory=set)


def classify(eqn: Eqn) -> str:
    rule = lowering_rule(eqn.prim)
    if rule is None:
        raise LoweringError(f"primitive {eqn.prim.name!r} (it has no numba lowering rule)")
    if isinstance(rule, Scalar):
        return SCALAR if eqn.outputs[0].aval.shape == () else ELEMENTWISE
    if isinstance(rule, View):
        return VIEW
    if isinstance(rule, Reduce):
        return REDUCE
    return KERNEL


def plan(eqns: list[Eqn], outvars: list) -> list[Unit]:
    """Groups `eqns` into fused units and returns them in execution order."""
    kinds = [classify(e) for e in eqns]
    producer = {v: i for i, e in enumerate(eqns) for v in e.outputs}
    parent = list(range(len(eqns)))
    deps: dict[int, set[int]] = {}
    loop_shape: dict[int, tuple] = {}
    reduce_kinds: dict[int, list[str]] = {}  # group -> the kinds of its reductions
    stored: set[Var] = {v for v in outvars if isinstance(v, Var)}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def is_loop_value(v) -> bool:
        return isinstance(v, Var) and v in producer and kinds[producer[v]] == ELEMENTWISE

    def external(eqn: Eqn, roots: set[int]) -> set[int]:
        return {
            find(producer[v])
            for v in eqn.inputs
            if isinstance(v, Var)
            and v in producer
            and not (is_loop_value(v) and find(producer[v]) in roots)
        }

    def reaches(starts, targets: set[int]) -> bool:
        """Whether a group in `targets` is one of `starts` or a dependency of one (one walk
        for all of them)."""
        seen, todo = set(), list(starts)
        while todo:
            u = find(todo.pop())
            if u in targets:
                return True
            if u not in seen:
                seen.add(u)
                todo.extend(deps.get(u, ()))
        return False

    def sums(roots: set[int], eqn: Eqn) -> list[str]:
        """The kinds of the reductions of `eqn` and the groups `roots` together."""
        own = [lowering_rule(eqn.prim).kind] if classify(eqn) == REDUCE else []
        return own + [k for r in roots for k in reduce_kinds.get(r, ())]

    def valid(roots: set[int], eqn: Eqn) -> bool:
        kinds = sums(roots, eqn)
        if OWN_ORDER & set(kinds) and len(kinds) > 1:  # a sum in XLA's order loops alone
            return False
        ext = external(eqn, roots).union(*(deps.get(r, set()) for r in roots))
        return not reaches(ext, roots)

    for i, eqn in enumerate(eqns):
        kind = kinds[i]
        if kind in (ELEMENTWISE, REDUCE):
            shape = eqn.inputs[0].aval.shape if kind == REDUCE else eqn.outputs[0].aval.shape
            loop_shape[i] = shape
            cands = []
            for v in eqn.inputs:
                if is_loop_value(v) and loop_shape[find(producer[v])] == shape:
                    r = find(producer[v])
                    if r not in cands:
                        cands.append(r)
            chosen = set(cands)
            if not valid(chosen, eqn):
                chosen = set()
                for r in reversed(cands):
                    if valid(chosen | {r}, eqn):
                        chosen.add(r)
            reduce_kinds[i] = sums(chosen, eqn)
            ext = external(eqn, chosen).union(*(deps.pop(r, set()) for r in chosen))
            for r in chosen:
                parent[r] = i
            deps[i] = {find(d) for d in ext}
        else:
            deps[i] = external(eqn, set())
        for v in eqn.inputs:
            if is_loop_value(v) and find(producer[v]) != find(i):
                stored.add(v)

    members: dict[int, list[int]] = {}
    for i in range(len(eqns)):
        members.setdefault(find(i), []).append(i)
    order, indeg, users = [], {}, {}
    for r in members:
        ds = {find(d) for d in deps.get(r, ())} - {r}
        indeg[r] = len(ds)
        for d in ds:
            users.setdefault(d, []).append(r)
    ready = [(members[r][0], r) for r in members if indeg[r] == 0]
    heapq.heapify(ready)
    while ready:
        _, r = heapq.heappop(ready)
        idx = members[r]
        group = [eqns[j] for j in idx]
        if kinds[idx[0]] in (ELEMENTWISE, REDUCE):
            outs = {v for j in idx if kinds[j] == ELEMENTWISE for v in eqns[j].outputs}
            order.append(Unit(ELEMENTWISE, group, loop_shape[r], stored & outs))
        else:
            order.append(Unit(kinds[idx[0]], group))
        for u in users.get(r, ()):
            indeg[u] -= 1
            if indeg[u] == 0:
                heapq.heappush(ready, (members[u][0], u))
    return order
