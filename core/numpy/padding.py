"""`jnp.pad`: numpy's padding modes, computed as JAX computes them (the statistic modes round
integer statistics half to even; a callable mode fills a zero-padded array one 1-D slice at a
time with `apply_along_axis`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from core.errors import PadReflectTypeError
from core.jit.library import library_jit
from core.numpy import reductions as rd
from core.numpy._util import broadcast_to, check_arraylike, ensure_array
from core.numpy.creation import linspace
from core.numpy.functional import apply_along_axis
from core.numpy.shapes import flip, repeat
from core.numpy.ufuncs import round as round_
from core.prims import indexing as ix
from core.prims import shapes as sh
from core.trace import get_aval

_STATS = {"maximum": rd.max, "minimum": rd.min, "mean": rd.mean, "median": rd.median}

# Each mode and the keyword arguments it takes (JAX's table).
_KWARGS = {
    "constant": ("constant_values",),
    "empty": (),
    "edge": (),
    "wrap": (),
    "linear_ramp": ("end_values",),
    "reflect": ("reflect_type",),
    "symmetric": ("reflect_type",),
    **{mode: ("stat_length",) for mode in _STATS},
}


def _pairs(values: Any, nd: int, name: str) -> list[tuple[Any, Any]]:
    """`values` as one `(before, after)` pair per axis, from any of numpy's shapes: `(nd, 2)`,
    `(1, 2)`, `(2,)`, `(1,)` or a scalar."""
    arr = np.asarray(values)
    if arr.shape == (nd, 2):
        return [(arr[i, 0], arr[i, 1]) for i in range(nd)]
    if arr.shape in ((1, 2), (2,)):
        flat = arr.reshape(2)
        return [(flat[0], flat[1])] * nd
    if arr.shape in ((1,), ()):
        v = arr.reshape(())[()]
        return [(v, v)] * nd
    raise ValueError(
        f"jnp.pad: {name} with {nd=} has unsupported shape {arr.shape}. "
        f"Valid shapes are ({nd}, 2), (1, 2), (2,), (1,), or ()."
    )


def _widths(pad_width: Any, nd: int) -> list[tuple[int, int]]:
    """`pad_width` as one `(before, after)` pair per axis, checked in JAX's order: its shape,
    then integer entries (a 0-d array takes any), then no negative width."""
    pw = np.asarray(pad_width)
    pairs = tuple(_pairs(pw, nd, "pad_width"))  # numpy ints, as JAX's (hashable: static)
    if pairs and pw.dtype.kind not in "iu":
        raise TypeError(
            "`pad_width` must be of integral type.\n"
            f"Got pad_width={pad_width!r}; give the widths as integers."
        )
    if (pw < 0).any():
        raise ValueError(
            "index can't contain negative values\n"
            f"Got pad_width={pad_width!r}; widths count the values added, 0 or more."
        )
    return pairs


def pad(
    array: Any, pad_width: Any, mode: str | Callable[..., Any] = "constant", **kwargs: Any
) -> Any:
    """Pads an array (`jnp.pad`).

    Args:
        array: the array to pad.
        pad_width: the number of values added before and after each axis: an int, a
            `(before, after)` pair, or one pair per axis.
        mode: "constant" (`constant_values`, a scalar or per-axis pairs), "empty", "edge",
            "wrap", "reflect"/"symmetric" (`reflect_type` "even" or "odd"), "linear_ramp"
            (`end_values`), "maximum"/"minimum"/"mean"/"median" (`stat_length`: how many edge
            values the statistic takes), or a function `f(row, pad_width, axis, kwargs)`
            returning the padded 1-D row (given zero-padded), called on every row of each axis
            in turn.
        **kwargs: the mode's keyword arguments (a function mode gets them as `kwargs`).

    Returns:
        The padded array, of `array`'s dtype.
    """
    check_arraylike("pad", array)
    array = ensure_array(array)
    aval = get_aval(array)
    widths = _widths(pad_width, aval.ndim)
    if callable(mode):
        out = _constant(array, widths, 0)
        for axis in range(aval.ndim):
            out = apply_along_axis(mode, axis, out, widths[axis], axis, kwargs)
        return out
    if mode not in _KWARGS:
        raise NotImplementedError(f"Unimplemented padding mode '{mode}' for np.pad.")
    unsupported = set(kwargs) - set(_KWARGS[mode])
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")
    stat_length = kwargs.get("stat_length")
    if stat_length is not None:
        stat_length = tuple(
            (int(lo), int(hi)) for lo, hi in _pairs(stat_length, aval.ndim, "stat_length")
        )
    end_values = tuple(_pairs(kwargs.get("end_values", 0), aval.ndim, "end_values"))
    constant_values = kwargs.get("constant_values", 0)
    reflect_type = kwargs.get("reflect_type", "even")
    if mode in ("reflect", "symmetric") and reflect_type not in ("even", "odd") and aval.ndim:
        raise PadReflectTypeError(reflect_type)
    return _pad(array, widths, mode, constant_values, stat_length, end_values, reflect_type)


@library_jit(static_argnums=(1, 2, 4, 5, 6))
def _pad(
    array: Any,
    widths: tuple[tuple[int, int], ...],
    mode: str,
    constant_values: Any,
    stat_length: tuple[tuple[int, int], ...] | None,
    end_values: tuple[tuple[Any, Any], ...],
    reflect_type: str,
) -> Any:
    """JAX's jitted part of `pad` (the values, modes and widths checked)."""
    aval = get_aval(array)
    if aval.ndim == 0:
        return array
    if mode in ("constant", "empty"):
        return _constant(array, widths, constant_values if mode == "constant" else 0)
    if mode == "linear_ramp":
        return _linear_ramp(array, widths, end_values)
    if mode in _STATS:
        return _stats(array, widths, stat_length, _STATS[mode])
    if mode == "edge":
        return _edge(array, widths)
    if mode == "wrap":
        return _wrap(array, widths)
    return _reflect(array, widths, mode, reflect_type)


def _check_no_padding(lo: int, hi: int, mode: str) -> None:
    if lo or hi:
        raise ValueError(f"Cannot apply '{mode}' padding to empty axis")


def _edge(array: Any, widths: list[tuple[int, int]]) -> Any:
    """ "edge": each axis's first and last slices repeated (JAX's `_pad_edge`)."""
    for i, (lo, hi) in enumerate(widths):
        n = get_aval(array).shape[i]
        if n == 0:
            _check_no_padding(lo, hi, "edge")
            continue
        before = repeat(ix.slice_in_dim(array, 0, 1, axis=i), lo, axis=i)
        after = repeat(ix.slice_in_dim(array, n - 1, n, axis=i), hi, axis=i)
        array = ix.concatenate([before, array, after], i)
    return array


def _wrap(array: Any, widths: list[tuple[int, int]]) -> Any:
    """ "wrap": whole copies of each axis and the remainders' slices (JAX's `_pad_wrap`)."""
    for i, (lo, hi) in enumerate(widths):
        n = get_aval(array).shape[i]
        if n == 0:
            _check_no_padding(lo, hi, "wrap")
            continue
        (lo_copies, lo_rest), (hi_copies, hi_rest) = divmod(lo, n), divmod(hi, n)
        parts = [ix.slice_in_dim(array, n - lo_rest, n, axis=i)] if lo_rest else []
        parts += (lo_copies + hi_copies + 1) * [array]
        parts += [ix.slice_in_dim(array, 0, hi_rest, axis=i)] if hi_rest else []
        array = ix.concatenate(parts, i)
    return array


def _reflect(array: Any, widths: list[tuple[int, int]], mode: str, reflect_type: str) -> Any:
    """ "reflect"/"symmetric": each side is built from flipped blocks of at most the axis's
    length (JAX's `_pad_symmetric_or_reflect`); with `reflect_type="odd"` each block is
    `2 * edge - x` and the next block reflects off the new edge (in the array's dtype:
    integers wrap)."""
    for i, (lo, hi) in enumerate(widths):
        n = get_aval(array).shape[i]
        if n == 0:
            _check_no_padding(lo, hi, mode)
            continue
        if lo == hi == 0:
            continue
        offset = 1 if (mode == "reflect" and n > 1) else 0
        for before, padding in ((True, lo), (False, hi)):
            size = get_aval(array).shape[i]
            edge = ix.slice_in_dim(array, 0 if before else size - 1, 1 if before else size, axis=i)
            while padding > 0:
                cur = min(padding, n - offset)
                padding -= cur
                size = get_aval(array).shape[i]
                if before:
                    start, stop = offset, offset + cur
                else:
                    start = size - cur - offset
                    stop = size if (mode == "symmetric" or n == 1) else size - 1
                x = flip(ix.slice_in_dim(array, start, stop, axis=i), i)
                if reflect_type == "odd":
                    x = 2 * edge - x
                    if n > 1:
                        k = get_aval(x).shape[i]
                        edge = ix.slice_in_dim(
                            x, 0 if before else k - 1, 1 if before else k, axis=i
                        )
                parts = [x, array] if before else [array, x]
                array = ix.concatenate(parts, i)
    return array


def _constant(array: Any, widths: list[tuple[int, int]], constant_values: Any) -> Any:
    """ "constant": a scalar (or a 1-element vector) for every side, or values broadcasting to
    one `(before, after)` pair per axis (JAX's `_pad_constant`)."""
    aval = get_aval(array)  # the values in the array's dtype first, as JAX's `_pad_constant`
    cv = sh.convert_element_type(ensure_array(constant_values), aval.dtype, aval.weak_type)
    shape = get_aval(cv).shape
    if shape in ((), (1,)):
        value = sh.reshape(cv, ()) if shape else cv
        return ix.pad(array, value, [(lo, hi, 0) for lo, hi in widths])
    if len(shape) == 1 and shape[0] != 2:
        raise ValueError(
            f"jnp.pad: constant_values has unsupported shape {shape}. If the shape is 1D or "
            "2D, the last dimension must be of size 1 or 2.\n"
            "Give a scalar, a (before, after) pair, or one pair per axis."
        )
    cvs = broadcast_to(cv, (aval.ndim, 2))
    out = array
    for d, (lo, hi) in enumerate(widths):
        for side, w in ((0, lo), (1, hi)):
            cfg = [(0, 0, 0)] * aval.ndim
            cfg[d] = (w, 0, 0) if side == 0 else (0, w, 0)
            out = ix.pad(out, cvs[d, side], cfg)
    return out


def _stats(array: Any, widths: list[tuple[int, int]], stat_length: Any, stat: Callable) -> Any:
    """Each axis padded with the statistic of its first (before) and last (after) values."""
    aval = get_aval(array)
    integer = aval.dtype.kind in "iu"
    for i, (lo, hi) in enumerate(widths):
        n = get_aval(array).shape[i]
        if stat_length is None:
            before = after = stat(array, axis=i, keepdims=True)
        else:
            len_lo, len_hi = stat_length[i]
            if len_lo == 0 or len_hi == 0:
                raise ValueError("stat_length of 0 yields no value for padding")
            len_lo, len_hi = min(len_lo, n), min(len_hi, n)
            before = stat(ix.slice_in_dim(array, 0, len_lo, axis=i), axis=i, keepdims=True)
            after = stat(ix.slice_in_dim(array, n - len_hi, n, axis=i), axis=i, keepdims=True)
        if integer:
            before, after = round_(before), round_(after)
        before = sh.convert_element_type(before, aval.dtype, aval.weak_type)
        after = sh.convert_element_type(after, aval.dtype, aval.weak_type)
        parts = [repeat(before, lo, axis=i), array, repeat(after, hi, axis=i)]
        array = ix.concatenate(parts, i)
    return array


def _linear_ramp(array: Any, widths: list[tuple[int, int]], end_values: list) -> Any:
    """Each axis padded with ramps from `end_values` (exclusive of the edge value) to its edge
    values."""
    aval = get_aval(array)
    for i, (lo, hi) in enumerate(widths):
        n = get_aval(array).shape[i]
        ramps = []
        for side, (w, edge) in enumerate(((lo, 0), (hi, n - 1))):
            stop = sh.squeeze(ix.slice_in_dim(array, edge, edge + 1, axis=i), (i,))
            ramp = linspace(end_values[i][side], stop, w, endpoint=False, dtype=aval.dtype, axis=i)
            ramp = sh.convert_element_type(ramp, aval.dtype, aval.weak_type)
            ramps.append(flip(ramp, i) if side else ramp)
        array = ix.concatenate([ramps[0], array, ramps[1]], i)
    return array
