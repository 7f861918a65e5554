"""Numba lowering rules of `core.prims.random_bits`."""

from __future__ import annotations

import numpy as np

from core.backends.numba.registry import Scalar, register_lowering
from core.backends.numba.source import const
from core.prims.random_bits import bitcast_convert_type_p, threefry2x32_p


def _threefry_lowering(ctx, k0, k1, x0, x1):
    y = ctx.tmp(f"rt.threefry2x32({k0}, {k1}, {x0}, {x1})")
    return [f"{y}[0]", f"{y}[1]"]


register_lowering(threefry2x32_p, Scalar(_threefry_lowering))


def _bitcast_lowering(ctx, x, *, new_dtype):
    dst = np.dtype(new_dtype)
    if ctx.dtype == np.bool_ or dst == np.bool_:
        return (
            f"({x} != 0)" if dst == np.bool_ else f"({const(1, dst)} if {x} else {const(0, dst)})"
        )
    return f"rt.bitcast({x}, {const(0, dst)})"


register_lowering(bitcast_convert_type_p, Scalar(_bitcast_lowering))
