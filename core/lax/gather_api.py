"""`jax.lax`'s general gather/scatter API: JAX's wrappers over the `gather` and `scatter*`
primitives of `core/prims/gather.py` (which hold XLA's dimension numbers, checked and turned
into the point form by `core/prims/gather_dims.py`, and compile onto numbax's point
gather/scatter). `scatter_sub` is a scatter-add of the negated updates, and `scatter_apply`
gathers the windows, applies the function and scatters the results back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from core.prims import elementwise as ew
from core.prims.gather import (
    GatherDimensionNumbers,
    GatherScatterMode,
    GatherScatterUnsupportedError,
    ScatterDimensionNumbers,
    bind_gather,
    bind_scatter,
)
from core.prims.gather_dims import _dims, _kept
from core.trace import get_aval

__all__ = [
    "GatherDimensionNumbers",
    "GatherScatterMode",
    "GatherScatterUnsupportedError",
    "ScatterDimensionNumbers",
    "gather",
    "scatter",
    "scatter_add",
    "scatter_apply",
    "scatter_max",
    "scatter_min",
    "scatter_mul",
    "scatter_sub",
]

gather = bind_gather


def _scatter_fn(kind: str, name: str, doc: str) -> Callable:
    def fn(
        operand: Any,
        scatter_indices: Any,
        updates: Any,
        dimension_numbers: ScatterDimensionNumbers,
        *,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        mode: str | GatherScatterMode | None = None,
    ) -> Any:
        if kind == "sub":
            updates = ew.neg(updates)
        return bind_scatter(
            "add" if kind == "sub" else kind,
            operand,
            scatter_indices,
            updates,
            dimension_numbers,
            indices_are_sorted=indices_are_sorted,
            unique_indices=unique_indices,
            mode=mode,
        )

    fn.__name__ = name
    kind_arg = "      kind: how updates combine with the operand and each other.\n"
    fn.__doc__ = f"`lax.{name}`: {doc}\n" + bind_scatter.__doc__.split("\n", 1)[1].replace(
        kind_arg, ""
    )
    return fn


scatter = _scatter_fn("set", "scatter", "writes `updates` at the windows (repeats: one wins).")
scatter_add = _scatter_fn("add", "scatter_add", "adds `updates` into the windows.")
scatter_sub = _scatter_fn("sub", "scatter_sub", "subtracts `updates` from the windows.")
scatter_mul = _scatter_fn("mul", "scatter_mul", "multiplies the windows by `updates`.")
scatter_min = _scatter_fn("min", "scatter_min", "the minimum of the windows and `updates`.")
scatter_max = _scatter_fn("max", "scatter_max", "the maximum of the windows and `updates`.")


def scatter_apply(
    operand: Any,
    scatter_indices: Any,
    func: Callable[[Any], Any],
    dimension_numbers: ScatterDimensionNumbers,
    *,
    update_shape: Sequence[int] = (),
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | GatherScatterMode | None = None,
) -> Any:
    """`lax.scatter_apply`: `func` applied to the operand at the scattered windows.

    Gathers the windows, applies `func` and scatters the results back. A location named by
    several windows gets `func` applied once (XLA applies it once per window).

    Args:
      operand: the array to update.
      scatter_indices: integer array whose last dimension is the index vector.
      func: an elementwise function of one array.
      dimension_numbers: a `ScatterDimensionNumbers`.
      update_shape: the shape the updates would have (batch and window dimensions).
      indices_are_sorted: a hint, ignored.
      unique_indices: a hint, ignored.
      mode: as for `scatter`.

    Returns:
      The updated copy of `operand`.
    """
    del indices_are_sorted, unique_indices
    dn = ScatterDimensionNumbers(*_dims(dimension_numbers))
    shape, update_shape = get_aval(operand).shape, tuple(int(n) for n in update_shape)
    window = [1] * len(shape)
    for d, p in zip(_kept(len(shape), dn.inserted_window_dims, dn.operand_batching_dims),
                    dn.update_window_dims):  # fmt: skip
        window[d] = update_shape[p]
    gdn = GatherDimensionNumbers(
        dn.update_window_dims,
        dn.inserted_window_dims,
        dn.scatter_dims_to_operand_dims,
        dn.operand_batching_dims,
        dn.scatter_indices_batching_dims,
    )
    mode = GatherScatterMode.from_any(mode)
    values = gather(operand, scatter_indices, gdn, window, mode=mode, fill_value=0)
    return scatter(operand, scatter_indices, func(values), dn, mode=mode)
