"""Numba lowering rules of `core.prims.shapes`."""

from __future__ import annotations

import numpy as np

from core.backends.numba.registry import Scalar, View, register_lowering
from core.backends.numba.source import const
from core.prims.shapes import (
    broadcast_in_dim_p,
    convert_element_type_p,
    iota_p,
    reshape_p,
    squeeze_p,
    transpose_p,
)


def _broadcast_in_dim_lowering(in_shape, out_shape, *, shape, broadcast_dimensions):
    return tuple(
        (0, ()) if in_shape[k] == 1 and shape[d] != 1 else (0, ((d, 1),))
        for k, d in enumerate(broadcast_dimensions)
    )


register_lowering(broadcast_in_dim_p, View(_broadcast_in_dim_lowering))


def _reshape_lowering(in_shape, out_shape, *, new_sizes):
    """Index arithmetic when only size-1 axes change; None otherwise."""
    big_in = [k for k, n in enumerate(in_shape) if n != 1]
    big_out = [d for d, n in enumerate(out_shape) if n != 1]
    if [in_shape[k] for k in big_in] != [out_shape[d] for d in big_out]:
        return None
    to_out = dict(zip(big_in, big_out))
    return tuple((0, ((to_out[k], 1),)) if k in to_out else (0, ()) for k in range(len(in_shape)))


register_lowering(reshape_p, View(_reshape_lowering))


def _squeeze_lowering(in_shape, out_shape, *, dimensions):
    """Index arithmetic, as a reshape that drops size-1 axes."""
    kept = [k for k in range(len(in_shape)) if k not in dimensions]
    to_out = {k: d for d, k in enumerate(kept)}
    return tuple((0, ((to_out[k], 1),)) if k in to_out else (0, ()) for k in range(len(in_shape)))


register_lowering(squeeze_p, View(_squeeze_lowering))


def _transpose_lowering(in_shape, out_shape, *, permutation):
    return tuple((0, ((permutation.index(k), 1),)) for k in range(len(in_shape)))


register_lowering(transpose_p, View(_transpose_lowering))


def _convert_lowering(ctx, x, *, new_dtype, weak_type):
    src, dst = ctx.dtype, np.dtype(new_dtype)
    if src == dst:
        return x
    if dst == np.bool_:
        return f"({x} != {ctx.const(0)})"
    if src == np.bool_:
        return f"rt.where({x}, {const(1, dst)}, {const(0, dst)})"
    if src.kind == "c" and dst.kind != "c":  # the real part, then as from its float dtype
        x, src = f"{x}.real", np.dtype(f"f{src.itemsize // 2}")
    if src.kind == "f" and dst.kind in "iu":  # saturate, NaN -> 0 (like the numpy impl)
        # every branch of the integer type: numba unifies an int64 and a float branch as
        # float64, and float64(int64 max) is 2**63, which the store wrapped to the minimum
        info = np.iinfo(dst)
        lo, hi = const(float(info.min), src), const(float(info.max) + 1, src)
        return (
            f"({const(info.min, dst)} if {x} <= {lo} else ({const(info.max, dst)} if {x} >= {hi} "
            f"else ({const(0, dst)} if {x} != {x} else np.{dst.name}({x}))))"
        )
    return x


register_lowering(convert_element_type_p, Scalar(_convert_lowering, exact=False))


def _iota_lowering(in_shape, out_shape, *, dtype, shape, dimension):
    return ((0, ((dimension, 1),)),)


register_lowering(iota_p, View(_iota_lowering))
