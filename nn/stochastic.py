"""``Dropout``: zero a random fraction of the inputs during training, scale the rest.

The key comes from the ``'dropout'`` stream (``apply(..., rngs={'dropout': key})``), folded
with the module's path and call count as in Flax, or from an explicit ``rng=``.
``deterministic`` may be set at construction (``Dropout(0.5, deterministic=not train)``) or at
call time (``layer(x, deterministic=not train)``); a call-time value wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import core.numpy as jnp
from core import lax, random
from nn.module import Module, compact, merge_param

Array = Any


class Dropout(Module):
    """Keeps each input with probability ``1 - rate``, scaled by ``1 / (1 - rate)``.

    Attributes:
      rate: the probability of dropping an element.
      broadcast_dims: axes that share one mask value (e.g. the time axis).
      deterministic: ``True`` makes the layer the identity (evaluation); may be given at call.
      rng_collection: the PRNG stream the mask key comes from.

    Example::

        >>> layer = nn.Dropout(rate=0.5, deterministic=False)
        >>> y = layer.apply({}, jnp.ones((2, 3)), rngs={"dropout": core.random.key(0)})
        >>> sorted(set(y.ravel().tolist())) in ([0.0, 2.0], [0.0], [2.0])
        True
    """

    rate: float
    broadcast_dims: Sequence[int] = ()
    deterministic: bool | None = None
    rng_collection: str = "dropout"

    @compact
    def __call__(self, inputs: Array, deterministic: bool | None = None, rng: Any = None) -> Array:
        """Applies dropout to ``inputs``.

        Args:
          inputs: the array.
          deterministic: the field's value given at call time instead (exactly one of the two:
            `merge_param`); ``True`` returns ``inputs`` unchanged.
          rng: an explicit key instead of one from ``rng_collection``.

        Returns:
          The masked and rescaled array.
        """
        deterministic = merge_param("deterministic", self.deterministic, deterministic)
        if self.rate == 0.0 or deterministic:
            return inputs
        if self.rate == 1.0:
            return jnp.zeros_like(inputs)
        key = rng if rng is not None else self.make_rng(self.rng_collection)
        survival = 1.0 - self.rate
        kept = _kept_positions(key, survival, inputs.shape, self.broadcast_dims)
        # The survivors are scaled up so that the expected value is unchanged.
        return lax.select(kept, inputs / survival, jnp.zeros_like(inputs))


def _kept_positions(
    key: Any, survival: float, shape: tuple[int, ...], broadcast_dims: Sequence[int]
) -> Array:
    """A bool mask of ``shape``, True with probability ``survival``: one draw per position,
    shared along the ``broadcast_dims`` axes (negative ones too)."""
    draw_shape = list(shape)
    for axis in broadcast_dims:
        draw_shape[axis] = 1
    draws = random.bernoulli(key, p=survival, shape=tuple(draw_shape))
    return jnp.broadcast_to(draws, shape)
