"""The calls of `test_conv_local.py`, for JAX and numbax: `run(jax, lax)` returns the outputs
of `lax.conv_general_dilated_local` in two layouts (strides, explicit padding, rhs dilation),
its gradient in the filters and its jitted output."""

from __future__ import annotations

from typing import Any

import numpy as np


def run(jax: Any, lax: Any) -> dict[str, np.ndarray]:
    rng = np.random.RandomState(0)
    x = rng.randn(2, 3, 6, 5).astype(np.float32)
    w = rng.randn(4, 3 * 2 * 3, 6, 5).astype(np.float32)  # OIHW, spatial = the output's

    def conv(x, w):
        return lax.conv_general_dilated_local(x, w, (1, 1), "SAME", (2, 3))

    xh = np.moveaxis(x, 1, -1)
    wh = rng.randn(3, 4, 3 * 3 * 2, 4).astype(np.float32)
    nhwc = lax.conv_general_dilated_local(
        xh,
        wh,
        (2, 1),
        ((1, 0), (0, 1)),
        (3, 2),
        rhs_dilation=(1, 2),
        dimension_numbers=("NHWC", "HWIO", "NHWC"),
    )
    return {
        "nchw": np.asarray(conv(x, w)),
        "nhwc": np.asarray(nhwc),
        "grad": np.asarray(jax.grad(lambda w: conv(x, w).sum())(w)),
        "jit": np.asarray(jax.jit(conv)(x, w)),
    }
