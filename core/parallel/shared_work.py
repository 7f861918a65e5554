"""Work that every device of a `pmap` would repeat, shared out among them instead.

After `lax.psum` (or `pmean`, `pmax`, `pmin`, `all_gather`) every device holds the same value:
the communicator hands each local device the same result array (`communicator.py`). A kernel
that reads only such values, constants and inputs every device was given as the same buffer
computes the same result on every device. In a data-parallel train step that is the optimizer
update: each of N devices would read the averaged gradients, the parameters and the optimizer
state and write new ones, the same 100 MB of memory traffic N times for a ResNet-10 (5M
parameters, SGD momentum), 7 ms of each device's 60 ms step on one core.

`plan(exe, replicated, size)` finds those kernels in the per-device program's kernels
(`core.jit.program`: a program split into kernels run by a generated Python driver) and gives
each to one device: the kernels whose results only the program's outputs or other such kernels
read, grouped so that a kernel and the kernels it feeds stay on one device, the groups spread
over the devices by the bytes they read (of an input they only slice, the slices: `_read_bytes`)
and write (largest first, to the least loaded device).
Each device runs a variant of the driver in which the other devices' kernels are skipped (a
stub stands for their results), and the device that computed an output stores it as every
device's (`dispatch._Outputs.store`; the others skip it): every device returns the same array
for it, and no device waits for another at the end. An output that every device computes from
such values alone, in a kernel that does device-local work too (a BatchNorm's running
statistics next to its normalization) or none (a parameter passed through), is device 0's
for all the same way, so the next call finds all of that state replicated again.
A device runs the psums whose results only other devices' shared kernels read (the gradients of
the weights another device updates) without their results: it folds its share of the sum into
the reading device's result alone (`_unread`). A gradient's psum kept alone (larger than
`communicator.SMALL`) whose one reader is such a kernel is not computed at all: every device
hands its operand over at the psum's barrier, and the device running the update runs a kernel
compiled from it that sums the devices' gradients in rank order as it reads them (`_folds`,
`FOLD`): the psum's result is neither written nor read again. Where that gradient is a
convolution's kernel gradient, no device computes it: each hands the convolution's operands over
(its images and their cotangents), and the updating device convolves them joined along the
batch, once at the global batch instead of once per device at its share (`_gathers`, `GATHER`).
`pmap`'s output then holds one buffer for all devices (`dispatch.Shards` whose values are one
object), so the next step finds its state replicated again; `core.device_put_replicated` (Flax's
`replicate`) places replicated state the same way, so a training loop shares its updates from
the first step on. The groups' bytes count a gathered convolution's flops at `FLOP_BYTES` each.

Nothing is shared when the program is one function (small programs, `program.split`), when no
shareable kernel moves at least `MIN_BYTES`, over several processes (an MPI job's devices meet
through `core.distributed`, one device per process) or under the `workqueue` threading layer
(whose kernels run under a lock, `core.jit.fork_safety`). The results are those of the
unshared program bit for bit: the same kernels run on the same inputs, once (a folded psum's
additions too, in the same order), but for the gathered kernel gradients, whose sums over the
batch run in another order (equal to float rounding).
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core.avals import ShapedArray
from core.ir import Eqn, Jaxpr, Var
from core.jit.packing import unpack_exprs
from core.parallel import communicator
from core.prims.elementwise import add_p
from core.prims.indexing import concatenate_p

__all__ = ["FOLD", "GATHER", "MIN_BYTES", "Plan", "plan"]

# Collectives whose result is the same on every device of the axis.
_REPLICATING = frozenset({"psum", "pmax", "pmin", "all_gather"})

# Below this many bytes read and written by the shareable kernels, the barrier of the exchange
# (about 0.1 ms of CPU per device) costs more than half of their memory traffic.
MIN_BYTES = 1 << 22

# Whether a gradient's psum is summed inside the optimizer update that reads it (`_folds`).
FOLD = True
# Whether a folded psum of a convolution's kernel gradient is computed by the updating device
# from the devices' operands, joined along the batch (`_gathers`).
GATHER = True
# A convolution's multiply-add (two flops) at OpenBLAS's one-core rate (70-90 GFLOP/s) takes
# about as long as half a byte of an optimizer update's memory traffic (18-20 MB/ms): how a
# gathered kernel gradient (`_gathers`) weighs among the shared kernels' bytes.
FLOP_BYTES = 0.25
_FOLDED_DTYPES = frozenset({np.dtype(np.float32), np.dtype(np.float64)})


class _Missing:
    """Stands for a result another device computes (what a skipped kernel returns), and for
    any part of it: the driver takes a kernel's packed 0-d outputs as items of one result
    (`packing.output_layout`), an Adam update's step count among them."""

    __slots__ = ()

    def __getitem__(self, index: object) -> _Missing:
        return self

    def __repr__(self) -> str:
        return "<computed by another device>"


MISSING = _Missing()


def _nbytes(values: Sequence) -> int:
    return sum(v.aval.size * np.dtype(v.aval.dtype).itemsize for v in values if isinstance(v, Var))


def _read_bytes(kernel: Jaxpr) -> int:
    """The bytes `kernel` reads of its inputs: an input it only slices counts as its slices
    (an update of a small parameter reads its leaf of the gradients' packed psum, not the
    1.9 MB of all of them: charged the whole, the ResNet-10's 34 small updates weighed 70 MB
    and were spread over both devices, so that both read the packed psum's result)."""
    sliced: dict[Var, int] = {}
    whole = set()
    for e in kernel.eqns:
        for x in e.inputs:
            if isinstance(x, Var):
                if e.prim.name == "slice":
                    sliced[x] = sliced.get(x, 0) + _nbytes(e.outputs)
                else:
                    whole.add(x)
    return sum(sliced[v] if v in sliced and v not in whole else _nbytes([v]) for v in kernel.invars)


def _replicated_outputs(kernel: Jaxpr, replicated: set) -> tuple[bool, set]:
    """(whether `kernel` may run on one device for all, the outputs it defines that are the
    same on every device), given the `replicated` values it may read."""
    same = set(replicated)
    pure = True
    for e in kernel.eqns:
        prim = e.prim
        if prim.effectful or prim.higher_order or prim.collective:
            pure = False
            if prim.collective and prim.name in _REPLICATING:
                same.update(e.outputs)
            continue
        if all(not isinstance(x, Var) or x in same for x in e.inputs):
            same.update(e.outputs)
    return pure, {v for v in kernel.outvars if v in same}


class Plan:
    """Which device runs each shared kernel: `programs[rank]` is device `rank`'s variant of the
    program, `owner[j]` the device that stores output `j` for all (-1: each its own): the one
    computing it, or device 0 for an output every device computes from `equal` values alone
    (a BatchNorm's running statistics, computed next to the device's own normalization),
    `owned[rank]` the outputs device `rank` stores for all, `unread[rank]` the exchange
    kernels whose results nothing of its variant reads (`_unread`), `chained` the exchange
    kernels of chains, True where the next kernel completes the exchange (`_chained`),
    `folded` {psum kernel: the shared kernel that reads the devices' operands instead of its
    result} (`_folds`)."""

    def __init__(self, exe: Callable, owner: dict[int, int], size: int, equal: set):
        program = exe.program
        outputs = program.outputs
        produced = {v: k for k, kj in enumerate(program.kernels) for v in kj.outvars}
        rank_of = [
            owner.get(produced.get(v, -1), 0 if v in equal else -1) if isinstance(v, Var) else -1
            for v in outputs
        ]
        self.owner = rank_of
        self.owned = [[j for j, r in enumerate(rank_of) if r == rank] for rank in range(size)]
        self.unread = [_unread(program, owner, rank) for rank in range(size)]
        self.chained = _chained(program)
        self.folded = _folds(program, owner) if FOLD else {}
        self.gathered = _gathers(program, self.folded) if GATHER else {}
        sources = {p: (c, program.kernels[c], exe.extra[c]) for p, c in self.gathered.items()}
        folding = {
            u: _Fold(
                p,
                size,
                program.kernels[u],
                program.kernels[p].outvars[0],
                exe.extra[u],
                exe.compile_jaxpr,
                sources.get(p),
            )
            for p, u in self.folded.items()
        }
        self.programs = []
        for rank in range(size):
            around: dict[int, Callable] = {
                k: functools.partial(
                    communicator.call_exchange,
                    k in self.unread[rank],
                    self.chained.get(k, False),
                )
                for k in self.unread[rank] | self.chained.keys()
            }
            for p, u in self.folded.items():
                meets = p + 1 not in self.folded  # (the next one's barrier serves both)
                around[p] = functools.partial(communicator.hand_over, p, meets)
                if owner[u] == rank:
                    around[u] = folding[u]
                if p in self.gathered:
                    around[self.gathered[p]] = folding[u].hand
            skip = {k for k, r in owner.items() if r != rank}
            self.programs.append(exe.variant(skip, MISSING, around))


def _unread(program: Any, owner: dict[int, int], rank: int) -> set[int]:
    """The kernels of `program` that only exchange values (psum, pmax, pmin, all_gather) and
    whose results only kernels other devices than `rank` run for all read (a gradient's psum
    feeding an optimizer update another device computes): device `rank` runs them (the others
    need its share) without computing or receiving their results (`communicator.call_exchange`),
    a quarter less of the psum's memory traffic."""
    kernels = program.kernels
    readers: dict[Var, set[int]] = {}
    for k, kj in enumerate(kernels):
        for v in kj.invars:
            readers.setdefault(v, set()).add(k)
    kept = {v for v in program.outputs if isinstance(v, Var)}
    return {
        k
        for k, kj in enumerate(kernels)
        if _exchanges_only(kj)
        and not any(v in kept for v in kj.outvars)
        and all(owner.get(r, rank) != rank for v in kj.outvars for r in readers.get(v, ()))
    }


def _folds(program: Any, owner: dict[int, int]) -> dict[int, int]:
    """{psum kernel: the shared kernel reading its result} for the psums worth folding into
    their reader: a kernel that is one psum of a float array larger than `communicator.SMALL`
    (a gradient's, alone), whose result only that one kernel reads, run by one device for all
    (an optimizer update) and returning its outputs one array each. That device then sums the
    devices' operands inside the update (`_Fold`) instead of reading the psum's result, and no
    device computes the psum (`communicator.hand_over`): the psum's result is neither written
    nor read, two of the four passes over the gradients the exchange and the update made."""
    kernels = program.kernels
    readers: dict[Var, list[int]] = {}
    for k, kj in enumerate(kernels):
        for v in kj.invars:
            readers.setdefault(v, []).append(k)
    kept = {v for v in program.outputs if isinstance(v, Var)}
    folds = {}
    for k, kj in enumerate(kernels):
        if len(kj.eqns) != 1 or kj.eqns[0].prim.name != "psum" or len(kj.outvars) != 1:
            continue
        (g,), (x,) = kj.outvars, kj.eqns[0].inputs
        aval = g.aval
        if (
            not isinstance(x, Var)
            or kj.invars != [x]
            or kj.eqns[0].outputs != [g]
            or g in kept
            or np.dtype(aval.dtype) not in _FOLDED_DTYPES
            or aval.size * np.dtype(aval.dtype).itemsize <= communicator.SMALL
            or len(readers.get(g, ())) != 1
        ):
            continue
        (u,) = readers[g]
        update = kernels[u]
        n = len(update.outvars)
        if (
            u in owner
            and not update.constvars
            and update.invars.count(g) == 1
            and unpack_exprs(update, False) == (n, [f"r{i}" for i in range(n)])
        ):
            folds[k] = u
    return folds


def _gathers(program: Any, folds: dict[int, int]) -> dict[int, int]:
    """{folded psum kernel: the kernel computing its operand} for the folded psums (`_folds`)
    of a convolution's kernel gradient: a kernel of one `conv_general_dilated` of two arrays,
    without feature or batch groups, whose result only the psum reads and whose operands are
    no larger (a ResNet's last stages: joining them costs less than the second weight-sized
    gradient the update would read). The sum over devices of such a convolution is the
    convolution of the devices' operands joined along the dimension it contracts (the lhs's
    features and the rhs's input features: the batch, in a kernel gradient), which the
    updating device computes at the global batch (`_Fold`): no device computes its share at
    the per-device batch (convolutions of 32 rows run OpenBLAS slower than of 64 and repeat
    the weight-sized work: packing, the result's zeros), and the update reads one gradient
    instead of the devices' two. The sum's order changes: the results equal the unshared
    program's to float rounding, not bit for bit."""
    kernels = program.kernels
    produced = {v: k for k, kj in enumerate(kernels) for v in kj.outvars}
    reads: dict[Var, int] = {}
    for kj in kernels:
        for v in kj.invars:
            reads[v] = reads.get(v, 0) + 1
    kept = {v for v in program.outputs if isinstance(v, Var)}
    gathers = {}
    for p in folds:
        x = kernels[p].eqns[0].inputs[0]
        c = produced.get(x)
        if c is None or len(kernels[c].eqns) != 1:
            continue
        e, kc = kernels[c].eqns[0], kernels[c]
        if (
            e.prim.name == "conv_general_dilated"
            and e.params["feature_group_count"] == e.params["batch_group_count"] == 1
            and kc.invars == e.inputs
            and len(set(kc.invars)) == 2
            and kc.outvars == e.outputs == [x]
            and not kc.constvars
            and reads[x] == 1
            and x not in kept
            and _nbytes(kc.invars) <= _nbytes(kc.outvars)
        ):
            gathers[p] = c
    return gathers


def _conv_flops(conv: Eqn, size: int) -> int:
    """The flops of kernel gradient `conv` over the operands of `size` devices joined
    (`_gathers`), on the box of taps that read the input (`taps.tap_box`): per spatial axis,
    the result's taps from the first to the last that some position of the rhs reads inside
    the (lhs-dilated) lhs."""
    lhs, rhs = (v.aval.shape for v in conv.inputs)
    numbers, params = conv.params["dimension_numbers"], conv.params
    out = conv.outputs[0].aval.shape
    flops = (
        2 * lhs[numbers.lhs_spec[0]] * lhs[numbers.lhs_spec[1]] * size * rhs[numbers.rhs_spec[0]]
    )
    for d in range(len(out) - 2):
        n, q = out[numbers.out_spec[2 + d]], rhs[numbers.rhs_spec[2 + d]]
        extent, ld = lhs[numbers.lhs_spec[2 + d]], params["lhs_dilation"][d]
        step, dilation = params["window_strides"][d], params["rhs_dilation"][d]
        lo = params["padding"][d][0]
        read = [
            t
            for t in range(n)
            for r in range(q)
            if (pos := t * step + r * dilation - lo) >= 0 and pos % ld == 0 and pos // ld < extent
        ]
        flops *= q * ((max(read) + 1 - min(read)) if read else n)
    return flops


class _Fold:
    """Shared kernel `update` called with the devices' operands of psum kernel `psum` (by rank,
    `communicator.take_handed`) in place of the psum's result `g`: a kernel compiled from
    `update` whose first equations sum them in rank order (`x0 + x1 + ...`, the exchange's
    order: the same bits) and hand the sum to `update`'s equations; with `gather` (kernel
    `source` computing the psum's operand, its jaxpr, its extra arrays: `_gathers`), the
    devices' operands of that kernel's convolution instead, joined and convolved into `g`
    (`hand` stands for `source` on every device). `extra`: the arrays the
    driver passes `update` before its inputs (`program.compile_program`); `compile_jaxpr`: the
    driver's (`program.compile_jaxpr`). Called as a variant's wrapper of `update`,
    `fold(kernel, *args)`; without the operands (a device failed) it calls `kernel`."""

    def __init__(
        self,
        psum: int,
        size: int,
        update: Jaxpr,
        g: Var,
        extra: list,
        compile_jaxpr: Callable,
        gather: tuple[int, Jaxpr, list] | None = None,
    ):
        self.psum, self.size = psum, size
        self.skip = len(extra)  # the driver's arguments of `update` before its inputs
        self.at = self.skip + update.invars.index(g)  # where it passes `g`
        if gather:  # (kernel, its jaxpr, its extra arrays): `_gathers`
            self.source, conv, source_extra = gather
            self.source_skip = len(source_extra)
            self.stand_in = np.empty(g.aval.shape, g.aval.dtype)  # for the psum, which reads none
            xs, eqns = _joined(conv.eqns[0], size, g)
            self.shapes = [v.aval.shape for v in conv.invars for _ in range(size)]
        else:
            self.source = psum
            xs, eqns = _summed(size, g)
            self.shapes = [g.aval.shape] * size
        at = update.invars.index(g)
        invars = [*update.invars[:at], *xs, *update.invars[at + 1 :]]
        jaxpr = Jaxpr([], invars, eqns + update.eqns, update.outvars)
        self.kernel = compile_jaxpr(jaxpr, "psum_into_update")

    def hand(self, kernel: Callable, *args: Any) -> tuple:
        """Kernel `source` (a kernel gradient, `_gathers`) as a variant's wrapper: hands its
        operands over instead of running it, and returns a stand-in for its result (the folded
        psum's operand, which the psum kernel does not read); outside a device's place, runs
        it."""
        if not communicator.hand(self.source, args[self.source_skip :]):
            return kernel(*args)
        return (self.stand_in,)

    def __call__(self, kernel: Callable, *args: Any) -> Any:
        handed = communicator.take_handed(self.source, self.size)
        if handed is None:  # a device failed or timed out before: the call raises its error
            if args[self.at] is None or communicator.placed():  # (the psum did not run here)
                raise threading.BrokenBarrierError
            return kernel(*args)
        if self.source != self.psum:
            handed = [ops[j] for j in range(len(handed[0])) for ops in handed]
        xs = [x.reshape(shape) for x, shape in zip(handed, self.shapes, strict=True)]
        return tuple(self.kernel(*args[self.skip : self.at], *xs, *args[self.at + 1 :]))


def _summed(size: int, g: Var) -> tuple[list[Var], list[Eqn]]:
    """Inputs `x0 ... x{size-1}` and the equations summing them into `g` in rank order."""
    xs = [Var(g.aval) for _ in range(size)]
    eqns, total = [], xs[0]
    for r in range(1, size):
        out = g if r == size - 1 else Var(g.aval)
        eqns.append(Eqn(add_p, [total, xs[r]], {}, [out]))
        total = out
    return xs, eqns


def _joined(conv: Eqn, size: int, g: Var) -> tuple[list[Var], list[Eqn]]:
    """Inputs (each operand of convolution `conv` for each of `size` devices, by operand then
    rank) and the equations joining each operand's along the dimension the convolution
    contracts and convolving them into `g` (`_gathers`)."""
    numbers = conv.params["dimension_numbers"]
    xs, joined, eqns = [], [], []
    for v, axis in zip(conv.inputs, (numbers.lhs_spec[1], numbers.rhs_spec[1]), strict=True):
        parts = [Var(v.aval) for _ in range(size)]
        shape = list(v.aval.shape)
        shape[axis] *= size
        whole = Var(ShapedArray(tuple(shape), v.aval.dtype))
        eqns.append(Eqn(concatenate_p, parts, {"dimension": axis}, [whole]))
        xs += parts
        joined.append(whole)
    eqns.append(Eqn(conv.prim, joined, dict(conv.params), [g]))
    return xs, eqns


def _exchanges_only(kernel: Jaxpr) -> bool:
    return bool(kernel.eqns) and all(
        e.prim.collective and e.prim.name in _REPLICATING for e in kernel.eqns
    )


def _chained(program: Any) -> dict[int, bool]:
    """The kernels of `program` in runs of consecutive kernels that only exchange values (the
    gradients' psums of a train step), none reading another's results: {kernel: whether the
    next kernel of its run completes its exchanges} (True for all but the run's last). A
    device then meets the others once per exchange read in place instead of twice
    (`communicator.call_exchange`), and twice at the last: 4 barriers fewer for the
    ResNet-10's five gradient psums. The runs depend on the program only, so every device's
    exchanges meet in the same order."""
    chained: dict[int, bool] = {}
    run: list[int] = []
    for k, kj in enumerate([*program.kernels, None]):
        reads = set() if kj is None else set(kj.invars)
        if (
            kj is not None
            and _exchanges_only(kj)
            and not any(v in reads for j in run for v in program.kernels[j].outvars)
        ):
            run.append(k)
            continue
        if len(run) > 1:
            chained.update((j, j != run[-1]) for j in run)
        run = [k] if kj is not None and _exchanges_only(kj) else []
    return chained


_PLANS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def plan(exe: Callable, replicated: frozenset[int], size: int) -> Plan | None:
    """How `size` devices share the work of `exe` that is the same on all of them.

    Args:
      exe: the compiled per-device program (`core.jit.api.executable`).
      replicated: positions of its arguments that every device gets as the same buffer.
      size: the number of local devices running it.

    Returns:
      The `Plan`, or None when nothing worth sharing (see the module docstring).
    """
    variant = getattr(exe, "variant", None)  # a program of kernels run by a generated driver
    if size < 2 or variant is None or exe.kernel is not exe.driver:
        return None  # one function, or kernels that run under a lock (`jit.fork_safety`)
    try:
        per = _PLANS[exe]
    except KeyError:
        per = _PLANS[exe] = {}
    key = (replicated, size)
    if key not in per:
        per[key] = _make(exe, replicated, size)
    return per[key]


def _make(exe: Callable, replicated: frozenset[int], size: int) -> Plan | None:
    program = exe.program
    kernels = program.kernels
    same = {v for i, v in enumerate(program.inputs) if i in replicated}
    shared = set()
    for k, kj in enumerate(kernels):
        pure, outs = _replicated_outputs(kj, same)
        same |= outs
        if pure and kj.outvars and len(outs) == len(kj.outvars):
            shared.add(k)
    readers: dict[Var, list[int]] = {}
    for k, kj in enumerate(kernels):
        for v in kj.invars:
            readers.setdefault(v, []).append(k)
    changed = True
    while changed:  # a kernel some device-local kernel reads from runs everywhere
        changed = False
        for k in sorted(shared):
            if any(r not in shared for v in kernels[k].outvars for r in readers.get(v, ())):
                shared.discard(k)
                changed = True
    # Groups: a shared kernel and the shared kernels that read its results.
    group = {k: k for k in shared}

    def find(k: int) -> int:
        while group[k] != k:
            group[k] = group[group[k]]
            k = group[k]
        return k

    for k in shared:
        for v in kernels[k].outvars:
            for r in readers.get(v, ()):
                group[find(r)] = find(k)
    cost: dict[int, int] = {}
    for k in shared:
        g = find(k)
        cost[g] = cost.get(g, 0) + _read_bytes(kernels[k]) + _nbytes(kernels[k].outvars)
    folds = _folds(program, dict.fromkeys(shared, 0)) if FOLD else {}
    for p, c in (_gathers(program, folds) if GATHER else {}).items():  # its update's device's
        g = find(folds[p])
        cost[g] += int(FLOP_BYTES * _conv_flops(kernels[c].eqns[0], size))
    if sum(cost.values()) < MIN_BYTES:
        return None
    load = [0] * size
    rank_of = {}
    for g in sorted(cost, key=lambda g: (-cost[g], g)):
        rank = load.index(min(load))
        rank_of[g] = rank
        load[rank] += cost[g]
    return Plan(exe, {k: rank_of[find(k)] for k in shared}, size, same)
