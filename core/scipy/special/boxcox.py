"""The Box-Cox transformations `boxcox` and `boxcox1p` (`log` / `log1p` at `lmbda == 0`)."""

from __future__ import annotations

from typing import Any

import core.numpy as jnp
from core.numpy._util import promote_args_inexact


def boxcox(x: Any, lmbda: Any) -> Any:
    """The Box-Cox transformation `(x^l - 1) / l` (`log(x)` at `l == 0`).

    Args:
      x: positive data.
      lmbda: the transformation parameter.

    Returns:
      The transformed data.
    """
    x, lmbda = promote_args_inexact("boxcox", x, lmbda)
    zero = lmbda == 0
    safe = jnp.where(zero, jnp.ones_like(lmbda), lmbda)
    log_x = jnp.log(x)
    return jnp.where(zero, log_x, jnp.expm1(safe * log_x) / safe)


def boxcox1p(x: Any, lmbda: Any) -> Any:
    """The Box-Cox transformation of `1 + x`.

    Args:
      x: data greater than -1.
      lmbda: the transformation parameter.

    Returns:
      `((1 + x)^l - 1) / l` (`log1p(x)` at `l == 0`).
    """
    x, lmbda = promote_args_inexact("boxcox1p", x, lmbda)
    zero = lmbda == 0
    safe = jnp.where(zero, jnp.ones_like(lmbda), lmbda)
    log1p_x = jnp.log1p(x)
    return jnp.where(zero, log1p_x, jnp.expm1(safe * log1p_x) / safe)
