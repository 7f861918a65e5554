"""Shape manipulation: reshape, transpose, expand_dims, squeeze, concatenate, stack, ..."""

from __future__ import annotations

from typing import Any

import numpy as np

from core.numpy._util import broadcast_to, canonicalize_axis, ensure_array, promote_dtypes
from core.prims import indexing as ix
from core.prims import shapes as sh
from core.trace import get_aval


def _resolve_shape(shape: Any, size: int, old: tuple[int, ...]) -> tuple[int, ...]:
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(int(d) for d in shape)
    if shape.count(-1) > 1:
        raise ValueError("can only specify one unknown dimension (-1) in a reshape")
    if -1 in shape:
        known = int(np.prod([d for d in shape if d != -1], dtype=np.int64))
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape array of shape {old} (size {size}) into shape {shape}")
        shape = tuple(size // known if d == -1 else d for d in shape)
    if int(np.prod(shape, dtype=np.int64)) != size:
        raise ValueError(f"cannot reshape array of shape {old} (size {size}) into shape {shape}")
    return shape


def reshape(a: Any, shape: Any = None, order: str = "C", *, newshape: Any = None) -> Any:
    """Gives `a` a new shape (one dimension may be -1); only C order is supported."""
    if order != "C":
        raise NotImplementedError("jnp.reshape supports only order='C'")
    a = ensure_array(a)
    aval = get_aval(a)
    shape = newshape if shape is None else shape
    return sh.reshape(a, _resolve_shape(shape, aval.size, aval.shape))


def ravel(a: Any, order: str = "C") -> Any:
    a = ensure_array(a)
    return sh.reshape(a, (get_aval(a).size,))


def transpose(a: Any, axes: Any = None) -> Any:
    """Permutes axes (reverses them by default)."""
    a = ensure_array(a)
    nd = get_aval(a).ndim
    perm = tuple(range(nd))[::-1] if axes is None else tuple(canonicalize_axis(x, nd) for x in axes)
    return sh.transpose(a, perm)


permute_dims = transpose


def matrix_transpose(x: Any, /) -> Any:
    x = ensure_array(x)
    nd = get_aval(x).ndim
    if nd < 2:
        raise ValueError(f"matrix_transpose requires at least 2 dimensions, got {nd}")
    return sh.transpose(x, (*range(nd - 2), nd - 1, nd - 2))


def swapaxes(a: Any, axis1: int, axis2: int) -> Any:
    a = ensure_array(a)
    nd = get_aval(a).ndim
    perm = list(range(nd))
    i, j = canonicalize_axis(axis1, nd), canonicalize_axis(axis2, nd)
    perm[i], perm[j] = perm[j], perm[i]
    return sh.transpose(a, tuple(perm))


def moveaxis(a: Any, source: Any, destination: Any) -> Any:
    a = ensure_array(a)
    nd = get_aval(a).ndim
    src = [canonicalize_axis(s, nd) for s in np.atleast_1d(source)]
    dst = [canonicalize_axis(d, nd) for d in np.atleast_1d(destination)]
    order = [i for i in range(nd) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return sh.transpose(a, tuple(order))


def expand_dims(a: Any, axis: Any) -> Any:
    a = ensure_array(a)
    aval = get_aval(a)
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    nd = aval.ndim + len(axes)
    axes = sorted(canonicalize_axis(x, nd) for x in axes)
    shape = list(aval.shape)
    for ax in axes:
        shape.insert(ax, 1)
    return sh.reshape(a, tuple(shape))


def squeeze(a: Any, axis: Any = None) -> Any:
    a = ensure_array(a)
    aval = get_aval(a)
    if axis is None:
        axes = [i for i, d in enumerate(aval.shape) if d == 1]
    else:
        axes = [canonicalize_axis(x, aval.ndim) for x in np.atleast_1d(axis)]
        for ax in axes:
            if aval.shape[ax] != 1:
                raise ValueError(
                    f"cannot select an axis to squeeze out which has size not equal to one, got "
                    f"shape={aval.shape} and dimensions={tuple(axes)}"
                )
    return sh.reshape(a, tuple(d for i, d in enumerate(aval.shape) if i not in axes))


def concatenate(arrays: Any, axis: int | None = 0, dtype: Any = None) -> Any:
    """Joins arrays along an existing axis (`axis=None` flattens them first)."""
    arrays = [ensure_array(a) for a in arrays]
    if not arrays:
        raise ValueError("Need at least one array to concatenate.")
    if axis is None:
        arrays = [ravel(a) for a in arrays]
        axis = 0
    if any(get_aval(a).ndim == 0 for a in arrays):
        raise ValueError("Zero-dimensional arrays cannot be concatenated.")
    arrays = promote_dtypes(*arrays) if dtype is None else [
        sh.convert_element_type(a, dtype) for a in arrays]
    nd = get_aval(arrays[0]).ndim
    return ix.concatenate(arrays, canonicalize_axis(axis, nd))


concat = concatenate


def stack(arrays: Any, axis: int = 0, out: Any = None, dtype: Any = None) -> Any:
    """Joins arrays along a new axis."""
    arrays = [ensure_array(a) for a in arrays]
    if not arrays:
        raise ValueError("Need at least one array to stack.")
    shapes = {get_aval(a).shape for a in arrays}
    if len(shapes) > 1:
        raise ValueError(f"All input arrays must have the same shape, got {sorted(shapes)}")
    nd = get_aval(arrays[0]).ndim + 1
    ax = canonicalize_axis(axis, nd)
    return concatenate([expand_dims(a, ax) for a in arrays], axis=ax, dtype=dtype)


def broadcast_arrays(*args: Any) -> list[Any]:
    from core.numpy._util import broadcast_shapes

    arrs = [ensure_array(a) for a in args]
    shape = broadcast_shapes(*(get_aval(a).shape for a in arrs))
    return [broadcast_to(a, shape) for a in arrs]


def atleast_1d(*arys: Any) -> Any:
    out = [a if get_aval(a).ndim >= 1 else reshape(a, (1,)) for a in map(ensure_array, arys)]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys: Any) -> Any:
    out = []
    for a in map(ensure_array, arys):
        nd = get_aval(a).ndim
        out.append(a if nd >= 2 else reshape(a, (1,) * (2 - nd) + get_aval(a).shape))
    return out[0] if len(out) == 1 else out


def shape(a: Any) -> tuple[int, ...]:
    return get_aval(ensure_array(a)).shape


def ndim(a: Any) -> int:
    return get_aval(ensure_array(a)).ndim


def size(a: Any, axis: int | None = None) -> int:
    aval = get_aval(ensure_array(a))
    return aval.size if axis is None else aval.shape[axis]
