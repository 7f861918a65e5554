"""Segment reductions, like `jax.ops`: `segment_sum`, `segment_prod`, `segment_max`, `segment_min`.

Each one fills an output of `num_segments` rows with the reduction's identity and scatters the
data rows into it with `.at[segment_ids].add/mul/max/min`, so grad, vmap and jit come from the
scatter primitive's rules. As in JAX, segment ids are not normalized: with the default mode
(`"fill"`/`"drop"`) ids outside `[0, num_segments)`, negative ones included, are dropped, and
with `mode="clip"` they are clamped into range. `bucket_size` reduces each bucket of rows into
its own output first and combines the buckets afterwards (more accurate sums and products).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import core.numpy as jnp
from core import dtypes

__all__ = ["segment_max", "segment_min", "segment_prod", "segment_sum"]

_MODES = ("fill", "drop", "clip", "promise_in_bounds")


def _identity(kind: str, dtype: np.dtype) -> Any:
    """The identity of the reduction `kind` in `dtype` (what empty segments hold)."""
    if kind == "add":
        return 0
    if kind == "mul":
        return 1
    if dtype == dtypes.bool_:
        return kind == "min"
    if dtype.kind in "iu":
        info = dtypes.iinfo(dtype)
        return info.max if kind == "min" else info.min
    return float("inf") if kind == "min" else float("-inf")


def _mode_name(mode: Any) -> str:
    name = "fill" if mode is None else getattr(mode, "name", mode)
    name = str(name).lower()
    if name == "fill_or_drop":
        name = "fill"
    if name not in _MODES:
        raise ValueError(f"Invalid segment mode {mode!r}: expected one of {', '.join(_MODES)}.")
    return name


def _segment_update(
    name: str,
    kind: str,
    reducer: Callable[..., Any],
    data: Any,
    segment_ids: Any,
    num_segments: int | None,
    bucket_size: int | None,
    mode: Any,
) -> Any:
    data = jnp.asarray(data)
    segment_ids = jnp.asarray(segment_ids)
    if segment_ids.ndim != 1 or data.ndim < 1 or data.shape[0] != segment_ids.shape[0]:
        # JAX's first line (its scatter's broadcast of the data to ids.shape + data.shape[1:])
        requested = ",".join(map(str, (*segment_ids.shape, *data.shape[1:])))
        raise ValueError(
            "Incompatible types for broadcasting: input type="
            f"{data.dtype}[{','.join(map(str, data.shape))}] and requested type="
            f"{data.dtype}[{requested}]\n"
            f"{name}: segment_ids must be 1-D with one id per row of data; got data of shape "
            f"{data.shape} and segment_ids of shape {segment_ids.shape}."
        )
    if segment_ids.dtype.kind not in "iu":
        raise TypeError(f"{name}: segment_ids must be integers, got {segment_ids.dtype}.")
    if num_segments is None:  # needs concrete ids, like JAX
        num_segments = int(jnp.max(segment_ids)) + 1
    num_segments = int(num_segments)
    if num_segments < 0:
        raise ValueError(f"{name}: num_segments must be non-negative, got {num_segments}.")
    mode = _mode_name(mode)
    if mode == "clip":
        ids = jnp.clip(segment_ids, 0, max(num_segments - 1, 0))
    else:  # ids are not wrapped: negative ones are out of bounds and dropped
        ids = jnp.where(segment_ids < 0, num_segments, segment_ids)
    scatter_mode = "clip" if mode == "clip" else "drop"
    dtype = data.dtype
    fill = _identity(kind, dtype)
    if bucket_size is None:
        out = jnp.full((num_segments, *data.shape[1:]), fill, dtype=dtype)
        return getattr(out.at[ids], kind)(data, mode=scatter_mode)
    n = segment_ids.shape[0]
    num_buckets = -(-n // int(bucket_size))
    out = jnp.full((num_buckets, num_segments, *data.shape[1:]), fill, dtype=dtype)
    buckets = jnp.arange(n) // int(bucket_size)
    out = getattr(out.at[buckets, ids], kind)(data, mode=scatter_mode)
    return reducer(out, axis=0).astype(dtype)


def _make(name: str, kind: str, reducer: Callable[..., Any], what: str) -> Callable[..., Any]:
    def segment_op(
        data: Any,
        segment_ids: Any,
        num_segments: int | None = None,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        bucket_size: int | None = None,
        mode: Any = None,
    ) -> Any:
        return _segment_update(
            name, kind, reducer, data, segment_ids, num_segments, bucket_size, mode
        )

    segment_op.__name__ = segment_op.__qualname__ = name
    segment_op.__doc__ = f"""Computes the {what} within segments of an array, like `jax.ops.{name}`.

    `out[i] = {what} of data[j] over the j with segment_ids[j] == i`; empty segments hold the
    identity of the reduction.

    Args:
      data: the values, segmented along their leading axis.
      segment_ids: one integer id per row of `data` (need not be sorted).
      num_segments: the number of output rows (static). Default: `max(segment_ids) + 1`,
        which needs concrete ids (not inside `jit`).
      indices_are_sorted: accepted for compatibility (a hint only).
      unique_indices: accepted for compatibility (a hint only).
      bucket_size: reduce buckets of this many rows separately, then combine them.
      mode: "fill"/"drop" (default: out-of-range ids, negative ones included, are dropped) or
        "clip" (ids are clamped into range).

    Returns:
      An array of shape `(num_segments, *data.shape[1:])` and the dtype of `data`.
    """
    return segment_op


segment_sum = _make("segment_sum", "add", jnp.sum, "sum")
segment_prod = _make("segment_prod", "mul", jnp.prod, "product")
segment_max = _make("segment_max", "max", jnp.max, "maximum")
segment_min = _make("segment_min", "min", jnp.min, "minimum")
