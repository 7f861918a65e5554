"""The logistic function and its relatives: `expit`, `logit` (JAX's custom derivative),
`softmax` and `log_softmax` (`core.nn`'s, with scipy's default: over all axes).
"""

from __future__ import annotations

from typing import Any

import core.numpy as jnp
from core import lax
from core.custom_derivatives import custom_jvp
from core.nn.activations import log_softmax as _nn_log_softmax
from core.nn.activations import softmax as _nn_softmax
from core.numpy._util import promote_args_inexact
from core.scipy.special._util import lax_const


def expit(x: Any) -> Any:
    """The logistic sigmoid `1 / (1 + exp(-x))`.

    Args:
      x: real input.

    Returns:
      `expit(x)`.
    """
    (x,) = promote_args_inexact("expit", x)
    return lax.logistic(x)


@custom_jvp
def _logit(x: Any) -> Any:
    return jnp.log(x / (lax_const(x, 1) - x))


@_logit.defjvp
def _logit_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _logit(x), t / (x * (lax_const(x, 1) - x))


def logit(x: Any) -> Any:
    """The logit function `log(x / (1 - x))`, the inverse of `expit`.

    Args:
      x: probabilities.

    Returns:
      `logit(x)` (`-inf` at 0, `inf` at 1, NaN outside `[0, 1]`).
    """
    (x,) = promote_args_inexact("logit", x)
    return _logit(x)


def softmax(x: Any, /, *, axis: int | tuple[int, ...] | None = None) -> Any:
    """The softmax `exp(x) / sum(exp(x))` over `axis`.

    Args:
      x: input array.
      axis: axis or axes to normalize over (all when None, like scipy).

    Returns:
      An array shaped like `x` summing to 1 over `axis`.
    """
    return _nn_softmax(x, axis=axis)


def log_softmax(x: Any, /, *, axis: int | tuple[int, ...] | None = None) -> Any:
    """The log of the softmax over `axis`.

    Args:
      x: input array.
      axis: axis or axes to normalize over (all when None, like scipy).

    Returns:
      `x - logsumexp(x, axis, keepdims=True)`.
    """
    return _nn_log_softmax(x, axis=axis)
