"""`core.nn.dot_product_attention`, like `jax.nn.dot_product_attention` with its "xla" path.

Grouped-query attention is computed without repeating keys: the query heads `N = K * G` are
viewed as (K key heads, G groups) and the two einsums contract against the K key heads directly.
All masks (boolean `mask`, causal, local window, sequence lengths) are combined into one boolean
array and applied by replacing the masked logits with a large negative number, as JAX does, and
the softmax runs in float32 (or wider).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import core.numpy as jnp
from core import dtypes
from core.nn.activations import logsumexp, softmax
from core.prims import elementwise as ew
from core.trace import get_aval


def _ensure_4d(t: Any) -> Any:
    t = jnp.asarray(t)
    extra = 4 - get_aval(t).ndim
    return jnp.reshape(t, (1,) * extra + get_aval(t).shape) if extra > 0 else t


def _check(t: Any, shape: Sequence[int], dtype: Any, name: str) -> None:
    if t is None:
        return
    aval = get_aval(t)
    if aval.ndim != len(shape):
        raise ValueError(f"{name} ndim should be {len(shape)}, but got {aval.ndim}")
    if dtype is not None and aval.dtype != np.dtype(dtype):
        raise ValueError(f"{name} dtype should be {np.dtype(dtype)}, but got {aval.dtype}")
    if any(s != -1 and a != s for a, s in zip(aval.shape, shape)):
        raise ValueError(f"{name} shape should be {list(shape)}: but got {aval.shape}")


def _large_negative(dtype: np.dtype) -> float:
    # Capped at the float32 range, since the softmax runs in (at least) float32.
    return -0.7 * float(min(np.finfo(dtype).max, np.finfo(np.float32).max))


def _combined_mask(shape, mask, is_causal, q_seqlen, kv_seqlen, window) -> Any:
    """The boolean mask (broadcastable to `shape` = (B, N, T, S)) or None when nothing masks."""
    t, s = shape[2], shape[3]
    parts = [] if mask is None else [mask]
    q_pos = jnp.arange(t)[:, None]
    k_pos = jnp.arange(s)[None, :]
    if is_causal:
        parts.append((q_pos >= k_pos)[None, None])
    if window is not None:
        left, right = window
        parts.append(jnp.logical_and(q_pos <= k_pos + left, q_pos >= k_pos - right)[None, None])
    if q_seqlen is not None:
        parts.append((jnp.arange(t)[None, :, None] < q_seqlen[:, None, None])[:, None])
    if kv_seqlen is not None:
        parts.append((jnp.arange(s)[None, None, :] < kv_seqlen[:, None, None])[:, None])
    if not parts:
        return None
    out = jnp.broadcast_to(parts[0], shape)
    for p in parts[1:]:
        out = jnp.logical_and(out, p)
    return out


def dot_product_attention(
    query: Any,
    key: Any,
    value: Any,
    bias: Any = None,
    mask: Any = None,
    *,
    scale: float | None = None,
    is_causal: bool = False,
    query_seq_lengths: Any = None,
    key_value_seq_lengths: Any = None,
    local_window_size: int | tuple[int, int] | None = None,
    implementation: str | None = None,
    return_residual: bool = False,
) -> Any:
    """Scaled dot-product attention `softmax(Q K^T * scale + bias) V`, per head.

    Shapes: B batch, T query length, S key length, N query heads, K key/value heads (N must
    be a multiple of K: grouped-query attention, multi-query when K == 1), H head size.

    Args:
      query: `(B, T, N, H)` or `(T, N, H)`.
      key: `(B, S, K, H)` or `(S, K, H)`.
      value: same shape and dtype as `key`.
      bias: optional additive bias broadcastable to `(B, N, T, S)` (4-D, or fewer leading dims).
      mask: optional boolean mask broadcastable to `(B, N, T, S)`; True means "attend".
      scale: logit scale; defaults to `1 / sqrt(H)`.
      is_causal: query position t attends only to key positions s <= t.
      query_seq_lengths: int32 `(B,)`: query positions beyond the length give zero outputs.
      key_value_seq_lengths: int32 `(B,)`: key positions beyond the length are masked.
      local_window_size: `(left, right)` (or one int for both): query t attends to keys in
        `[t - left, t + right]`.
      implementation: None or "xla" (the only implementation here; "cudnn" raises).
      return_residual: also return the logsumexp of the masked logits, shape `(B, T, N)`.

    Returns:
      The attention output with the shape of `query` (and the residual if requested).
    """
    if implementation not in (None, "xla"):
        raise ValueError(
            f"Unsupported implementation option: {implementation}\nThis CPU library has only "
            "the 'xla' (einsum + softmax) implementation: use implementation=None."
        )
    out_shape = get_aval(jnp.asarray(query)).shape
    q, k, v = _ensure_4d(query), _ensure_4d(key), _ensure_4d(value)
    bias = None if bias is None else _ensure_4d(bias)
    mask = None if mask is None else _ensure_4d(mask)
    q_len = None if query_seq_lengths is None else jnp.asarray(query_seq_lengths)
    kv_len = None if key_value_seq_lengths is None else jnp.asarray(key_value_seq_lengths)
    if isinstance(local_window_size, int):
        local_window_size = (local_window_size, local_window_size)

    b, s, nk, h = get_aval(k).shape
    _check(v, (b, s, nk, h), get_aval(k).dtype, "value")
    _check(q, (b, -1, -1, h), get_aval(k).dtype, "query")
    _check(mask, (-1,) * 4, np.bool_, "mask")
    _check(bias, (-1,) * 4, None, "bias")
    _check(q_len, (b,), np.int32, "query_seq_lengths")
    _check(kv_len, (b,), np.int32, "key_value_seq_lengths")
    t, n = get_aval(q).shape[1], get_aval(q).shape[2]
    if n % nk:
        raise ValueError(
            f"The number of query heads must be a multiple of key/value heads, but got {n} vs {nk}"
        )
    g = n // nk
    scale = 1.0 / np.sqrt(h) if scale is None else scale

    dt = get_aval(q).dtype
    logits_dtype = dtypes.promote_types(dt, np.float32)
    qg = jnp.reshape(q, (b, t, nk, g, h))
    logits = jnp.einsum("btkgh,bskh->bkgts", qg, k, preferred_element_type=logits_dtype)
    logits = jnp.reshape(logits, (b, n, t, s))
    logits = logits * jnp.asarray(scale, dtype=logits_dtype)
    if bias is not None:
        logits = (logits + bias).astype(logits_dtype)
    full = _combined_mask((b, n, t, s), mask, is_causal, q_len, kv_len, local_window_size)
    if full is not None:
        logits = jnp.where(full, logits, jnp.asarray(_large_negative(logits_dtype), logits_dtype))
    logits = logits.astype(dtypes.promote_types(logits_dtype, np.float32))
    probs = softmax(logits, axis=-1).astype(get_aval(k).dtype)
    probs = jnp.reshape(probs, (b, nk, g, t, s))
    encoded = jnp.einsum("bkgts,bskh->btkgh", probs, v)
    encoded = jnp.reshape(encoded, (b, t, n, h))
    if q_len is not None:
        keep = jnp.arange(t)[None, :] < q_len[:, None]
        encoded = encoded * keep[:, :, None, None].astype(get_aval(encoded).dtype)
    encoded = jnp.reshape(encoded, out_shape)
    if not return_residual:
        return encoded
    lse = logsumexp(logits, axis=-1).astype(get_aval(k).dtype)
    lse = jnp.reshape(jnp.transpose(lse, (0, 2, 1)), out_shape[:-1])
    return encoded, ew.stop_gradient_prim(lse)
