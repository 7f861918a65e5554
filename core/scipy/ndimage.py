"""`core.scipy.ndimage`: `map_coordinates`, interpolation at arbitrary coordinates, as in JAX.

Each coordinate array gives, per axis, the nodes and weights of the interpolation: one node
(rounded half away from zero) for `order=0`, the two neighbours `floor(c)` and `floor(c) + 1`
with weights `1 - t` and `t` for `order=1`. The result is the sum over every combination of
per-axis nodes of the product of weights times the gathered input. Out-of-range nodes are
folded back by the `mode` (`nearest` clips, `wrap` is periodic, `mirror`/`reflect` fold as a
triangular wave); `constant` instead masks them to `cval`. Integer inputs round the result.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import core.numpy as jnp
from core import lax
from core.scipy.errors import ShapeMismatchError, UnsupportedOptionError

__all__ = ["map_coordinates"]


def _mirror_index_fixer(index: Any, size: int) -> Any:
    s = size - 1  # the half-period of the triangular wave |x - round(x)|, scaled to integers
    return jnp.abs((index + s) % (2 * s) - s)


def _reflect_index_fixer(index: Any, size: int) -> Any:
    return jnp.floor_divide(_mirror_index_fixer(2 * index + 1, 2 * size + 1) - 1, 2)


_INDEX_FIXERS: dict[str, Callable[[Any, int], Any]] = {
    "constant": lambda index, size: index,
    "nearest": lambda index, size: jnp.clip(index, 0, size - 1),
    "wrap": lambda index, size: index % size,
    "mirror": _mirror_index_fixer,
    "reflect": _reflect_index_fixer,
}


def _round_half_away_from_zero(a: Any) -> Any:
    return a if jnp.issubdtype(a.dtype, np.integer) else lax.round(a)


def _nearest_indices_and_weights(coordinate: Any) -> list[tuple[Any, Any]]:
    index = _round_half_away_from_zero(coordinate).astype(np.int32)
    return [(index, coordinate.dtype.type(1))]


def _linear_indices_and_weights(coordinate: Any) -> list[tuple[Any, Any]]:
    lower = jnp.floor(coordinate)
    upper_weight = coordinate - lower
    index = lower.astype(np.int32)
    return [(index, 1 - upper_weight), (index + 1, upper_weight)]


def map_coordinates(
    input: Any, coordinates: Sequence[Any], order: int, mode: str = "constant", cval: Any = 0.0
) -> Any:
    """Interpolates `input` at `coordinates` (`jax.scipy.ndimage.map_coordinates`).

    Args:
        input: the N-dimensional array sampled.
        coordinates: N arrays of one shape, the (fractional) index along each axis.
        order: 0 (nearest) or 1 (linear).
        mode: how out-of-range indices are handled: "constant", "nearest", "wrap", "mirror"
            or "reflect" (scipy's meanings).
        cval: the value outside the input for mode "constant".

    Returns:
        The interpolated values, shaped like a coordinate array, with `input`'s dtype.
    """
    input_arr = jnp.asarray(input)
    coordinate_arrs = [jnp.asarray(c) for c in coordinates]
    cval = jnp.asarray(cval, input_arr.dtype)
    if len(coordinate_arrs) != input_arr.ndim:
        raise ShapeMismatchError(
            "coordinates must be a sequence of length input.ndim, but "
            f"{len(coordinate_arrs)} != {input_arr.ndim}"
        )
    index_fixer = _INDEX_FIXERS.get(mode)
    if index_fixer is None:
        raise UnsupportedOptionError(
            f"map_coordinates does not support mode {mode!r}; use one of {sorted(_INDEX_FIXERS)}."
        )
    if order == 0:
        interp_fun = _nearest_indices_and_weights
    elif order == 1:
        interp_fun = _linear_indices_and_weights
    else:
        raise UnsupportedOptionError(
            "jax.scipy.ndimage.map_coordinates currently requires order<=1\n"
            f"got order={order}; pass order 0 or 1."
        )

    per_axis = []
    for coordinate, size in zip(coordinate_arrs, input_arr.shape):
        nodes = []
        for index, weight in interp_fun(coordinate):
            valid = (index >= 0) & (index < size) if mode == "constant" else True
            nodes.append((index_fixer(index, size), valid, weight))
        per_axis.append(nodes)

    outputs = []
    for items in itertools.product(*per_axis):
        indices, validities, weights = zip(*items)
        if all(valid is True for valid in validities):
            contribution = input_arr[indices]
        else:
            all_valid = functools.reduce(operator.and_, validities)
            contribution = jnp.where(all_valid, input_arr[indices], cval)
        outputs.append(functools.reduce(operator.mul, weights) * contribution)
    result = sum(outputs[1:], outputs[0])
    if jnp.issubdtype(input_arr.dtype, np.integer):
        result = _round_half_away_from_zero(result)
    return result.astype(input_arr.dtype)
