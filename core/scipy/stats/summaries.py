"""`core.scipy.stats.mode`, `rankdata` and `sem`: summaries of samples, with JAX's results.

`mode` sorts each column (a `vmap` over the other axes) and counts each value's equals (JAX
counts with `jnp.unique(..., size=n)`: the same values and counts);
`rankdata` sorts once and reads ranks off the runs of equal values (a NaN anywhere makes every
rank NaN, as in JAX); `sem` is the standard deviation over `sqrt(n)`.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

import core.numpy as jnp
from core import api, dtypes, lax
from core.numpy._util import canonicalize_axis, check_arraylike, promote_args_inexact

_NAN_POLICIES = ("propagate", "omit", "raise")


class ModeResult(NamedTuple):
    """`mode`'s result: the most frequent values and how often they occur."""

    mode: Any
    count: Any


def _check_nan_policy(name: str, nan_policy: str) -> None:
    if nan_policy not in _NAN_POLICIES:
        raise ValueError(
            f"Illegal nan_policy value {nan_policy!r}; expected one of "
            "{'propagate', 'omit', 'raise'}"
        )
    if nan_policy == "omit":
        raise NotImplementedError(f"Logic for `nan_policy` of {nan_policy} is not implemented")
    if nan_policy == "raise":
        raise NotImplementedError(
            f"In order to best JIT compile `{name}`, we cannot know whether `x` contains nans. "
            f"Please check if nans exist in `x` outside of the `{name}` function."
        )


def mode(a: Any, axis: int | None = 0, nan_policy: str = "propagate", keepdims: bool = False):
    """The most frequent value along `axis` (the smallest of ties) and its count
    (`jax.scipy.stats.mode`).

    Args:
      a: the sample.
      axis: the axis to count along (None: the flattened array).
      nan_policy: only "propagate" is implemented (as in JAX).
      keepdims: keep the counted axis with size 1.

    Returns:
      `ModeResult(mode, count)`.
    """
    check_arraylike("mode", a)
    x = jnp.atleast_1d(a)
    _check_nan_policy("mode", nan_policy)
    if axis is not None:
        axis = canonicalize_axis(axis, x.ndim)
    shape = x.shape
    if keepdims:
        out_shape = tuple(1 if axis is None or i == axis else s for i, s in enumerate(shape))
    elif axis is None:
        out_shape = ()
    else:
        out_shape = tuple(s for i, s in enumerate(shape) if i != axis)
    if axis is None:
        axis, x = 0, x.ravel()

    def column(v: Any) -> tuple[Any, Any]:
        if v.size == 0:
            nan = jnp.array(np.nan, dtype=dtypes.default_float())
            return nan, jnp.array(0, dtype=dtypes.default_float())
        s = jnp.sort(v)  # the count of each sorted value; the first maximum is the smallest
        counts = jnp.sum(s[:, None] == s[None, :], axis=1, dtype=dtypes.default_int())
        i = jnp.argmax(counts)
        return s[i], counts[i]

    x = jnp.moveaxis(x, axis, 0)
    x = x.reshape(x.shape[0], math.prod(x.shape[1:]))
    vals, counts = api.vmap(column, in_axes=1)(x)
    return ModeResult(vals.reshape(out_shape), counts.reshape(out_shape))


def _rank_from_group(method: str, starts: Any, group: Any) -> Any:
    """A tied element's rank from its 1-based `group` (run of equal sorted values) and `starts`,
    the sorted positions where each run begins (with the length appended)."""
    below = starts[group - 1]  # how many elements sort strictly before the run
    through = starts[group]  # how many sort before or in it
    if method == "max":
        return through
    if method == "min":
        return below + 1
    return 0.5 * (through + below + 1)


def rankdata(
    a: Any, method: str = "average", *, axis: int | None = None, nan_policy: str = "propagate"
) -> Any:
    """Ranks of the data, 1 for the smallest (`jax.scipy.stats.rankdata`).

    Args:
      a: the data.
      method: how ties rank: "average", "min", "max", "dense" or "ordinal".
      axis: rank along this axis (None: the flattened array).
      nan_policy: only "propagate" is implemented (a NaN makes every rank NaN).

    Returns:
      Float ranks (the default float dtype), shaped like `a` (flattened for `axis=None`).
    """
    check_arraylike("rankdata", a)
    _check_nan_policy("rankdata", nan_policy)
    if method not in ("average", "min", "max", "dense", "ordinal"):
        raise ValueError(f"unknown method '{method}'")
    if axis is not None:
        return jnp.apply_along_axis(rankdata, axis, a, method)
    flat = jnp.ravel(a)
    out_dtype = dtypes.default_float()

    def ranks(values: Any) -> Any:
        n = values.size
        ordered, order = lax.sort_key_val(values, jnp.arange(n))
        position = jnp.zeros_like(order).at[order].set(jnp.arange(n, dtype=order.dtype))
        if method == "ordinal":
            return (position + 1).astype(out_dtype)
        run_starts = jnp.concatenate([jnp.array([True]), ordered[1:] != ordered[:-1]])
        group = run_starts.cumsum()[position]
        if method == "dense":
            return group.astype(out_dtype)
        starts = jnp.nonzero(run_starts, size=n + 1, fill_value=n)[0].astype(out_dtype)
        return _rank_from_group(method, starts, group)

    def all_nan(values: Any) -> Any:
        return jnp.full_like(values, jnp.nan, out_dtype)

    return lax.cond(jnp.any(jnp.isnan(flat)), all_nan, ranks, flat)


def sem(
    a: Any,
    axis: int | None = 0,
    ddof: int = 1,
    nan_policy: str = "propagate",
    *,
    keepdims: bool = False,
) -> Any:
    """The standard error of the mean, `std(a, ddof) / sqrt(n)` (`jax.scipy.stats.sem`).

    Args:
      a: the sample.
      axis: the axis of the sample (None: all of `a`).
      ddof: delta degrees of freedom of the standard deviation.
      nan_policy: "propagate" or "omit" (NaNs left out of `std` and `n`).
      keepdims: keep the reduced axis with size 1.

    Returns:
      The standard error.
    """
    (b,) = promote_args_inexact("sem", a)
    if nan_policy not in ("propagate", "omit"):
        raise ValueError(f"{nan_policy} is not supported")
    omit = nan_policy == "omit"  # NaNs count neither in the spread nor in the sample size
    n = _sample_size(b, axis, keepdims, omit)
    spread = (jnp.nanstd if omit else jnp.std)(b, axis, ddof=ddof, keepdims=keepdims)
    return spread / jnp.sqrt(n).astype(b.dtype)


def _sample_size(b: Any, axis: int | None, keepdims: bool, omit_nan: bool) -> Any:
    """The entries each reduced slice of ``b`` has: an int, or with ``omit_nan`` an array
    counting the non-NaN ones."""
    if omit_nan:
        return (~jnp.isnan(b)).sum(axis, keepdims=keepdims)
    return b.size if axis is None else b.shape[axis]
