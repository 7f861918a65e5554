"""The calls of `test_ragged_dot_general.py`, for JAX and numbax: `run(jax, lax)` returns
`lax.ragged_dot_general` in its three modes (ragged non-contracting, contracting and batch
dimension, with batch dimensions and per-batch group sizes), a gradient and a jitted call."""

from __future__ import annotations

from typing import Any

import numpy as np


def run(jax: Any, lax: Any) -> dict[str, np.ndarray]:
    rng = np.random.RandomState(0)
    f32 = np.float32
    gs = np.array([2, 0, 3], np.int32)  # 5 of 6 rows/columns: the last is in no group
    dn = lax.RaggedDotDimensionNumbers
    out = {}
    lhs, rhs = rng.randn(6, 4).astype(f32), rng.randn(3, 4, 5).astype(f32)
    basic = dn((([1], [1]), ([], [])), [0], [0])
    out["noncontracting"] = lax.ragged_dot_general(lhs, rhs, gs, basic)
    lhs_b = rng.randn(2, 6, 4).astype(f32)
    rhs_b = rng.randn(3, 2, 4, 5).astype(f32)
    gs_b = np.array([[1, 2, 3], [3, 3, 0]], np.int32)
    batched = dn((([2], [2]), ([0], [1])), [1], [0])
    out["noncontracting_batched"] = lax.ragged_dot_general(lhs_b, rhs_b, gs_b, batched)
    lhs_c, rhs_c = rng.randn(4, 6).astype(f32), rng.randn(6, 5).astype(f32)
    contracting = dn((([1], [0]), ([], [])), [1], [])
    out["contracting"] = lax.ragged_dot_general(lhs_c, rhs_c, gs, contracting)
    lhs_bb, rhs_bb = rng.randn(6, 3, 4).astype(f32), rng.randn(6, 4, 2).astype(f32)
    batch = dn((([2], [1]), ([0], [0])), [0], [])
    out["batch"] = lax.ragged_dot_general(lhs_bb, rhs_bb, gs, batch)
    out["grad"] = jax.grad(lambda r: lax.ragged_dot_general(lhs, r, gs, basic).sum())(rhs)
    out["jit"] = jax.jit(lambda a, c: lax.ragged_dot_general(a, c, gs, contracting))(lhs_c, rhs_c)
    return {k: np.asarray(v) for k, v in out.items()}
