"""Numba lowering rules of `core.prims.rev`."""

from __future__ import annotations

from core.backends.numba.registry import View, register_lowering
from core.prims.rev import rev_p


def _rev_lowering(in_shape, out_shape, *, dimensions):
    return tuple(
        (n - 1, ((k, -1),)) if k in dimensions else (0, ((k, 1),)) for k, n in enumerate(in_shape)
    )


register_lowering(rev_p, View(_rev_lowering))
