"""Activations: the functions of ``core.nn`` (like ``jax.nn``) and the ``PReLU`` layer."""

from __future__ import annotations

from typing import Any

import core.numpy as jnp
from core.nn import (
    celu,
    elu,
    gelu,
    glu,
    hard_sigmoid,
    hard_silu,
    hard_swish,
    hard_tanh,
    leaky_relu,
    log_sigmoid,
    log_softmax,
    logsumexp,
    one_hot,
    relu,
    relu6,
    selu,
    sigmoid,
    silu,
    soft_sign,
    softmax,
    softplus,
    standardize,
    swish,
)
from core.numpy import tanh
from nn.module import Module, compact

normalize = standardize  # Flax linen's older name of `standardize`


class PReLU(Module):
    """Leaky ReLU with a learned negative slope (parameter ``negative_slope``, a scalar).

    Attributes:
      param_dtype: the parameter dtype.
      negative_slope_init: the initial slope.

    Example::

        >>> layer = nn.PReLU()
        >>> v = layer.init(core.random.key(0), jnp.ones((2, 3)))
        >>> core.tree_util.tree_map(jnp.shape, v)
        {'params': {'negative_slope': ()}}
    """

    param_dtype: Any = jnp.float32
    negative_slope_init: float = 0.01

    @compact
    def __call__(self, inputs: Any) -> Any:
        """``x`` where ``x >= 0``, ``negative_slope * x`` elsewhere (the slope is learned).

        Args:
          inputs: the input array.

        Returns:
          An array like ``inputs``.
        """
        slope = self.param(
            "negative_slope", lambda _: jnp.asarray(self.negative_slope_init, self.param_dtype)
        )
        return jnp.where(inputs >= 0, inputs, jnp.asarray(slope, inputs.dtype) * inputs)


__all__ = [
    "PReLU",
    "celu",
    "elu",
    "gelu",
    "glu",
    "hard_sigmoid",
    "hard_silu",
    "hard_swish",
    "hard_tanh",
    "leaky_relu",
    "log_sigmoid",
    "log_softmax",
    "logsumexp",
    "normalize",
    "one_hot",
    "relu",
    "relu6",
    "selu",
    "sigmoid",
    "silu",
    "soft_sign",
    "softmax",
    "softplus",
    "standardize",
    "swish",
    "tanh",
]
