"""The batching rules of gather, scatter, dynamic_slice and dynamic_update_slice (JAX's).

A batched gather or scatter stays one gather or scatter: the vmapped axis becomes one more
window dimension (only the operand is batched), one more indices batch dimension (only the
indices are), or an operand batching dimension paired with an indices batching dimension
(both are). A dynamic slice batches as a gather, a dynamic update slice as a scatter, with the
start indices stacked into one index vector. Each rule binds the primitive it is given as
`prim` (`core/prims/gather.py` registers them with theirs), so this module sits below the
primitives it batches.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core.interpreters import batching
from core.prims import shapes as sh
from core.prims.gather_dims import (
    _CLIP,
    GatherDimensionNumbers,
    ScatterDimensionNumbers,
)
from core.prims.indexing import concatenate
from core.trace import get_aval


def gather_batch(args, dims, *, prim, dimension_numbers, slice_sizes, **params):
    """JAX's `_gather_batching_rule` (numpy's ints in the dimension numbers, as JAX's)."""
    (x, idx), (dx, di) = args, dims
    dn = dimension_numbers
    plus1 = lambda t: tuple(np.add(1, t))  # noqa: E731
    if di is None:  # the operand's batch axis is one more window dimension
        x = batching.moveaxis(x, dx, 0, get_aval(x).shape[dx])
        new = GatherDimensionNumbers(
            offset_dims=(0, *plus1(dn.offset_dims)),
            collapsed_slice_dims=plus1(dn.collapsed_slice_dims),
            start_index_map=plus1(dn.start_index_map),
            operand_batching_dims=plus1(dn.operand_batching_dims),
            start_indices_batching_dims=dn.start_indices_batching_dims,
        )
        sizes = (get_aval(x).shape[0], *slice_sizes)
        return prim.bind(x, idx, dimension_numbers=new, slice_sizes=sizes, **params), 0
    idx = batching.moveaxis(idx, di, 0, get_aval(idx).shape[di])
    if dx is None:
        new = dn._replace(
            offset_dims=tuple(1 + d for d in dn.offset_dims),
            start_indices_batching_dims=plus1(dn.start_indices_batching_dims),
        )
        params.update(unique_indices=False, indices_are_sorted=False)
        return prim.bind(x, idx, dimension_numbers=new, slice_sizes=slice_sizes, **params), 0
    x = batching.moveaxis(x, dx, 0, get_aval(idx).shape[0])
    new = GatherDimensionNumbers(
        offset_dims=plus1(dn.offset_dims),
        collapsed_slice_dims=plus1(dn.collapsed_slice_dims),
        start_index_map=plus1(dn.start_index_map),
        operand_batching_dims=(0, *plus1(dn.operand_batching_dims)),
        start_indices_batching_dims=(0, *plus1(dn.start_indices_batching_dims)),
    )
    sizes = (0 if get_aval(x).shape[0] == 0 else 1, *slice_sizes)
    return prim.bind(x, idx, dimension_numbers=new, slice_sizes=sizes, **params), 0


def scatter_batch(args, dims, *, prim, dimension_numbers, **params):
    """JAX's `_scatter_batching_rule`."""
    (x, idx, upd), (dx, di, du) = args, dims
    dn = dimension_numbers
    size = batching.batch_size(args, dims)
    x = batching.moveaxis(x, dx, 0, size)
    upd = batching.moveaxis(upd, du, 0, size)
    plus1 = lambda t: tuple(np.add(1, t))  # noqa: E731
    if di is None:
        new = ScatterDimensionNumbers(
            update_window_dims=(0, *plus1(dn.update_window_dims)),
            inserted_window_dims=plus1(dn.inserted_window_dims),
            scatter_dims_to_operand_dims=plus1(dn.scatter_dims_to_operand_dims),
            operand_batching_dims=plus1(dn.operand_batching_dims),
            scatter_indices_batching_dims=dn.scatter_indices_batching_dims,
        )
    else:
        idx = batching.moveaxis(idx, di, 0, size)
        new = ScatterDimensionNumbers(
            update_window_dims=plus1(dn.update_window_dims),
            inserted_window_dims=plus1(dn.inserted_window_dims),
            scatter_dims_to_operand_dims=plus1(dn.scatter_dims_to_operand_dims),
            operand_batching_dims=(0, *plus1(dn.operand_batching_dims)),
            scatter_indices_batching_dims=(0, *plus1(dn.scatter_indices_batching_dims)),
        )
    return prim.bind(x, idx, upd, dimension_numbers=new, **params), 0


def _batch_dynamic_slice_indices(starts: list[Any], dims: list[int | None]) -> tuple[Any, Any]:
    """JAX's: the start indices as one index vector, batched on axis 0 if any start is (in
    their common integer dtype: a loop counter and a Python int differ under x64). A scalar
    operand has no starts: an empty index vector."""
    if not starts:
        return sh.full((0,), 0, np.dtype(np.int32)), None
    dtype = np.result_type(*(get_aval(s).dtype for s in starts))
    starts = [
        s if get_aval(s).dtype == dtype else sh.convert_element_type(s, dtype) for s in starts
    ]
    size = next((get_aval(s).shape[d] for s, d in zip(starts, dims) if d is not None), None)
    if size is None:
        return concatenate([sh.broadcast_in_dim(s, (1,), ()) for s in starts], 0), None
    cols = [
        sh.broadcast_in_dim(s, (size, 1), (0,) if d is not None else ())
        for s, d in zip(starts, dims)
    ]
    return concatenate(cols, 1), 0


def dynamic_slice_batch(args, dims, *, prim, slice_sizes):
    """JAX's: a dynamic slice is a gather (batched by the gather's rule)."""
    (x, *starts), (dx, *dstarts) = args, dims
    ndims = get_aval(x).ndim - (0 if dx is None else 1)
    dn = GatherDimensionNumbers(tuple(range(ndims)), (), tuple(range(ndims)))
    index, di = _batch_dynamic_slice_indices(starts, dstarts)
    params = dict(unique_indices=True, indices_are_sorted=True, mode=_CLIP, fill_value=None)
    return gather_batch(
        [x, index], [dx, di], prim=prim, dimension_numbers=dn, slice_sizes=slice_sizes, **params
    )


def dynamic_update_slice_batch(args, dims, *, prim):
    """JAX's: a dynamic update slice is a scatter (batched by the scatter's rule)."""
    (x, upd, *starts), (dx, du, *dstarts) = args, dims
    ndims = get_aval(upd).ndim - (0 if du is None else 1)
    dn = ScatterDimensionNumbers(tuple(range(ndims)), (), tuple(range(ndims)))
    index, di = _batch_dynamic_slice_indices(starts, dstarts)
    params = dict(indices_are_sorted=True, unique_indices=True, mode=_CLIP)
    params.update(update_jaxpr=None, update_consts=())
    return scatter_batch([x, index, upd], [dx, di, du], prim=prim, dimension_numbers=dn, **params)
