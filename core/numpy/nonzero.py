"""`nonzero` and `flatnonzero`: the indices of the non-zero elements.

A concrete array is read with numpy; a traced one needs a static `size=`: each index array is
compacted with a running count and a scatter, padded with `fill_value`. The one-argument
`jnp.where(condition)` is `nonzero` (`core/numpy/where.py`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import dtypes
from core.array import Array
from core.errors import ConcretizationTypeError
from core.numpy._util import check_arraylike, check_no_keys, ensure_array
from core.prims import elementwise as ew
from core.prims import gather as gp
from core.prims import shapes as sh
from core.prims.sorting import cumsum
from core.trace import Tracer, get_aval


def compact(mask_flat: Any, values: Any, size: int, fill: Any) -> Any:
    """The entries of `values` where `mask_flat`, in order, padded/truncated to `size`."""
    m = sh.convert_element_type(mask_flat, dtypes.default_int())
    pos = ew.sub(cumsum(m, 0), ew.full_like(m, 1))
    pos = ew.select_n(sh.convert_element_type(m, dtypes.bool_), ew.full_like(pos, size), pos)
    vdt = get_aval(values).dtype
    init = sh.full((size,), fill, vdt)
    n = get_aval(values).shape[0]
    return gp.scatter(init, sh.reshape(pos, (n, 1)), values, (0,), "set", "drop")


def nonzero(a: Any, *, size: int | None = None, fill_value: Any = None) -> tuple[Any, ...]:
    """Indices of the non-zero elements, one array per dimension.

    A traced `a` needs a static `size=` (results are padded with `fill_value`, default 0)."""
    check_arraylike("nonzero", a)
    check_no_keys("not_equal", a, 0)  # JAX's: `a != 0` refuses keys
    a = ensure_array(a)
    aval = get_aval(a)
    if aval.ndim == 0:
        raise ValueError(
            "Calling nonzero on 0d arrays is not allowed. Use jnp.atleast_1d(scalar).nonzero() "
            "instead."
        )
    if size is None:
        if isinstance(a, Tracer) and a.to_concrete_value() is not None:  # known (grad, jvp)
            a = Array(np.asarray(a.to_concrete_value()), aval.weak_type)
        if isinstance(a, Tracer):
            raise ConcretizationTypeError(  # JAX's class (not the boolean-index one)
                f"traced array with shape {dtypes.default_int().name}[]",  # the count, as JAX
                "The size argument of jnp.nonzero must be statically specified to use "
                "jnp.nonzero within JAX transformations.",
            )
        return tuple(Array(i.astype(dtypes.default_int())) for i in np.nonzero(np.asarray(a)))
    size = int(size)
    flat = sh.reshape(
        ew.ne(a, ew.full_like(a, 0)) if aval.dtype != dtypes.bool_ else a, (aval.size,)
    )
    lin = sh.iota(dtypes.default_int(), aval.size)
    fills = fill_value if isinstance(fill_value, (tuple, list)) else [fill_value] * aval.ndim
    out = []
    for d in range(aval.ndim):
        stride = int(np.prod(aval.shape[d + 1 :], dtype=np.int64))
        coord = ew.rem(ew.div(lin, ew.full_like(lin, stride)), ew.full_like(lin, aval.shape[d]))
        out.append(compact(flat, coord, size, 0 if fills[d] is None else fills[d]))
    return tuple(out)


def flatnonzero(a: Any, *, size: int | None = None, fill_value: Any = None) -> Any:
    """Indices of the non-zero elements of the flattened array."""
    check_arraylike("ravel", a)
    a = ensure_array(a)
    return nonzero(sh.reshape(a, (get_aval(a).size,)), size=size, fill_value=fill_value)[0]
