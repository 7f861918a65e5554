"""Small utilities Optax keeps in `optax._src.utils`: `scale_gradient`, `multi_normal` and
`canonicalize_key` (with `key_or_seed`, the `key=`/`seed=` arguments' checks).

`scale_gradient(x, s)` is the identity in the forward pass and multiplies the cotangent by `s`
in the backward pass (a `core.custom_vjp`); `s == 1` and `s == 0` are special-cased to the
identity and `stop_gradient`, as in Optax.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import core
import core.numpy as jnp
from core import lax, random, tree_util
from optim.errors import OptimizerArgumentError


def canonicalize_key(key_or_seed: Any) -> Any:
    """The typed PRNG key a transformation's `key=` argument names, as Optax reads it.

    Args:
      key_or_seed: a typed key (`core.random.key(...)`), kept as it is, or an integer seed
        (a Python, numpy or array integer scalar). A raw `uint32` key (`random.PRNGKey`) is
        neither, and `core.random.key` rejects it, as in Optax.

    Returns:
      The typed key.
    """
    if hasattr(key_or_seed, "dtype") and jnp.issubdtype(key_or_seed.dtype, core.dtypes.prng_key):
        return key_or_seed
    return random.key(key_or_seed)


def key_or_seed(key: Any, seed: Any) -> Any:
    """What a transformation's `key=` and deprecated `seed=` arguments name, with Optax's
    warnings: the seed (deprecated), else the key, else 0 (a key will be required).

    Args:
      key: the `key=` argument (a typed key or an integer seed), or None.
      seed: the deprecated `seed=` argument, or None.

    Returns:
      The key or seed to give `canonicalize_key`.

    Raises:
      OptimizerArgumentError: both are given (a `ValueError`, Optax's first line).
    """
    if seed is not None:
        warnings.warn(
            '"seed" is deprecated and will be removed in optax 0.2.7, use "key".',
            DeprecationWarning,
            stacklevel=3,
        )
        if key is not None:
            raise OptimizerArgumentError(
                "Only one of seed or key can be specified.\nPass key=core.random.key(seed)."
            )
        return seed
    if key is None:
        warnings.warn("Specifying a key will be required in optax 0.2.7.", stacklevel=3)
        return 0
    return key


@core.custom_vjp
def _scaled_backward(inputs: Any, scale: Any) -> Any:
    """The identity whose backward pass multiplies the cotangents by `scale`."""
    del scale
    return inputs


def _keep_scale(inputs: Any, scale: Any) -> tuple[Any, Any]:
    # The forward pass saves only the factor for the backward pass.
    return _scaled_backward(inputs, scale), scale


def _times_scale(scale: Any, cotangents: Any) -> tuple[Any, None]:
    # `scale` is a non-differentiable input: its cotangent is None.
    return tree_util.tree_map(lambda ct: ct * scale, cotangents), None


_scaled_backward.defvjp(_keep_scale, _times_scale)


def scale_gradient(inputs: Any, scale: Any) -> Any:
    """Returns `inputs` unchanged, but scales their gradient by `scale` in the backward pass.

    Args:
      inputs: a pytree of arrays.
      scale: the factor applied to the cotangents.

    Returns:
      A pytree equal to `inputs`.

    Partial: `core.jit` cannot compile `core.custom_vjp` yet (no numba lowering of
    `custom_vjp_call`), so inside a jitted function only `scale` 0 and 1 work; eagerly (and
    under `grad`/`vmap`) every scale works.
    """
    if scale == 1.0:
        return inputs
    # A zero factor needs no custom rule: the cotangents are cut.
    return lax.stop_gradient(inputs) if scale == 0.0 else _scaled_backward(inputs, scale)


class MultiNormalDiagFromLogScale:
    """A diagonal Gaussian parameterised by its mean and the log of its scale (used by
    perturbation-based gradient estimators)."""

    def __init__(self, loc: Any, log_scale: Any) -> None:
        self._log_scale = jnp.asarray(log_scale)
        self._scale = jnp.exp(log_scale)
        self._mean = jnp.asarray(loc)
        self._param_shape = jnp.broadcast_shapes(jnp.shape(self._mean), jnp.shape(self._scale))

    def sample(self, shape: Sequence[int], key: Any) -> Any:
        """Draws samples of shape `shape + param_shape` with `core.random.normal(key)`."""
        sample_shape = (*tuple(shape), *self._param_shape)
        return random.normal(key, shape=sample_shape) * self._scale + self._mean

    def log_prob(self, x: Any) -> Any:
        """Returns the log-density of `x`, summed over the parameter axes."""
        z = (x - self._mean) / self._scale
        log_prob = -0.5 * z * z - jnp.log(self._scale) - 0.5 * math.log(2 * math.pi)
        return jnp.sum(log_prob, axis=tuple(-(i + 1) for i in range(len(self._param_shape))))

    @property
    def log_scale(self) -> Any:
        return self._log_scale

    @property
    def params(self) -> list[Any]:
        return [self._mean, self._log_scale]


def multi_normal(loc: Any, log_scale: Any) -> MultiNormalDiagFromLogScale:
    """Returns `MultiNormalDiagFromLogScale(loc, log_scale)`.

    Args:
      loc: the mean.
      log_scale: the log of the standard deviation, per entry.

    Returns:
      A `MultiNormalDiagFromLogScale` with ``sample`` and ``log_prob``.
    """
    return MultiNormalDiagFromLogScale(loc=loc, log_scale=log_scale)
