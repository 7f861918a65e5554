"""Loop nests over one shape: index arithmetic, dimension coalescing, loads, stores, reductions.

A `LoopNest` collects accesses (arrays read through index maps, new arrays written, reduction
outputs), then merges adjacent loop dimensions that every access walks contiguously (so a
fully elementwise group becomes one flat loop, and a bias broadcast keeps an inner loop over
the bias), drops size-1 dimensions, reshapes the arrays to match (free for C-contiguous
arrays) and emits the nest. A reduction whose reduced dimensions are the innermost ones keeps
its accumulator in a register; float sums use `vm.radd` so they vectorize. Large loops without
reductions run on two threads (`prange`) when the kernel makes no BLAS calls.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from core.jit.lowering import alloc, cast, const

# Loops at least this large run on numba's thread pool (`prange`), in kernels without BLAS calls
# only: OpenMP threads next to BLAS threads oversubscribe the cores (numba-notes.md). Measured:
# selu on 1e6 floats 266 us on one thread, 138 us on two. NUMBAX_JIT_THREADS=0 turns it off.
PARALLEL_SIZE = 1 << 17 if os.environ.get("NUMBAX_JIT_THREADS", "1") != "0" else 1 << 62

_IDENTITY = {
    "sum": 0,
    "prod": 1,
    "and": True,
    "or": False,
}


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

    @staticmethod
    def view_of(name: str, base_shape, shape, dtype) -> Value:
        """Array `name` of `base_shape` seen as `shape` (same elements, size-1 axes differ)."""
        dims = iter(d for d, n in enumerate(shape) if n != 1)
        imap = tuple((0, ()) if n == 1 else (0, ((next(dims), 1),)) for n in base_shape)
        return Value("array", name, tuple(base_shape), imap, tuple(shape), np.dtype(dtype))

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


def identity(kind: str, dtype: np.dtype) -> str:
    dtype = np.dtype(dtype)
    if kind in _IDENTITY:
        return const(_IDENTITY[kind], dtype)
    low = kind == "max"
    if dtype == np.bool_:
        return const(not low, dtype)
    if dtype.kind == "f":
        return const(-np.inf if low else np.inf, dtype)
    info = np.iinfo(dtype)
    return const(info.min if low else info.max, dtype)


def combine(kind: str, dtype: np.dtype, acc: str, x: str) -> str:
    dtype = np.dtype(dtype)
    fl = dtype.kind == "f"
    if kind == "sum":
        return f"vm.radd({acc}, {x})" if fl else cast(f"{acc} + {x}", dtype)
    if kind == "prod":
        return f"vm.rmul({acc}, {x})" if fl else cast(f"{acc} * {x}", dtype)
    if kind == "and" or (dtype == np.bool_ and kind == "min"):
        return f"({acc} & {x})"
    if kind == "or" or (dtype == np.bool_ and kind == "max"):
        return f"({acc} | {x})"
    if fl:
        return f"vm.{'maximum' if kind == 'max' else 'minimum'}({acc}, {x})"
    return f"({x} if {x} {'>' if kind == 'max' else '<'} {acc} else {acc})"


@dataclass
class _Access:
    kind: str  # load, store, reduce
    value: Value | None
    base_shape: list[int]
    imap: list[list]  # [start, {loop_dim: coef}] per base axis
    dtype: np.dtype
    name: str = ""  # the (reshaped) array the loop indexes
    reduce_kind: str = ""
    result: Value | None = None
    acc: str = ""
    level: int = -1  # loop level of a register accumulator (-1: accumulate in memory)
    out_shape: tuple = ()
    extra: dict = field(default_factory=dict)


class LoopNest:
    """One loop nest over `shape`; see the module docstring."""

    def __init__(self, em, shape: tuple[int, ...], parallel: bool = False):
        self.em = em
        self.shape = tuple(shape)
        self.parallel = parallel
        self.accesses: list[_Access] = []
        self._dims: list[int] = []
        self._loaded: dict[int, str] = {}

    def load(self, value: Value) -> _Access:
        """Reads `value` (of the loop's shape) in the body; scalars need no access."""
        imap = [[s, dict(t)] for s, t in value.imap]
        a = _Access("load", value, list(value.base_shape), imap, value.dtype)
        self.accesses.append(a)
        return a

    def store(self, dtype) -> _Access:
        """A new array of the loop's shape, written in the body."""
        imap = [[0, {d: 1}] for d in range(len(self.shape))]
        a = _Access("store", None, list(self.shape), imap, np.dtype(dtype))
        self.accesses.append(a)
        return a

    def reduce(self, kind: str, dtype, axes: tuple[int, ...]) -> _Access:
        """A reduction over loop `axes`; its result has the remaining dimensions."""
        kept = [d for d in range(len(self.shape)) if d not in axes]
        imap = [[0, {d: 1}] for d in kept]
        a = _Access("reduce", None, [self.shape[d] for d in kept], imap, np.dtype(dtype))
        a.reduce_kind = kind
        a.out_shape = tuple(self.shape[d] for d in kept)
        self.accesses.append(a)
        return a

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
        if not uses:
            return True
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

    def index(self, a: _Access) -> str:
        parts = []
        for start, terms in a.imap:
            ts = [f"i{d}" if c == 1 else f"{c} * i{d}" for d, c in sorted(terms.items())]
            if start or not ts:
                ts.append(str(start))
            parts.append(" + ".join(ts))
        return ", ".join(parts) if parts else "0"

    def read(self, a: _Access) -> str:
        """The value of load access `a` at the current iteration (emitted once per body)."""
        v = a.value
        if v.kind == "scalar":
            return v.expr
        if id(a) not in self._loaded:
            if v.kind == "iota":
                ((start, terms),) = a.imap
                expr = " + ".join(
                    [f"i{d}" if c == 1 else f"{c} * i{d}" for d, c in terms.items()]
                    + ([str(start)] if start or not terms else [])
                )
                expr = cast(expr, v.dtype)
            else:
                expr = f"{a.name}[{self.index(a)}]"
            self._loaded[id(a)] = self.em.assign("t", expr)
        return self._loaded[id(a)]

    def write(self, a: _Access, expr: str) -> None:
        if a.kind == "store":
            self.em.line(f"{a.name}[{self.index(a)}] = {expr}")
        elif a.level >= 0:
            self.em.line(f"{a.acc} = {combine(a.reduce_kind, a.dtype, a.acc, expr)}")
        else:
            ref = f"{a.name}[{self.index(a)}]"
            self.em.line(f"{ref} = {combine(a.reduce_kind, a.dtype, ref, expr)}")

    def emit(self, body: Callable[[LoopNest], None]) -> None:
        """Coalesces, emits the prelude, the loops with `body(self)` inside, and the results."""
        self._coalesce()
        n = len(self._dims)
        for a in self.accesses:
            shape = tuple(a.base_shape) or (1,)
            if not a.base_shape:
                a.imap = [[0, {}]]
            if a.kind == "load" and a.value.kind == "array":
                same = shape == a.value.base_shape
                a.name = (
                    a.value.expr
                    if same
                    else self.em.assign("r", f"{a.value.expr}.reshape({shape})")
                )
            elif a.kind == "store":
                a.name = self.em.assign("o", alloc(shape, a.dtype))
            elif a.kind == "reduce":
                used = sorted({d for ax in a.imap for d in ax[1]})
                if used == list(range(len(used))):
                    a.level = len(used)
                if a.out_shape:
                    fill = None if a.level >= 0 else identity(a.reduce_kind, a.dtype)
                    a.name = self.em.assign("o", alloc(shape, a.dtype, fill))
                a.acc = self.em.new_name("acc")
        self._emit_level(0, n, body)
        for a in self.accesses:
            if a.kind == "store" or (a.kind == "reduce" and a.out_shape):
                shape = self.shape if a.kind == "store" else a.out_shape
                base = tuple(a.base_shape) or (1,)
                if [n for n in base if n != 1] == [n for n in shape if n != 1]:
                    a.result = Value.view_of(a.name, base, shape, a.dtype)
                else:
                    a.result = Value.array(
                        self.em.assign("v", f"{a.name}.reshape({shape})"), shape, a.dtype
                    )
            elif a.kind == "reduce":
                a.result = Value.scalar(a.acc, a.dtype)

    def _threaded(self) -> bool:
        """Two threads pay for large loops without reductions (see `PARALLEL_SIZE`)."""
        return (
            self.parallel
            and int(np.prod(self._dims, dtype=np.int64)) >= PARALLEL_SIZE
            and not any(a.kind == "reduce" for a in self.accesses)
        )

    def _emit_level(self, level: int, n: int, body) -> None:
        reds = [a for a in self.accesses if a.kind == "reduce" and a.level == level]
        for a in reds:
            self.em.line(f"{a.acc} = {identity(a.reduce_kind, a.dtype)}")
        if level == n:
            self._loaded = {}
            body(self)
        else:
            loop = "prange" if level == 0 and self._threaded() else "range"
            with self.em.block(f"for i{level} in {loop}({self._dims[level]}):"):
                self._emit_level(level + 1, n, body)
        for a in reds:
            if a.out_shape:
                self.em.line(f"{a.name}[{self.index(a)}] = {a.acc}")
