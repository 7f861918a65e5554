"""`core.nn.scaled_matmul`, like `jax.nn.scaled_matmul`: a block-scaled batched matmul, and
`scaled_dot_general` with its `get_scaled_dot_general_config`.

JAX 0.10.2 runs `scaled_matmul` only through cuDNN (on CPU it raises `NotImplementedError`);
numbax computes the product JAX's docstring defines: each operand times its scales repeated over
blocks of the contracting axis, in float32, contracted as ``einsum('BMK,BNK->BMN')``, then cast
to `preferred_element_type`. Shape checks and their messages are JAX's.

`scaled_dot_general` is `lax.dot_general` without `configs`, as in JAX. With block-scale
`configs` JAX quantizes the operands and calls cuDNN, which fails on CPU; numbax raises the same
`NotImplementedError` (partial: no CPU quantization path).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Literal

import ml_dtypes
import numpy as np

import core.numpy as jnp
from core import dtypes, errors
from core.lax import dot_general
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


@dataclass(slots=True)
class BlockScaleConfig:
    """A block-scaled quantization of one operand (JAX's
    `jax._src.cudnn.scaled_matmul_stablehlo.BlockScaleConfig`)."""

    mode: str
    block_size: int
    data_type: Any
    scale_type: Any
    global_scale: Any
    infer_only: bool


def get_scaled_dot_general_config(
    mode: Literal["nvfp4", "mxfp8"], global_scale: Any = None
) -> BlockScaleConfig:
    """The quantization config of `scaled_dot_general` for `mode`, like JAX's.

    Args:
      mode: "nvfp4" (blocks of 16 float4_e2m1fn values, float8_e4m3fn scales, a global
        scale) or "mxfp8" (blocks of 32 float8_e4m3fn values, float8_e8m0fnu scales).
      global_scale: nvfp4's global scale, a float32 array of shape (1,) (ones by default).

    Returns:
      The `BlockScaleConfig`.
    """
    if mode == "nvfp4":
        one = jnp.ones((1,), dtype=np.float32)
        return BlockScaleConfig(
            mode="nvfp4",
            block_size=16,
            data_type=ml_dtypes.float4_e2m1fn,
            scale_type=ml_dtypes.float8_e4m3fn,
            global_scale=one if global_scale is None else global_scale,
            infer_only=False,
        )
    if mode == "mxfp8":
        return BlockScaleConfig(
            mode="mxfp8",
            block_size=32,
            data_type=ml_dtypes.float8_e4m3fn,
            scale_type=ml_dtypes.float8_e8m0fnu,
            global_scale=None,
            infer_only=False,
        )
    raise ValueError(f"Unsupported mode: {mode}")


_SCALED_DOT_TYPES = (np.dtype(np.float32), dtypes.bfloat16, np.dtype(np.float16))


def scaled_dot_general(
    lhs: Any,
    rhs: Any,
    dimension_numbers: Any,
    preferred_element_type: Any = np.float32,
    configs: list[BlockScaleConfig] | None = None,
    implementation: Literal["cudnn"] | None = None,
) -> Any:
    """`lax.dot_general` of block-quantized operands, like `jax.nn.scaled_dot_general`.

    Args:
      lhs: an array.
      rhs: an array.
      dimension_numbers: `((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch))`.
      preferred_element_type: the result dtype (float32 by default).
      configs: block-scale configs of lhs, rhs and the gradients
        (`get_scaled_dot_general_config`); None computes `lax.dot_general`.
      implementation: deprecated and ignored (a DeprecationWarning), as in JAX.

    Returns:
      The product, batch dimensions first, then lhs's free dimensions, then rhs's.

    Raises:
      ScaledDotGeneralBackendError: with `configs`: JAX computes them with cuDNN only.
    """
    if implementation is not None:
        warnings.warn(
            "Backend selector, now ignored. The system chooses the backend automatically.",
            DeprecationWarning,
            stacklevel=2,
        )
    if configs is None:
        return dot_general(
            lhs, rhs, dimension_numbers, preferred_element_type=preferred_element_type
        )
    if np.dtype(preferred_element_type) not in _SCALED_DOT_TYPES:
        raise TypeError(  # JAX's message, its placeholder unfilled
            "Only support preferred_element_type in (f32, bf16, f16), but got "
            "{preferred_element_type}"
        )
    raise errors.ScaledDotGeneralBackendError()
