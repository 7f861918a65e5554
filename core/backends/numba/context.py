"""What a numba lowering rule may do: the narrow contexts the code generator hands to rules.

A `Scalar` rule gets a `ScalarCtx` (dtypes, temporaries, typed constants). A `Kernel` rule gets a
`KernelCtx`: its equation's operands (as arrays, scalars or opaque values), statement emission
(lines, assignments, blocks, loops opened and closed by hand), fresh names, block copies, the
reduction vocabulary, inline generation of a sub-jaxpr (control flow) and calls back into
Python. Rules see nothing else of the generator (`core/jit/codegen.py`), so it can change how
it emits and schedules code without touching the rules.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from core.backends.numba.source import const
from core.jit import host_calls, loops
from core.jit.loops import Value

if TYPE_CHECKING:
    from core.ir import Eqn, Jaxpr
    from core.jit.codegen import Generator


class ScalarCtx:
    """What a `Scalar` rule knows: operand and result dtypes, and a way to name temporaries."""

    def __init__(self, in_dtypes, out_dtype, tmp: Callable[[str], str]):
        self.in_dtypes = list(in_dtypes)
        self.out_dtype = np.dtype(out_dtype)
        self.tmp = tmp

    @property
    def dtype(self) -> np.dtype:
        """The first operand's dtype (elementwise operands share it)."""
        return self.in_dtypes[0] if self.in_dtypes else self.out_dtype

    def const(self, value, dtype=None) -> str:
        """`value` as a typed constant of `dtype` (default: the first operand's dtype)."""
        return const(value, self.dtype if dtype is None else dtype)


class KernelCtx:
    """What a `Kernel` rule sees: its equation's operands and a way to emit statements.

    Operands are read as C-contiguous arrays (`array`, `fresh_array`, `array_layout`), scalar
    expressions (`scalar`), or opaque `Value`s (`operand`) that `emit_jaxpr`, `as_array` and
    `as_scalar` take. Every method that returns a str returns source text of the kernel.

    Sizes: `in_avals`/`out_avals` hold the concrete shapes, which decide the code's structure
    (ranks, which axes, whether one is 1). Every size-derived int the rule writes into the source
    (loop bounds, shapes of allocations and reshapes, strides, offsets' multipliers, block
    starts, chunk counts) comes from `in_shape`/`out_shape`/`size` and is computed with int
    arithmetic (`math.prod`, not `np.prod`): a `Size` that the kernel (of a split program, or a
    whole program compiled as one function) reads from its size argument, so one compiled
    kernel serves every batch size
    (`core/backends/numba/generic.py`). A plain int written into the source is a constant of it.
    """

    def __init__(self, gen: Generator, eqn: Eqn):
        self._gen = gen
        self._em = gen.em
        self.eqn = eqn
        self.in_avals = [x.aval for x in eqn.inputs]
        self.out_avals = [v.aval for v in eqn.outputs]
        self._in_shapes = [None] * len(self.in_avals)
        self._out_shapes = [None] * len(self.out_avals)

    # -- sizes

    def size(self, n: int, variable: bool = False) -> int:
        """The size-derived int `n` as the kernel's source should see it: a `Size` (a variable)
        in a shape-generic kernel, `n` itself in the constant-size reference (`codegen.generate`);
        0 and 1 stay literals unless `variable` (a size that another generation of the same
        source gives another value: `rows_whole`)."""
        return self._em.size(n, variable)

    def shape(self, shape) -> tuple[int, ...]:
        """Each size of `shape` through `size`."""
        return self._em.shape(shape)

    def in_shape(self, i: int) -> tuple[int, ...]:
        """The shape of input `i` as `size`s (the same ones on every call)."""
        if self._in_shapes[i] is None:
            self._in_shapes[i] = self.shape(self.in_avals[i].shape)
        return self._in_shapes[i]

    def out_shape(self, i: int) -> tuple[int, ...]:
        """The shape of output `i` as `size`s (the same ones on every call)."""
        if self._out_shapes[i] is None:
            self._out_shapes[i] = self.shape(self.out_avals[i].shape)
        return self._out_shapes[i]

    # -- operands

    def operand(self, i: int) -> Value:
        """Input `i` as the generator's value (a view or expression until it is read)."""
        return self._gen.read(self.eqn.inputs[i])

    def array(self, i: int) -> str:
        """Input `i` as a C-contiguous array (copied into one if it is a view)."""
        return self.as_array(self.operand(i))

    def array_layout(self, i: int) -> tuple[str, list[int]]:
        """Input `i` as `(name, axes)`: a C-contiguous array whose axis j is input axis axes[j].

        A transposed view of an array is returned as that array (no copy).
        """
        value = self.operand(i)
        perm = value.permutation()
        if perm is not None:
            return value.expr, perm
        return self.as_array(value), list(range(len(value.shape)))

    def fresh_array(self, i: int) -> str:
        """Input `i` as a new C-contiguous array that the rule may write into."""
        return self._gen.fresh(self.operand(i))

    def scalar(self, i: int) -> str:
        """0-d input `i` as a scalar expression."""
        return self.as_scalar(self.operand(i))

    def as_array(self, value: Value) -> str:
        """`value` as a C-contiguous array (a copy loop unless it already is one)."""
        return self._gen.materialize(value)

    def as_scalar(self, value: Value) -> str:
        """A 0-d (or size-1) `value` as a scalar expression."""
        return self._gen.scalar(value)

    @staticmethod
    def array_value(name: str, shape: tuple, dtype: Any) -> Value:
        """The array of `shape` and `dtype` held in the kernel variable `name`, as a `Value`
        (whose `compose` gives index-remapped views, e.g. a transposition `as_array` copies)."""
        return Value.array(name, shape, dtype)

    @staticmethod
    def named(name: str, aval: Any) -> Value:
        """The value of `aval` held in the kernel variable `name` (an array, or a scalar if 0-d)."""
        if aval.shape == ():
            return Value.scalar(name, aval.dtype)
        return Value.array(name, aval.shape, aval.dtype)

    @staticmethod
    def in_block(value: Value, slot: tuple) -> bool:
        """Whether `value` is the block `slot` = `(array, array_shape, starts)` of `emit_jaxpr`
        describes (a loop stored it there)."""
        array, shape, starts = slot
        return value == Value.block(array, shape, starts, value.shape, value.dtype)

    def emit_jaxpr(
        self, jaxpr: Jaxpr, args: Sequence[Value], out_slots: Sequence | None = None
    ) -> list[Value]:
        """Generates `jaxpr` inline on `args` (constvars first); returns its outputs' values.

        `out_slots[k]`, if given and not None, is `(array, array_shape, starts)`: a loop that
        computes output k stores it into that block of the array (`Value.block`; a start may be
        a `Size` naming a loop variable) instead of a new array, and the output's value is then
        that block."""
        return self._gen.emit_jaxpr(jaxpr, args, out_slots)

    # -- statements

    def new_name(self, prefix: str) -> str:
        """A fresh variable name starting with `prefix`."""
        return self._em.new_name(prefix)

    def line(self, text: str) -> None:
        """Emits one statement at the current indentation."""
        self._em.line(text)

    def assign(self, prefix: str, expr: str) -> str:
        """Emits `name = expr` with a fresh name; returns the name."""
        return self._em.assign(prefix, expr)

    def block(self, header: str) -> contextlib.AbstractContextManager[None]:
        """A `with` block: emits `header` and indents the statements emitted inside."""
        return self._em.block(header)

    def open(self, header: str) -> None:
        """Emits `header` and indents what follows until `close` (loops of computed depth)."""
        self._em.line(header)
        self._em.depth += 1

    def close(self, levels: int = 1) -> None:
        """Ends the innermost `levels` blocks opened with `open`."""
        self._em.depth -= levels

    @property
    def depth(self) -> int:
        """The current indentation level (to `close(ctx.depth - saved)` back to a saved one)."""
        return self._em.depth

    # -- threads

    @property
    def may_thread(self) -> bool:
        """Whether the rule may share its work between threads with a `prange` loop: the kernel
        may use threads, and the code is not inside a task of a `prange` loop already."""
        return self._gen.threads and not self._gen.in_task

    def rows_whole(self) -> bool:
        """Called by a scan that runs as chunks of rows (`rules/control_flow/scan.py`): whether
        it runs all its rows as one chunk in this generation of the kernel. `codegen` generates
        a kernel with such scans a second time so (the sizes it runs with on one thread)."""
        self._gen.row_splits += 1
        return self._gen.whole_rows

    @property
    def in_task(self) -> bool:
        """Whether the code runs inside a task of a `prange` loop (`task`): library calls that
        would share their work between threads are to run on the task's thread."""
        return self._gen.in_task

    @contextlib.contextmanager
    def task(self):
        """Generates the body of a `prange` loop, one task's work: loops in it stay serial."""
        saved = self._gen.parallel, self._gen.in_task
        self._gen.parallel, self._gen.in_task = False, True
        try:
            yield
        finally:
            self._gen.parallel, self._gen.in_task = saved

    # -- array building blocks

    def copy_into(self, dst: str, dst_shape, src: str, src_shape, **where) -> None:
        """Emits loops copying array `src` into array `dst` (`core.jit.loops.copy_into`: keyword
        `counts`, `dst_starts`, `dst_steps`, `src_starts`)."""
        if where.get("counts") is not None:
            where["counts"] = self.shape(where["counts"])
        loops.copy_into(self._em, dst, self.shape(dst_shape), src, self.shape(src_shape), **where)

    def store_value(self, value: Value, dst: str, dst_shape, dtype, starts) -> None:
        """Emits a loop nest storing `value` (read through its index map, never materialized)
        into the block of array `dst` (of `dst_shape` and `dtype`) that starts at `starts`."""
        nest = loops.LoopNest(self._em, value.shape, self._gen.parallel)
        src = nest.load(value)
        out = nest.store(dtype, into=(dst, dst_shape, starts))
        nest.emit(lambda n: n.write(out, n.read(src)))

    # -- Python

    def host_call(self, owner: object, fun: Callable, borrow: bool = False) -> list[str]:
        """Emits a call of the Python function `fun` from the kernel (a numba `objmode` block
        through `core.jit.host_calls`); returns the names of the outputs.

        Args:
          owner: the object `fun` stands for (the equation's callback parameter), which names it.
          fun: takes the list of input arrays, returns the list of output arrays.
          borrow: `fun` only reads its inputs while it runs (`host_calls.register`).

        Returns:
          One name per output of the equation.
        """
        key = host_calls.register(owner, fun, self.in_avals, self.out_avals, borrow)
        args = [
            self.scalar(i) if not aval.shape else self.array(i)
            for i, aval in enumerate(self.in_avals)
        ]
        call = f"hc.call({key!r}, {', '.join(args)})"
        if not self.out_avals:
            with self.block("with objmode():"):
                self.line(call)
            return []
        # One tuple leaves the block and its items are read after it: numba rejects annotations
        # of variables unused after the block, and outputs of callbacks may well be unused.
        types_ = ", ".join(_numba_type(a) for a in self.out_avals)
        result = self.new_name("h")
        with self.block(f'with objmode({result}="Tuple(({types_},))"):'):
            self.line(f"{result} = {call}")
        return [self.assign("h", f"{result}[{i}]") for i in range(len(self.out_avals))]


def _numba_type(aval) -> str:
    """The numba type of a kernel value of `aval`, as `objmode` takes it (a string)."""
    name = "boolean" if aval.dtype == np.bool_ else np.dtype(aval.dtype).name
    if not aval.shape:
        return name
    return f"{name}[{', '.join([':'] * (len(aval.shape) - 1) + ['::1'])}]"
