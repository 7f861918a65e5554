"""The compiler's narrow-float primitives: `core/jit/narrow.py` writes them into the float32
programs it makes of bfloat16 and float16 ones; no user program binds them, so they are not in
`all_primitives` and have no differentiation rules. They have batching rules: the compiler's
scan motion (`core/jit/scan_motion.py`) vectorizes the body of a widened scan over its
iterations.

`round_bfloat16(x)`, `round_float16(x)`: float32 `x` rounded to the nearest bfloat16 or float16
number (ties to even; float16 overflows to infinity and keeps subnormal numbers; a NaN becomes
the quiet NaN of its sign), as float32. `rounded_reduce(x, dtype, op)`: the sum (`op="add"`)
or product (`"mul"`) over axis 0 of a 2-D float32 array of `dtype` numbers, from 0 or 1, one
row after the other, each step rounded (XLA's 16-bit reduction loop).

Numba lowering (`core/backends/numba/rules/narrow.py`): the roundings are elementwise (integer
operations on the bits, fused into the value's loop), `rounded_reduce` a loop nest.
"""

from __future__ import annotations

import numpy as np

from core import dtypes
from core.ad_util import ops
from core.avals import ShapedArray
from core.interpreters import batching
from core.primitive import CompilerPrimitive
from core.trace import get_aval

_F32 = np.dtype(np.float32)


def _rounding(dtype: np.dtype) -> CompilerPrimitive:
    prim = CompilerPrimitive(f"round_{dtype.name}", elementwise=True)
    prim.def_abstract_eval(lambda x: x)

    @prim.def_impl
    def impl(x):
        # NaNs round to NaN and overflows to infinity silently, as in the kernels
        with np.errstate(invalid="ignore", over="ignore"):
            return np.asarray(x, _F32).astype(dtype).astype(_F32)

    batching.defvectorized(prim)
    return prim


round_bfloat16_p = _rounding(dtypes.bfloat16)
round_float16_p = _rounding(dtypes.float16)
ROUNDING = {dtypes.bfloat16: round_bfloat16_p, dtypes.float16: round_float16_p}

# `rounded_reduce(x, dtype, op)`: the sum or product over axis 0 of a 2-D float32 array of
# `dtype` numbers, from the operation's identity, one step after the other, each rounded to
# `dtype` (XLA's 16-bit reduction loop)
rounded_reduce_p = CompilerPrimitive("rounded_reduce")
rounded_reduce_p.def_abstract_eval(lambda x, *, dtype, op: ShapedArray(x.shape[1:], x.dtype))
IDENTITY = {"add": 0.0, "mul": 1.0}


@rounded_reduce_p.def_impl
def _rounded_reduce_impl(x, *, dtype, op):
    acc = np.full(x.shape[1:], IDENTITY[op], _F32)
    step = np.add if op == "add" else np.multiply
    for row in np.asarray(x, _F32):
        acc = ROUNDING[np.dtype(dtype)].impl(step(acc, row))
    return acc


@rounded_reduce_p.def_batch
def _rounded_reduce_batch(args, dims, *, dtype, op):
    """The batch axis beside the columns (the rows are still reduced one after the other)."""
    (x,), (dim,) = args, dims
    moved = batching.moveaxis(x, dim, 1, get_aval(x).shape[dim])
    rows, size, columns = get_aval(moved).shape
    out = rounded_reduce_p.bind(ops.reshape(moved, (rows, size * columns)), dtype=dtype, op=op)
    return ops.reshape(out, (size, columns)), 0
