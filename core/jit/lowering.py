"""The kinds of numba lowering rule a primitive can have, and the helpers rules use.

The rules themselves sit beside each primitive's other rules in `core/prims/`; this module and
`core/jit/loops.py` import nothing of numba, so `import core` does not start it.

`prim.lowering` holds one of:

  Scalar(fn)      elementwise: `fn(ctx, *args, **params) -> str` (a list of str for several
                  outputs), a scalar expression over the argument expressions (names or
                  constants); the code generator fuses these into loops. `ctx` is a
                  `ScalarCtx`. `exact=False` if a float or bool result may come out wider than
                  the output dtype (integer results narrower than 64 bits are always cast).
  View(fn)        movement (broadcast_in_dim, transpose, slice, reshape of size-1 axes):
                  `fn(in_shape, **params) -> IndexMap` saying which operand element each output
                  element reads; it costs nothing until a loop reads through it.
  Reduce(kind)    `reduce_*` over `axes`: an accumulation fused into its producer's loop.
  Kernel(fn)      anything else: `fn(ctx, eqn) -> list[str]` emits statements (a `KernelCtx`)
                  and returns one expression per output: a C-contiguous array of the output's
                  shape and dtype, or a scalar for 0-d outputs.

An `IndexMap` lists, for each operand axis, `(start, ((out_axis, coefficient), ...))`: operand
index = start + sum(coefficient * out_index[out_axis]).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

IndexMap = tuple[tuple[int, tuple[tuple[int, int], ...]], ...]


@dataclass(frozen=True)
class Scalar:
    fn: Callable
    exact: bool = True


@dataclass(frozen=True)
class View:
    fn: Callable


@dataclass(frozen=True)
class Reduce:
    kind: str  # sum, prod, max, min, and, or


@dataclass(frozen=True)
class Kernel:
    fn: Callable


def np_type(dtype: np.dtype) -> str:
    """The numpy scalar type of `dtype` as an expression of the generated module."""
    dtype = np.dtype(dtype)
    return "np.bool_" if dtype == np.bool_ else f"np.{dtype.name}"


def const(value, dtype: np.dtype) -> str:
    """A constant of `dtype` (typed, so float32 loops stay float32) as source text.

    Numbers become module globals named by dtype and bits (`c_f4_3f000000`), which numba
    freezes into the machine code; `constant_definitions` writes their definitions.
    """
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return "True" if bool(value) else "False"
    bits = np.asarray(value).astype(dtype).reshape(1).view(f"u{dtype.itemsize}")[0]
    return f"c_{dtype.str[1:]}_{int(bits):x}"


_CONST = re.compile(r"\bc_([a-z]\d+)_([0-9a-f]+)\b")


def constant_definitions(source: str) -> list[str]:
    """`name = np.<type>(<value>)` for every constant `const` named in `source`."""
    lines = []
    for name in sorted({m.group(0) for m in _CONST.finditer(source)}):
        _, code, bits = name.split("_")
        dtype = np.dtype(code)
        value = np.asarray(int(bits, 16), f"u{dtype.itemsize}").view(dtype).item()
        if dtype.kind == "f":
            text = _float_text(value)
        elif dtype.kind == "c":
            text = f"complex({_float_text(value.real)}, {_float_text(value.imag)})"
        else:
            text = repr(value)
        lines.append(f"{name} = {np_type(dtype)}({text})")
    return lines


def _float_text(value: float) -> str:
    if np.isfinite(value):
        return repr(value)
    return "np.nan" if np.isnan(value) else ("-np.inf" if value < 0 else "np.inf")


def alloc(shape, dtype: np.dtype, fill: str | None = None) -> str:
    """A new C-contiguous array of `shape` (filled with the expression `fill`, if given), made
    by the `rt.empty`/`rt.full` intrinsics (numba's `np.empty` compiles a helper per signature).
    """
    dims = _shape(shape)
    t = np_type(dtype)
    return f"rt.empty({dims}, {t})" if fill is None else f"rt.full({dims}, {fill}, {t})"


def reshape(expr: str, shape) -> str:
    """C-contiguous array `expr` seen with `shape` (same size), by the `rt.reshape` intrinsic."""
    return f"rt.reshape({expr}, {_shape(shape)})"


def flat_offset(index: list[str], shape) -> str:
    """The row-major flat offset of the element at `index` (expressions) of an array of `shape`."""
    expr = "0"
    for i, n in zip(index, shape):
        expr = f"({expr}) * {n} + {i}"
    return expr


def _shape(shape) -> str:
    return repr(tuple(int(n) for n in shape))


def cast(expr: str, dtype: np.dtype) -> str:
    """`expr` converted to `dtype` (numba widens small ints to 64 bits in arithmetic)."""
    return f"{np_type(dtype)}({expr})"


def result(expr: str, dtype: np.dtype, exact: bool = True) -> str:
    """`expr`, cast to `dtype` unless numba already computes it in that type."""
    dtype = np.dtype(dtype)
    if exact and (dtype.kind in "fcb" or dtype.itemsize == 8):
        return expr
    return cast(expr, dtype)


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
        return const(value, self.dtype if dtype is None else dtype)


def _numba_type(aval) -> str:
    """The numba type of a kernel value of `aval`, as `objmode` takes it (a string)."""
    name = "boolean" if aval.dtype == np.bool_ else np.dtype(aval.dtype).name
    if not aval.shape:
        return name
    return f"{name}[{', '.join([':'] * (len(aval.shape) - 1) + ['::1'])}]"


def host_call(ctx, owner: object, fun: Callable) -> list[str]:
    """Statements calling the Python function `fun` from the kernel (a numba `objmode` block
    through `core.jit.host_calls`), for the equation of `ctx`; returns the output names.

    Args:
      ctx: the rule's `KernelCtx`.
      owner: the object `fun` stands for (the equation's callback parameter), which names it.
      fun: takes the list of input arrays, returns the list of output arrays.
    """
    from core.jit import host_calls

    key = host_calls.register(owner, fun, ctx.in_avals, ctx.out_avals)
    args = [
        ctx.scalar(i) if not aval.shape else ctx.array(i) for i, aval in enumerate(ctx.in_avals)
    ]
    call = f"hc.call({key!r}, {', '.join(args)})"
    if not ctx.out_avals:
        with ctx.block("with objmode():"):
            ctx.line(call)
        return []
    # One tuple leaves the block and its items are read after it: numba rejects annotations
    # of variables unused after the block, and outputs of callbacks may well be unused.
    types_ = ", ".join(_numba_type(a) for a in ctx.out_avals)
    result = ctx.gen.em.new_name("h")
    with ctx.block(f'with objmode({result}="Tuple(({types_},))"):'):
        ctx.line(f"{result} = {call}")
    return [ctx.assign("h", f"{result}[{i}]") for i in range(len(ctx.out_avals))]
