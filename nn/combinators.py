"""``Sequential``: call layers in order (Flax's semantics for tuple and dict outputs)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from nn.module import Module, compact


class Sequential(Module):
    """Applies ``layers`` in order; a tuple output is splatted as ``*args`` into the next
    layer and a dict output as ``**kwargs``.

    Attributes:
      layers: modules or plain functions (e.g. ``nn.relu``).

    Example::

        >>> model = nn.Sequential([nn.Dense(4), nn.relu, nn.Dense(2)])
        >>> v = model.init(core.random.key(0), jnp.ones((1, 3)))
        >>> sorted(v["params"])
        ['layers_0', 'layers_2']
    """

    layers: Sequence[Callable[..., Any]]

    def __post_init__(self) -> None:
        if not isinstance(self.layers, Sequence):
            raise ValueError(f"'layers' must be a sequence, got '{type(self.layers).__name__}'.")

    @compact
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Calls the layers in order, each on the previous one's output.

        Args:
          *args: positional arguments of the first layer.
          **kwargs: keyword arguments of the first layer.

        Returns:
          The last layer's output.
        """
        if not self.layers:
            raise ValueError(f"Empty Sequential module {self.name}.")
        first, *rest = self.layers
        outputs = first(*args, **kwargs)
        for layer in rest:
            outputs = _feed(layer, outputs)
        return outputs


def _feed(layer: Callable[..., Any], outputs: Any) -> Any:
    """Calls `layer` on the previous layer's `outputs`: a tuple spreads into positional
    arguments, a dict into keyword arguments, anything else is the one argument."""
    if isinstance(outputs, tuple):
        return layer(*outputs)
    if isinstance(outputs, dict):
        return layer(**outputs)
    return layer(outputs)
