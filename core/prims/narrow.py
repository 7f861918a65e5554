"""The compiler's bfloat16 primitives: `core/jit/narrow.py` writes them into the float32
programs it makes of bfloat16 ones; no user program binds them, so they are not in
`all_primitives` and have no differentiation or batching rules.

`round_bfloat16(x)`: float32 `x` rounded to the nearest bfloat16 number (ties to even, a NaN to
the quiet NaN of its sign), as float32. `rounded_sum(x)`: the sum over axis 0 of a 2-D float32
array of bfloat16 numbers, one row after the other, each addition rounded (XLA's bfloat16
reduction loop).

Numba lowering (`core/backends/numba/rules/narrow.py`): `round_bfloat16` is elementwise (integer
operations on the bits, fused into the value's loop), `rounded_sum` a loop nest.
"""

from __future__ import annotations

import numpy as np

from core import dtypes
from core.avals import ShapedArray
from core.primitive import CompilerPrimitive

_F32 = np.dtype(np.float32)


round_bfloat16_p = CompilerPrimitive("round_bfloat16")
round_bfloat16_p.def_abstract_eval(lambda x: x)


@round_bfloat16_p.def_impl
def _round_impl(x):
    with np.errstate(invalid="ignore"):  # NaNs round to NaN silently, as in the kernels
        return np.asarray(x, _F32).astype(dtypes.bfloat16).astype(_F32)


# `rounded_sum(x)`: the sum over axis 0 of a 2-D float32 array of bfloat16 numbers, one
# addition after the other, each rounded to bfloat16 (XLA's bfloat16 reduction loop)
rounded_sum_p = CompilerPrimitive("rounded_sum")
rounded_sum_p.def_abstract_eval(lambda x: ShapedArray(x.shape[1:], x.dtype))


@rounded_sum_p.def_impl
def _rounded_sum_impl(x):
    acc = np.zeros(x.shape[1:], _F32)
    for row in np.asarray(x, _F32):
        acc = _round_impl(acc + row)
    return acc
