"""`core.nn.scaled_matmul`, like `jax.nn.scaled_matmul`: a block-scaled batched matmul.

JAX 0.10.2 runs it only through cuDNN (on CPU it raises `NotImplementedError`); numbax computes
the product JAX's docstring defines: each operand times its scales repeated over blocks of the
contracting axis, in float32, contracted as ``einsum('BMK,BNK->BMN')``, then cast to
`preferred_element_type`. Shape checks and their messages are JAX's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core import dtypes, errors
from core.trace import get_aval


def scaled_matmul(
    lhs: Any, rhs: Any, lhs_scales: Any, rhs_scales: Any, preferred_element_type: Any = np.float32
) -> Any:
    """Block-scaled matmul of `lhs` (B, M, K) and `rhs` (B, N, K).

    Args:
      lhs: operand a, shape (B, M, K).
      rhs: operand b, shape (B, N, K).
      lhs_scales: shape (B, M, K_a) with ``K % K_a == 0``: one scale per block of ``K // K_a``.
      rhs_scales: shape (B, N, K_b) with ``K % K_b == 0``.
      preferred_element_type: the output dtype (float32 by default); products and sums are
        float32.

    Returns:
      The (B, M, N) array ``einsum('BMK,BNK->BMN', lhs * scales_a, rhs * scales_b)``.
    """
    a, b, a_scales, b_scales = (jnp.asarray(x) for x in (lhs, rhs, lhs_scales, rhs_scales))
    shapes = [get_aval(x).shape for x in (a, b, a_scales, b_scales)]
    if not all(len(s) == 3 for s in shapes):
        raise errors.ScaledMatmulShapeError(
            "scaled_matmul requires all inputs to be 3-dimensional arrays"
        )
    (b_a, m_a, k_a), (b_b, n_b, k_b), (b_as, m_as, k_as), (b_bs, n_bs, k_bs) = shapes
    if k_a != k_b or b_a != b_b:
        raise errors.ScaledMatmulShapeError(
            "scaled_matmul requires inputs a and b to have matching batch (B) and contract (K) "
            f"dimensions, but got shapes {shapes[0]} and {shapes[1]}"
        )
    if k_as != k_bs or b_as != b_bs:
        raise errors.ScaledMatmulShapeError(
            "scaled_matmul requires scales to have matching batch (B) and contract (K) "
            f"dimensions, but got shapes {shapes[2]} and {shapes[3]}"
        )
    if m_as != m_a or n_bs != n_b:
        raise errors.ScaledMatmulShapeError(
            "scaled_matmul requires scales to match non-contract dimensions of inputs, but got "
            f"shapes a: {shapes[0]}, b: {shapes[1]}, a_scales: {shapes[2]}, b_scales: "
            f"{shapes[3]}"
        )
    if k_as == 0 or k_a % k_as:
        raise errors.ScaledMatmulShapeError(
            f"scaled_matmul requires the scales' contract dimension ({k_as}) to divide the "
            f"inputs' ({k_a}): each scale covers a block of K // K_a elements"
        )
    out_dtype = dtypes.canonicalize_dtype(np.dtype(preferred_element_type))
    f32 = np.float32
    a = a.astype(f32) * jnp.repeat(a_scales.astype(f32), k_a // k_as, axis=-1)
    b = b.astype(f32) * jnp.repeat(b_scales.astype(f32), k_b // k_bs, axis=-1)
    return jnp.einsum("BMK,BNK->BMN", a, b).astype(out_dtype)
