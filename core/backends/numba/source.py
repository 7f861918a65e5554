"""Source-text helpers of the numba back end: the vocabulary rules and the code generator share.

Each returns a piece of the generated module's source (an expression) and emits nothing:
typed constants (`const`, frozen into the machine code), casts, allocations by the runtime's
intrinsics (`alloc`, `reshape`), flat offsets. Shapes and sizes may be `Size`s, written as the
variables of a shape-generic kernel (`generic.py`). Rules emit statements through their
`KernelCtx` (`core/backends/numba/context.py`).
"""

from __future__ import annotations

import functools
import re

import numpy as np

from core.backends.numba.generic import Size


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
    # the bytes as one little-endian integer: a complex128 has no 16-byte unsigned view
    bits = int.from_bytes(np.asarray(value).astype(dtype).tobytes(), "little")
    return f"c_{dtype.str[1:]}_{bits:x}"


_CONST = re.compile(r"\bc_([a-z]\d+)_([0-9a-f]+)\b")


def constant_definitions(source: str) -> list[str]:
    """`name = np.<type>(<value>)` for every constant `const` named in `source`."""
    return [_definition(name) for name in sorted({m.group(0) for m in _CONST.finditer(source)})]


@functools.lru_cache(maxsize=4096)
def _definition(name: str) -> str:
    """The definition of constant `name` (`c_<dtype code>_<hex bits>`): kernels of a program
    share most of theirs (decoding one through numpy costs about 10 us)."""
    _, code, bits = name.split("_")
    dtype = np.dtype(code)
    value = np.frombuffer(int(bits, 16).to_bytes(dtype.itemsize, "little"), dtype)[0].item()
    if dtype.kind == "f":
        text = _float_text(value)
    elif dtype.kind == "c":
        text = f"complex({_float_text(value.real)}, {_float_text(value.imag)})"
    else:
        text = repr(value)
    return f"{name} = {np_type(dtype)}({text})"


def _float_text(value: float) -> str:
    if np.isfinite(value):
        return repr(value)
    return "np.nan" if np.isnan(value) else ("-np.inf" if value < 0 else "np.inf")


def alloc(shape, dtype: np.dtype, fill: str | None = None) -> str:
    """A new C-contiguous array of `shape` (filled with the expression `fill`, if given), made
    by the `rt.empty`/`rt.full` intrinsics (numba's `np.empty` compiles a helper per signature).
    """
    dims = shape_text(shape)
    t = np_type(dtype)
    return f"rt.empty({dims}, {t})" if fill is None else f"rt.full({dims}, {fill}, {t})"


def reshape(expr: str, shape) -> str:
    """C-contiguous array `expr` seen with `shape` (same size), by the `rt.reshape` intrinsic."""
    return f"rt.reshape({expr}, {shape_text(shape)})"


def flat_offset(index: list[str], shape) -> str:
    """The row-major flat offset of the element at `index` (expressions) of an array of `shape`."""
    expr = "0"
    for i, n in zip(index, shape):
        expr = f"({expr}) * {n} + {i}"
    return expr


def shape_text(shape) -> str:
    """A shape as a tuple expression (`Size`s as their source text)."""
    dims = [str(n) if isinstance(n, Size) else str(int(n)) for n in shape]
    return f"({dims[0]},)" if len(dims) == 1 else f"({', '.join(dims)})"


def cast(expr: str, dtype: np.dtype) -> str:
    """`expr` converted to `dtype` (numba widens small ints to 64 bits in arithmetic)."""
    return f"{np_type(dtype)}({expr})"


def result(expr: str, dtype: np.dtype, exact: bool = True) -> str:
    """`expr`, cast to `dtype` unless numba already computes it in that type."""
    dtype = np.dtype(dtype)
    if exact and (dtype.kind in "fcb" or dtype.itemsize == 8):
        return expr
    return cast(expr, dtype)


_IDENTITY = {
    "sum": 0,
    "sum_windows": 0,
    "sum_ynn": 0,
    "prod": 1,
    "and": True,
    "or": False,
}


def identity(kind: str, dtype: np.dtype) -> str:
    """The identity of the reduction `kind` (sum, prod, max, min, and, or) as a constant."""
    dtype = np.dtype(dtype)
    if kind in _IDENTITY:
        return const(_IDENTITY[kind], dtype)
    low = kind == "max"
    if dtype == np.bool_:
        return const(not low, dtype)
    if dtype.kind in "fc":  # complex: -inf + 0j or inf + 0j, as XLA's
        return const(-np.inf if low else np.inf, dtype)
    info = np.iinfo(dtype)
    return const(info.min if low else info.max, dtype)


def combine(kind: str, dtype: np.dtype, acc: str, x: str) -> str:
    """The expression folding `x` into the accumulator `acc` by the reduction `kind`."""
    dtype = np.dtype(dtype)
    fl = dtype.kind == "f"
    if kind == "sum":
        return f"vm.radd({acc}, {x})" if fl else cast(f"{acc} + {x}", dtype)
    if kind in ("sum_windows", "sum_ynn"):  # in the loops' order, no product fused in
        return f"vm.sadd({acc}, {x})" if fl else cast(f"{acc} + {x}", dtype)
    if kind == "prod":
        return f"vm.rmul({acc}, {x})" if fl else cast(f"{acc} * {x}", dtype)
    if kind == "and" or (dtype == np.bool_ and kind == "min"):
        return f"({acc} & {x})"
    if kind == "or" or (dtype == np.bool_ and kind == "max"):
        return f"({acc} | {x})"
    if fl:
        return f"vm.{'maximum' if kind == 'max' else 'minimum'}({acc}, {x})"
    op = ">" if kind == "max" else "<"
    if dtype.kind == "c":  # XLA's fold: the accumulator if it orders first (lexicographically)
        first = (
            f"({acc}.real {op} {x}.real) | (({acc}.real == {x}.real) & ({acc}.imag {op} {x}.imag))"
        )
        return f"({acc} if {first} else {x})"
    return f"({x} if {x} {op} {acc} else {acc})"
