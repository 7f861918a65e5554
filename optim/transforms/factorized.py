"""Adafactor's factored second moment (Shazeer & Stern, 2018).

For a leaf whose two largest axes are both >= `min_dim_size_to_factor`, the second moment is
stored as a row vector and a column vector (their outer product, normalised, approximates it);
other leaves keep a full `v`. Unused slots hold shape-(1,) zeros so that every leaf has all
three fields and the state keeps one structure.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import core.numpy as jnp
from core import tree_util
from optim.base import GradientTransformation
from optim.errors import MissingParamsError
from optim.numerics import abs_sq, safe_increment


class FactoredState(NamedTuple):
    """State of `scale_by_factored_rms`."""

    count: Any  # shape=(), dtype=int32.
    v_row: Any
    v_col: Any
    v: Any


def _decay_rate_pow(i: Any, exponent: Any = 0.8) -> Any:
    """The default second-moment decay `1 - (i + 1)**(-exponent)`."""
    t = jnp.asarray(i + 1, jnp.float32)
    return 1.0 - t ** (-exponent)


def _factored_dims(shape: tuple[int, ...], factored: bool, min_dim: int) -> tuple[int, int] | None:
    """Returns the (second largest, largest) axes if the leaf is factored, else None."""
    if not factored or len(shape) < 2:
        return None
    second, largest = sorted(range(len(shape)), key=shape.__getitem__)[-2:]
    # Both factored axes must be long enough for the row/column statistics to pay off.
    return (second, largest) if shape[second] >= min_dim else None


def scale_by_factored_rms(
    factored: bool = True,
    decay_rate: Any = 0.8,
    step_offset: Any = 0,
    min_dim_size_to_factor: int = 128,
    epsilon: Any = 1e-30,
    decay_rate_fn: Callable[[Any, Any], Any] = _decay_rate_pow,
) -> GradientTransformation:
    """Scales updates by the inverse root of a (factored) second-moment estimate.

    Args:
      factored: factor the second moment of large matrices.
      decay_rate: exponent passed to `decay_rate_fn`.
      step_offset: subtracted from the step count before computing the decay.
      min_dim_size_to_factor: only factor leaves whose two largest axes are at least this big.
      epsilon: added to the squared gradients.
      decay_rate_fn: `(step, decay_rate) -> decay` of the moments.

    Returns:
      A `GradientTransformation` with state `FactoredState(count, v_row, v_col, v)`.
    """

    def zeros1(dtype):
        return jnp.zeros((1,), dtype=dtype)

    def init_leaf(param):
        dims = _factored_dims(param.shape, factored, min_dim_size_to_factor)
        if dims is None:
            return zeros1(param.dtype), zeros1(param.dtype), jnp.zeros_like(param)
        d1, d0 = dims
        row_shape = tuple(s for i, s in enumerate(param.shape) if i != d0)
        col_shape = tuple(s for i, s in enumerate(param.shape) if i != d1)
        return (
            jnp.zeros(row_shape, param.dtype),
            jnp.zeros(col_shape, param.dtype),
            zeros1(param.dtype),
        )

    def update_leaf(grad, v_row, v_col, v, param, decay_t):
        dtype = param.dtype
        grad_sqr = abs_sq(grad) + epsilon
        dims = _factored_dims(param.shape, factored, min_dim_size_to_factor)
        if dims is None:
            new_v = (decay_t * v + (1.0 - decay_t) * grad_sqr).astype(dtype)
            return grad * new_v**-0.5, zeros1(dtype), zeros1(dtype), new_v
        d1, d0 = dims
        new_v_row = (decay_t * v_row + (1.0 - decay_t) * jnp.mean(grad_sqr, axis=d0)).astype(dtype)
        new_v_col = (decay_t * v_col + (1.0 - decay_t) * jnp.mean(grad_sqr, axis=d1)).astype(dtype)
        reduced_d1 = d1 - 1 if d1 > d0 else d1
        row_col_mean = jnp.mean(new_v_row, axis=reduced_d1, keepdims=True)
        row_factor = (new_v_row / row_col_mean) ** -0.5
        col_factor = new_v_col**-0.5
        update = grad * jnp.expand_dims(row_factor, axis=d0) * jnp.expand_dims(col_factor, axis=d1)
        return update, new_v_row, new_v_col, zeros1(dtype)

    def init_fn(params):
        leaves, treedef = tree_util.tree_flatten(params)
        slots = [init_leaf(p) for p in leaves]
        return FactoredState(
            count=jnp.zeros([], jnp.int32),
            v_row=tree_util.tree_unflatten(treedef, [s[0] for s in slots]),
            v_col=tree_util.tree_unflatten(treedef, [s[1] for s in slots]),
            v=tree_util.tree_unflatten(treedef, [s[2] for s in slots]),
        )

    def update_fn(updates, state, params):
        if params is None:
            raise MissingParamsError("scale_by_factored_rms")
        grads, treedef = tree_util.tree_flatten(updates)
        decay_t = decay_rate_fn(state.count - step_offset, decay_rate)
        results = [
            update_leaf(*leaf, decay_t)
            for leaf in zip(
                grads,
                treedef.flatten_up_to(state.v_row),
                treedef.flatten_up_to(state.v_col),
                treedef.flatten_up_to(state.v),
                treedef.flatten_up_to(params),
            )
        ]
        out = [tree_util.tree_unflatten(treedef, [r[i] for r in results]) for i in range(4)]
        return out[0], FactoredState(
            count=safe_increment(state.count), v_row=out[1], v_col=out[2], v=out[3]
        )

    return GradientTransformation(init_fn, update_fn)
