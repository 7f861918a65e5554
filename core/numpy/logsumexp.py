"""`logsumexp`: `log(sum(b * exp(a)))` over axes without overflow.

The largest entry (over `where`) is taken out before exponentiating and added back after the
log; it is a constant for differentiation (`stop_gradient`), as in JAX, so the gradient is the
softmax. It lives here, below `core.nn`, because `jnp.logaddexp.reduce` is the same reduction
(`core.numpy.ufunc_builtins`); `core.nn.logsumexp` and `core.scipy.special.logsumexp` re-export it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import dtypes
from core.numpy._util import promote_args_inexact, reduction_axes
from core.numpy.creation import full_like
from core.numpy.reductions import check_where
from core.numpy.reductions import max as _max
from core.numpy.reductions import sum as _sum
from core.numpy.ufuncs import abs as _abs
from core.numpy.ufuncs import isfinite, real
from core.numpy.where import where as _where
from core.prims import elementwise as ew
from core.prims import shapes as sh
from core.trace import get_aval


def logsumexp(
    a: Any,
    axis: Any = None,
    b: Any = None,
    keepdims: bool = False,
    return_sign: bool = False,
    where: Any = None,
) -> Any:
    """`log(sum(b * exp(a)))` over `axis`, stably (`return_sign=True` also gives the sign).

    Args:
      a: the input array.
      axis: the axis or axes to reduce (all of them when None).
      b: optional scale factors, broadcasting with `a`.
      keepdims: keep the reduced axes with size 1.
      return_sign: also return the sign of the sum (for negative `b`).
      where: a mask of the entries to include.

    Returns:
      The reduced array, or `(result, sign)` with `return_sign`.
    """
    check_where("logsumexp", where)
    if where is not None:
        a = _where(where, a, 0)
    if b is not None:
        a, b = promote_args_inexact("logsumexp", a, b, lax_shapes=True)
        a = _where(b != 0, a, -np.inf)
    else:
        (a,) = promote_args_inexact("logsumexp", a)
    dtype = get_aval(a).dtype
    dims = reduction_axes(axis, get_aval(a).ndim)
    amax = _max(real(a), dims, keepdims=keepdims, where=where, initial=-np.inf)
    amax = ew.stop_gradient_prim(ew.select(isfinite(amax), amax, ew.full_like(amax, 0)))
    amax_with_dims = amax if keepdims else sh.expand_dims(amax, dims)
    exp_a = ew.exp(ew.sub(a, _as(amax_with_dims, dtype)))
    if b is not None:
        exp_a = ew.mul(exp_a, b)
    sumexp = _sum(exp_a, dims, keepdims=keepdims, where=where)
    sumsign = ew.sign(sumexp)
    if return_sign or dtypes.kind(dtype) != "c":
        sumexp = _abs(sumexp)
    out = ew.add(ew.log(sumexp), _as(amax, get_aval(sumexp).dtype))
    if return_sign:
        return out, sumsign
    if b is not None and dtypes.kind(get_aval(out).dtype) != "c":
        out = _where(sumsign < 0, full_like(out, np.nan), out)
    return out


def _as(x: Any, dtype: np.dtype) -> Any:
    """`x.astype(dtype)`: unchanged in its own dtype."""
    return x if get_aval(x).dtype == dtype else sh.convert_element_type(x, dtype)
