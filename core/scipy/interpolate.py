"""`core.scipy.interpolate`: `RegularGridInterpolator` (linear and nearest), as JAX writes it.

For each axis `searchsorted` finds the grid cell of every query point (clamped to the first and
last cell, so points outside extrapolate) and the point's fractional distance `t` across it.
Linear interpolation sums, over the 2^ndim corners of the cell, the corner value times the
product of `1 - t` or `t` per axis; nearest picks the corner with `t <= 0.5` rounding down.
Points outside the grid get `fill_value` (NaN by default; None extrapolates). The interpolator
is a pytree (grid, values, fill_value as children), so it passes through `jit` and `vmap`.
"""

from __future__ import annotations

from itertools import product
from typing import Any

import numpy as np

import core.numpy as jnp
from core.numpy._util import promote_dtypes_inexact
from core.scipy.errors import ModeError, ShapeMismatchError, UnsupportedOptionError
from core.tree_util import register_pytree_node

__all__ = ["RegularGridInterpolator"]

_METHODS = ("linear", "nearest")


def _check_method(method: str) -> None:
    if method not in _METHODS:
        raise ModeError(f"method {method!r} is not defined; use 'linear' or 'nearest'.")


def _ndim_coords_from_arrays(points: Any, ndim: int | None = None) -> Any:
    """A tuple of coordinate arrays, or an array, as one `(..., ndim)` array."""
    if isinstance(points, tuple) and len(points) == 1:
        points = points[0]
    if isinstance(points, tuple):
        p = jnp.broadcast_arrays(*points)
        out = jnp.empty(p[0].shape + (len(points),), dtype=float)
        for j, item in enumerate(p):
            out = out.at[..., j].set(item)
        return out
    points = jnp.asarray(points)
    if points.ndim == 1:
        points = points.reshape(-1, 1) if ndim is None else points.reshape(-1, ndim)
    return points


def _filled_outside(found: Any, outside: Any, fill_value: Any) -> Any:
    """``found`` (one row per point) with the rows of points off the grid set to
    ``fill_value``."""
    per_row = outside.reshape(found.shape[:1] + (1,) * (found.ndim - 1))
    return jnp.where(per_row, fill_value, found)


class RegularGridInterpolator:
    """Interpolation on a rectangular grid (`jax.scipy.interpolate.RegularGridInterpolator`).

    As in JAX, every axis of `points` must be strictly increasing (a decreasing axis gives
    wrong results silently), and `bounds_error=True` is not supported.

    Args:
        points: one 1-D array of grid coordinates per interpolated axis.
        values: the values on the grid, shape `(len(points[0]), ..., *trailing)`.
        method: "linear" or "nearest".
        bounds_error: must be False.
        fill_value: the value for points outside the grid; None extrapolates.
    """

    def __init__(
        self,
        points: Any,
        values: Any,
        method: str = "linear",
        bounds_error: bool = False,
        fill_value: Any = np.nan,
    ):
        _check_method(method)
        self.method = method
        self.bounds_error = bounds_error
        if bounds_error:
            raise UnsupportedOptionError(
                "`bounds_error` takes no effect under JIT\n"
                "RegularGridInterpolator: pass bounds_error=False and test the points yourself."
            )
        values = jnp.asarray(values)
        if len(points) > values.ndim:
            raise ShapeMismatchError(
                f"there are {len(points)} point arrays, but values has {values.ndim} dimensions"
            )
        (values,) = promote_dtypes_inexact(values)
        if fill_value is not None:
            fill_value = jnp.asarray(fill_value)
            if not jnp.can_cast(fill_value.dtype, values.dtype, casting="same_kind"):
                raise ShapeMismatchError(
                    "fill_value must be either 'None' or of a type compatible with values"
                )
        self.fill_value = fill_value
        self.grid = tuple(jnp.asarray(p) for p in points)
        self.values = values

    def __call__(self, xi: Any, method: str | None = None) -> Any:
        """Interpolates at `xi`.

        Args:
            xi: points `(..., ndim)`, or a tuple of `ndim` coordinate arrays.
            method: overrides the interpolator's method.

        Returns:
            The values, shape `xi.shape[:-1] + values.shape[ndim:]`.
        """
        method = self.method if method is None else method
        _check_method(method)
        ndim = len(self.grid)
        points = _ndim_coords_from_arrays(xi, ndim=ndim)
        if points.shape[-1] != ndim:
            raise ShapeMismatchError(
                f"the requested sample points xi have dimension {points.shape[-1]}, but this "
                f"RegularGridInterpolator has dimension {ndim}"
            )
        batch = points.shape[:-1]
        # One row per point, one column per grid axis (transposed for `_find_indices`).
        cells, offsets, outside = self._find_indices(points.reshape(-1, ndim).T)
        by_method = {"linear": self._evaluate_linear, "nearest": self._evaluate_nearest}
        found = by_method[method](cells, offsets)
        if self.fill_value is not None:
            found = _filled_outside(found, outside, self.fill_value)
        return found.reshape(batch + self.values.shape[ndim:])

    def _evaluate_linear(self, indices: list[Any], norm_distances: list[Any]) -> Any:
        vslice = (slice(None),) + (None,) * (self.values.ndim - len(indices))
        values = jnp.asarray(0.0)
        for edge_indices in product(*[[i, i + 1] for i in indices]):
            weight = jnp.asarray(1.0)
            for ei, i, yi in zip(edge_indices, indices, norm_distances):
                weight = weight * ((1 - yi) if ei is i else yi)
            values = values + self.values[edge_indices] * weight[vslice]
        return values

    def _evaluate_nearest(self, indices: list[Any], norm_distances: list[Any]) -> Any:
        idx = [jnp.where(yi <= 0.5, i, i + 1) for i, yi in zip(indices, norm_distances)]
        return self.values[tuple(idx)]

    def _find_indices(self, xi: Any) -> tuple[list[Any], list[Any], Any]:
        indices, norm_distances = [], []
        out_of_bounds = jnp.zeros((xi.shape[1],), dtype=bool)
        for x, g in zip(xi, self.grid):
            i = jnp.searchsorted(g, x) - 1
            i = jnp.where(i < 0, 0, i)
            i = jnp.where(i > g.size - 2, g.size - 2, i)
            indices.append(i)
            norm_distances.append((x - g[i]) / (g[i + 1] - g[i]))
            out_of_bounds = out_of_bounds | (x < g[0]) | (x > g[-1])
        return indices, norm_distances, out_of_bounds


register_pytree_node(
    RegularGridInterpolator,
    lambda obj: ((obj.grid, obj.values, obj.fill_value), (obj.method, obj.bounds_error)),
    lambda aux, children: RegularGridInterpolator(*children[:2], *aux, *children[2:]),
)
