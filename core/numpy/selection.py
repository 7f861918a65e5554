"""Element selection: `choose`, `compress`, `extract`, `trim_zeros`.

Results whose length depends on the values (`compress`, `extract`, `trim_zeros`) need concrete
inputs, or for `compress`/`extract` a static `size=` (the selected entries come first, the rest
is `fill_value`), as in JAX. `choose` gathers from the stacked, broadcast choices.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core.errors import ConcretizationTypeError, TracerBoolConversionError, traced_shape
from core.numpy._util import canonicalize_axis, check_arraylike, ensure_array, reduction_axes
from core.numpy.creation import array, indices
from core.numpy.shapes import broadcast_arrays, expand_dims, moveaxis, ravel, stack
from core.numpy.sorting import argsort
from core.numpy.ufuncs import clip
from core.numpy.where import where
from core.prims import shapes as sh
from core.trace import Tracer, get_aval


def choose(a: Any, choices: Any, out: None = None, mode: str = "raise") -> Any:
    """`choices[a[i]][i]` for every index `i`, with `a` and the choices broadcast together.

    Args:
      a: an int array of choice numbers.
      choices: a sequence of arrays (or an array whose first axis enumerates the choices).
      out: unsupported (must be None).
      mode: "raise" checks that every entry is in `[0, len(choices))` (needs a concrete `a`);
        "wrap" takes entries modulo the number of choices; "clip" clamps them.

    Returns:
      The chosen values, of the broadcast shape.
    """
    check_arraylike("choose", a, *choices)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.choose is not supported.")
    arr = ensure_array(a)
    choices = [ensure_array(c) for c in choices]
    if get_aval(arr).dtype.kind not in "iu":
        raise ValueError(f"`a` array must be integer typed, got {get_aval(arr).dtype}")
    n = len(choices)
    if mode == "raise":
        if isinstance(arr, Tracer):
            raise ConcretizationTypeError(  # JAX's first line, then the fix
                traced_shape(get_aval(arr)),
                "The error occurred because jnp.choose was jit-compiled with mode='raise'. Use "
                "mode='wrap' or mode='clip' instead.",
            )
        vals = np.asarray(arr)
        if np.any((vals < 0) | (vals >= n)):
            raise ValueError(f"invalid entry in choice array: entries must lie in [0, {n})")
    elif mode == "wrap":
        arr = arr % n
    elif mode == "clip":
        arr = clip(arr, 0, n - 1)
    else:
        raise ValueError(f"mode={mode!r} not understood. Must be 'raise', 'wrap', or 'clip'")
    arr, *choices = broadcast_arrays(arr, *choices)
    stacked = stack(choices)  # like JAX's `array(choices)`, which is never weakly typed
    stacked = sh.convert_element_type(stacked, get_aval(stacked).dtype, False)
    return stacked[(arr, *indices(get_aval(arr).shape, sparse=True))]


def compress(
    condition: Any,
    a: Any,
    axis: int | None = None,
    *,
    size: int | None = None,
    fill_value: Any = 0,
    out: None = None,
) -> Any:
    """The slices of `a` along `axis` where the 1-D `condition` is true.

    Args:
      condition: a 1-D boolean (or truthy) array; entries past the axis length must be false.
      a: the input array.
      axis: the axis to select along; None selects from the flattened array.
      size: a static output length (needed for a traced `condition`): selected slices first,
        then slices of `fill_value`.
      fill_value: the padding value when `size` is given.
      out: unsupported (must be None).

    Returns:
      The selected slices.
    """
    check_arraylike("compress", condition, a)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.compress is not supported.")
    cond = ensure_array(condition).astype(bool)
    if get_aval(cond).ndim != 1:
        raise ValueError(f"condition must be a 1D array, got shape {get_aval(cond).shape}")
    arr = ensure_array(a)
    if axis is None:
        axis, arr = 0, ravel(arr)
    else:
        axis = canonicalize_axis(axis, get_aval(arr).ndim)
        arr = moveaxis(arr, axis, 0)
    n = get_aval(arr).shape[0]
    cond, extra = cond[:n], cond[n:]
    arr = arr[: get_aval(cond).shape[0]]
    if size is None:
        if isinstance(cond, Tracer):
            # JAX's class and first line (its count of the condition), then the fix
            raise TracerBoolConversionError("bool[]") from ConcretizationTypeError(
                "the condition of jnp.compress", "Pass a static size= to get a fixed length."
            )
        if np.any(np.asarray(extra)):
            raise ValueError("condition contains entries that are out of bounds")
        result = arr[np.asarray(cond)]
    elif not 0 <= size <= get_aval(arr).shape[0]:
        raise ValueError(
            "size must be positive and not greater than the size of the array axis; got "
            f"size={size} for a.shape[axis]={get_aval(arr).shape[0]}"
        )
    else:
        nd = get_aval(arr).ndim
        mask = expand_dims(cond, tuple(range(1, nd))) if nd > 1 else cond
        arr = where(mask, arr, array(fill_value, dtype=get_aval(arr).dtype))
        result = arr[argsort(cond, stable=True, descending=True)][:size]
    return moveaxis(result, 0, axis)


def extract(condition: Any, arr: Any, *, size: int | None = None, fill_value: Any = 0) -> Any:
    """The elements of `arr` where `condition` is true, flattened (`compress` on both ravels).

    Args:
      condition: an array of `arr`'s size, read as booleans.
      arr: the input array.
      size: a static output length (needed under `jit`), padded with `fill_value`.
      fill_value: the padding value when `size` is given.

    Returns:
      A 1-D array.
    """
    check_arraylike("extreact", condition, arr)
    return compress(ravel(condition), ravel(arr), size=size, fill_value=fill_value)


def trim_zeros(filt: Any, trim: str = "fb", axis: int | tuple[int, ...] | None = None) -> Any:
    """`filt` without its leading (`"f"`) and/or trailing (`"b"`) zeros.

    Args:
      filt: a concrete array (the output shape depends on its values).
      trim: a string containing "f" (front), "b" (back) or both.
      axis: the axes to trim; None trims all of them (a slice is trimmed only where it is all
        zeros).

    Returns:
      The trimmed array.
    """
    check_arraylike("trim_zeros", filt)
    filt = ensure_array(filt)
    if isinstance(filt, Tracer):
        raise ConcretizationTypeError(  # JAX's first line, then why
            traced_shape(get_aval(filt)),
            "The values of trim_zeros()'s `filt` argument decide the output shape.",
        )
    x = np.asarray(filt)
    axes = set(reduction_axes(axis, x.ndim))
    trim = trim.lower()
    if not axes or ("f" not in trim and "b" not in trim):
        return filt

    def bounds(ax: int) -> slice:
        if ax not in axes:
            return slice(None)
        mask = x.any(axis=tuple(i for i in range(x.ndim) if i != ax))
        if not mask.any():
            return slice(0, 0)
        start = int(mask.argmax()) if "f" in trim else None
        stop = x.shape[ax] - int(mask[::-1].argmax()) if "b" in trim else None
        return slice(start, stop)

    return filt[tuple(bounds(ax) for ax in range(x.ndim))]
