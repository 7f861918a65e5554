"""Loop nests over one shape: index arithmetic, dimension coalescing, loads, stores, reductions.

A `LoopNest` collects accesses (arrays read through index maps, new arrays written, reduction
outputs), then merges adjacent loop dimensions that every access walks contiguously (so a
fully elementwise group becomes one flat loop, and a bias broadcast keeps an inner loop over
the bias), drops size-1 dimensions and emits the nest. The body reads and writes
C-contiguous arrays through flat offsets (`rt.ld`/`rt.st`, linear forms in the loop indices
over the coalesced shape), which numba and LLVM compile several times faster than
multi-dimensional indexing, and which need no reshaped views. A reduction whose reduced
dimensions are the innermost ones keeps its accumulator in a register; float sums use `vm.radd`
so they vectorize. Large loops run on numba's pool (`prange`) when the kernel makes no BLAS
calls: reductions that keep the outer loop dimension own their rows; reductions over it run in
chunks of the outer dimension, each into partial results of its own (`LoopNest._emit_chunks`).
A float sum in XLA:CPU's windows (`WINDOWS`, `core/jit/sum_order.py`) or in YNNPACK's order
(`YNN`) runs loops of its own, one thread, its order fixed (`LoopNest._emit_windows`,
`LoopNest._emit_ynn`). The threads take a threaded loop's
iterations dynamically, in chunks of about `CHUNK_DIVISOR`
per loop at the threading threshold (`_dynamic`, core/jit/schedule.py): a thread that lost its
core to another process holds back one chunk.
"""

from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from core.backends.numba.generic import Size
from core.backends.numba.source import alloc, cast, combine, identity
from core.jit import threads
from core.prims import sum_order

# Loops at least this large (fewer iterations for loops touching more arrays: `_min_size`) run
# on numba's thread pool (`prange`) when it has more than one thread (core/jit/threads.py), in
# kernels without BLAS calls only: their products already use the pool (core/jit/gemm.py), and
# one `prange` compiles the whole kernel with numba's parallel passes (the MNIST CNN step: 17 ->
# 24 s of compile CPU). Measured: selu on 1e6 floats 266 us on one thread, 138 us on two.
# NUMBAX_JIT_THREADS=0 turns it off.
PARALLEL_SIZE = 1 << 17 if os.environ.get("NUMBAX_JIT_THREADS", "1") != "0" else 1 << 62
# A reduction over the outer loop dimension (a bias gradient's sum over rows, a loss's sum) runs
# as at most this many chunks, each into partial results of its own (`LoopNest._chunks`).
CHUNKS = 16
# A threaded loop's iterations go to the threads in chunks of `_min_size() // CHUNK_DIVISOR`
# elements (16K for a loop reading one array and writing one, ~15 us here): numba schedules each
# chunk as an entry that any free thread takes.
CHUNK_DIVISOR = 8
# The reduction kind of a float sum in XLA:CPU's windows (`_emit_windows`) and their size.
WINDOWS = "sum_windows"
WINDOW = 32
# The reduction kind of a float sum in YNNPACK's order (`_emit_ynn`).
YNN = "sum_ynn"
# The sums whose loops are their own: the only reduction of their nest.
OWN_ORDER = {WINDOWS, YNN}


@dataclass
class Value:
    """What the code generator knows about a jaxpr value.

    `kind` is "array" (a C-contiguous array named `expr` of `base_shape`), "scalar" (an
    expression) or "iota" (the virtual vector 0, 1, ... of length base_shape[0]). `imap` says
    which base element each element of this value's `shape` reads (see `lowering.IndexMap`).
    """

    kind: str
    expr: str
    base_shape: tuple[int, ...]
    imap: tuple
    shape: tuple[int, ...]
    dtype: np.dtype

    @staticmethod
    def array(name: str, shape, dtype) -> Value:
        imap = tuple((0, ((d, 1),)) for d in range(len(shape)))
        return Value("array", name, tuple(shape), imap, tuple(shape), np.dtype(dtype))

    @staticmethod
    def scalar(expr: str, dtype, shape=()) -> Value:
        return Value("scalar", expr, (), (), tuple(shape), np.dtype(dtype))

    @staticmethod
    def block(name: str, base_shape, starts, shape, dtype) -> Value:
        """The block of array `name` (of `base_shape`) that starts at `starts` and has `shape`;
        leading axes of the array beyond the block's rank are fixed at their start."""
        lead = len(base_shape) - len(shape)
        imap = (
            *((s, ()) for s in starts[:lead]),
            *((s, ((d, 1),)) for d, s in enumerate(starts[lead:])),
        )
        return Value("array", name, tuple(base_shape), imap, tuple(shape), np.dtype(dtype))

    @property
    def is_plain_array(self) -> bool:
        return self.permutation() == list(range(len(self.shape)))

    @property
    def is_reshaped_array(self) -> bool:
        """Whether this reads the whole base array in order (only size-1 axes differ)."""
        if self.kind != "array":
            return False
        big = [(k, n) for k, n in enumerate(self.base_shape) if n != 1]
        dims = [d for d, n in enumerate(self.shape) if n != 1]
        if len(big) != len(dims):
            return False
        for (k, n), d in zip(big, dims):
            if self.imap[k] != (0, ((d, 1),)) or self.shape[d] != n:
                return False
        return all(self.imap[k][0] == 0 for k, n in enumerate(self.base_shape) if n == 1)

    def permutation(self) -> list[int] | None:
        """`axes` if this is base array axis k = value axis axes[k] (a transpose), else None."""
        if self.kind != "array" or len(self.imap) != len(self.shape):
            return None
        axes = []
        for (start, terms), n in zip(self.imap, self.base_shape):
            if start or len(terms) != 1 or terms[0][1] != 1 or self.shape[terms[0][0]] != n:
                return None
            axes.append(terms[0][0])
        return axes if sorted(axes) == list(range(len(axes))) else None

    def compose(self, imap, shape) -> Value:
        """This value read through `imap` (operand axes in terms of the new value's axes)."""
        new = []
        for start, terms in self.imap:
            s, acc = start, {}
            for d, c in terms:
                s += c * imap[d][0]
                for d2, c2 in imap[d][1]:
                    acc[d2] = acc.get(d2, 0) + c * c2
            new.append((s, tuple(sorted((d, c) for d, c in acc.items() if c))))
        return Value(self.kind, self.expr, self.base_shape, tuple(new), tuple(shape), self.dtype)


@dataclass
class _Access:
    kind: str  # load, store, reduce
    value: Value | None
    base_shape: list[int]
    imap: list[list]  # [start, {loop_dim: coef}] per base axis
    dtype: np.dtype
    name: str = ""  # the array a store or reduction writes
    reduce_kind: str = ""
    result: Value | None = None
    acc: str = ""
    level: int = -1  # loop level of a register accumulator (-1: accumulate in memory)
    out_shape: tuple = ()
    row: str = ""  # in a chunked nest, the offset of this chunk's partial results
    out_size: object = 1  # in a chunked nest, the size of the result
    start: str = ""  # in a nest of windows, where the innermost level's row starts ("... + ")
    unit: str = ""  # in YNNPACK's order, the variable holding the body's value of a unit
    sizes: tuple = ()  # in YNNPACK's order, the loop shape before coalescing
    axes: tuple = ()  # in YNNPACK's order, the reduced axes before coalescing


class LoopNest:
    """One loop nest over `shape`; see the module docstring."""

    def __init__(self, em, shape: tuple[int, ...], parallel: bool = False):
        self.em = em
        self.shape = em.shape(shape)  # sizes: variables of a shape-generic kernel
        self.parallel = parallel
        self.accesses: list[_Access] = []
        self._dims: list[int] = []
        self._loaded: dict[int, str] = {}
        self._offsets: dict[str, str] = {}

    def load(self, value: Value) -> _Access:
        """Reads `value` (of the loop's shape) in the body; scalars need no access."""
        imap = [[s, dict(t)] for s, t in value.imap]
        a = _Access("load", value, self._base_shape(value), imap, value.dtype)
        self.accesses.append(a)
        return a

    def store(self, dtype, into: tuple | None = None) -> _Access:
        """A new array of the loop's shape, written in the body; with `into=(name, base_shape,
        starts)` the block of that existing array that `Value.block` describes instead."""
        imap = [[0, {d: 1}] for d in range(len(self.shape))]
        a = _Access("store", None, list(self.shape), imap, np.dtype(dtype))
        if into is not None:
            a.name, base_shape, starts = into
            a.result = Value.block(a.name, base_shape, starts, self.shape, dtype)
            a.base_shape = self._base_shape(a.result)
            a.imap = [[s, dict(terms)] for s, terms in a.result.imap]
        self.accesses.append(a)
        return a

    def reduce(self, kind: str, dtype, axes: tuple[int, ...]) -> _Access:
        """A reduction over loop `axes`; its result has the remaining dimensions."""
        kept = [d for d in range(len(self.shape)) if d not in axes]
        imap = [[0, {d: 1}] for d in kept]
        a = _Access("reduce", None, [self.shape[d] for d in kept], imap, np.dtype(dtype))
        a.reduce_kind = kind
        a.out_shape = tuple(self.shape[d] for d in kept)
        a.sizes, a.axes = tuple(self.shape), tuple(axes)
        self.accesses.append(a)
        return a

    def _base_shape(self, value: Value) -> list[int]:
        """The sizes of the array `value` reads: an axis that walks loop dimension d whole is
        that dimension's size (one variable for both), others get their own."""
        out = []
        for (start, terms), n in zip(value.imap, value.base_shape):
            d = terms[0][0] if len(terms) == 1 and terms[0][1] == 1 else None
            same = d is not None and start == 0 and n == self.shape[d]
            out.append(self.shape[d] if same else self.em.size(n))
        return out

    # -- coalescing ----------------------------------------------------------------------------

    def _coalesce(self) -> None:
        dims = list(self.shape)
        for d in reversed(range(len(dims))):  # size-1 loop dimensions index 0
            if dims[d] == 1:
                self._drop_dim(d)
                dims.pop(d)
        for a in self.accesses:
            if a.kind != "load" or a.value.kind == "array":
                keep = [k for k in range(len(a.base_shape)) if a.base_shape[k] != 1]
                a.base_shape = [a.base_shape[k] for k in keep]
                a.imap = [a.imap[k] for k in keep]
        d = len(dims) - 2
        while d >= 0:
            if all(self._mergeable(a, d, dims) for a in self.accesses):
                for a in self.accesses:
                    self._merge(a, d, dims)
                dims[d] *= dims.pop(d + 1)
                self._renumber(d + 1)
                d = min(d, len(dims) - 2)
            else:
                d -= 1
        self._dims = dims

    def _drop_dim(self, d: int) -> None:
        for a in self.accesses:
            for ax in a.imap:
                ax[1].pop(d, None)
        self._renumber(d)

    def _renumber(self, removed: int) -> None:
        for a in self.accesses:
            for ax in a.imap:
                ax[1] = {(k - 1 if k > removed else k): c for k, c in ax[1].items()}

    def _mergeable(self, a: _Access, d: int, dims: list[int]) -> bool:
        if a.kind == "load" and a.value.kind == "iota":
            return not any(d in ax[1] or d + 1 in ax[1] for ax in a.imap)
        uses = [k for k, ax in enumerate(a.imap) if d in ax[1] or d + 1 in ax[1]]
        if not uses:  # two reduced axes: one unless each has windows of its own
            return a.reduce_kind != WINDOWS
        if len(uses) != 2 or uses[1] != uses[0] + 1:
            return False
        k = uses[0]
        return (
            a.imap[k][1] == {d: 1}
            and a.imap[k + 1][1] == {d + 1: 1}
            and a.imap[k + 1][0] == 0
            and a.base_shape[k + 1] == dims[d + 1]
        )

    @staticmethod
    def _merge(a: _Access, d: int, dims: list[int]) -> None:
        for k, ax in enumerate(a.imap):
            if d in ax[1]:
                inner = a.base_shape[k + 1]
                a.imap[k] = [ax[0] * inner, {d: 1}]
                a.base_shape[k] *= inner
                del a.imap[k + 1], a.base_shape[k + 1]
                return

    # -- emission ------------------------------------------------------------------------------

    def offset(self, a: _Access) -> str:
        """The flat offset of access `a` at the current iteration: a linear form in the loop
        indices over the (coalesced) C-contiguous base shape, named once per loop body."""
        const, coef, stride = 0, {}, 1
        for (start, terms), n in zip(reversed(a.imap), reversed(a.base_shape)):
            const += start * stride
            for d, c in terms.items():
                coef[d] = coef.get(d, 0) + c * stride
            stride *= n
        form = linear(const, coef)
        if " " not in form:
            return form
        if form not in self._offsets:
            self._offsets[form] = self.em.assign("f", form)
        return self._offsets[form]

    def read(self, a: _Access) -> str:
        """The value of load access `a` at the current iteration (emitted once per body)."""
        v = a.value
        if v.kind == "scalar":
            return v.expr
        if id(a) not in self._loaded:
            if v.kind == "iota":
                ((start, terms),) = a.imap
                expr = cast(linear(start, terms), v.dtype)
            else:
                expr = f"rt.ld({v.expr}, {self.offset(a)})"
            self._loaded[id(a)] = self.em.assign("t", expr)
        return self._loaded[id(a)]

    def write(self, a: _Access, expr: str) -> None:
        if a.kind == "store":
            self.em.line(f"rt.st({a.name}, {self.offset(a)}, {expr})")
        elif a.reduce_kind == YNN:  # a unit's value, which `_emit_ynn` adds
            a.unit = self.em.assign("yv", expr)
        elif a.reduce_kind == WINDOWS and a.row:  # a level's row (`_emit_windows`)
            f = self.em.assign("f", f"{a.start}{a.row}")
            new = combine(a.reduce_kind, a.dtype, f"rt.ld({a.acc}, {f})", expr)
            self.em.line(f"rt.st({a.acc}, {f}, {new})")
        elif a.level >= 0:
            self.em.line(f"{a.acc} = {combine(a.reduce_kind, a.dtype, a.acc, expr)}")
        else:
            f = self.offset(a)
            if a.row:  # a chunk's row of partial results
                f = self.em.assign("f", f"{a.row} + {f}")
            new = combine(a.reduce_kind, a.dtype, f"rt.ld({a.name}, {f})", expr)
            self.em.line(f"rt.st({a.name}, {f}, {new})")

    def emit(self, body: Callable[[LoopNest], None]) -> None:
        """Coalesces, emits the prelude, the loops with `body(self)` inside, and the results."""
        self._coalesce()
        n = len(self._dims)
        reductions = [a for a in self.accesses if a.kind == "reduce"]
        shared = [a for a in reductions if n and not any(0 in ax[1] for ax in a.imap)]
        for a in reductions:  # a layout `_emit_ynn` does not nest: any order, as before
            if a.reduce_kind == YNN and self._ynn_plan(a) is None:
                a.reduce_kind = "sum"
        windowed = any(a.reduce_kind in OWN_ORDER for a in reductions)
        chunks = self._chunks() if self.parallel and shared and not windowed else None
        for a in self.accesses:
            if a.kind == "store" and a.result is None:
                a.name = self.em.assign("o", alloc(self.shape, a.dtype))
                a.result = Value.array(a.name, self.shape, a.dtype)
            elif a.kind == "reduce" and windowed:
                continue  # `_emit_windows` or `_emit_ynn` allocates it
            elif a.kind == "reduce":
                used = sorted({d for ax in a.imap for d in ax[1]})
                if used == list(range(len(used))):
                    a.level = len(used)
                a.acc = self.em.new_name("acc")
                if chunks is not None and a in shared:
                    a.out_size = math.prod(a.out_shape)
                    fill = identity(a.reduce_kind, a.dtype)
                    a.name = self.em.assign("p", alloc((chunks, a.out_size), a.dtype, fill))
                elif a.out_shape:
                    fill = None if a.level >= 0 else identity(a.reduce_kind, a.dtype)
                    a.name = self.em.assign("o", alloc(a.out_shape, a.dtype, fill))
                    a.result = Value.array(a.name, a.out_shape, a.dtype)
                else:
                    a.result = Value.scalar(a.acc, a.dtype)
        if windowed:
            (a,) = reductions  # fusion gives a sum in XLA's order a loop nest of its own
            if a.reduce_kind == YNN:
                self._emit_ynn(a, body)
            else:
                self._emit_windows(a, body)
        elif chunks is not None:
            self._emit_chunks(chunks, shared, n, body)
        else:
            self._emit_level(0, n, body)

    def _chunks(self) -> Size:
        """Emits the number of chunks that a loop nest whose reductions fold its outer dimension
        splits that dimension into (each chunk folds into a row of partial results of its own,
        folded in chunk order after the loop): up to `CHUNKS` of at least 16 outer iterations
        each when the loop is large enough to run threaded, else 1. It depends on the sizes
        only, so results do not depend on the number of threads; one chunk folds in the order
        of the plain loop."""
        outer, total = self._dims[0], math.prod(self._dims)
        name = self.em.assign(
            "nc", f"max(1, min({CHUNKS}, {outer} // 16)) if {total} >= {self._min_size()} else 1"
        )
        return Size(CHUNKS, name)  # a variable of the kernel, whatever the sizes

    def _emit_chunks(self, chunks: Size, shared: list, n: int, body) -> None:
        """The loop nest as `chunks` chunks of its outer dimension (see `_chunks`), then the fold
        of every shared reduction's partial results into its result."""
        outer = self._dims[0]
        loop = "prange" if self._threaded(chunked=True) else "range"
        restore = self._dynamic("1") if self._may_thread(chunked=True) else ""
        with self.em.block(f"for ic in {loop}({chunks}):"):
            for a in shared:
                a.row = self.em.assign("pr", f"ic * {a.out_size}") if a.level < 0 else ""
                if a.level == 0:
                    self.em.line(f"{a.acc} = {identity(a.reduce_kind, a.dtype)}")
            lo = f"(ic * {outer}) // {chunks}"
            hi = f"((ic + 1) * {outer}) // {chunks}"
            self._emit_level(0, n, body, bounds=f"{lo}, {hi}", skip=shared)
            for a in shared:
                if a.level == 0:
                    self.em.line(f"rt.st({a.name}, ic * {a.out_size}, {a.acc})")
        if restore:
            self.em.line(f"rt.dynamic({restore})")
        for a in shared:
            a.row, partial, a.acc = "", a.name, self.em.new_name("acc")
            if a.out_shape:
                a.name = self.em.assign("o", alloc(a.out_shape, a.dtype))
                a.result = Value.array(a.name, a.out_shape, a.dtype)
            else:
                a.result = Value.scalar(a.acc, a.dtype)
            j = self.em.new_name("j")
            with contextlib.ExitStack() as stack:
                if a.out_shape:
                    stack.enter_context(self.em.block(f"for {j} in range({a.out_size}):"))
                self.em.line(f"{a.acc} = {identity(a.reduce_kind, a.dtype)}")
                with self.em.block(f"for jc in range({chunks}):"):
                    at = f"jc * {a.out_size} + {j}" if a.out_shape else "jc"
                    new = combine(a.reduce_kind, a.dtype, a.acc, f"rt.ld({partial}, {at})")
                    self.em.line(f"{a.acc} = {new}")
                if a.out_shape:
                    self.em.line(f"rt.st({a.name}, {j}, {a.acc})")

    def _emit_windows(self, a: _Access, body) -> None:
        """The loop nest of a sum in XLA's windows (`core/prims/sum_order.py`, `window_sum`),
        one thread: the kept loop dimensions before the first reduced one outermost, then the
        reduced ones as levels of windows (the last level the windows' sums in row-major
        order, each level inside it the elements of one window of the level below, the
        padding's elements left out by the bounds), then the kept dimensions after the first
        reduced one. Each level adds into an accumulator of its own, from 0: a register, or,
        with kept dimensions inside, a row of that many (each element its own sum, the inner
        loop over them vectorizable), added into the level above after the window's loops."""
        dims, em = self._dims, self.em
        used = sorted({d for ax in a.imap for d in ax[1]})
        reduced = [d for d in range(len(dims)) if d not in used]
        first = reduced[0] if reduced else len(dims)
        prefix = [d for d in used if d < first]
        rest = [d for d in used if d > first]
        # per reduced dimension, its sizes, windows and paddings, pass after pass: the number of
        # passes is read from the sizes' values (the source spells it out), the rest symbolic
        sizes = {d: [dims[d]] for d in reduced}
        windows: dict[int, list] = {d: [] for d in reduced}
        while any(int(sizes[d][-1]) > WINDOW for d in reduced):
            for d in reduced:
                n = sizes[d][-1]
                if int(n) > WINDOW:
                    count = self._named("wc", (n + (WINDOW - 1)) // WINDOW)
                    low = self._named("wl", (count * WINDOW - n) // 2)
                    windows[d].append((n, low))
                else:  # one window of the whole axis
                    count = 1
                    windows[d].append((n, None))
                sizes[d].append(count)
        passes = len(windows[reduced[0]]) if reduced else 0
        inner = math.prod(dims[d] for d in rest)
        zero = identity(a.reduce_kind, a.dtype)
        if a.out_shape:
            a.name = em.assign("o", alloc(a.out_shape, a.dtype))
            a.result = Value.array(a.name, a.out_shape, a.dtype)
        if rest:  # a row of accumulators per level, the last one the result's row
            accs = [em.assign("pw", alloc((inner,), a.dtype)) for _ in range(passes)]
            accs.append(a.name)
        else:
            accs = [em.new_name("acc") for _ in range(passes + 1)]
        if not a.out_shape:
            a.result = Value.scalar(accs[-1], a.dtype)
        # where each level's row starts in its array: the result's row at the kept outer index
        starts = [""] * (passes + 1)
        a.level, a.acc = 0, accs[0]
        if rest:  # the body adds into the innermost level's row at the kept inner offset
            strides, stride = {}, 1
            for d in reversed(rest):
                strides[d] = stride
                stride = stride * dims[d]
            a.row = linear(0, strides)

        def zeroed(level: int) -> None:
            if not rest:
                em.line(f"{accs[level]} = {zero}")
                return
            with em.block(f"for jw in range({inner}):"):
                em.line(f"rt.st({accs[level]}, {starts[level]}jw, {zero})")

        def added(level: int) -> None:  # level's sums into level + 1's
            lo, hi = accs[level], accs[level + 1]
            if not rest:
                em.line(f"{hi} = {combine(a.reduce_kind, a.dtype, hi, lo)}")
                return
            with em.block(f"for jw in range({inner}):"):
                at = f"{starts[level + 1]}jw"
                new = combine(a.reduce_kind, a.dtype, f"rt.ld({hi}, {at})", f"rt.ld({lo}, jw)")
                em.line(f"rt.st({hi}, {at}, {new})")

        def level(k: int, at: dict) -> None:
            """The loops of level `k` (0: the elements) inside the windows `at` of level
            k + 1 (an index per reduced dimension; none at the last level)."""
            with contextlib.ExitStack() as stack:
                here = {}
                for d in reduced:
                    name = em.new_name("w") if k else f"i{d}"
                    # the last level, or an axis in one window: all of it, in order
                    if k == passes or windows[d][k][1] is None:
                        bounds = f"{sizes[d][k]}"
                    else:
                        n, low = windows[d][k]
                        start = em.new_name("ws")
                        em.line(f"{start} = {at[d]} * {WINDOW} - {low}")
                        bounds = f"max(0, {start}), min({n}, {start} + {WINDOW})"
                    if int(sizes[d][k]) == 1:
                        em.line(f"{name} = 0")
                    else:
                        stack.enter_context(em.block(f"for {name} in range({bounds}):"))
                    here[d] = name
                a.start = starts[0]
                if k:
                    zeroed(k - 1)
                    level(k - 1, here)
                    added(k - 1)
                    return
                for d in rest:
                    stack.enter_context(em.block(f"for i{d} in range({dims[d]}):"))
                self._loaded, self._offsets = {}, {}
                body(self)

        strides, stride = {}, 1
        for d in reversed(prefix):
            strides[d] = stride
            stride = stride * dims[d]
        with contextlib.ExitStack() as stack:
            for d in prefix:
                stack.enter_context(em.block(f"for i{d} in range({dims[d]}):"))
            at = linear(0, strides)
            if rest and prefix:
                starts[-1] = f"{em.assign('fw', f'({at}) * {inner}')} + "
            zeroed(passes)
            level(passes, {})
            if a.out_shape and not rest:
                em.line(f"rt.st({a.name}, {at}, {accs[-1]})")

    def _ynn_plan(self, a: _Access) -> tuple | None:
        """How `_emit_ynn` nests the sum `a` in YNNPACK's order over the coalesced loop
        dimensions: `(unit_dim, width, sizes)`: the last dimension a contiguous run of reduced
        elements (`width` None), or a row of `width` kept elements under one dimension of
        evenly spaced reduced rows (`unit_dim`); `sizes` the reduced axes it coalesces, for
        the tiles. None for layouts whose run or rows span several loop dimensions."""
        dims = self._dims
        used = {d for ax in a.imap for d in ax[1]}
        n = len(dims)
        k1, k2, _ = sum_order.ynn_layout(a.sizes, a.axes)
        last = n - 1
        if n and last not in used:  # vectors along the run
            if n > 1 and last - 1 not in used or math.prod(a.sizes[i] for i in k1) != dims[last]:
                return None
            return last, None, [a.sizes[i] for i in k1]
        if n < 2 or last - 1 in used or not k2 or (n > 2 and last - 2 not in used):
            return None
        if math.prod(a.sizes[i] for i in k2) != dims[last - 1]:
            return None
        return last - 1, dims[last], [a.sizes[i] for i in k2]

    def _emit_ynn(self, a: _Access, body) -> None:
        """The loop nest of a sum in YNNPACK's order (`core/prims/sum_order.py`, `ynn_sum`),
        one thread: the loop dimensions outside the run (or rows) in order, each output adding
        its calls' sums from 0; each call a tree of fours of units (`sum_order.tree`: vectors
        of the run, or rows of kept elements) into accumulators of one unit's width, in the
        tiles of `sum_order.tiling`, whose sums are summed again by the same tree. Each
        accumulator is an array of a unit's elements (a vector's lanes, a row's elements),
        walked by a loop whose length is a variable: LLVM vectorizes it, a chunk's 16 units
        added in one pass (measured: a float32 sum of 1e6 elements as fast as the threaded
        sum in any order, a BatchNorm's statistics faster)."""
        em = self.em
        unit_dim, columns, sizes = self._ynn_plan(a)
        rows = columns is not None
        lanes = sum_order.VECTOR_BYTES // a.dtype.itemsize
        width = columns if rows else lanes
        tick = sum_order.FAN if rows else lanes
        total = self._dims[unit_dim]  # elements of the run, or rows
        zero = identity(a.reduce_kind, a.dtype)
        if not rows:  # a variable, so LLVM vectorizes the loops over lanes as over a row's
            width = em.assign("yl", str(lanes))
        # the accumulators of the tree's levels, Kahan's compensation and a partial four's
        # sum: a slot per unit element each
        n = lanes if not rows else width
        acc0, acc1, acc2, err, loc = (em.assign("ya", alloc((n,), a.dtype)) for _ in range(5))
        if a.out_shape:
            a.name = em.assign("o", alloc(a.out_shape, a.dtype, zero))
            a.result = Value.array(a.name, a.out_shape, a.dtype)
        else:
            a.name = em.new_name("acc")
            em.line(f"{a.name} = {zero}")
            a.result = Value.scalar(a.name, a.dtype)
        segment, tile = sum_order.tiling([*sizes, *([columns] if rows else [])], a.dtype.itemsize)
        if rows:
            segment, tile = segment // columns, tile // columns  # in rows
        tiled = int(tile) < int(total)
        if tiled:  # each tile's sum (a row of them for rows), for every call
            count = (total // segment) * ((segment + tile - 1) // tile)
            parts = em.assign("yp", alloc((count * width if rows else count,), a.dtype))

        def ld(x: str, w) -> str:  # slot `w` of accumulator `x`
            return f"rt.ld({x}, {w})"

        def st(x: str, w, expr: str) -> None:
            em.line(f"rt.st({x}, {w}, {expr})")

        def each(fn) -> None:
            """`fn(w)` for every slot `w` (of a row, or a vector's lanes)."""
            w = em.new_name("yw")
            with em.block(f"for {w} in range({width}):"):
                fn(w)

        def at(source, lo: str, unit: str, w) -> str:
            """The value of unit `lo + unit`, slot `w`: the body's, or a partials array's."""
            if source is not None:
                return f"rt.ld({source}, ({lo} + {unit}) * {width} + {w})"
            if rows:
                em.line(f"i{unit_dim} = {lo} + {unit}")
                em.line(f"i{unit_dim + 1} = {w}")
            else:
                em.line(f"i{unit_dim} = {lo} + ({unit}) * {lanes} + {w}")
            self._loaded, self._offsets = {}, {}
            body(self)
            return a.unit

        def add(x: str, w, v: str) -> None:  # `x += v` in the order of the sum's adds
            st(x, w, combine(a.reduce_kind, a.dtype, ld(x, w), v))

        def accumulate(clock: str) -> None:
            with em.block(f"if {clock} % {sum_order.TICK} == 0:"):
                each(lambda w: (add(acc1, w, ld(acc0, w)), st(acc0, w, zero)))
                with em.block(f"if {clock} % {sum_order.TICK * sum_order.TICK} == 0:"):
                    each(kahan)

        def kahan(w) -> None:  # acc1's slot into acc2's, compensated (YNNPACK's `kahan_sum`)
            y, t, e = em.new_name("yk"), em.new_name("yt"), em.new_name("ye")
            em.line(f"{y} = {ld(acc1, w)} - {ld(err, w)}")
            em.line(f"{t} = {ld(acc2, w)} + {y}")
            em.line(f"{e} = ({t} - {ld(acc2, w)}) - {y}")
            st(err, w, f"{e} if np.isfinite({e}) else {zero}")
            st(acc2, w, t)
            st(acc1, w, zero)

        def fours(source, lo: str, first: str, into: str, count: int) -> None:
            """`count` whole fours of units from `first`, each summed in order, summed in
            order, added into `into` (YNNPACK sums from 0: -0s summed are -0 here, +0 there,
            the same once added to the accumulator, which is never -0)."""

            def one(w) -> None:
                total = ""
                for q in range(count):
                    four = at(source, lo, f"{first} + {q * sum_order.FAN}", w)
                    for u in range(1, sum_order.FAN):
                        unit = at(source, lo, f"{first} + {q * sum_order.FAN + u}", w)
                        four = combine(a.reduce_kind, a.dtype, four, unit)
                    total = combine(a.reduce_kind, a.dtype, total, four) if total else four
                st(into, w, f"{ld(into, w)} + {total}")

            each(one)

        def partial(source, lo: str, first: str, count: str) -> None:
            """The last, partial four (`count` elements from unit `first`) into `acc0`."""
            each(lambda w: st(loc, w, zero))
            u = em.new_name("yu")
            step = 1 if rows else lanes
            with em.block(f"for {u} in range(({count} + {step - 1}) // {step}):"):
                w = em.new_name("yw")
                bound = width if rows else f"min({lanes}, {count} - {u} * {lanes})"
                with em.block(f"for {w} in range({bound}):"):
                    add(loc, w, at(source, lo, f"{first} + {u}", w))
            each(lambda w: add(acc0, w, ld(loc, w)))

        def tree(source, lo: str, count: str) -> None:
            """`count` units (rows, or elements of the run) from `lo` into `acc2`."""
            per_four = sum_order.FAN * (1 if rows else lanes)  # elements per four
            each(lambda w: [st(x, w, zero) for x in (acc0, acc1, acc2, err)])
            nf = em.assign("yf", f"({count}) // {per_four}")
            chunked = em.assign("yc", f"{nf} // {sum_order.FAN} * {sum_order.FAN}")
            clock = em.assign("yk", "0")
            c = em.new_name("yq")
            with em.block(f"for {c} in range({chunked} // {sum_order.FAN}):"):  # whole chunks
                fours(source, lo, f"{c} * {sum_order.FAN * sum_order.FAN}", acc1, sum_order.FAN)
                em.line(f"{clock} += {sum_order.FAN * tick}")
                with em.block(f"if {clock} % {sum_order.TICK * sum_order.TICK} == 0:"):
                    each(kahan)
            f = em.new_name("yq")
            with em.block(f"for {f} in range({chunked}, {nf}):"):  # the fours after them
                fours(source, lo, f"{f} * {sum_order.FAN}", acc0, 1)
                em.line(f"{clock} += {tick}")
                accumulate(clock)
            rest = em.assign("yr", f"({count}) - {nf} * {per_four}")
            with em.block(f"if {rest} > 0:"):
                partial(source, lo, f"{nf} * {sum_order.FAN}", rest)
            each(lambda w: (add(acc1, w, ld(acc0, w)), kahan(w)))  # the flush
            if not rows:  # the lanes by halves
                half = lanes // 2
                while half:
                    for w in range(half):
                        st(acc2, w, f"{ld(acc2, w)} + {ld(acc2, w + half)}")
                    half //= 2

        def result(w=0) -> str:
            return ld(acc2, w)

        def call() -> None:
            """One call of the kernel: the run or rows of this output, into the output."""
            if tiled:  # each tile's sum, then the tree of the sums
                k = em.assign("yn", "0")
                sg, t0 = em.new_name("ys"), em.new_name("yt")
                with (
                    em.block(f"for {sg} in range({total} // {segment}):"),
                    em.block(f"for {t0} in range(0, {segment}, {tile}):"),
                ):
                    tree(None, f"{sg} * {segment} + {t0}", f"min({tile}, {segment} - {t0})")
                    if rows:
                        each(lambda w: em.line(f"rt.st({parts}, {k} * {width} + {w}, {result(w)})"))
                    else:
                        em.line(f"rt.st({parts}, {k}, {result()})")
                    em.line(f"{k} += 1")
                tree(parts, "0", k)
            else:
                tree(None, "0", total)
            if rows:
                w = f"i{unit_dim + 1}"
                with em.block(f"for {w} in range({width}):"):
                    self._offsets = {}
                    off = self.offset(a)
                    em.line(f"rt.st({a.name}, {off}, rt.ld({a.name}, {off}) + {result(w)})")
            elif a.out_shape:
                self._offsets = {}
                off = self.offset(a)
                em.line(f"rt.st({a.name}, {off}, rt.ld({a.name}, {off}) + {result()})")
            else:
                em.line(f"{a.name} = {a.name} + {result()}")

        with contextlib.ExitStack() as stack:
            for d in range(unit_dim):
                stack.enter_context(em.block(f"for i{d} in range({self._dims[d]}):"))
            if not unit_dim:  # a loop around the call all the same: the lean back end's nest
                stack.enter_context(em.block(f"for {em.new_name('yo')} in range(1):"))
            call()

    def _named(self, prefix: str, n: int) -> int:
        """The size `n`, a variable assigned once if it is an expression of sizes."""
        return Size(int(n), self.em.assign(prefix, str(n))) if isinstance(n, Size) else n

    def _min_size(self) -> int:
        """The loop size from which threads pay: `PARALLEL_SIZE` for a loop that reads one
        array and writes one, proportionally less for loops that touch more arrays (an Adam
        update reads four and writes three)."""
        arrays = sum(a.kind != "load" or a.value.kind == "array" for a in self.accesses)
        return 2 * PARALLEL_SIZE // max(2, arrays)

    def _threaded(self, chunked: bool = False) -> bool:
        """Two threads pay for large loops (see `PARALLEL_SIZE`) that may run threaded
        (`_may_thread`)."""
        return (
            self._may_thread(chunked)
            and int(np.prod(self._dims, dtype=np.int64)) >= self._min_size()
        )

    def _may_thread(self, chunked: bool = False) -> bool:
        """Whether the loop would run threaded if it were large enough: the kernel may use
        threads, and its outer iterations write disjoint elements: every reduction keeps the
        outer loop dimension (a softmax's or layer norm's row statistics), so each iteration
        owns its accumulators, or the loop is `chunked`: each chunk folds into partial results
        of its own (`_emit_chunks`). Such a loop sets numba's chunk size (`_dynamic`) at any
        size, so that the kernel of a smaller batch, whose loop runs on one thread, is the
        threaded one's twin with `prange` replaced (`core.jit.program._serial`)."""
        return (
            self.parallel
            and threads.num_threads() > 1
            and (
                chunked
                or all(
                    any(0 in ax[1] for ax in a.imap) for a in self.accesses if a.kind == "reduce"
                )
            )
        )

    def _dynamic(self, iterations: str) -> str:
        """Emits the setting of numba's parallel chunk size to `iterations` (an expression) for
        the `prange` loop that follows (the threads then take chunks of that many iterations
        dynamically); returns the variable holding the previous one, for the line after it."""
        return self.em.assign("dyn", f"rt.dynamic({iterations})")

    def _emit_level(self, level: int, n: int, body, bounds: str = "", skip=()) -> None:
        """Loop `level` and the ones inside it; `bounds` replaces the outer loop's range (a
        chunk's), whose reductions in `skip` the chunk initializes and stores."""
        reds = [
            a for a in self.accesses if a.kind == "reduce" and a.level == level and a not in skip
        ]
        for a in reds:
            self.em.line(f"{a.acc} = {identity(a.reduce_kind, a.dtype)}")
        if level == n:
            self._loaded, self._offsets = {}, {}
            body(self)
        elif bounds:
            with self.em.block(f"for i{level} in range({bounds}):"):
                self._emit_level(level + 1, n, body)
        elif level == 0 and self._may_thread():
            inner = math.prod(self._dims[1:])
            per = self._min_size() // CHUNK_DIVISOR
            restore = self._dynamic(  # an empty inner axis: chunks of one outer index
                f"max(1, {per} // max(1, {inner}))"
                if isinstance(inner, Size)
                else str(max(1, per // max(1, inner)))
            )
            loop = "prange" if self._threaded() else "range"
            with self.em.block(f"for i{level} in {loop}({self._dims[level]}):"):
                self._emit_level(level + 1, n, body)
            self.em.line(f"rt.dynamic({restore})")
        else:
            with self.em.block(f"for i{level} in range({self._dims[level]}):"):
                self._emit_level(level + 1, n, body)
        for a in reds:
            if a.out_shape:
                self._offsets = {}
                self.em.line(f"rt.st({a.name}, {self.offset(a)}, {a.acc})")


def copy_into(
    em,
    dst: str,
    dst_shape,
    src: str,
    src_shape,
    *,
    counts=None,
    dst_starts=None,
    dst_steps=None,
    src_starts=None,
) -> None:
    """Emits `dst[dst_starts + dst_steps * i] = src[src_starts + i]` for every index `i` < counts.

    `dst` and `src` are C-contiguous arrays of one rank; `counts` defaults to `src_shape`, starts
    to 0 (ints or scalar expressions), steps to 1. Loops instead of a numba slice assignment:
    assigning an array into a slice makes numba compile its shape-mismatch error message (string
    formatting, about 3.5 s per process). Axes that both arrays cover whole merge into their
    outer neighbour, so a concatenation along axis d copies contiguous runs.
    """
    rank = len(dst_shape)
    counts = src_shape if counts is None else counts
    dst_starts = dst_starts or [0] * rank
    dst_steps = dst_steps or [1] * rank
    src_starts = src_starts or [0] * rank
    if any(c <= 0 for c in counts):
        return
    # per axis: [count, dst size, dst start, dst step, src size, src start]
    axes = [list(a) for a in zip(counts, dst_shape, dst_starts, dst_steps, src_shape, src_starts)]
    for d in reversed(range(1, len(axes))):
        cnt, dn, d0, st, sn, s0 = axes[d]
        outer = axes[d - 1]
        if (d0, st, s0) == (0, 1, 0) and cnt == dn == sn and outer[3] == 1:
            axes[d - 1] = [
                outer[0] * cnt,
                outer[1] * dn,
                _scaled(outer[2], dn),
                1,
                outer[4] * sn,
                _scaled(outer[5], sn),
            ]
            del axes[d]
    names = [em.new_name("k") for _ in axes]
    dst_terms, src_terms = [], []
    dst_stride = src_stride = 1
    for k, (_, dn, d0, st, sn, s0) in reversed(list(zip(names, axes))):
        dst_terms += [_scaled(d0, dst_stride), f"{k} * {st * dst_stride}"]
        src_terms += [_scaled(s0, src_stride), f"{k} * {src_stride}"]
        dst_stride *= dn
        src_stride *= sn
    with contextlib.ExitStack() as stack:
        for k, a in zip(names, axes):
            stack.enter_context(em.block(f"for {k} in range({a[0]}):"))
        em.line(f"rt.st({dst}, {_sum(dst_terms)}, rt.ld({src}, {_sum(src_terms)}))")


def linear(const: int, terms: dict[int, int]) -> str:
    """`const + sum(c * i<d>)` as source text."""
    parts = [f"i{d}" if c == 1 else f"i{d} * {c}" for d, c in sorted(terms.items()) if c]
    if const or not parts:
        parts.append(str(const))
    return " + ".join(parts)


def _sum(terms: list) -> str:
    """The sum of int and text terms, ints folded (`k1 * 1` shortened)."""
    const = sum(t for t in terms if isinstance(t, int))
    text = [t.removesuffix(" * 1") for t in terms if isinstance(t, str)]
    return " + ".join(text + ([str(const)] if const or not text else []))


def _scaled(start, factor: int):
    return start * factor if isinstance(start, int) else f"{start} * {factor}"
