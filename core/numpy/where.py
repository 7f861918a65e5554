"""`where` and `clip`: selection with broadcasting."""

from __future__ import annotations

from typing import Any

from core import dtypes
from core.numpy._util import broadcast_shapes, broadcast_to, ensure_array, promote_dtypes
from core.prims import elementwise as ew
from core.prims import shapes as sh
from core.trace import get_aval


def where(condition: Any, x: Any = None, y: Any = None, /, *, size=None, fill_value=None) -> Any:
    """`x` where `condition` else `y`; one-argument form is `nonzero`."""
    if x is None and y is None:
        from core.numpy.indexing import nonzero

        return nonzero(condition, size=size, fill_value=fill_value)
    if x is None or y is None:
        raise ValueError("Either both or neither of the x and y arguments should be provided.")
    cond = sh.convert_element_type(ensure_array(condition), dtypes.bool_)
    x, y = promote_dtypes(x, y)
    shape = broadcast_shapes(get_aval(cond).shape, get_aval(x).shape, get_aval(y).shape)
    return ew.select_n(broadcast_to(cond, shape), broadcast_to(y, shape), broadcast_to(x, shape))


def clip(
    arr: Any = None,
    /,
    min: Any = None,
    max: Any = None,
    *,
    a: Any = None,  # noqa: A002
    a_min: Any = None,
    a_max: Any = None,
) -> Any:
    """Clips values to [min, max] (either bound may be None)."""
    from core.numpy.ufuncs import maximum, minimum

    x = ensure_array(arr if arr is not None else a)
    lo = min if min is not None else a_min
    hi = max if max is not None else a_max
    if lo is not None:
        x = maximum(lo, x)
    if hi is not None:
        x = minimum(hi, x)
    return x
