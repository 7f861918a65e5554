"""`memory_report(jitted_fn, *args)`: what a compiled program holds at its peak, and why.

The report follows what the numba back end does with the program: the same rewrites
(`core.jit.simplify`: inlined calls, merged duplicates, dead code) and fusion plan
(`core.jit.fusion.plan`), so values that live only inside a fused loop take no memory; views
(reshape, transpose, broadcast, slice, ...) share their operand's buffer; and an elementwise
loop writes its result into the buffer of a same-sized input that dies there
(`core.jit.buffers`), so that result costs nothing new. Walking the units in execution order, a
buffer is live from the unit that makes it to the last unit reading it (any of its views);
program outputs stay live to the end; arguments are held by the caller for the whole call.
The peak is the largest total of arguments and live buffers during one unit.

`MemoryReport` prints as a table (one row per unit: what it allocates, what is live) followed
by the buffers live at the peak, each with the equation that made it (source line and name
stack) and the reason it is still alive (an argument, a program output, or the later equation
that reads it). `save_profile(path)` writes the live-at-peak buffers as a pprof profile whose
stacks are `primitive <- module path <- jit_<name>`.

Small outputs of one dtype and shape are rows of one array allocated when the program starts,
as the code generator packs them; 0-d values live in registers; a kernel rule's unit (a
product, a gather) reads its inputs as arrays, so a view it reads that is not all of one
buffer in order (a broadcast, a transpose, a slice, a vector made of a scalar) is copied first,
and counted at that unit. For programs of dense layers, elementwise operations, reductions and
gathers (an MLP train step with Adam and integer-label cross-entropy) the allocations equal the
generated code's byte for byte (tested). Not counted: allocator overhead and scratch memory
inside kernels (BLAS workspaces, a convolution's im2col patches, pooling gradients), so
programs with convolutions and pooling hold more than reported. Programs split into several
kernels (`config.jit_kernels`) reuse buffers within a kernel only; the report models the
one-function build.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from core.avals import ShapedArray
from core.ir import Eqn, Var
from core.jit.api import Jitted, jit
from core.jit.errors import LoweringError
from core.jit.fusion import ELEMENTWISE, REDUCE, SCALAR, VIEW, classify, plan
from core.jit.packing import output_layout
from core.jit.simplify import simplify
from core.profiler.files import write_atomic
from core.profiler.pprof import ProfileBuilder

_VIEWS = frozenset(["broadcast_in_dim", "reshape", "squeeze", "transpose", "rev", "slice"])


def _nbytes(v: Var) -> int:
    return math.prod(v.aval.shape) * np.dtype(v.aval.dtype).itemsize


def _human(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if abs(n) < 1024 or unit == "GB":
            return f"{n} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError("unreachable")


def _describe(eqn: Eqn | None) -> str:
    if eqn is None:
        return "argument"
    info = eqn.source_info
    if info is None:
        return eqn.prim.name
    name = f"{info.name_stack}/{eqn.prim.name}" if info.name_stack else eqn.prim.name
    return f"{name} ({info.file.rsplit('/', 1)[-1]}:{info.line})"


@dataclass(frozen=True)
class LiveBuffer:
    """A buffer live at the peak."""

    var: Var
    nbytes: int
    made_by: Eqn | None  # None: an argument of the program
    reason: str  # "argument", "program output" or "read by <equation>"


@dataclass(frozen=True)
class UnitRow:
    """One unit of the compiled program (a fused loop or a single kernel)."""

    index: int
    eqns: tuple[Eqn, ...]
    allocated: int  # new bytes this unit allocates
    live: int  # bytes live while it runs (arguments included)


@dataclass(frozen=True)
class MemoryReport:
    """The memory of one compiled program for given argument shapes (see the module docstring).

    Attributes:
      name: the function's name.
      argument_bytes: the bytes of the arguments (and closed-over constants).
      peak_bytes: the largest live total, arguments included.
      peak_unit: the index in `units` where it is reached.
      units: one row per unit, in execution order.
      live_at_peak: the buffers live at the peak, largest first.
    """

    name: str
    argument_bytes: int
    peak_bytes: int
    peak_unit: int
    units: tuple[UnitRow, ...]
    live_at_peak: tuple[LiveBuffer, ...]

    def table(self) -> str:
        """The report as text: one row per unit (views left out), then the buffers live at the
        peak."""
        lines = [
            f"jit_{self.name}: peak {_human(self.peak_bytes)} "
            f"(arguments {_human(self.argument_bytes)}) at unit {self.peak_unit}",
            f"{'unit':>4}  {'allocates':>10}  {'live':>10}  equations",
        ]
        for row in self.units:
            if not row.allocated and all(e.prim.name in _VIEWS for e in row.eqns):
                continue  # a view: no code, no memory
            mark = " <- peak" if row.index == self.peak_unit else ""
            names = ", ".join(_describe(e) for e in row.eqns[:3])
            more = f" (+{len(row.eqns) - 3} fused)" if len(row.eqns) > 3 else ""
            lines.append(
                f"{row.index:>4}  {_human(row.allocated):>10}  {_human(row.live):>10}  "
                f"{names}{more}{mark}"
            )
        lines.append(f"live at the peak (unit {self.peak_unit}):")
        lines.append(f"{'bytes':>10}  {'value':<16}  {'made by':<48}  why")
        for b in self.live_at_peak:
            lines.append(
                f"{_human(b.nbytes):>10}  {b.var.aval.str_short(short_dtypes=True):<16}  "
                f"{_describe(b.made_by):<48}  {b.reason}"
            )
        return "\n".join(lines)

    __str__ = table

    def profile(self) -> bytes:
        """The buffers live at the peak as a gzipped pprof profile (`allocations`, `space`)."""
        builder = ProfileBuilder([("allocations", "count"), ("space", "bytes")], "space")
        root = (f"jit_{self.name}", "", 0)
        for b in self.live_at_peak:
            eqn = b.made_by
            if eqn is None:
                stack = [("argument", "", 0), root]
            else:
                info = eqn.source_info
                file, line = (info.file, info.line) if info else ("", 0)
                scopes = info.name_stack.split("/") if info and info.name_stack else []
                stack = [(eqn.prim.name, file, line)]
                stack += [(s, "", 0) for s in reversed(scopes)] + [root]
            labels = {
                "kind": "buffer",
                "shape": b.var.aval.str_short(short_dtypes=True),
                "why": b.reason,
            }
            builder.add(stack, [1, b.nbytes], labels)
        return builder.build()

    def save_profile(self, path: Any) -> None:
        """Writes `profile()` to `path` (atomically).

        Args:
          path: the file to write (read it with `pprof -top path`).
        """
        write_atomic(path, self.profile())


def _units(eqns: list[Eqn], outvars: list) -> list[tuple[list[Eqn], set[Var], set[Var]]]:
    """The compiled program's units: (equations, values materialized as arrays, those of them
    written by an elementwise loop, which may take over a dying input's buffer). 0-d values
    live in registers unless they are program outputs."""
    try:
        units = plan(eqns, outvars)
    except LoweringError:  # runs on the numpy back end: every value is an array
        return [([e], set(e.outputs), set()) for e in eqns]
    returned = {v for v in outvars if isinstance(v, Var)}

    def arrays(vs) -> set[Var]:
        return {v for v in vs if v.aval.shape != () or v in returned}

    out = []
    for u in units:
        if u.kind == ELEMENTWISE:
            sinks = {v for e in u.eqns if classify(e) == REDUCE for v in e.outputs}
            out.append((u.eqns, arrays(u.stored | sinks), arrays(u.stored)))
        elif u.kind == VIEW:  # an index map over its operand (iota: over nothing)
            out.append((u.eqns, set(), set()))
        elif u.kind == SCALAR:
            out.append((u.eqns, arrays(u.eqns[0].outputs), set()))
        else:  # a kernel rule's unit (a product, a gather, ...): reads materialized inputs
            out.append((u.eqns, set(u.eqns[0].outputs), None))
    return out


def _is_plain(x: Var, made_by: dict, returned: set) -> bool:
    """Whether the code generator hands a kernel rule `x` as an existing buffer: `x` is an
    array, or a view that reads all of one in order (reshapes, squeezes and broadcasts that
    only add size-1 axes) of an array; other views (a broadcast, a transpose, a slice, a
    reversal, any view of a 0-d value in registers) are copied into a new array first."""
    while x in made_by and made_by[x].prim.name in _VIEWS:
        e = made_by[x]
        if not isinstance(e.inputs[0], Var):
            return False
        src = e.inputs[0]
        if e.prim.name not in ("reshape", "squeeze", "broadcast_in_dim"):
            return False
        if src.aval.size != x.aval.size or (src.aval.shape == () and src not in returned):
            return False
        if e.prim.name == "broadcast_in_dim" and list(e.params["broadcast_dimensions"]) != sorted(
            e.params["broadcast_dimensions"]
        ):
            return False
        x = src
    return True


def _packs(outvars: list) -> dict[Var, Var]:
    """Small outputs of one dtype come back as parts of one array allocated when the program
    starts (`core.jit.packing.output_layout`): output -> a value standing for its pack."""
    packs, _ = output_layout(outvars)
    pack_of: dict[Var, Var] = {}
    for group in packs:
        dtype = outvars[group[0]].aval.dtype
        pack = Var(ShapedArray((sum(outvars[k].aval.size for k in group),), dtype))
        for k in group:
            if isinstance(outvars[k], Var):
                pack_of[outvars[k]] = pack
    return pack_of


def analyze(name: str, jaxpr: Any) -> MemoryReport:
    """The `MemoryReport` of a constvar-free jaxpr as the numba back end would run it.

    Args:
      name: the program's name.
      jaxpr: the `Jaxpr`.

    Returns:
      The report.
    """
    eqns, outvars = simplify(jaxpr.eqns, jaxpr.outvars)
    units = _units(eqns, outvars)
    root: dict[Var, Var] = {}  # a view -> the value whose buffer it reads
    made_by: dict[Var, Eqn] = {}
    last_use: dict[Var, int] = {}  # buffer -> the last unit reading it
    for i, (ueqns, _, _) in enumerate(units):
        for e in ueqns:
            for x in e.inputs:
                if isinstance(x, Var):
                    last_use[root.get(x, x)] = i
            for v in e.outputs:
                made_by[v] = e
                if e.prim.name in _VIEWS and isinstance(e.inputs[0], Var):
                    root[v] = root.get(e.inputs[0], e.inputs[0])
    arguments = list(jaxpr.invars)
    pack_of = {v: p for v, p in _packs(outvars).items() if v not in arguments}
    for v, p in pack_of.items():
        made_by.setdefault(p, made_by.get(v))
    outputs = {root.get(v, v) for v in outvars if isinstance(v, Var)} | set(pack_of.values())
    argument_bytes = sum(_nbytes(v) for v in arguments)

    def dead_after(r: Var, i: int) -> bool:
        return r not in outputs and last_use.get(r, -1) <= i

    live: dict[Var, int] = {p: _nbytes(p) for p in set(pack_of.values())}
    rows, peak_unit, peak, peak_live = [], 0, argument_bytes, {}
    returned = {v for v in outvars if isinstance(v, Var)}
    for i, (ueqns, made, loop_outputs) in enumerate(units):
        reads = {root.get(x, x) for e in ueqns for x in e.inputs if isinstance(x, Var)}
        dying = [r for r in reads if r in live and dead_after(r, i)]
        allocated = sum(live.values()) if i == 0 else 0  # the packs, at the start
        if loop_outputs is None:  # a kernel rule: views it reads are copied first
            copies = {x for x in ueqns[0].inputs if isinstance(x, Var) and x in root}
            copied = sum(_nbytes(x) for x in copies if not _is_plain(x, made_by, returned))
            allocated, loop_outputs = allocated + copied, set()
        else:
            copied = 0
        for v in sorted(made, key=lambda v: v.count):
            if v in pack_of:  # written into its row of a pack
                continue
            same = [d for d in dying if d.aval.shape == v.aval.shape and _nbytes(d) == _nbytes(v)]
            if v in loop_outputs and same:  # the loop writes into a dying input's buffer
                dying.remove(same[0])
                del live[same[0]]
            else:
                allocated += _nbytes(v)
            live[v] = _nbytes(v)
        total = argument_bytes + sum(live.values()) + copied  # the copies live in the unit
        rows.append(UnitRow(i, tuple(ueqns), allocated, total))
        if total > peak:
            peak_unit, peak, peak_live = i, total, dict(live)
        for r in [r for r in live if dead_after(r, i)]:
            del live[r]
    readers = _next_readers(units, root, peak_unit)
    packs = set(pack_of.values())

    def reason(v: Var) -> str:
        if v in packs:
            return "program outputs (one packed array)"
        return "program output" if v in outputs else f"read by {_describe(readers.get(v))}"

    buffers = [LiveBuffer(v, n, made_by.get(v), reason(v)) for v, n in peak_live.items()]
    buffers += [LiveBuffer(v, _nbytes(v), None, "argument (held by the caller)") for v in arguments]
    buffers.sort(key=lambda b: -b.nbytes)
    return MemoryReport(
        name, argument_bytes, peak, peak_unit, tuple(rows), tuple(b for b in buffers if b.nbytes)
    )


def _next_readers(units: list, root: dict, after: int) -> dict[Var, Eqn]:
    """For each buffer, the first equation from unit `after` on that reads it (or a view of it)."""
    found: dict[Var, Eqn] = {}
    for ueqns, _, _ in units[after:]:
        for e in ueqns:
            for x in e.inputs:
                if isinstance(x, Var):
                    found.setdefault(root.get(x, x), e)
    return found


def memory_report(fun: Callable, *args: Any, **kwargs: Any) -> MemoryReport:
    """What `jit(fun)` holds in memory when called on `args`, equation by equation.

    Nothing runs: the program is traced (or taken from `fun`'s jit cache) and analyzed as the
    numba back end compiles it (see the module docstring).

    Args:
      fun: a jitted function (`core.jit(f)`) or a plain function (jitted here).
      *args: example arguments (arrays or `ShapeDtypeStruct`-like values).
      **kwargs: keyword arguments.

    Returns:
      A `MemoryReport`; `print(report)` shows the table.
    """
    jitted = fun if isinstance(fun, Jitted) else jit(fun)
    entry, _ = jitted._entry(args, kwargs)
    return analyze(getattr(jitted, "__name__", "fun"), entry.jaxpr)
