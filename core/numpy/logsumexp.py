"""`logsumexp`: `log(sum(b * exp(a)))` over axes without overflow.

The largest entry (over `where`) is taken out before exponentiating and added back after the
log; it is a constant for differentiation (`stop_gradient`), as in JAX, so the gradient is the
softmax. It lives here, below `core.nn`, because `jnp.logaddexp.reduce` is the same reduction
(`core.numpy.ufunc_builtins`); `core.nn.logsumexp` and `core.scipy.special.logsumexp` re-export it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core.numpy._util import promote_args_inexact
from core.numpy.creation import full_like, zeros_like
from core.numpy.reductions import max as _max
from core.numpy.reductions import sum as _sum
from core.numpy.shapes import reshape, squeeze
from core.numpy.ufuncs import abs as _abs
from core.numpy.ufuncs import exp, isfinite, log, sign
from core.numpy.where import where as _where
from core.prims import elementwise as ew


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
    if b is not None:
        a, b = promote_args_inexact("logsumexp", a, b)
    else:
        (a,) = promote_args_inexact("logsumexp", a)
    amax = _max(a, axis, keepdims=True, where=where, initial=-np.inf)
    amax = ew.stop_gradient_prim(_where(isfinite(amax), amax, zeros_like(amax)))
    exp_a = exp(a - amax)
    if b is not None:
        exp_a = exp_a * b
    sumexp = _sum(exp_a, axis, keepdims=keepdims, where=where)
    sumsign = sign(sumexp)
    if b is not None:
        sumexp = _abs(sumexp)
    if not keepdims:
        amax = squeeze(amax, axis) if axis is not None else reshape(amax, ())
    out = log(sumexp) + amax
    if return_sign:
        return out, sumsign
    if b is not None:
        out = _where(sumsign < 0, full_like(out, np.nan), out)
    return out
