"""`where`: selection with broadcasting (the one-argument form is `nonzero`)."""

from __future__ import annotations

from typing import Any

from core import dtypes
from core.jit.library import library_jit
from core.numpy._util import (
    broadcast_shapes,
    broadcast_to,
    check_arraylike,
    ensure_array,
    promote_dtypes,
)
from core.numpy.nonzero import nonzero
from core.prims import elementwise as ew
from core.trace import get_aval


def where(condition: Any, x: Any = None, y: Any = None, /, *, size=None, fill_value=None) -> Any:
    """`x` where `condition` else `y`; one-argument form is `nonzero`."""
    if x is None and y is None:
        check_arraylike("where", condition)
        return nonzero(condition, size=size, fill_value=fill_value)
    if x is None or y is None:  # JAX's check_arraylike names the missing one
        raise TypeError(
            f"where requires ndarray or scalar arguments, got {type(None)} at position "
            f"{1 if x is None else 2}.\nEither both or neither of the x and y arguments should be "
            "provided."
        )
    check_arraylike("where", condition, x, y)
    return _where(condition, x, y)


@library_jit
def _where(condition: Any, x: Any, y: Any) -> Any:
    cond = ensure_array(condition)
    if get_aval(cond).dtype != dtypes.bool_:  # JAX's `cond != 0`; a (weak) bool stays as is
        cond = ew.ne(cond, ew.full_like(cond, 0, shape=()))
    x, y = promote_dtypes(x, y)
    if get_aval(cond).shape:
        # the three shapes at once, as JAX's (a mismatch of x and y names all three)
        shape = broadcast_shapes(get_aval(cond).shape, get_aval(x).shape, get_aval(y).shape)
        cond = broadcast_to(cond, shape)
    else:  # a rank-0 condition picks for all elements, as JAX's
        shape = broadcast_shapes(get_aval(x).shape, get_aval(y).shape)
    x, y = broadcast_to(x, shape), broadcast_to(y, shape)  # in JAX's order
    return ew.select_n(cond, y, x)
